import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EncounterState, type LogEntry, type Viewer, view, viewLog } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { hashToken } from './links.js';
import { api, LiveClient, type ServerProcess, startServerProcess } from './test-process.js';

// These tests talk to a real server process on 127.0.0.1 with a temporary data directory.
let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(undefined, ['--rate-limit', '0']);
});
afterAll(async () => {
  await server?.stop();
});

interface Created {
  encounter: { id: string; seq: number };
  links: { gm: string; table: string; players: Record<string, string> };
  tokens: { gm: string; table: string; players: Record<string, string> };
}

const party = [
  { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 }, hp: 20 },
  { id: 'bren', name: 'Bren', side: 'pc', stats: { initiative: 1 }, hp: 24 },
  { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 }, hp: 15, notes: 'Flees at 5 HP' },
  { id: 'spy', name: 'Spy', side: 'npc', hidden: true, stats: { initiative: 0 } },
];

async function create(
  body: unknown = { name: 'Ford', ruleset: 'classic', seed: 3, combatants: party },
): Promise<Created> {
  const r = await api(server.url, 'POST', '/api/encounters', body);
  expect(r.status).toBe(201);
  return r.body as Created;
}

const cmd = (c: Created, command: unknown, token = c.tokens.gm) =>
  api(server.url, 'POST', `/api/encounters/${c.encounter.id}/commands`, { command }, token);

