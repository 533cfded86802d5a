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

describe('a player acts only for their own characters, in every field of a command', () => {
  const stateOf = async (c: Created) =>
    (await api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, c.tokens.gm)).body as {
      seq: number;
      state: unknown;
    };

  it("stamina: a player's next on their own turn cannot rewrite an NPC's initiative", async () => {
    const c = await create({
      name: 'Mill',
      ruleset: 'stamina',
      seed: 4,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', stats: { stamina: 5, defense: 8, initiative: 1 } },
        { id: 'bren', name: 'Bren', side: 'npc', stats: { stamina: 4, defense: 6 } },
      ],
    });
    expect((await cmd(c, { type: 'start', initiative: { ana: 30, bren: 2 } })).status).toBe(200);
    const before = await stateOf(c);
    const r = await cmd(c, { type: 'next', initiative: { bren: 30 } }, c.tokens.players.ana);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: { code: 'link/not-your-character' } });
    expect((r.body as { error: { message: string } }).error.message).toContain('Bren');
    expect(await stateOf(c)).toEqual(before);
    // Their own initiative, on their own turn, is theirs to give.
    expect((await cmd(c, { type: 'next', initiative: { ana: 12 } }, c.tokens.players.ana)).status).toBe(200);
  });

  it("opend6: a player's next cannot spend another character's Character Points", async () => {
    // Perception rolled every round: Scout 5 + 5 + 5 = 15 acts first, Guard 2 + 2 + 2 = 6 second, so the
    // Guard's next begins round 2, where Character Points add Wild Dice to the roll.
    const c = await create({
      scenario: {
        schema: 1,
        name: 'Scene',
        ruleset: 'opend6',
        options: { initiativeMethod: 'perception-per-round' },
        seed: 2,
        dice: [5, 5, 5, 2, 2, 2],
        combatants: [
          { id: 'scout', name: 'Scout', side: 'pc', stats: { perception: '3D', characterPoints: 3 } },
          { id: 'guard', name: 'Guard', side: 'pc', stats: { perception: '3D', characterPoints: 4 } },
        ],
        commands: [{ type: 'start' }, { type: 'next' }],
      },
    });
    const before = await stateOf(c);
    expect((before.state as { current: string }).current).toBe('guard');
    const r = await cmd(c, { type: 'next', characterPoints: { scout: 2 } }, c.tokens.players.guard);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: { code: 'link/not-your-character' } });
    expect((r.body as { error: { message: string } }).error.message).toContain('Scout');
    expect(await stateOf(c)).toEqual(before);
    // The Guard's own points, on the Guard's own turn, are the Guard's to spend.
    expect(
      (await cmd(c, { type: 'next', characterPoints: { guard: 1 } }, c.tokens.players.guard)).status,
    ).toBe(200);
  });
});

/** `{"a": {"a": … {"a": 1}}}`, `levels` objects deep, as JSON text (too deep for JSON.stringify). */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

const postRaw = async (path: string, body: string) => {
  const r = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: r.status, body: (await r.json()) as { error: { message: string } } };
};

describe('every input gets an answer of 2xx or 4xx', () => {
  it('a command whose type is not a string, from a player link, is refused with a 4xx', async () => {
    const c = await create();
    const r = await cmd(c, { type: { toString: 1 } }, c.tokens.players.ana);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
  });

  it('stats, options or a scenario nested thousands of levels deep are refused with 400 and the limit', async () => {
    for (const levels of [2_000, 5_000]) {
      const bodies = [
        `{"name": "Deep", "ruleset": "classic", "combatants": [{"name": "A", "stats": ${nested(levels)}}]}`,
        `{"name": "Deep", "ruleset": "classic", "options": {"x": ${nested(levels)}}}`,
        `{"scenario": ${nested(levels)}}`,
      ];
      for (const body of bodies) {
        const r = await postRaw('/api/encounters', body);
        expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(400);
        expect(r.body.error.message).toContain('32 levels');
      }
    }
  });

  it('a deep command over the WebSocket is refused in its result, and the socket stays open', async () => {
    const c = await create();
    const live = new LiveClient(`${server.url}/api/encounters/${c.encounter.id}/live?token=${c.tokens.gm}`);
    await live.next((m) => m.type === 'hello');
    live.send(`{"type": "command", "id": "deep", "command": {"type": "note", "text": ${nested(3_000)}}}`);
    const error = await live.next((m) => m.type === 'result');
    expect(error).toMatchObject({ id: 'deep', ok: false, error: { code: 'request/too-deep' } });
    expect(JSON.stringify(error)).toContain('32 levels');
    live.send({ type: 'ping' });
    await live.next((m) => m.type === 'pong');
    live.close();
  });
});

