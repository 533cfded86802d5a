import { describe, expect, it } from 'vitest';
import { PostgresStorage } from './storage/postgres.js';
import { postgresAvailable, testDatabase } from './test-postgres.js';
import { api, startServerProcess, tempDir } from './test-process.js';

const available = await postgresAvailable();

describe.skipIf(!available)('roundkeeper-server --database-url', () => {
  it('keeps encounters in PostgreSQL instead of the data folder, and says the database is reachable', async () => {
    const db = await testDatabase();
    const server = await startServerProcess(tempDir(), ['--database-url', db.url]);
    try {
      expect((await api(server.url, 'GET', '/api/health')).body).toEqual({
        ok: true,
        version: '0.1.0',
        database: 'reachable',
      });
      const created = await api(server.url, 'POST', '/api/encounters', {
        name: 'Stored',
        ruleset: 'classic',
      });
      expect(created.status).toBe(201);
      const id = (created.body as { encounter: { id: string } }).encounter.id;
      const storage = await PostgresStorage.open(db.url);
      expect((await storage.getEncounter(id))?.name).toBe('Stored');
      await storage.close();
    } finally {
      await server.stop();
      await db.drop();
    }
  });

  it('refuses to start on a database it cannot open, saying where it looked and what to check', async () => {
    const error = await startServerProcess(tempDir(), [
      '--database-url',
      'postgres://rk:s3cret@127.0.0.1:1/roundkeeper',
    ]).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /exited with 1: .*rk@127\.0\.0\.1:1\/roundkeeper.*--database-url/s,
    );
    expect((error as Error).message).not.toContain('s3cret');
  });
});