describe('encounters over HTTP', () => {
  it('creates an encounter and returns a GM link, a table link and a player link per PC', async () => {
    const c = await create();
    expect(c.tokens.gm.length).toBeGreaterThanOrEqual(32); // ≥ 128 bits of base64url
    expect(Object.keys(c.tokens.players).sort()).toEqual(['ana', 'bren']);
    expect(c.links.gm).toBe(`${server.url}/e/${c.encounter.id}?token=${c.tokens.gm}`);
    const gm = await api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, c.tokens.gm);
    expect(gm.status).toBe(200);
    expect((gm.body as { role: string }).role).toBe('gm');
  });

  it('lists the encounters a browser holds links for, and nothing for unknown tokens', async () => {
    const c = await create();
    const r = await api(server.url, 'POST', '/api/encounters/lookup', {
      tokens: [c.tokens.table, 'x'.repeat(32)],
    });
    const list = (r.body as { encounters: Array<{ role: string; encounter: { id: string } }> }).encounters;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ role: 'table', encounter: { id: c.encounter.id } });
  });

  it('runs commands: accepted → the events; refused by the rules → 422 with the reason', async () => {
    const c = await create();
    const start = await cmd(c, { type: 'start' });
    expect(start.status).toBe(200);
    const { entries } = start.body as { entries: Array<{ event: { type: string } }> };
    expect(entries.some((e) => e.event.type === 'dice/rolled')).toBe(true);
    const state = (await api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, c.tokens.gm))
      .body as {
      state: { current: string };
    };
    const other = ['ana', 'bren', 'orc'].find((x) => x !== state.state.current)!;
    const refused = await cmd(c, { type: 'act', actor: other, action: 'attack' });
    expect(refused.status).toBe(422);
    expect((refused.body as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'turn/not-yours',
    });
  });

  it('renames, archives, exports and deletes (GM only)', async () => {
    const c = await create();
    const id = c.encounter.id;
    expect(
      (await api(server.url, 'PATCH', `/api/encounters/${id}`, { name: 'Renamed' }, c.tokens.table)).status,
    ).toBe(403);
    const r = await api(
      server.url,
      'PATCH',
      `/api/encounters/${id}`,
      { name: 'Renamed', status: 'archived' },
      c.tokens.gm,
    );
    expect(r.body).toMatchObject({ encounter: { name: 'Renamed', status: 'archived' } });
    const yaml = await api(
      server.url,
      'GET',
      `/api/encounters/${id}/export?format=yaml`,
      undefined,
      c.tokens.gm,
    );
    expect(String(yaml.body)).toContain('ruleset: classic');
    expect((await api(server.url, 'DELETE', `/api/encounters/${id}`, undefined, c.tokens.gm)).status).toBe(
      204,
    );
    expect((await api(server.url, 'GET', `/api/encounters/${id}`, undefined, c.tokens.gm)).status).toBe(401);
  });

  it('export ↔ import round-trips: the imported encounter replays to the same state', async () => {
    const c = await create();
    await cmd(c, { type: 'start' });
    await cmd(c, { type: 'damage', combatant: 'orc', amount: 4 });
    await cmd(c, { type: 'next' });
    await cmd(c, { type: 'undo' });
    await cmd(c, { type: 'note', text: 'ambush!' });
    const exported = (
      await api(server.url, 'GET', `/api/encounters/${c.encounter.id}/export`, undefined, c.tokens.gm)
    ).body;
    const again = await create({ scenario: exported });
    const a = (await api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, c.tokens.gm))
      .body as { state: Record<string, unknown> };
    const b = (
      await api(server.url, 'GET', `/api/encounters/${again.encounter.id}`, undefined, again.tokens.gm)
    ).body as { state: Record<string, unknown> };
    const strip = (s: Record<string, unknown>) => ({ ...s, id: 'x', name: 'x' });
    expect(strip(b.state)).toEqual(strip(a.state));
  });

  it('lists every link again for the GM, and lets the GM narrow what a player link may send', async () => {
    const c = await create();
    const id = c.encounter.id;
    const links = (await api(server.url, 'GET', `/api/encounters/${id}/links`, undefined, c.tokens.gm))
      .body as {
      players: Array<{ combatant: string; token: string; allowed: string[] }>;
    };
    const ana = links.players.find((p) => p.combatant === 'ana')!;
    expect(ana.token).toBe(c.tokens.players.ana);
    expect(ana.allowed).toContain('act');
    expect((await api(server.url, 'GET', `/api/encounters/${id}/links`, undefined, ana.token)).status).toBe(
      403,
    );
    const r = await api(
      server.url,
      'PATCH',
      `/api/encounters/${id}/links/ana`,
      { allowed: ['delay'] },
      c.tokens.gm,
    );
    expect(r.status).toBe(200);
    await cmd(c, { type: 'start', initiative: { ana: 20, bren: 5, orc: 4, spy: 1 } });
    const act = await cmd(c, { type: 'act', actor: 'ana', action: 'attack' }, ana.token);
    expect(act.status).toBe(403);
    expect((act.body as { error: { code: string } }).error.code).toBe('link/not-allowed');
  });
});

describe('roles: a player link commands only its own character and never reads GM-only data', () => {
  it('refuses commands for another character and GM commands', async () => {
    const c = await create();
    await cmd(c, { type: 'start', initiative: { ana: 20, bren: 5, orc: 4, spy: 1 } });
    const ana = c.tokens.players.ana!;
    expect((await cmd(c, { type: 'act', actor: 'ana', action: 'attack', target: 'orc' }, ana)).status).toBe(
      200,
    );
    const other = await cmd(c, { type: 'act', actor: 'bren', action: 'attack' }, ana);
    expect(other.status).toBe(403);
    expect((other.body as { error: { message: string } }).error.message).toContain('only Ana');
    expect((await cmd(c, { type: 'damage', combatant: 'orc', amount: 3 }, ana)).status).toBe(403);
    expect((await cmd(c, { type: 'next' }, c.tokens.players.bren)).status).toBe(403);
    expect((await cmd(c, { type: 'next' }, ana)).status).toBe(200);
    expect((await cmd(c, { type: 'next' }, c.tokens.table)).status).toBe(403);
  });

  it('never sends a player or the table the dice state, GM notes or hidden combatants (state and events)', async () => {
    const c = await create();
    await cmd(c, { type: 'note', text: 'the spy is the count' });
    await cmd(c, { type: 'start', initiative: { ana: 20, bren: 5, orc: 4, spy: 1 } });
    for (const token of [c.tokens.players.ana!, c.tokens.table]) {
      const s = await api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, token);
      const e = await api(
        server.url,
        'GET',
        `/api/encounters/${c.encounter.id}/events?after=0`,
        undefined,
        token,
      );
      const sent = JSON.stringify([s.body, e.body]);
      for (const secret of ['Spy', '"spy"', 'the count', 'Flees at 5 HP', 'dice/state', 'seeded']) {
        expect(sent).not.toContain(secret);
      }
    }
  });
});