describe('prototype keys', () => {
  it('a link for a combatant named like an Object property is refused: there is no such combatant', async () => {
    const c = await create();
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const r = await api(
        server.url,
        'PATCH',
        `/api/encounters/${c.encounter.id}/links/${encodeURIComponent(name)}`,
        { allowed: ['act'] },
        c.tokens.gm,
      );
      expect(r.status, name).toBe(404);
    }
  });

  it('a __proto__ key is refused the same over the WebSocket as over HTTP, and the export still imports', async () => {
    const c = await create();
    const body = `{"command": {"type": "add-combatant", "combatant": {"name": "Proto", "stats": {"__proto__": {"initiative": 9}}}}}`;
    const http = await fetch(`${server.url}/api/encounters/${c.encounter.id}/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${c.tokens.gm}` },
      body,
    });
    expect(http.status).toBe(400);
    expect(((await http.json()) as { error: { code: string } }).error.code).toBe('request/forbidden-key');
    const ctor = await cmd(c, {
      type: 'note',
      text: 'x',
      stats: JSON.parse('{"constructor": {"prototype": {}}}'),
    });
    expect(ctor.status).toBe(400);
    expect((ctor.body as { error: { code: string } }).error.code).toBe('request/forbidden-key');
    const live = new LiveClient(`${server.url}/api/encounters/${c.encounter.id}/live?token=${c.tokens.gm}`);
    await live.next((m) => m.type === 'hello');
    live.send(
      `{"type": "command", "id": "p", "command": {"type": "add-combatant", "combatant": {"name": "Proto", "stats": {"__proto__": {"initiative": 9}}}}}`,
    );
    const refused = await live.next((m) => m.type === 'error' || m.type === 'result');
    expect(refused).toMatchObject({ type: 'result', id: 'p', ok: false });
    expect(JSON.stringify(refused)).toContain('__proto__');
    const exported = await api(
      server.url,
      'GET',
      `/api/encounters/${c.encounter.id}/export`,
      undefined,
      c.tokens.gm,
    );
    const imported = await api(server.url, 'POST', '/api/encounters', { scenario: exported.body });
    expect(imported.status).toBe(201);
    live.close();
  });
});

describe('live connections', () => {
  const open = async (url: string) => {
    const client = new LiveClient(url);
    await client.next((m) => m.type === 'hello' || m.type === 'error');
    return client;
  };

  it('one encounter takes at most 100; the next is closed with a reason that says so', async () => {
    const c = await create();
    const url = `${server.url}/api/encounters/${c.encounter.id}/live?token=${c.tokens.table}`;
    const clients: LiveClient[] = [];
    for (let i = 0; i < 100; i++) clients.push(await open(url));
    expect(clients.every((x) => x.messages[0]!.type === 'hello')).toBe(true);
    const extra = await open(url);
    expect(extra.messages[0]!.type).toBe('error');
    expect(JSON.stringify(extra.messages[0])).toContain('100 live connections');
    await extra.next(() => extra.closed !== null).catch(() => undefined);
    expect(extra.closed?.code).toBe(4429);
    // A place is free again once a connection closes.
    clients.pop()!.close();
    await new Promise((r) => setTimeout(r, 200));
    const again = await open(url);
    expect(again.messages[0]!.type).toBe('hello');
    for (const x of [...clients, again]) x.close();
  });

  it('one address takes at most 200 across encounters', async () => {
    const clients: LiveClient[] = [];
    for (let e = 0; e < 3; e++) {
      const c = await create();
      const url = `${server.url}/api/encounters/${c.encounter.id}/live?token=${c.tokens.table}`;
      for (let i = 0; i < (e < 2 ? 100 : 1); i++) clients.push(await open(url));
    }
    const last = clients.at(-1)!;
    expect(last.messages[0]!.type).toBe('error');
    expect(JSON.stringify(last.messages[0])).toContain('200 live connections');
    for (const x of clients) x.close();
  });
});

