import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EncounterLog,
  type EncounterState,
  isRejection,
  parseScenario,
  scriptedDice,
  seededDice,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { serverShare, startHealthProbe } from './test-latency.js';
import { api, LiveClient, type ServerProcess, startServerProcess } from './test-process.js';

/*
 * Every HTTP route and WebSocket message type of a real server process, fed random, malformed, deep,
 * huge, prototype-keyed and non-finite input by fast-check (a fixed seed in CI, see vitest.setup.ts).
 * Passes when: every answer is 2xx or 4xx and no socket message reports an internal error; a separate
 * process asking /api/health throughout gets its answers within 100 ms (see HEALTH below); and every
 * encounter, exported afterwards, replays to the state the server holds.
 */

/** At least this many inputs are sent in all (HTTP requests and socket messages). */
const INPUTS = 5_000;
/**
 * /api/health must answer within 100 ms. The prober is its own process, so the fuzzer's work does not
 * delay it, but the machine is shared (two cores, other test runs, load averages past 10): each reply
 * counts as the server's share of its time (`serverShare`: less the prober's own wait for a core, and at
 * most what the server's main thread ran meanwhile). Of that, at most 2 % of samples (and at most 25)
 * may exceed 100 ms, and none may exceed 500 ms — a request that held the event loop, as the did
 * (1 to 6 s), burns the server's CPU all that time and fails it.
 */
const HEALTH = { withinMs: 100, outlierShare: 0.02, maxOutliers: 25, neverMs: 500 };

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(undefined, ['--rate-limit', '0']);
});
afterAll(async () => {
  await server?.stop();
});

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));

interface Tokens {
  gm: string;
  table: string;
  players: Record<string, string>;
}

interface Fixture {
  id: string;
  ruleset: string;
  tokens: Tokens;
  combatants: string[];
}

/** Each ruleset's first example, imported as a scenario: a realistic fight to attack. */
async function fixtures(): Promise<Fixture[]> {
  const out: Fixture[] = [];
  for (const ruleset of Object.keys(rulesets)) {
    const file = readdirSync(join(examples, ruleset)).sort()[0]!;
    const scenario = parseYaml(readFileSync(join(examples, ruleset, file), 'utf8')) as {
      combatants: Array<{ id?: string; name: string }>;
    };
    const r = await api(server.url, 'POST', '/api/encounters', { scenario });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201);
    const body = r.body as { encounter: { id: string }; tokens: Tokens };
    const state = (
      await api(server.url, 'GET', `/api/encounters/${body.encounter.id}`, undefined, body.tokens.gm)
    ).body as { state: EncounterState };
    out.push({ id: body.encounter.id, ruleset, tokens: body.tokens, combatants: state.state.roster });
  }
  return out;
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const COMMAND_TYPES = [
  ...new Set([
    ...Object.values(rulesets).flatMap((r) => Object.keys(r.commands)),
    'add-combatant',
    'update-combatant',
    'remove-combatant',
    'defeat',
    'revive',
    'damage',
    'heal',
    'set-hp',
    'add-effect',
    'remove-effect',
    'define-action',
    'remove-action',
    'set-options',
    'note',
    'end',
    'undo',
    'redo',
  ]),
];

