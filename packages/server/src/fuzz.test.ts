import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, LiveClient, type ServerProcess, startServerProcess } from './test-process.js';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(undefined, ['--rate-limit', '0']);
});
afterAll(async () => {
  await server?.stop();
});

const command = fc.oneof(
  fc.anything(),
  fc.record(
    {
      type: fc.constantFrom('start', 'next', 'act', 'damage', 'undo', 'redo', 'add-effect', 'delay', 'note'),
      actor: fc.oneof(fc.string(), fc.constantFrom('a', 'b')),
      amount: fc.anything(),
      action: fc.string(),
      text: fc.string(),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({
    type: fc.constant('damage'),
    combatant: fc.constantFrom('a', 'b', 'zz'),
    amount: fc.integer({ min: -5, max: 50 }),
  }),
  fc.record({
    type: fc.constant('act'),
    actor: fc.constantFrom('a', 'b'),
    action: fc.constantFrom('attack', 'dash', 'reaction', 'nope'),
  }),
);

describe('fuzz: random and malformed input gets only 2xx or 4xx, and the encounter stays intact', () => {
  it('the command endpoint', async () => {
    const created = (
      await api(server.url, 'POST', '/api/encounters', {
        name: 'Fuzz',
        ruleset: 'classic',
        seed: 1,
        combatants: [
          { id: 'a', name: 'A', side: 'pc', stats: { initiative: 2 }, hp: 20 },
          { id: 'b', name: 'B', stats: { initiative: 1 }, hp: 20 },
        ],
      })
    ).body as { encounter: { id: string }; tokens: { gm: string; players: Record<string, string> } };
    const id = created.encounter.id;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.oneof(
              command.map((c) => ({ command: c })),
              fc.anything(),
            ),
            fc.constantFrom('gm', 'player', 'none', 'junk'),
          ),
          { maxLength: 8 },
        ),
        async (requests) => {
          for (const [body, who] of requests) {
            const token =
              who === 'gm'
                ? created.tokens.gm
                : who === 'player'
                  ? created.tokens.players.a
                  : who === 'junk'
                    ? 'zzzzzzzzzzzzzzzzzzzz'
                    : undefined;
            const r = await fetch(`${server.url}/api/encounters/${id}/commands`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                ...(token ? { authorization: `Bearer ${token}` } : {}),
              },
              body: JSON.stringify(body) ?? 'null',
            });
            expect(r.status).toBeGreaterThanOrEqual(200);
            expect(r.status).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 40 },
    );
    // Intact: the log has no holes, and folding it gives the live state (the server would refuse to load otherwise).
    const events = (
      await api(server.url, 'GET', `/api/encounters/${id}/events?after=0`, undefined, created.tokens.gm)
    ).body as {
      seq: number;
      entries: Array<{ seq: number }>;
    };
    expect(events.entries.map((e) => e.seq)).toEqual(events.entries.map((_, i) => i + 1));
    expect((await api(server.url, 'GET', `/api/encounters/${id}`, undefined, created.tokens.gm)).status).toBe(
      200,
    );
  });

  it('WebSocket messages', async () => {
    const created = (
      await api(server.url, 'POST', '/api/encounters', {
        name: 'Fuzz WS',
        ruleset: 'classic',
        combatants: [{ id: 'a', name: 'A', stats: { initiative: 2 } }],
      })
    ).body as { encounter: { id: string }; tokens: { gm: string } };
    const live = new LiveClient(
      `${server.url}/api/encounters/${created.encounter.id}/live?token=${created.tokens.gm}`,
    );
    await live.next((m) => m.type === 'hello');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          command.map((c) => JSON.stringify({ type: 'command', id: 'f', command: c })),
        ),
        async (text) => {
          live.send(text);
        },
      ),
      { numRuns: 60 },
    );
    // The socket's message budget (50 a second) refills each second.
    await new Promise((r) => setTimeout(r, 1100));
    live.send({ type: 'ping' });
    await live.next((m) => m.type === 'pong');
    expect(live.closed).toBeNull();
    const health = await api(server.url, 'GET', '/api/health');
    expect(health.status).toBe(200);
    live.close();
  });
});
