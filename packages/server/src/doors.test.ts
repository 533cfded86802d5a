import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCOUNTER_LIMITS } from './limits.js';
import { api, LiveClient, type ServerProcess, startServerProcess } from './test-process.js';

// Issue 34, items 2 and 4: one limit, however an encounter is built — the form, a command over HTTP or
// the socket, a library creature, a scenario's combatants and its steps — against a real server process.

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(undefined, ['--rate-limit', '0', '--encounter-budget', '0']);
});
afterAll(async () => {
  await server?.stop();
});

interface Created {
  encounter: { id: string };
  tokens: { gm: string };
}

const MAX = ENCOUNTER_LIMITS.combatants;
const fighters = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    id: `c${from + i}`,
    name: `C${from + i}`,
    stats: { initiative: 1 },
  }));

const post = (body: unknown) => api(server.url, 'POST', '/api/encounters', body);
const command = (c: Created, cmd: unknown) =>
  api(server.url, 'POST', `/api/encounters/${c.encounter.id}/commands`, { command: cmd }, c.tokens.gm);
const code = (body: unknown) => (body as { error?: { code?: string } }).error?.code;

async function full(): Promise<Created> {
  const r = await post({ name: 'Full', ruleset: 'classic', combatants: fighters(MAX) });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201);
  return r.body as Created;
}

describe(`the ${MAX + 1}st combatant is refused through every door`, () => {
  it('the form', async () => {
    const r = await post({ name: 'Over', ruleset: 'classic', combatants: fighters(MAX + 1) });
    expect(r.status).toBe(400);
  });

  it('a command over HTTP, on an encounter the form filled', async () => {
    const c = await full();
    const r = await command(c, { type: 'add-combatant', combatant: fighters(1, MAX)[0] });
    expect(r.status).toBe(422);
    expect(code(r.body)).toBe('encounter/too-many-combatants');
    // Removing one makes room again.
    expect((await command(c, { type: 'remove-combatant', combatant: 'c0' })).status).toBe(200);
    expect((await command(c, { type: 'add-combatant', combatant: fighters(1, MAX)[0] })).status).toBe(200);
    // And undoing the removal would take it past: refused too.
    const undo = await command(c, { type: 'undo' });
    expect(undo.status).toBe(200);
    const undo2 = await command(c, { type: 'undo' });
    expect([200, 422]).toContain(undo2.status);
    const state = (await api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, c.tokens.gm))
      .body as { state: { roster: string[] } };
    expect(state.state.roster.length).toBeLessThanOrEqual(MAX);
  });

  it('a command over the live socket', async () => {
    const c = await full();
    const live = new LiveClient(`${server.url}/api/encounters/${c.encounter.id}/live?token=${c.tokens.gm}`);
    await live.next((m) => m.type === 'hello');
    live.send({
      type: 'command',
      id: 'x',
      command: { type: 'add-combatant', combatant: fighters(1, MAX)[0] },
    });
    const result = await live.next((m) => m.type === 'result');
    expect(result).toMatchObject({ ok: false, error: { code: 'encounter/too-many-combatants' } });
    live.close();
  });

  it('a creature from the library (added by the same command)', async () => {
    const key = 'k'.repeat(30);
    const creature = { name: 'Ghoul', stats: { initiative: 2 } };
    const put = await api(server.url, 'PUT', '/api/library/classic', { creature }, key);
    expect(put.status).toBe(200);
    const lib = (await api(server.url, 'GET', '/api/library/classic', undefined, key)).body as {
      creatures: Array<{ name: string }>;
    };
    const c = await full();
    const r = await command(c, { type: 'add-combatant', combatant: lib.creatures[0] });
    expect(r.status).toBe(422);
    expect(code(r.body)).toBe('encounter/too-many-combatants');
  });

  it("a scenario's combatants", async () => {
    const r = await post({
      scenario: { schema: 1, name: 'S', ruleset: 'classic', seed: 1, combatants: fighters(MAX + 1) },
    });
    expect(r.status).toBe(400);
  });

  it("a scenario's steps: 2,000 add-combatant commands (the issue's probe), and one past a full roster", async () => {
    const steps = fighters(2_000).map((combatant) => ({ type: 'add-combatant', combatant }));
    const many = await post({
      scenario: { schema: 1, name: 'S', ruleset: 'classic', seed: 1, commands: steps },
    });
    expect(many.status).toBe(400);
    expect(code(many.body)).toBe('encounter/too-many-combatants');
    const one = await post({
      scenario: {
        schema: 1,
        name: 'S',
        ruleset: 'classic',
        seed: 1,
        combatants: fighters(MAX),
        commands: [{ type: 'add-combatant', combatant: fighters(1, MAX)[0] }],
      },
    });
    expect(one.status).toBe(400);
    expect(code(one.body)).toBe('encounter/too-many-combatants');
  });
});

describe("an encounter's name: one limit at every door", () => {
  const long = 'n'.repeat(ENCOUNTER_LIMITS.nameLength + 1);
  const fits = 'n'.repeat(ENCOUNTER_LIMITS.nameLength);

  it('the form, a rename and an import refuse the same name and take the same longest one', async () => {
    expect((await post({ name: long, ruleset: 'classic' })).status).toBe(400);
    expect((await post({ name: fits, ruleset: 'classic' })).status).toBe(201);
    const imported = await post({ scenario: { schema: 1, name: long, ruleset: 'classic', seed: 1 } });
    expect(imported.status).toBe(400);
    expect(code(imported.body)).toBe('scenario/invalid');
    expect(
      (await post({ scenario: { schema: 1, name: 'x'.repeat(100_000), ruleset: 'classic', seed: 1 } }))
        .status,
    ).toBe(400);
    expect((await post({ scenario: { schema: 1, name: fits, ruleset: 'classic', seed: 1 } })).status).toBe(
      201,
    );
    const c = (await post({ name: 'Short', ruleset: 'classic' })).body as Created;
    const patch = (name: string) =>
      api(server.url, 'PATCH', `/api/encounters/${c.encounter.id}`, { name }, c.tokens.gm);
    expect((await patch(long)).status).toBe(400);
    expect((await patch(fits)).status).toBe(200);
  });
});