/** Values a careless or hostile client might put anywhere. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 6 },
  { arbitrary: fc.constantFrom(...PROTO_KEYS), weight: 2 },
  { arbitrary: fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 53), 1.5, 1e308, -0), weight: 2 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  {
    arbitrary: fc.constantFrom('1000d1!', '49d1!+1d6', '1d6', 'd%', '3D+2', '((((1))))', '1d0', '@x'),
    weight: 2,
  },
  {
    arbitrary: fc.dictionary(fc.constantFrom(...PROTO_KEYS, 'a', 'b'), fc.jsonValue({ maxDepth: 1 })),
    weight: 1,
  },
);

/** A command shaped like the real ones (a known type, plausible fields), with hostile values mixed in. */
function commandArb(fixture: Fixture): fc.Arbitrary<Record<string, unknown>> {
  const who = fc.oneof(fc.constantFrom(...fixture.combatants, 'nobody', ...PROTO_KEYS), hostileValue);
  return fc.record(
    {
      type: fc.oneof(
        { arbitrary: fc.constantFrom(...COMMAND_TYPES), weight: 9 },
        { arbitrary: hostileValue, weight: 1 },
      ),
      actor: who,
      combatant: fc.oneof(
        who,
        fc.record({
          name: fc.string({ minLength: 1, maxLength: 20 }),
          stats: hostileValue,
          hidden: fc.boolean(),
        }),
      ),
      target: who,
      action: fc.oneof(fc.constantFrom('attack', 'dash', 'talk', 'move', 'cast', 'shoot'), hostileValue),
      amount: hostileValue,
      roll: hostileValue,
      text: hostileValue,
      initiative: fc.dictionary(fc.constantFrom(...fixture.combatants, ...PROTO_KEYS), hostileValue),
      duration: fc.oneof(
        fc.constant({ kind: 'indefinite' }),
        fc.record({ kind: fc.constant('until-turn-end'), combatant: who }),
        hostileValue,
      ),
      name: hostileValue,
      options: hostileValue,
      value: hostileValue,
    },
    { requiredKeys: ['type'] },
  );
}

/** JSON text that JSON.stringify can't produce: deep, huge, non-finite, prototype keys, or broken. */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 20, max: 6_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 20, max: 6_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.constantFrom(
    '{"command": {"type": "damage", "combatant": "x", "amount": 1e999}}',
    '{"command": {"type": "note", "text": -1e999}}',
    '{"name": "N", "ruleset": "classic", "seed": 1e999}',
    '{"command": {"type": {"toString": 1}}}',
    '{"command": {"__proto__": {"type": "end"}}}',
    '{"__proto__": {"admin": true}}',
    '{"constructor": {"prototype": {"admin": true}}}',
    '{"scenario": {"schema": 1, "name": "x", "ruleset": "classic", "commands": [{"type": "note", "text": "x", "__proto__": {}}]}}',
    'NaN',
    'Infinity',
    'null',
    '',
    '{',
    '{"command": }',
    '\u0000',
  ),
  fc
    .integer({ min: 1, max: 300 })
    .map((kib) => JSON.stringify({ command: { type: 'note', text: 'x'.repeat(kib * 1024) } })),
  fc.string({ maxLength: 200 }),
);

type Who = 'gm' | 'table' | 'player' | 'junk' | 'none';

function tokenFor(f: Fixture, who: Who, pick: number): string | undefined {
  if (who === 'gm') return f.tokens.gm;
  if (who === 'table') return f.tokens.table;
  if (who === 'player') {
    const players = Object.values(f.tokens.players);
    return players.length ? players[pick % players.length] : f.tokens.table;
  }
  if (who === 'junk') return 'zzzzzzzzzzzzzzzzzzzzzzzz';
  return undefined;
}

interface Request {
  method: string;
  path: string;
  body?: string;
  token?: string;
}

/** Encounters the fuzzer created (a fuzzed POST that succeeded), which it may delete. */
const victims: Array<{ id: string; gm: string }> = [];
/** The fuzzer's own encounters it leaves alone, so that they too are replayed at the end. */
const KEPT = 4;