describe('revoking and rotating links, archiving', () => {
  const get = (c: Created, token: string) =>
    api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, token);
  const post = (c: Created, what: 'revoke' | 'rotate', body: unknown, token = c.tokens.gm) =>
    api(server.url, 'POST', `/api/encounters/${c.encounter.id}/links/${what}`, body, token);
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
  type Links = {
    gm: string;
    table: string | null;
    players: Array<{ combatant: string; url?: string; allowed: string[]; revoked?: true }>;
    token?: string;
  };

  it("a player's link is revoked (its socket closed) and rotated to a new one that keeps what it allowed", async () => {
    const c = await create();
    const old = c.tokens.players.ana!;
    const patched = await api(
      server.url,
      'PATCH',
      `/api/encounters/${c.encounter.id}/links/ana`,
      { allowed: ['act'] },
      c.tokens.gm,
    );
    expect(patched.status).toBe(200);
    const live = new LiveClient(`${server.url}/api/encounters/${c.encounter.id}/live?token=${old}`);
    await live.next((m) => m.type === 'hello');
    expect((await post(c, 'revoke', { link: 'player', combatant: 'ana' }, old)).status).toBe(403);
    const revoked = await post(c, 'revoke', { link: 'player', combatant: 'ana' });
    expect(revoked.status).toBe(200);
    expect((revoked.body as Links).players.find((p) => p.combatant === 'ana')).toMatchObject({
      revoked: true,
    });
    const refused = await get(c, old);
    expect(refused.status).toBe(401);
    expect((refused.body as { error: { code: string } }).error.code).toBe('link/revoked');
    await live.next(() => live.closed !== null).catch(() => undefined);
    expect(live.closed).not.toBeNull();
    expect(live.messages.some((m) => m.type === 'revoked')).toBe(true);
    // Still revoked when the GM lists the links again.
    const listed = await api(
      server.url,
      'GET',
      `/api/encounters/${c.encounter.id}/links`,
      undefined,
      c.tokens.gm,
    );
    expect((listed.body as Links).players.find((p) => p.combatant === 'ana')!.revoked).toBe(true);
    expect((await get(c, old)).status).toBe(401);
    const rotated = await post(c, 'rotate', { link: 'player', combatant: 'ana' });
    expect(rotated.status).toBe(200);
    const ana = (rotated.body as Links).players.find((p) => p.combatant === 'ana')!;
    expect(ana.allowed).toEqual(['act']);
    const fresh = tokenOf(ana.url!);
    expect(fresh).not.toBe(old);
    expect((await get(c, fresh)).status).toBe(200);
    expect((await get(c, old)).status).toBe(401);
    // Rotating again retires the one just issued.
    const again = await post(c, 'rotate', { link: 'player', combatant: 'ana' });
    const newer = tokenOf((again.body as Links).players.find((p) => p.combatant === 'ana')!.url!);
    expect((await get(c, fresh)).status).toBe(401);
    expect((await get(c, newer)).status).toBe(200);
  });

  it("the table's link is revoked and rotated; the GM's can only be rotated, which renews every link", async () => {
    const c = await create();
    expect((await post(c, 'revoke', { link: 'table' })).status).toBe(200);
    expect((await get(c, c.tokens.table)).status).toBe(401);
    const table = await post(c, 'rotate', { link: 'table' });
    const newTable = tokenOf((table.body as Links).table!);
    expect((await get(c, newTable)).status).toBe(200);
    const gmRevoke = await post(c, 'revoke', { link: 'gm' });
    expect(gmRevoke.status).toBe(400);
    expect((gmRevoke.body as { error: { message: string } }).error.message).toContain('rotate it instead');
    const rotated = await post(c, 'rotate', { link: 'gm' });
    expect(rotated.status).toBe(200);
    const links = rotated.body as Links;
    const gm = links.token!;
    expect(gm).not.toBe(c.tokens.gm);
    for (const old of [c.tokens.gm, newTable, c.tokens.players.ana!])
      expect((await get(c, old)).status).toBe(401);
    expect((await get(c, gm)).status).toBe(200);
    expect((await get(c, tokenOf(links.table!))).status).toBe(200);
    expect((await get(c, tokenOf(links.players.find((p) => p.combatant === 'ana')!.url!))).status).toBe(200);
    expect((await post(c, 'rotate', { link: 'player', combatant: 'nobody' }, gm)).status).toBe(404);
  });

  it('an archived encounter takes no commands, from the GM or a player, until it is restored', async () => {
    const c = await create();
    expect((await cmd(c, { type: 'start' })).status).toBe(200);
    const patch = (status: string) =>
      api(server.url, 'PATCH', `/api/encounters/${c.encounter.id}`, { status }, c.tokens.gm);
    const live = new LiveClient(
      `${server.url}/api/encounters/${c.encounter.id}/live?token=${c.tokens.players.ana}`,
    );
    await live.next((m) => m.type === 'hello');
    expect((await patch('archived')).status).toBe(200);
    for (const token of [c.tokens.gm, c.tokens.players.ana!]) {
      const r = await cmd(c, { type: 'note', text: 'still here' }, token);
      expect(r.status).toBe(409);
      expect((r.body as { error: { message: string } }).error.message).toContain('archived');
    }
    // Over the socket too: Ana's turn, her own action, refused because the encounter is archived.
    live.send({ type: 'command', id: 'late', command: { type: 'act', actor: 'ana', action: 'dodge' } });
    expect(await live.next((m) => m.type === 'result' && m.id === 'late')).toMatchObject({
      ok: false,
      error: { code: 'encounter/archived' },
    });
    live.close();
    expect((await get(c, c.tokens.table)).status).toBe(200);
    expect((await patch('active')).status).toBe(200);
    expect((await cmd(c, { type: 'note', text: 'back' })).status).toBe(200);
  });
});
