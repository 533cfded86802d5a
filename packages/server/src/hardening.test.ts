import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, LiveClient, type ServerProcess, startServerProcess } from './test-process.js';

// Attacks from issue 15, each against a real server process.
let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(undefined, ['--rate-limit', '0']);
});
afterAll(async () => {
  await server?.stop();
});

interface Created {
  encounter: { id: string };
  tokens: { gm: string; table: string; players: Record<string, string> };
}

const party = [
  { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 }, hp: 20 },
  { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 }, hp: 15 },
];

async function create(body: unknown = { name: 'Ford', ruleset: 'classic', seed: 3, combatants: party }) {
  const r = await api(server.url, 'POST', '/api/encounters', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Created;
}

const cmd = (c: Created, command: unknown, token = c.tokens.gm) =>
  api(server.url, 'POST', `/api/encounters/${c.encounter.id}/commands`, { command }, token);

describe('a removed hidden combatant', () => {
  it('is not named by the state the table and players get, over HTTP and WebSocket', async () => {
    const c = await create();
    const id = c.encounter.id;
    const live = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.table}`);
    await live.next((m) => m.type === 'hello');
    const spy = { id: 'spyzq', name: 'Spyzq', side: 'npc', hidden: true, stats: { initiative: 0 } };
    expect((await cmd(c, { type: 'add-combatant', combatant: spy })).status).toBe(200);
    const effect = {
      type: 'add-effect',
      target: 'ana',
      source: 'spyzq',
      name: 'Marked',
      duration: { kind: 'until-turn-end', combatant: 'spyzq' },
    };
    expect((await cmd(c, effect)).status).toBe(200);
    const removed = await cmd(c, { type: 'remove-combatant', combatant: 'spyzq' });
    expect(removed.status).toBe(200);
    await live.next((m) => m.type === 'change' && m.seq === (removed.body as { seq: number }).seq);
    for (const token of [c.tokens.table, c.tokens.players.ana!]) {
      const s = await api(server.url, 'GET', `/api/encounters/${id}`, undefined, token);
      expect(JSON.stringify(s.body)).not.toMatch(/spyzq/i);
    }
    expect(JSON.stringify(live.messages)).not.toMatch(/spyzq/i);
    live.close();
  });
});