/** One request to one of the routes, for one of the fixtures (or a made-up id). */
function requestArb(all: Fixture[]): fc.Arbitrary<Request> {
  return fc
    .record({
      f: fc.nat(all.length - 1),
      who: fc.constantFrom<Who>('gm', 'gm', 'gm', 'table', 'player', 'player', 'junk', 'none'),
      pick: fc.nat(20),
      route: fc.nat(1_000),
      id: fc.oneof(
        { arbitrary: fc.constant(''), weight: 8 },
        { arbitrary: fc.string({ maxLength: 50 }), weight: 1 },
      ),
      text: hostileText,
      json: fc.boolean(),
      value: hostileValue,
    })
    .chain(({ f, who, pick, route, id, text, json, value }) => {
      const fixture = all[f]!;
      const token = tokenFor(fixture, who, pick);
      const eid = id === '' ? fixture.id : encodeURIComponent(id);
      const base = `/api/encounters/${eid}`;
      const combatant = fc.oneof(
        fc.constantFrom(...fixture.combatants, ...PROTO_KEYS),
        fc.string({ minLength: 1, maxLength: 70 }),
      );
      const body = (structured: fc.Arbitrary<unknown>) =>
        json ? structured.map((x) => JSON.stringify(x) ?? 'null') : fc.constant(text);
      const routes: Array<fc.Arbitrary<Request>> = [
        fc.constant({ method: 'GET', path: '/api/health' }),
        fc.constant({ method: 'GET', path: '/api/rulesets' }),
        body(
          fc.oneof(
            fc.record(
              {
                name: hostileValue,
                ruleset: fc.oneof(fc.constantFrom(...Object.keys(rulesets)), hostileValue),
                seed: hostileValue,
                options: hostileValue,
                combatants: fc.array(
                  fc.record({ name: fc.string({ minLength: 1, maxLength: 10 }), stats: hostileValue }),
                  { maxLength: 3 },
                ),
              },
              { requiredKeys: [] },
            ),
            fc.record({
              scenario: fc.record({
                schema: fc.constant(1),
                name: fc.constant('S'),
                ruleset: fc.constantFrom(...Object.keys(rulesets)),
                commands: fc.array(commandArb(fixture), { maxLength: 4 }),
              }),
            }),
            fc.record({ scenario: hostileValue }),
          ),
        ).map((b) => ({ method: 'POST', path: '/api/encounters', body: b })),
        body(
          fc.record({
            tokens: fc.array(
              fc.oneof(
                fc.constantFrom(...Object.values(fixture.tokens.players), fixture.tokens.table),
                hostileValue,
              ),
              { maxLength: 4 },
            ),
          }),
        ).map((b) => ({ method: 'POST', path: '/api/encounters/lookup', body: b })),
        fc.constant({ method: 'GET', path: base, token }),
        body(
          fc.record(
            { name: hostileValue, status: fc.oneof(fc.constantFrom('active', 'archived'), hostileValue) },
            { requiredKeys: [] },
          ),
        ).map((b) => ({ method: 'PATCH', path: base, body: b, token })),
        fc.constant({ method: 'GET', path: `${base}/events?after=${pick * 3}`, token }),
        fc.constant({
          method: 'GET',
          path: `${base}/events?after=${encodeURIComponent(JSON.stringify(value) ?? '')}`,
          token,
        }),
        body(fc.record({ command: commandArb(fixture) })).map((b) => ({
          method: 'POST',
          path: `${base}/commands`,
          body: b,
          token,
        })),
        body(fc.record({ command: commandArb(fixture) })).map((b) => ({
          method: 'POST',
          path: `${base}/commands`,
          body: b,
          token,
        })),
        body(fc.record({ command: commandArb(fixture) })).map((b) => ({
          method: 'POST',
          path: `${base}/commands`,
          body: b,
          token,
        })),
        fc
          .constantFrom('json', 'yaml', 'xml')
          .map((format) => ({ method: 'GET', path: `${base}/export?format=${format}`, token })),
        fc.constant({ method: 'GET', path: `${base}/links`, token }),
        fc
          .tuple(
            combatant,
            body(
              fc.record({
                allowed: fc.oneof(
                  fc.array(fc.constantFrom(...COMMAND_TYPES), { maxLength: 4 }),
                  hostileValue,
                ),
              }),
            ),
          )
          .map(([c, b]) => ({
            method: 'PATCH',
            path: `${base}/links/${encodeURIComponent(c)}`,
            body: b,
            token,
          })),
        body(
          fc.oneof(
            fc.record({ link: fc.constantFrom('gm', 'table') }),
            fc.record({ link: fc.constant('player'), combatant }),
            hostileValue,
          ),
        ).map((b) => ({
          method: 'POST',
          path: `${base}/links/${route % 2 ? 'revoke' : 'rotate'}`,
          body: b,
          token,
        })),
        fc
          .constantFrom('PUT', 'OPTIONS', 'HEAD', 'GET')
          .map((method) => ({ method, path: `${base}/nowhere`, token })),
        // The creature library: its own keys (made by a browser), any ruleset, any creature.
        ...libraryRoutes(fixture, pick, text, json, value),
        // The web app's pages and files, under any path.
        fc
          .oneof(
            fc.constant(`/e/${eid}?token=${token ?? ''}`),
            fc.string({ maxLength: 60 }).map((x) => `/${encodeURIComponent(x)}`),
            fc.string({ maxLength: 30 }).map((x) => `/assets/${encodeURIComponent(x)}`),
            fc.constantFrom('/', '/index.html', '/../package.json', '/%2e%2e/%2e%2e/etc/passwd'),
          )
          .map((path) => ({ method: 'GET', path })),
        // Deleting: a fixture only with a link other than its GM's (refused), or an encounter the fuzzer
        // itself created, with its GM link (taken from the list only when this route is drawn).
        fc.constant(null).map((): Request => {
          if (who === 'gm' && victims.length > KEPT) {
            const v = victims.splice(pick % victims.length, 1)[0]!;
            return { method: 'DELETE', path: `/api/encounters/${v.id}`, token: v.gm };
          }
          return who === 'gm' ? { method: 'DELETE', path: base } : { method: 'DELETE', path: base, token };
        }),
      ];
      return routes[route % routes.length]!;
    });
}

