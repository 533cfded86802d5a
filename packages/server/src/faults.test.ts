import { join } from 'node:path';
import { rulesets } from '@roundkeeper/rulesets';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
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
