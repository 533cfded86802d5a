import { request } from 'node:http';
import type { Socket } from 'node:net';
import { rulesets } from '@roundkeeper/rulesets';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from './app.js';
import type { Created, Hub } from './hub.js';
import { MemoryStorage } from './storage/memory.js';
import type { LinkRecord } from './storage/storage.js';
import { LiveClient } from './test-process.js';

// The live socket's timing rules, on a server in this process (listening on 127.0.0.1) so that the
// heartbeat can be short and the storage slow.

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  options: { heartbeatMs?: number; storage?: MemoryStorage } = {},
): Promise<{ url: string; app: FastifyInstance; hub: Hub }> {
  const { app, hub } = await buildApp({
    storage: options.storage ?? new MemoryStorage(),
    registry: rulesets,
    logLevel: 'silent',
    rateLimit: 0,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
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
