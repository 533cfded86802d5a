import { rulesets } from '@roundkeeper/rulesets';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryApp } from './test-app.js';
import { LiveClient } from './test-process.js';

// A stat the encounter's ruleset lacks (classic has `initiative`, not `initiativeBonus`) was accepted and
// dropped without a word. Every door refuses it now, in the same words, naming the stats there are.

let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  ({ app } = await memoryApp());
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
});

const classicStats = Object.keys((rulesets.classic!.statsSchema as unknown as { shape: object }).shape);
const refusal = (whose: string) =>
  `Classic has no stat "initiativeBonus" (given for ${whose}); its stats are ${classicStats.join(', ')}.`;

async function call(method: 'POST' | 'PUT', path: string, body: unknown, token?: string) {
  const r = await app.inject({
    method,
    url: path,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: r.json() as Record<string, unknown> };
}
const errorOf = (b: Record<string, unknown>) => b.error as { code: string; message: string };

const ana = { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 2 } };
const wrong = { name: 'Orc', stats: { initiative: 1, initiativeBonus: 2 } };

async function created(): Promise<{ id: string; gm: string }> {
  const r = await call('POST', '/api/encounters', { name: 'Stats', ruleset: 'classic', combatants: [ana] });
  expect(r.status).toBe(201);
  return {
    id: (r.body.encounter as { id: string }).id,
    gm: (r.body.tokens as { gm: string }).gm,
  };
}

describe('an unknown stat is refused at every door', () => {
  it('the form: 400, naming the stat and the ruleset’s stats', async () => {
    const r = await call('POST', '/api/encounters', {
      name: 'Stats',
      ruleset: 'classic',
      combatants: [ana, wrong],
    });
    expect(r.status).toBe(400);
    expect(errorOf(r.body)).toMatchObject({ code: 'combatant/unknown-stat', message: refusal('Orc') });
  });

  it('a scenario: in its combatants, and in an add-combatant or update-combatant among its commands', async () => {
    const scenario = { schema: 1, name: 'Stats', ruleset: 'classic', seed: 1, combatants: [ana] };
    const inCombatants = await call('POST', '/api/encounters', {
      scenario: { ...scenario, combatants: [ana, wrong] },
    });
    expect(inCombatants.status).toBe(400);
    expect(errorOf(inCombatants.body)).toMatchObject({
      code: 'combatant/unknown-stat',
      message: `The scenario's combatant 2: ${refusal('Orc')}`,
    });
    const inCommands = await call('POST', '/api/encounters', {
      scenario: { ...scenario, commands: [{ type: 'add-combatant', combatant: wrong }] },
    });
    expect(inCommands.status).toBe(400);
    expect(errorOf(inCommands.body).message).toBe(`The scenario's step 1 (add-combatant): ${refusal('Orc')}`);
    const update = { type: 'update-combatant', combatant: 'ana', stats: { initiativeBonus: 2 } };
    const inUpdate = await call('POST', '/api/encounters', {
      scenario: { ...scenario, commands: [update] },
    });
    expect(inUpdate.status).toBe(400);
    expect(errorOf(inUpdate.body).message).toBe(
      `The scenario's step 1 (update-combatant): ${refusal('Ana')}`,
    );
    // A scenario whose stats are the ruleset's is still imported.
    expect((await call('POST', '/api/encounters', { scenario })).status).toBe(201);
  });

  it('the creature library’s import: 400, in the same words', async () => {
    const key = 'k'.repeat(32);
    const r = await call(
      'POST',
      '/api/library/classic/import',
      { creatures: [{ ...wrong, side: 'npc' }] },
      key,
    );
    expect(r.status).toBe(400);
    expect(errorOf(r.body)).toMatchObject({
      code: 'library/unknown-stat',
      message: `Creature 1: ${refusal('Orc')}`,
    });
  });

  it('a command over HTTP: adding or updating a combatant, 422, nothing changed', async () => {
    const { id, gm } = await created();
    const add = await call(
      'POST',
      `/api/encounters/${id}/commands`,
      { command: { type: 'add-combatant', combatant: wrong } },
      gm,
    );
    expect(add.status).toBe(422);
    expect(errorOf(add.body)).toMatchObject({ code: 'combatant/unknown-stat', message: refusal('Orc') });
    const update = await call(
      'POST',
      `/api/encounters/${id}/commands`,
      { command: { type: 'update-combatant', combatant: 'ana', stats: { initiativeBonus: 2 } } },
      gm,
    );
    expect(update.status).toBe(422);
    expect(errorOf(update.body).message).toBe(refusal('Ana'));
    const now = await app.inject({
      url: `/api/encounters/${id}`,
      headers: { authorization: `Bearer ${gm}` },
    });
    const state = (
      now.json() as { state: { roster: string[]; combatants: Record<string, { stats: object }> } }
    ).state;
    expect(state.roster).toEqual(['ana']);
    expect(state.combatants.ana!.stats).toEqual({ initiative: 2 });
  });

  it('a command over the live socket: its result is the refusal', async () => {
    const { id, gm } = await created();
    const client = new LiveClient(`${url}/api/encounters/${id}/live?token=${gm}`);
    await client.next((m) => m.type === 'hello');
    client.send({ type: 'command', id: 'c1', command: { type: 'add-combatant', combatant: wrong } });
    const result = await client.next((m) => m.type === 'result' && m.id === 'c1');
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'combatant/unknown-stat', message: refusal('Orc') },
    });
    client.close();
  });
});
