import { rulesets } from '@roundkeeper/rulesets';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesOf, IMPORT_MAX, LIBRARY_MAX } from './library.js';
import { memoryApp } from './test-app.js';

let app: FastifyInstance;
beforeAll(async () => {
  ({ app } = await memoryApp());
});
afterAll(async () => {
  await app.close();
});

const KEY = 'k'.repeat(32);
const OTHER = 'o'.repeat(32);
const call = async (
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  key: string | null = KEY,
) => {
  const r = await app.inject({
    method,
    url,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: r.statusCode, body: r.body ? (JSON.parse(r.body) as Record<string, unknown>) : {} };
};
const messageOf = (b: Record<string, unknown>) => (b.error as { message: string }).message;

describe('the creature library over HTTP', () => {
  it('offers ready examples for every ruleset, each fitting its ruleset’s stats', async () => {
    for (const rs of Object.values(rulesets)) {
      expect(examplesOf(rs).length, rs.id).toBeGreaterThanOrEqual(3);
      for (const c of examplesOf(rs))
        expect(rs.statsSchema.safeParse(c.stats).success, `${rs.id} ${c.name}`).toBe(true);
      const r = await call('GET', `/api/library/${rs.id}`, undefined, null);
      expect(r.status).toBe(200);
      expect(r.body.creatures).toEqual([]);
      expect((r.body.examples as unknown[]).length).toBe(examplesOf(rs).length);
    }
  });

  it('keeps a library per key and per ruleset, replaces by name, deletes', async () => {
    const thug = { name: 'Thug', side: 'npc', hp: 12, stats: { dexterity: 1 } };
    expect((await call('PUT', '/api/library/six-second', { creature: thug })).status).toBe(200);
    expect((await call('PUT', '/api/library/six-second', { creature: { ...thug, hp: 14 } })).status).toBe(
      200,
    );
    const mine = await call('GET', '/api/library/six-second');
    expect(mine.body.creatures).toEqual([{ ...thug, hp: 14 }]);
    expect((await call('GET', '/api/library/six-second', undefined, OTHER)).body.creatures).toEqual([]);
    expect((await call('GET', '/api/library/classic')).body.creatures).toEqual([]);
    expect((await call('DELETE', '/api/library/six-second/Thug')).status).toBe(204);
    expect((await call('GET', '/api/library/six-second')).body.creatures).toEqual([]);
  });

  it('refuses a creature whose stats belong to another ruleset, naming the stat', async () => {
    const r = await call('PUT', '/api/library/opend6', {
      creature: { name: 'Thug', stats: { dexterity: 1 } },
    });
    expect(r.status).toBe(400);
    expect(messageOf(r.body)).toMatch(/has no stat "dexterity"/);
    const bad = await call('PUT', '/api/library/classic', {
      creature: { name: 'Orc', stats: { initiative: 'fast' } },
    });
    expect(bad.status).toBe(400);
    expect(messageOf(bad.body)).toMatch(/initiative/);
  });

  it('needs a key to change a library, and refuses an unknown ruleset', async () => {
    expect((await call('PUT', '/api/library/classic', { creature: { name: 'Orc' } }, null)).status).toBe(401);
    expect((await call('PUT', '/api/library/classic', { creature: { name: 'Orc' } }, 'short')).status).toBe(
      401,
    );
    expect((await call('GET', '/api/library/nope')).status).toBe(404);
    expect((await call('GET', '/api/library/constructor')).status).toBe(404);
  });

  it('imports a file of creatures all or nothing, within its limits', async () => {
    const ok = await call('POST', '/api/library/classic/import', {
      creatures: [
        { name: 'Goblin', hp: 7, stats: { initiative: 2 } },
        { name: 'Wolf', hp: 11 },
      ],
    });
    expect(ok.status).toBe(200);
    expect((await call('GET', '/api/library/classic')).body.creatures).toHaveLength(2);
    const bad = await call('POST', '/api/library/classic/import', {
      creatures: [{ name: 'Ogre' }, { name: 'Spy', stats: { dexterity: 2 } }],
    });
    expect(bad.status).toBe(400);
    expect(messageOf(bad.body)).toMatch(/^Creature 2: /);
    expect((await call('GET', '/api/library/classic')).body.creatures).toHaveLength(2);
    const many = Array.from({ length: IMPORT_MAX + 1 }, (_, i) => ({ name: `C${i}` }));
    expect((await call('POST', '/api/library/classic/import', { creatures: many })).status).toBe(400);
    // A library is bounded: past LIBRARY_MAX it refuses with the limit.
    const key = 'f'.repeat(40);
    for (let i = 0; i < LIBRARY_MAX; i += IMPORT_MAX) {
      const batch = Array.from({ length: Math.min(IMPORT_MAX, LIBRARY_MAX - i) }, (_, j) => ({
        name: `N${i + j}`,
      }));
      expect((await call('POST', '/api/library/classic/import', { creatures: batch }, key)).status).toBe(200);
    }
    const full = await call('PUT', '/api/library/classic', { creature: { name: 'One more' } }, key);
    expect(full.status).toBe(413);
    expect(messageOf(full.body)).toMatch(`at most ${LIBRARY_MAX}`);
  });
});

describe('the creature library and the storage budgets', () => {
  it('what libraries store counts against the address’s budget: fresh keys do not store without end', async () => {
    // --encounter-budget 1: an address may store 0.5 MB per 10 minutes.
    const { app: small } = await memoryApp({
      encounterBudget: 1,
    });
    try {
      const creatures = Array.from({ length: IMPORT_MAX }, (_, i) => ({
        name: `Spawn ${i}`,
        notes: 'n'.repeat(1000),
      }));
      const statuses: number[] = [];
      let refusal = '';
      for (let i = 0; i < 10 && !refusal; i++) {
        const r = await small.inject({
          method: 'POST',
          url: '/api/library/classic/import',
          headers: {
            authorization: `Bearer ${`key${i}`.padEnd(32, 'x')}`,
            'content-type': 'application/json',
          },
          payload: JSON.stringify({ creatures }),
        });
        statuses.push(r.statusCode);
        if (r.statusCode === 429)
          refusal = (JSON.parse(r.body) as { error: { message: string } }).error.message;
      }
      // Each import stores about 0.2 MB under a new key: the fourth is refused, with the limit.
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(refusal).toContain('1 MB in the last 10 minutes');
      const put = await small.inject({
        method: 'PUT',
        url: '/api/library/classic',
        headers: { authorization: `Bearer ${'z'.repeat(32)}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ creature: { name: 'One more' } }),
      });
      expect(put.statusCode).toBe(429);
    } finally {
      await small.close();
    }
  });
});
