import { describe, expect, it } from 'vitest';
import { postgresAvailable, testDatabase } from '../test-postgres.js';
import { storageContract } from './contract.js';
import { PostgresStorage } from './postgres.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';

const available = await postgresAvailable();

describe('postgres: a database that cannot be opened', () => {
  it('is refused with where it was looked for (never the password) and what to check', async () => {
    const error = await PostgresStorage.open('postgres://rk:s3cret@127.0.0.1:1/roundkeeper').catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('rk@127.0.0.1:1/roundkeeper');
    expect(message).toContain('--database-url');
    expect(message).not.toContain('s3cret');
  });
});

describe.skipIf(!available)('postgres', () => {
  let dropLast: (() => Promise<void>) | undefined;
  storageContract(
    'postgres',
    async () => {
      const db = await testDatabase();
      dropLast = db.drop;
      return PostgresStorage.open(db.url);
    },
    async () => dropLast?.(),
  );

  describe('postgres migrations', () => {
    it('are numbered 1, 2, 3… in order, with no gaps and no repeats', () => {
      expect(POSTGRES_MIGRATIONS.map((m) => m.id)).toEqual(POSTGRES_MIGRATIONS.map((_, i) => i + 1));
    });

    it('run once even when several instances start together, and keep data across reopening', async () => {
      const db = await testDatabase();
      try {
        const [a, b, c] = await Promise.all([1, 2, 3].map(() => PostgresStorage.open(db.url)));
        expect(await a!.migrations()).toEqual([1]);
        await a!.createEncounter(
          {
            id: 'x',
            name: 'X',
            ruleset: 'classic',
            status: 'active',
            createdAt: 't',
            updatedAt: 't',
            seq: 1,
            origin: { seed: 1 },
          },
          [{ seq: 1, group: 0, event: { type: 'note/added', text: 'hi' } }],
          [],
          [],
        );
        await Promise.all([a!.close(), b!.close(), c!.close()]);
        const again = await PostgresStorage.open(db.url);
        expect(await again.migrations()).toEqual([1]);
        expect((await again.getEncounter('x'))?.name).toBe('X');
        await again.close();
      } finally {
        await db.drop();
      }
    });
  });
});
