import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, LiveClient, type ServerProcess, startServerProcess } from './test-process.js';

/**
 * Players add their own conditions, per link (issue 33): the GM allows a player link add-effect and
 * remove-effect; over HTTP and over the socket, the player's own character passes and another's is
 * refused in words. A real server process, as the other server tests.
 */
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
type Failure = { error: { code: string; message: string } };

async function create(): Promise<Created> {
  const r = await api(server.url, 'POST', '/api/encounters', {
    name: 'Own conditions',
    ruleset: 'classic',
    seed: 3,
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
      { id: 'bren', name: 'Bren', side: 'pc', hp: 24 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ],
  });
  expect(r.status).toBe(201);
  return r.body as Created;
}

const allow = (c: Created, allowed: string[]) =>
  api(server.url, 'PATCH', `/api/encounters/${c.encounter.id}/links/ana`, { allowed }, c.tokens.gm);
const cmd = (c: Created, command: unknown, token: string) =>
  api(server.url, 'POST', `/api/encounters/${c.encounter.id}/commands`, { command }, token);

describe("a player's own conditions, where the GM allows them", () => {
  it('over HTTP: off by default; once allowed, on their own character only', async () => {
    const c = await create();
    const ana = c.tokens.players.ana!;
    const blessed = { type: 'add-effect', target: 'ana', name: 'Blessed', duration: { kind: 'indefinite' } };
    expect(((await cmd(c, blessed, ana)).body as Failure).error.code).toBe('link/not-allowed');

    expect((await allow(c, ['act', 'delay', 'next', 'add-effect', 'remove-effect'])).status).toBe(200);
    const links = (
      await api(server.url, 'GET', `/api/encounters/${c.encounter.id}/links`, undefined, c.tokens.gm)
    ).body as { players: Array<{ combatant: string; allowed: string[] }> };
    expect(links.players.find((p) => p.combatant === 'ana')?.allowed).toContain('add-effect');

    expect((await cmd(c, blessed, ana)).status).toBe(200);
    const other = await cmd(
      c,
      { type: 'add-effect', target: 'orc', name: 'Prone', duration: { kind: 'indefinite' } },
      ana,
    );
    expect(other.status).toBe(403);
    expect((other.body as Failure).error.message).toBe(
      'A player adds conditions only to their own character (Ana); ask the GM to put Prone on Orc.',
    );
    // The GM puts one on Bren: Ana may not take it off; Ana's own she may.
    await cmd(
      c,
      { type: 'add-effect', target: 'bren', name: 'Stunned', duration: { kind: 'indefinite' } },
      c.tokens.gm,
    );
    const state = (await api(server.url, 'GET', `/api/encounters/${c.encounter.id}`, undefined, c.tokens.gm))
      .body as { state: { effects: Array<{ id: string; name: string }> } };
    const stunned = state.state.effects.find((e) => e.name === 'Stunned')!.id;
    const mine = state.state.effects.find((e) => e.name === 'Blessed')!.id;
    const off = await cmd(c, { type: 'remove-effect', effect: stunned }, ana);
    expect(off.status).toBe(403);
    expect((off.body as Failure).error.message).toContain('That condition is on Bren, not on Ana');
    expect((await cmd(c, { type: 'remove-effect', effect: mine }, ana)).status).toBe(200);
  });

  it('over the socket: the same, and the switch turned on while connected applies to the next command', async () => {
    const c = await create();
    const id = c.encounter.id;
    const ana = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.players.ana}`);
    await ana.opened();
    await ana.next((m) => m.type === 'hello');
    ana.send({
      type: 'command',
      id: 'a0',
      command: { type: 'add-effect', target: 'ana', name: 'Blessed', duration: { kind: 'indefinite' } },
    });
    expect(await ana.next((m) => m.type === 'result' && m.id === 'a0')).toMatchObject({
      ok: false,
      error: { code: 'link/not-allowed' },
    });
    await allow(c, ['act', 'next', 'add-effect', 'remove-effect']);
    ana.send({
      type: 'command',
      id: 'a1',
      command: { type: 'add-effect', target: 'ana', name: 'Blessed', duration: { kind: 'indefinite' } },
    });
    expect(await ana.next((m) => m.type === 'result' && m.id === 'a1')).toMatchObject({ ok: true });
    ana.send({
      type: 'command',
      id: 'a2',
      command: { type: 'add-effect', target: 'bren', name: 'Blessed', duration: { kind: 'indefinite' } },
    });
    const refused = await ana.next((m) => m.type === 'result' && m.id === 'a2');
    expect(refused).toMatchObject({ ok: false, error: { code: 'link/not-your-character' } });
    expect((refused as unknown as Failure).error.message).toContain('ask the GM to put Blessed on Bren');
    ana.close();
  });

  it("the player's socket hears what its link allows: in hello, and at once when the GM changes it", async () => {
    const c = await create();
    const id = c.encounter.id;
    const ana = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.players.ana}`);
    const gm = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.gm}`);
    await Promise.all([ana.opened(), gm.opened()]);
    const hello = await ana.next((m) => m.type === 'hello');
    expect(hello.allowed).toEqual(expect.arrayContaining(['act']));
    expect(hello.allowed).not.toContain('add-effect');
    expect((await gm.next((m) => m.type === 'hello')).allowed).toBeUndefined();

    const on = [...(hello.allowed as string[]), 'add-effect', 'remove-effect'];
    await allow(c, on);
    expect(await ana.next((m) => m.type === 'allowed')).toEqual({ type: 'allowed', allowed: on });
    // The same list again is no news; turning it off is.
    await allow(c, on);
    await allow(c, hello.allowed as string[]);
    await ana.next((m) => m.type === 'allowed' && !(m.allowed as string[]).includes('add-effect'));
    expect(ana.messages.filter((m) => m.type === 'allowed').map((m) => m.allowed)).toEqual([
      on,
      hello.allowed,
    ]);
    expect(gm.messages.some((m) => m.type === 'allowed')).toBe(false);
    // A fresh socket says the same in its hello.
    const again = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${c.tokens.players.ana}`);
    await again.opened();
    expect((await again.next((m) => m.type === 'hello')).allowed).toEqual(hello.allowed);
    for (const s of [ana, gm, again]) s.close();
  });

  it('the GM may allow only commands the server knows', async () => {
    const c = await create();
    const r = await allow(c, ['add-effect', 'damage']);
    expect(r.status).toBe(400);
    expect((r.body as Failure).error.message).toContain('damage');
  });
});
