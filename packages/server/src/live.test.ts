import { request } from 'node:http';
import type { Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { rulesets } from '@roundkeeper/rulesets';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from './app.js';
import type { Created, Hub } from './hub.js';
import { TokenBucket } from './limits.js';
import { MemoryStorage } from './storage/memory.js';
import type { LinkRecord } from './storage/storage.js';
import { memoryApp } from './test-app.js';
import { LiveClient } from './test-process.js';

// The live socket's timing rules, on a server in this process (listening on 127.0.0.1) so that the
// heartbeat can be short and the storage slow.

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Storage that takes real time to change a link, as a networked database does. */
class SlowUpdateStorage extends MemoryStorage {
  override async updateLink(hash: string, patch: { allowed?: string[]; label?: string; revoked?: true }) {
    await wait(80);
    return super.updateLink(hash, patch);
  }
}

/** Storage that takes real time to find a link, as a networked database does. */
class SlowLinkStorage extends MemoryStorage {
  override async findLink(hash: string): Promise<LinkRecord | undefined> {
    await wait(80);
    return super.findLink(hash);
  }
}

let running: FastifyInstance | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(
  options: { heartbeatMs?: number; storage?: MemoryStorage; wsRate?: number } = {},
): Promise<{ url: string; app: FastifyInstance; hub: Hub }> {
  const { app, hub } = await buildApp({
    storage: options.storage ?? new MemoryStorage(),
    registry: rulesets,
    logLevel: 'silent',
    rateLimit: 0,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.wsRate !== undefined ? { wsRate: options.wsRate } : {}),
  });
  running = app;
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, app, hub };
}

const party = [
  { id: 'ana', name: 'Ana', side: 'pc' as const, stats: { initiative: 3 } },
  { id: 'orc', name: 'Orc', stats: { initiative: 1 }, hp: 500 },
];

const liveUrl = (url: string, c: Created, token = c.tokens.gm) =>
  `${url}/api/encounters/${c.record.id}/live?token=${token}`;

