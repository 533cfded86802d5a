import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageContract } from './contract.js';
import { MemoryStorage } from './memory.js';
import { SqliteStorage } from './sqlite.js';

storageContract(
  'sqlite (file, WAL)',
  () => new SqliteStorage(join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite')),
);
storageContract('memory', () => new MemoryStorage());

describe('sqlite migrations', () => {
  it('runs the numbered migrations once, from the first, and keeps data across reopening', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite');
    const a = new SqliteStorage(file);
    expect(a.migrations()).toEqual([1]);
    await a.createEncounter(
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
    await a.close();
    const b = new SqliteStorage(file);
    expect(b.migrations()).toEqual([1]);
    expect((await b.getEncounter('x'))?.name).toBe('X');
    await b.close();
  });
});