/** The token with its first character changed. */
const otherFirst = (token: string) => (token.startsWith('Z') ? 'Y' : 'Z') + token.slice(1);

describe('bad input gets a clear 4xx and never corrupts an encounter', () => {
  it('malformed JSON, wrong shapes, unknown commands, oversized bodies, bad tokens, unknown encounters', async () => {
    const c = await create();
    const id = c.encounter.id;
    const raw = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      fetch(`${server.url}/api/encounters/${id}/commands`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.tokens.gm}`, ...headers },
        body,
      });
    const bad = await raw('{"command": ');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('request/malformed-json');
    expect((await raw('hello', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await raw(JSON.stringify({ command: { type: 'x' }, extra: 1 }))).status).toBe(400);
    expect((await raw(JSON.stringify({ command: 'start' }))).status).toBe(422);
    expect((await raw(JSON.stringify({ command: { type: 'frobnicate' } }))).status).toBe(422);
    expect((await raw(JSON.stringify({ command: { type: 'note', text: 'x'.repeat(300_000) } }))).status).toBe(
      413,
    );
    expect((await api(server.url, 'GET', `/api/encounters/${id}`)).status).toBe(401);
    expect(
      (await api(server.url, 'GET', `/api/encounters/${id}`, undefined, 'not a token at all')).status,
    ).toBe(401);
    expect(
      // One character changed (a token that already began with Z stayed the same: a flaky 200, 1 in 64).
      (await api(server.url, 'GET', `/api/encounters/${id}`, undefined, otherFirst(c.tokens.gm))).status,
    ).toBe(401);
    expect((await api(server.url, 'GET', '/api/encounters/nope', undefined, c.tokens.gm)).status).toBe(401);
    expect(
      (await api(server.url, 'GET', '/api/encounters/../../etc', undefined, c.tokens.gm)).status,
    ).toBeLessThan(500);
    expect((await api(server.url, 'POST', '/api/encounters', { name: 'x', ruleset: 'chess' })).status).toBe(
      400,
    );
    expect((await api(server.url, 'GET', '/api/nothing-here')).status).toBe(404);
    // The encounter is intact and still works.
    expect((await cmd(c, { type: 'start' })).status).toBe(200);
  });

  it('sends security headers and no-store on the API', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('live over WebSocket', () => {
  it('streams each viewer its own view of every change; commands over the socket get a result', async () => {
    const c = await create();
    const id = c.encounter.id;
    const gm = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.gm}`);
    const ana = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.players.ana}`);
    const table = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.table}`);
    await Promise.all([gm.opened(), ana.opened(), table.opened()]);
    const hello = await ana.next((m) => m.type === 'hello');
    expect(hello.role).toBe('player');
    gm.send({
      type: 'command',
      id: 'c1',
      command: { type: 'start', initiative: { ana: 20, bren: 5, orc: 4, spy: 1 } },
    });
    expect(await gm.next((m) => m.type === 'result')).toMatchObject({ id: 'c1', ok: true });
    await ana.next((m) => m.type === 'change');
    expect(ana.held!.state.current).toBe('ana');
    expect(ana.resyncs).toEqual([]);
    await table.next((m) => m.type === 'change');
    ana.send({ type: 'command', id: 'a1', command: { type: 'act', actor: 'bren', action: 'attack' } });
    expect(await ana.next((m) => m.type === 'result' && m.id === 'a1')).toMatchObject({
      ok: false,
      error: { code: 'link/not-your-character' },
    });
    for (const client of [ana, table]) {
      const sent = JSON.stringify(client.messages);
      expect(sent).not.toContain('Spy');
      expect(sent).not.toContain('dice/state');
      expect(sent).not.toContain('Flees at 5 HP');
    }
    gm.close();
    ana.close();
    table.close();
  });

  it('resumes from the last seq after a reconnect', async () => {
    const c = await create();
    const id = c.encounter.id;
    const first = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.table}`);
    const hello = await first.next((m) => m.type === 'hello');
    first.close();
    await cmd(c, { type: 'start', initiative: { ana: 20, bren: 5, orc: 4, spy: 1 } });
    await cmd(c, { type: 'next' });
    const again = new LiveClient(
      `${server.url}/api/encounters/${id}/live?token=${c.tokens.table}&after=${String(hello.seq)}`,
    );
    const missed = await again.next((m) => m.type === 'events');
    const types = (missed.entries as Array<{ event: { type: string } }>).map((e) => e.event.type);
    expect(types).toContain('encounter/started');
    expect(types).toContain('turn/started');
    again.close();
  });

  it('answers bad messages with an error and keeps the socket; refuses a bad token', async () => {
    const c = await create();
    const id = c.encounter.id;
    const gm = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.gm}`);
    await gm.next((m) => m.type === 'hello');
    gm.send('not json');
    await gm.next(
      (m) => m.type === 'error' && (m.error as { code: string }).code === 'request/malformed-json',
    );
    gm.send({ type: 'launch-missiles' });
    await gm.next((m) => m.type === 'error' && (m.error as { code: string }).code === 'request/invalid');
    gm.send({ type: 'ping' });
    await gm.next((m) => m.type === 'pong');
    // A command message is read as the message's schema reads it: other keys ignored, an id past 64
    // characters or a list refused as invalid, a missing command refused by the rules.
    gm.send({ type: 'command', id: 'extra', command: { type: 'start' }, note: 'ignored' });
    expect(await gm.next((m) => m.type === 'result' && m.id === 'extra')).toMatchObject({ ok: true });
    gm.send({ type: 'command', id: 'x'.repeat(65), command: { type: 'next' } });
    gm.send([{ type: 'command', id: 'listed', command: { type: 'next' } }]);
    gm.send({ type: 'command', id: 'empty' });
    // Answered in order: by the last one's result, the two before it have had theirs.
    expect(await gm.next((m) => m.type === 'result' && m.id === 'empty')).toMatchObject({ ok: false });
    const invalid = gm.messages.filter(
      (m) => m.type === 'error' && (m.error as { code: string }).code === 'request/invalid',
    );
    expect(invalid).toHaveLength(3);
    expect(gm.messages.filter((m) => m.type === 'result').map((m) => m.id)).toEqual(['extra', 'empty']);
    gm.close();
    const bad = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${'x'.repeat(32)}`);
    await bad.next((m) => m.type === 'error');
    expect(bad.messages.some((m) => m.type === 'hello')).toBe(false);
  });

  it('refuses a message over 64 KiB with a sentence and keeps the socket; closes one past what it reads', async () => {
    const c = await create();
    const gm = new LiveClient(`${server.url}/api/encounters/${c.encounter.id}/live?token=${c.tokens.gm}`);
    await gm.next((m) => m.type === 'hello');
    const tooLarge = (id: string) =>
      gm
        .next((m) => m.type === 'result' && m.id === id)
        .then((m) => m.error as { code: string; message: string });
    // 70,000 characters: past the live connection's 64 KiB, within a request's 256 KiB.
    gm.send({ type: 'command', id: 'long', command: { type: 'next', pad: 'x'.repeat(70_000) } });
    const long = await tooLarge('long');
    expect(long.code).toBe('request/too-large');
    expect(long.message).toMatch(/This message is 69 KiB, and the live connection takes at most 64 KiB/);
    // Counted in bytes: 33,000 characters of two bytes each are 66,000 bytes.
    gm.send({ type: 'command', id: 'wide', command: { type: 'next', pad: 'é'.repeat(33_000) } });
    expect((await tooLarge('wide')).code).toBe('request/too-large');
    gm.send({ type: 'ping' });
    await gm.next((m) => m.type === 'pong');
    expect(gm.closed).toBeNull();
    // Past what the socket reads of one message, it is closed: the message was not read to its end.
    gm.send({ type: 'command', id: 'huge', command: { type: 'next', pad: 'x'.repeat(300_000) } });
    await expect(gm.next((m) => m.id === 'huge')).rejects.toThrow(/socket closed \(1009\)/);
  });
});

describe('commands run one after another against the current state', () => {
  it('concurrent commands from several clients are all decided, each on the state the previous one left', async () => {
    const c = await create();
    const n = 20;
    const replies = await Promise.all(
      Array.from({ length: n }, () => cmd(c, { type: 'damage', combatant: 'bren', amount: 1 })),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    const seqs = replies.map((r) => (r.body as { seq: number }).seq);
    expect(new Set(seqs).size).toBe(n);
    const gm = (await api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, c.tokens.gm))
      .body as { seq: number; state: { combatants: Record<string, { hp?: { current: number } }> } };
    expect(gm.seq).toBe(Math.max(...seqs));
    expect(gm.state.combatants.bren!.hp!.current).toBe(24 - n);
  });
});

describe('links: the GM secret is stored only as a hash', () => {
  it('no token is in the database file, only SHA-256 hashes of them', async () => {
    const c = await create();
    await cmd(c, { type: 'start' });
    const files = readdirSync(server.dataDir).map((f) => readFileSync(join(server.dataDir, f), 'latin1'));
    const everything = files.join('\n');
    expect(everything).toContain(hashToken(c.tokens.gm));
    for (const token of [c.tokens.gm, c.tokens.table, ...Object.values(c.tokens.players)]) {
      expect(everything).not.toContain(token);
    }
  });
});

describe('redaction at the boundary, for every ruleset', () => {
  const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
  const HIDDEN_ID = 'zyxhid';
  const HIDDEN_NAME = 'Zyxwraith';
  const NOTE = 'GMSECRET-note';
  const markers = [HIDDEN_ID, HIDDEN_NAME, NOTE, 'dice/state', 'origin'];
  const json = (x: unknown) => JSON.parse(JSON.stringify(x));

  /** A shipped example of the ruleset, with a hidden NPC carrying GM notes added last. */
  function scenarioOf(ruleset: string): Record<string, unknown> {
    const file = readdirSync(join(examples, ruleset)).sort()[0]!;
    const scenario = parseYaml(readFileSync(join(examples, ruleset, file), 'utf8')) as {
      combatants: Array<Record<string, unknown>>;
    };
    const npc = scenario.combatants.find((x) => x.side !== 'pc') ?? scenario.combatants[0]!;
    scenario.combatants.push({ ...npc, id: HIDDEN_ID, name: HIDDEN_NAME, hidden: true, notes: NOTE });
    return scenario;
  }

  for (const ruleset of Object.keys(rulesets)) {
    it(`${ruleset}: state, events, live messages and refusals are each viewer's view, and nothing hidden`, async () => {
      const c = await create({ scenario: scenarioOf(ruleset) });
      const id = c.encounter.id;
      const rules = rulesets[ruleset]!;
      const readers: Array<{ token: string; viewer: Viewer }> = [
        { token: c.tokens.table, viewer: { role: 'table' } },
        ...Object.entries(c.tokens.players).map(([pc, token]) => ({
          token,
          viewer: { role: 'player' as const, combatants: [pc] },
        })),
      ];
      expect(readers.length).toBeGreaterThan(1);
      const sockets = readers.map(
        (r) => new LiveClient(`${server.url}/api/encounters/${id}/live?token=${r.token}&after=0`),
      );
      await Promise.all(sockets.map((s) => s.next((m) => m.type === 'events')));
      // The GM adds a note and hurts the hidden NPC (reopening an example that ends); each player tries
      // to act on it.
      const opened = await api(server.url, 'GET', `/api/encounters/${id}`, undefined, c.tokens.gm);
      if ((opened.body as { state: EncounterState }).state.status === 'ended') {
        expect((await cmd(c, { type: 'undo' })).status).toBe(200);
      }
      expect((await cmd(c, { type: 'note', text: `${NOTE} again` })).status).toBe(200);
      const hurt = await cmd(c, { type: 'damage', combatant: HIDDEN_ID, amount: 1 });
      expect(hurt.status, JSON.stringify(hurt.body)).toBe(200);
      const sent: unknown[] = [];
      // A refusal may echo the id its sender wrote, as it would an id nobody has (unseen.test.ts):
      // that echo is taken out here, and nothing else may name the hidden NPC.
      const echo = (m: unknown) =>
        JSON.parse(
          JSON.stringify(m)
            .replaceAll(`\\"${HIDDEN_ID}\\"`, '\\"<sent>\\"')
            .replaceAll(`"${HIDDEN_ID}"`, '"<sent>"'),
        );
      for (const [i, r] of readers.entries()) {
        if (r.viewer.role !== 'player') continue;
        const pc = r.viewer.combatants[0]!;
        const allowed = (
          (await api(server.url, 'GET', `/api/encounters/${id}`, undefined, r.token)).body as {
            allowed: string[];
          }
        ).allowed;
        for (const type of allowed) {
          sent.push(echo((await cmd(c, { type, actor: pc, target: HIDDEN_ID }, r.token)).body));
          sockets[i]!.send({
            type: 'command',
            id: `x-${type}`,
            command: { type, actor: pc, target: HIDDEN_ID },
          });
          await sockets[i]!.next((m) => m.type === 'result' && m.id === `x-${type}`);
        }
      }
      const gm = (await api(server.url, 'GET', `/api/encounters/${id}`, undefined, c.tokens.gm)).body as {
        seq: number;
        state: EncounterState;
      };
      const gmLog = (
        await api(server.url, 'GET', `/api/encounters/${id}/events?after=0`, undefined, c.tokens.gm)
      ).body as { entries: LogEntry[] };
      expect(JSON.stringify(gm)).toContain(HIDDEN_NAME);
      for (const [i, r] of readers.entries()) {
        const s = await api(server.url, 'GET', `/api/encounters/${id}`, undefined, r.token);
        const e = await api(server.url, 'GET', `/api/encounters/${id}/events?after=0`, undefined, r.token);
        const l = await api(server.url, 'POST', '/api/encounters/lookup', { tokens: [r.token] });
        expect((s.body as { state: unknown }).state).toEqual(json(view(gm.state, r.viewer, rules)));
        expect((e.body as { entries: unknown }).entries).toEqual(
          json(viewLog(gmLog.entries, r.viewer, gm.state, rules)),
        );
        const live = sockets[i]!;
        await live.next((m) => m.type === 'change' && m.seq === gm.seq);
        // The view held, the first one with every change's delta applied, is exactly the viewer's view.
        expect(live.resyncs).toEqual([]);
        expect(JSON.stringify(live.held!.state)).toBe(JSON.stringify(view(gm.state, r.viewer, rules)));
        sent.push(
          s.body,
          e.body,
          l.body,
          live.messages.map((m) => (m.type === 'result' ? echo(m) : m)),
        );
      }
      const text = JSON.stringify(sent);
      for (const marker of markers) expect(text).not.toContain(marker);
      for (const s of sockets) s.close();
    });
  }
});