/** Library keys: two well-formed ones (so libraries fill and empty), and ones the server must refuse. */
const LIBRARY_KEYS = ['L'.repeat(32), 'M'.repeat(64), 'short', 'x'.repeat(65), 'bad key with spaces!!!!!'];

/** Every route of the creature library, with a random key, ruleset, creature or file of creatures. */
function libraryRoutes(
  fixture: Fixture,
  pick: number,
  text: string,
  json: boolean,
  value: unknown,
): Array<fc.Arbitrary<Request>> {
  const key = pick % 6 === 5 ? undefined : LIBRARY_KEYS[pick % LIBRARY_KEYS.length];
  const ruleset = pick % 4 === 3 ? encodeURIComponent(JSON.stringify(value) ?? '') : fixture.ruleset;
  const base = `/api/library/${ruleset}`;
  const creature = fc.oneof(
    fc.record(
      {
        name: fc.oneof(fc.constantFrom('Goblin', 'Wolf', ...PROTO_KEYS), fc.string({ maxLength: 90 })),
        side: fc.oneof(fc.constantFrom('pc', 'npc'), hostileValue),
        hp: hostileValue,
        group: hostileValue,
        hidden: hostileValue,
        notes: hostileValue,
        stats: fc.oneof(
          fc.dictionary(fc.constantFrom('initiative', 'dexterity', ...PROTO_KEYS), hostileValue),
          hostileValue,
        ),
      },
      { requiredKeys: ['name'] },
    ),
    hostileValue,
  );
  const body = (structured: fc.Arbitrary<unknown>) =>
    json ? structured.map((x) => JSON.stringify(x) ?? 'null') : fc.constant(text);
  return [
    fc.constant({ method: 'GET', path: base, token: key }),
    body(fc.record({ creature })).map((b) => ({ method: 'PUT', path: base, body: b, token: key })),
    body(fc.record({ creatures: fc.oneof(fc.array(creature, { maxLength: 5 }), hostileValue) })).map((b) => ({
      method: 'POST',
      path: `${base}/import`,
      body: b,
      token: key,
    })),
    fc
      .oneof(fc.constantFrom('Goblin', 'Wolf', ...PROTO_KEYS), fc.string({ maxLength: 90 }))
      .map((name) => ({ method: 'DELETE', path: `${base}/${encodeURIComponent(name)}`, token: key })),
  ];
}

