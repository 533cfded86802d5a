import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryApp } from './test-app.js';

// A scenario's setup (its combatants and actions) is what the encounter starts with: one the rules refuse
// was skipped without a word, and the encounter lacked it. Its commands are a story, whose steps the rules
// may refuse (a worked example of a refusal): those are still left out of the log.

let app: FastifyInstance;
beforeAll(async () => {
  ({ app } = await memoryApp());
});
afterAll(async () => {
  await app.close();
});

async function importScenario(scenario: object) {
  const r = await app.inject({
    method: 'POST',
    url: '/api/encounters',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      scenario: { schema: 1, name: 'Setup', ruleset: 'classic', seed: 1, ...scenario },
    }),
  });
  return { status: r.statusCode, body: r.json() as { error?: { code: string; message: string } } };
}

const ana = { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 2 } };

describe("a scenario's setup", () => {
  it('refuses a combatant the rules refuse, naming which and why', async () => {
    const r = await importScenario({ combatants: [ana, { ...ana, name: 'Ana again' }] });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      code: 'combatant/duplicate',
      message: `The scenario's combatant 2: A combatant with id "ana" is already in the encounter; pick another id.`,
    });
  });

  it('refuses an action the rules refuse, naming which and why', async () => {
    // Classic's catalog has a Dash already: a custom action cannot take its id.
    const actions = [
      { id: 'parley', name: 'Parley' },
      { id: 'dash', name: 'Dash' },
    ];
    const r = await importScenario({ combatants: [ana], actions });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('action/duplicate');
    expect(r.body.error?.message).toMatch(/^The scenario's action 2: "dash" is already the catalog's .+/);
  });

  it('still imports a story whose steps the rules refuse', async () => {
    const r = await importScenario({ combatants: [ana], commands: [{ type: 'next' }, { type: 'start' }] });
    expect(r.status).toBe(201);
  });
});