describe('live sockets: heartbeats, early messages, slow consumers', () => {
  it('heartbeats drop a connection that does not answer pings and keep one that does', async () => {
    const { url, hub } = await serve({ heartbeatMs: 100 });
    const c = await hub.create({ name: 'Beat', ruleset: 'classic', combatants: party });
    const answering = new LiveClient(liveUrl(url, c));
    const silent = new WebSocket(liveUrl(url, c).replace(/^http/, 'ws'), { autoPong: false });
    let silentClosed = false;
    silent.on('close', () => {
      silentClosed = true;
    });
    await answering.next((m) => m.type === 'hello');
    await wait(500);
    expect(silentClosed).toBe(true);
    expect(answering.closed).toBeNull();
    answering.close();
  });

  it('answers messages sent as soon as the socket opens, even when the link takes time to check', async () => {
    const { url, hub } = await serve({ storage: new SlowLinkStorage() });
    const c = await hub.create({ name: 'Early', ruleset: 'classic', combatants: party });
    const client = new LiveClient(liveUrl(url, c));
    await client.opened();
    client.send({ type: 'ping' });
    client.send({ type: 'command', id: 'c1', command: { type: 'start' } });
    await client.next((m) => m.type === 'pong');
    expect(await client.next((m) => m.type === 'result')).toMatchObject({ id: 'c1', ok: true });
    client.close();
  });

  it('drops a consumer that stops reading once its buffer passes 1 MiB, without stalling the others', async () => {
    const { url, app, hub } = await serve();
    // GM notes make the first view large, and each change below rewrites one (the GM's delta carries them).
    const crowd = Array.from({ length: 150 }, (_, i) => ({
      id: `npc${i}`,
      name: `Npc ${i}`,
      stats: { initiative: 1 },
      hp: 10,
      notes: 'n'.repeat(1500),
    }));
    const c = await hub.create({ name: 'Crowd', ruleset: 'classic', combatants: [...party, ...crowd] });
    const fast = new LiveClient(liveUrl(url, c));
    await fast.next((m) => m.type === 'hello');
    // A client that completes the handshake and then never reads again.
    const stalled = await new Promise<Socket>((resolve, reject) => {
      const u = new URL(liveUrl(url, c));
      const req = request({
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('upgrade', (_res, socket) => {
        socket.pause();
        resolve(socket);
      });
      req.on('error', reject);
      req.end();
    });
    const ws = (app as unknown as { websocketServer: { clients: Set<unknown> } }).websocketServer;
    expect(ws.clients.size).toBe(2);
    const gm = await hub.link(c.tokens.gm, c.record.id);
    const rounds = 600;
    for (let i = 0; i < rounds; i++) {
      const notes = String(i % 7).repeat(10_000);
      await hub.command(c.record.id, gm, { type: 'update-combatant', combatant: `npc${i % 150}`, notes });
      // Commands come one per request: the sockets get a turn of the event loop between them.
      await new Promise((r) => setImmediate(r));
    }
    const last = (await hub.snapshotFor(c.record.id, gm)).seq;
    // The reading client got every change, and the one that stopped reading was let go.
    await fast.next((m) => m.type === 'change' && m.seq === last);
    expect(fast.messages.filter((m) => m.type === 'change')).toHaveLength(rounds);
    await wait(50);
    expect(ws.clients.size).toBe(1);
    expect(fast.closed).toBeNull();
    stalled.destroy();
    fast.close();
  });
});

describe('live sockets: a message budget a GM never empties', () => {
  it('takes a burst of 30 at once, then holds a flood to the refill rate', () => {
    const bucket = new TokenBucket(30, 50);
    let passed = 0;
    for (let i = 0; i < 30; i++) if (bucket.take(1000)) passed++;
    expect(passed).toBe(30);
    expect(bucket.take(1000)).toBe(false);
    // A flood of 1,000 messages a second for 2 s: only the refill (50 a second) gets through.
    passed = 0;
    for (let t = 0; t < 2000; t++) if (bucket.take(1000 + t)) passed++;
    expect(passed).toBeGreaterThanOrEqual(99);
    expect(passed).toBeLessThanOrEqual(101);
    // A GM clicking through turns (five commands a second) is never refused.
    const gm = new TokenBucket(30, 50);
    for (let t = 0; t < 60_000; t += 200) expect(gm.take(t)).toBe(true);
  });

  it('over a socket: a burst passes, a sustained flood gets request/rate-limited', async () => {
    const { url, hub } = await serve({ wsRate: 50 });
    const c = await hub.create({ name: 'Flood', ruleset: 'classic', combatants: party });
    const client = new LiveClient(liveUrl(url, c));
    await client.next((m) => m.type === 'hello');
    for (let i = 0; i < 25; i++) client.send({ type: 'ping' });
    await client.next(() => client.messages.filter((m) => m.type === 'pong').length === 25);
    expect(client.messages.some((m) => m.type === 'error')).toBe(false);
    for (let i = 0; i < 200; i++) client.send({ type: 'ping' });
    const limited = await client.next((m) => m.type === 'error');
    expect(limited).toMatchObject({ error: { code: 'request/rate-limited' } });
    client.close();
  });
});

describe('live sockets: authorized once, kept current when the GM changes links', () => {
  const player = async (url: string, hub: Hub) => {
    // Ana goes first whatever the dice: her link may end her turn.
    const first = [
      { id: 'ana', name: 'Ana', side: 'pc' as const, stats: { initiative: 30 } },
      { id: 'orc', name: 'Orc', stats: { initiative: 1 }, hp: 500 },
    ];
    const c = await hub.create({ name: 'Links', ruleset: 'classic', combatants: first });
    const gm = await hub.link(c.tokens.gm, c.record.id);
    await hub.command(c.record.id, gm, { type: 'start' });
    const ana = new LiveClient(liveUrl(url, c, c.tokens.players.ana));
    await ana.next((m) => m.type === 'hello');
    return { c, gm, ana, seq: async () => (await hub.snapshotFor(c.record.id, gm)).seq };
  };

  it('a command on a socket whose link was revoked is refused, even one sent while the revocation ran', async () => {
    const { url, hub } = await serve({ storage: new SlowUpdateStorage() });
    const { c, ana, seq } = await player(url, hub);
    const before = await seq();
    // Ana's turn: her link may end it. Sent while the revocation is being stored.
    const revoking = hub.revokeLink(c.record.id, c.tokens.gm, { role: 'player', combatant: 'ana' });
    await wait(20);
    ana.send({ type: 'command', id: 'late', command: { type: 'next' } });
    await revoking;
    await ana.next(() => ana.closed !== null).catch(() => undefined);
    await wait(50);
    expect(await seq()).toBe(before);
    const result = ana.messages.find((m) => m.type === 'result');
    if (result) expect(result).toMatchObject({ ok: false, error: { code: 'link/revoked' } });
  });

  it("a socket's commands follow what the GM allows its link now", async () => {
    const { url, hub } = await serve();
    const { c, ana, seq } = await player(url, hub);
    const before = await seq();
    await hub.setAllowed(c.record.id, c.tokens.gm, 'ana', ['act']);
    ana.send({ type: 'command', id: 'n1', command: { type: 'next' } });
    const refused = await ana.next((m) => m.type === 'result');
    expect(refused).toMatchObject({ ok: false, error: { code: 'link/not-allowed' } });
    expect(await seq()).toBe(before);
    await hub.setAllowed(c.record.id, c.tokens.gm, 'ana', ['act', 'next']);
    ana.send({ type: 'command', id: 'n2', command: { type: 'next' } });
    expect(await ana.next((m) => m.type === 'result' && m.id === 'n2')).toMatchObject({ ok: true });
    ana.close();
  });
});

describe('live sockets: one write per turn', () => {
  it("a command's change and its result reach the GM who sent it in one write", async () => {
    const { url, app, hub } = await serve();
    const c = await hub.create({ name: 'Writes', ruleset: 'classic', combatants: party });
    const gm = new LiveClient(liveUrl(url, c));
    await gm.next((m) => m.type === 'hello');
    const server = (app as unknown as { websocketServer: { clients: Set<{ _socket: Socket }> } })
      .websocketServer;
    const raw = [...server.clients][0]!._socket as Socket & {
      _write: (...a: unknown[]) => void;
      _writev: (...a: unknown[]) => void;
    };
    let writes = 0;
    for (const name of ['_write', '_writev'] as const) {
      const original = raw[name].bind(raw);
      raw[name] = (...a: unknown[]) => {
        writes++;
        original(...a);
      };
    }
    gm.send({ type: 'command', id: 'c1', command: { type: 'start' } });
    await gm.next((m) => m.type === 'result');
    expect(gm.messages.some((m) => m.type === 'change')).toBe(true);
    expect(writes).toBe(1);
    gm.close();
  });

  it('a change every viewer gets is one buffer, framed once, each socket writing it in one piece', async () => {
    const { url, app, hub } = await serve();
    const c = await hub.create({ name: 'Frames', ruleset: 'classic', combatants: party });
    const gm = new LiveClient(liveUrl(url, c));
    await gm.next((m) => m.type === 'hello');
    const viewers = [c.tokens.table, c.tokens.players.ana!].map((t) => new LiveClient(liveUrl(url, c, t)));
    for (const v of viewers) await v.next((m) => m.type === 'hello');
    const server = (app as unknown as { websocketServer: { clients: Set<{ _socket: Socket }> } })
      .websocketServer;
    // What each socket writes: the chunks of a write, or of a writev.
    const written: unknown[][][] = [];
    for (const client of server.clients) {
      const raw = client._socket as Socket & {
        _write: (chunk: unknown, ...a: unknown[]) => void;
        _writev: (chunks: Array<{ chunk: unknown }>, ...a: unknown[]) => void;
      };
      const write = raw._write.bind(raw);
      const writev = raw._writev.bind(raw);
      const mine: unknown[][] = [];
      written.push(mine);
      raw._write = (chunk, ...a) => {
        mine.push([chunk]);
        write(chunk, ...a);
      };
      raw._writev = (chunks, ...a) => {
        mine.push(chunks.map((c) => c.chunk));
        writev(chunks, ...a);
      };
    }
    await hub.command(c.record.id, (await hub.link(c.tokens.gm, c.record.id))!, { type: 'start' });
    for (const v of [gm, ...viewers]) await v.next((m) => m.type === 'change');
    // The table and the player got the same bytes: one write of one chunk each, the same buffer.
    for (const w of written) expect(w.map((chunks) => chunks.length)).toEqual([1]);
    expect(new Set(written.flat(2)).size).toBe(2);
    for (const v of [gm, ...viewers]) expect(v.resyncs).toEqual([]);
    expect(viewers[0]!.held).toEqual(viewers[1]!.held);
    for (const v of [gm, ...viewers]) v.close();
  });
});

describe('live sockets: what a connection keeps', () => {
  it('an open socket does not keep its upgrade request alive (nor, through it, its reply), nor its query, parameters or logger', async () => {
    const { app, hub } = await memoryApp();
    running = app;
    const requests: Array<WeakRef<object>> = [];
    app.addHook('onRequest', async (req) => {
      // The request, and what a closure of the live route could hold of it without holding it.
      if (req.url.includes('/live'))
        for (const kept of [req, req.query as object, req.params as object, req.log])
          requests.push(new WeakRef(kept));
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const c = await hub.create({ name: 'Kept', ruleset: 'classic', combatants: party });
    const gm = new LiveClient(liveUrl(url, c));
    await gm.next((m) => m.type === 'hello');
    expect(requests).toHaveLength(4);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    for (let i = 0; i < 5 && requests.some((r) => r.deref()); i++) {
      await wait(20);
      gc();
    }
    expect(requests.map((r) => r.deref())).toEqual([undefined, undefined, undefined, undefined]);
    // The socket still works.
    gm.send({ type: 'command', id: 'c1', command: { type: 'start' } });
    expect(await gm.next((m) => m.type === 'result')).toMatchObject({ ok: true });
    gm.close();
  });
});