/** Keeps the fixture's tokens current when a fuzzed rotation or revocation replaced them. */
function refreshTokens(f: Fixture, body: unknown): void {
  const b = body as {
    token?: string;
    table?: string | null;
    players?: Array<{ combatant: string; url?: string }>;
  };
  const token = (url: string) => new URL(url).searchParams.get('token')!;
  if (typeof b.token === 'string') f.tokens.gm = b.token;
  if (typeof b.table === 'string') f.tokens.table = token(b.table);
  for (const p of b.players ?? []) if (p.url) f.tokens.players[p.combatant] = token(p.url);
}

describe('fuzz: every route and socket message, against a real server', () => {
  it(`${INPUTS.toLocaleString('en-US')} inputs get only 2xx/4xx, /api/health stays quick, and every encounter replays`, async () => {
    const all = await fixtures();
    const probe = startHealthProbe(server.url, server.proc.pid);
    await probe.ready;
    let sent = 0;
    let created = 0;
    const failures: string[] = [];

    // HTTP: every route.
    await fc.assert(
      fc.asyncProperty(requestArb(all), async (req) => {
        const headers: Record<string, string> = {};
        if (req.body !== undefined) headers['content-type'] = 'application/json';
        if (req.token) headers.authorization = `Bearer ${req.token}`;
        const res = await fetch(`${server.url}${req.path}`, {
          method: req.method,
          headers,
          ...(req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD'
            ? { body: req.body }
            : {}),
        });
        const text = await res.text();
        sent++;
        if (res.status >= 500 || res.status < 200) {
          failures.push(
            `${req.method} ${req.path} ${(req.body ?? '').slice(0, 200)} → ${res.status} ${text.slice(0, 200)}`,
          );
        }
        if (res.status === 201 && req.path === '/api/encounters') {
          const made = JSON.parse(text) as { encounter: { id: string }; tokens: { gm: string } };
          victims.push({ id: made.encounter.id, gm: made.tokens.gm });
          created++;
        }
        if (res.status === 200 && /\/links\/(rotate|revoke)$/.test(req.path)) {
          refreshTokens(all.find((f) => req.path.includes(f.id))!, JSON.parse(text));
        }
      }),
      { numRuns: 4_000 },
    );

    // WebSocket connections: made-up ids, tokens and resume points.
    await fc.assert(
      fc.asyncProperty(
        fc.nat(all.length - 1),
        fc.constantFrom<Who>('gm', 'table', 'player', 'junk', 'none'),
        fc.oneof(fc.constant(''), fc.string({ maxLength: 20 })),
        fc.oneof(fc.nat(100_000).map(String), fc.string({ maxLength: 15 }), fc.constant(undefined)),
        async (f, who, id, after) => {
          const fixture = all[f]!;
          const token = tokenFor(fixture, who, 0);
          const query = new URLSearchParams();
          if (token) query.set('token', token);
          if (after !== undefined) query.set('after', after);
          const path = `/api/encounters/${id === '' ? fixture.id : encodeURIComponent(id)}/live?${query}`;
          const live = new LiveClient(`${server.url}${path}`);
          try {
            await live.next((m) => m.type === 'hello' || m.type === 'error', 10_000);
          } catch {
            // Closed before any message: fine, as long as not for an internal error.
          }
          sent++;
          if (live.closed?.code === 1011 || JSON.stringify(live.messages).includes('server/internal')) {
            failures.push(
              `socket ${path} → ${JSON.stringify(live.messages).slice(0, 200)} ${live.closed?.code}`,
            );
          }
          live.close();
        },
      ),
      { numRuns: 100 },
    );

    // WebSocket: every message type, on a socket per fixture and role.
    const sockets: Array<{ live: LiveClient; fixture: Fixture }> = [];
    for (const fixture of all) {
      for (const who of ['gm', 'player', 'table'] as const) {
        const token = tokenFor(fixture, who, 0)!;
        const live = new LiveClient(`${server.url}/api/encounters/${fixture.id}/live?token=${token}`);
        await live.next((m) => m.type === 'hello' || m.type === 'error');
        sockets.push({ live, fixture });
      }
    }
    const message = (fixture: Fixture) =>
      fc.oneof(
        commandArb(fixture).map((command) => JSON.stringify({ type: 'command', id: 'f', command })),
        fc.constant('{"type": "ping"}'),
        hostileValue.map((x) => JSON.stringify({ type: 'command', id: x, command: x }) ?? 'null'),
        hostileValue.map((x) => JSON.stringify({ type: x }) ?? 'null'),
        hostileText.filter((t) => t.length < 60 * 1024),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.nat(sockets.length - 1).chain((i) => message(sockets[i]!.fixture).map((m) => ({ i, m }))),
        async ({ i, m }) => {
          const { live } = sockets[i]!;
          if (live.closed) return;
          live.send(m);
          sent++;
          // Below the socket's message budget (50 a second), so most messages are read, not refused.
          if (sent % 10 === 0) await new Promise((r) => setTimeout(r, 12));
        },
      ),
      { numRuns: 1_200 },
    );
    await new Promise((r) => setTimeout(r, 500));
    for (const { live } of sockets) {
      for (const m of live.messages) {
        if (JSON.stringify(m).includes('server/internal'))
          failures.push(`socket: ${JSON.stringify(m).slice(0, 300)}`);
      }
      if (live.closed && live.closed.code === 1011)
        failures.push('a socket was closed with an internal error');
      live.close();
    }

    const health = await probe.stop();
    expect(failures.slice(0, 10)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(INPUTS);

    const serverMs = health.map(serverShare);
    const slow = serverMs.filter((ms) => ms > HEALTH.withinMs);
    expect(health.length).toBeGreaterThan(100);
    expect(
      slow.length,
      `health samples over ${HEALTH.withinMs} ms: ${slow.map(Math.round).join(', ')}`,
    ).toBeLessThanOrEqual(Math.min(HEALTH.maxOutliers, Math.ceil(health.length * HEALTH.outlierShare)));
    expect(Math.max(...serverMs)).toBeLessThan(HEALTH.neverMs);

    // Every encounter replays from its export to the state the server holds: the fixtures, and those the
    // fuzzer created and did not delete.
    const encounters = [
      ...all.map((f) => ({ id: f.id, gm: f.tokens.gm, label: f.ruleset })),
      ...victims.map((v) => ({ ...v, label: `created by the fuzzer (${v.id})` })),
    ];
    expect(victims.length, `of ${created} the fuzzer created`).toBeGreaterThan(0);
    for (const fixture of encounters) {
      const gm = await api(server.url, 'GET', `/api/encounters/${fixture.id}`, undefined, fixture.gm);
      expect(gm.status).toBe(200);
      const exported = await api(
        server.url,
        'GET',
        `/api/encounters/${fixture.id}/export`,
        undefined,
        fixture.gm,
      );
      const scenario = parseScenario(exported.body);
      if (isRejection(scenario)) throw new Error(scenario.message);
      const dice = scenario.dice
        ? scriptedDice(scenario.dice, scenario.strictDice ? 'error' : { seed: scenario.seed })
        : seededDice(scenario.seed);
      const log = EncounterLog.create(
        { id: fixture.id, name: scenario.name, ruleset: scenario.ruleset, options: scenario.options, dice },
        rulesets,
      );
      if (isRejection(log)) throw new Error(log.message);
      for (const step of scenario.commands) {
        const { command, by } = step;
        const r = log.execute(command, by ? { by } : {});
        expect(isRejection(r), `${fixture.label}: ${JSON.stringify(command).slice(0, 200)}`).toBe(false);
      }
      const held = (gm.body as { state: EncounterState }).state;
      const { name: _a, ...replayed } = JSON.parse(JSON.stringify(log.state)) as EncounterState;
      const { name: _b, ...served } = held;
      expect(replayed, fixture.label).toEqual(served);
    }
  }, 150_000);
});
