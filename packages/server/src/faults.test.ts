import { statSync } from 'node:fs';
import { join } from 'node:path';
import { rulesets } from '@roundkeeper/rulesets';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { Hub } from './hub.js';
import { SqliteStorage } from './storage/sqlite.js';
import { tempDir } from './test-process.js';

// Issue 34, item 7: with its disk full, the server says so to whoever writes, and its health check
// says it cannot serve writes (it said "ok" while every write answered "Something went wrong").

describe('a full disk', () => {
  it('refuses writes with a sentence that says so, and health reports it', async () => {
    const storage = new SqliteStorage(join(tempDir(), 'roundkeeper.sqlite'));
    const { app } = await buildApp({ storage, registry: rulesets, rateLimit: 0, logLevel: 'silent' });
    const post = (url: string, body: unknown, token?: string) =>
      app.inject({
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        payload: JSON.stringify(body),
      });
    const created = await post('/api/encounters', {
      name: 'Full',
      ruleset: 'classic',
      combatants: [{ id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 } }],
    });
    expect(created.statusCode).toBe(201);
    const { encounter, tokens } = created.json() as { encounter: { id: string }; tokens: { gm: string } };
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    // The database may not grow by a page more: SQLite answers as it does when the disk is full.
    const db = (storage as unknown as { db: Database.Database }).db;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
    let refused: { statusCode: number; json(): unknown } | undefined;
    for (let i = 0; i < 500 && !refused; i++) {
      const r = await post(
        `/api/encounters/${encounter.id}/commands`,
        { command: { type: 'note', text: 'x'.repeat(2000) } },
        tokens.gm,
      );
      if (r.statusCode !== 200) refused = r;
    }
    expect(refused?.statusCode).toBe(507);
    expect(refused?.json()).toMatchObject({ error: { code: 'server/disk-full' } });
    const health = await app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ ok: false, database: 'full' });
    await app.close();
  });
});

describe('the WAL after a burst of imports', () => {
  it('is cut back once writes stop, instead of keeping its largest size while the server runs', async () => {
    const file = join(tempDir(), 'roundkeeper.sqlite');
    const storage = new SqliteStorage(file, { walKeepBytes: 2 ** 20 });
    const hub = new Hub(storage, rulesets);
    const combatants = Array.from({ length: 100 }, (_, i) => ({
      name: `Orc ${i}`,
      notes: 'n'.repeat(2000),
      stats: { initiative: 1 },
    }));
    for (let i = 0; i < 12; i++) await hub.create({ name: `Burst ${i}`, ruleset: 'classic', combatants });
    const grown = statSync(`${file}-wal`).size;
    expect(grown).toBeGreaterThan(2 ** 20);
    // A second after the last write the idle checkpoint runs; the truncation follows it.
    for (let i = 0; i < 40 && storage.walTruncations === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(storage.walTruncations).toBe(1);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(2 ** 20);
    await storage.close();
  });
});
