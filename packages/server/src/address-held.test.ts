import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from './app.js';
import type { Created } from './hub.js';
import { CONNECTION_LIMITS } from './limits.js';
import { MemoryStorage } from './storage/memory.js';
import { AddressHeld, type HoldingSocket } from './transport.js';

// The sockets of one address share one budget for what they hold unsent: without it one address could
// hold 200 sockets × 1 MiB. Real sockets on 127.0.0.1 that stop reading, on a server in this process
// (the addresses told apart by X-Forwarded-For from a trusted proxy), the held bytes read from the
// server's own accounting.

let running: FastifyInstance | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const tick = () => new Promise((r) => setImmediate(r));
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The address budget: one socket's cap. The server stops reading a socket past half its cap, so one
 * paused socket stays under it and two of one address pass it.
 */
const ADDRESS_CAP = CONNECTION_LIMITS.heldBytes;

async function serve() {
  const { app, hub, addressHeld } = await buildApp({
    storage: new MemoryStorage(),
    registry: rulesets,
    logLevel: 'silent',
    rateLimit: 0,
    // No message budget: the held bytes alone stop the flood.
    wsRate: 0,
    // No heartbeat in the test's time: a client that does not read cannot answer pings, and the
    // heartbeat would drop it for that.
    heartbeatMs: 600_000,
    trustProxy: ['127.0.0.1'],
    addressHeldBytes: ADDRESS_CAP,
  });
  running = app;
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const c = await hub.create({
    name: 'Held',
    ruleset: 'classic',
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 } },
      { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 } },
    ],
  });
  return { url, c, addressHeld };
}

/** A table socket from `address`, open once its hello came. */
function open(url: string, c: Created, address: string): Promise<WebSocket> {
  const ws = new WebSocket(
    `${url.replace(/^http/, 'ws')}/api/encounters/${c.record.id}/live?token=${c.tokens.table}`,
    { headers: { 'x-forwarded-for': address } },
  );
  return new Promise((resolve, reject) => {
    ws.once('message', () => resolve(ws));
    ws.once('error', reject);
  });
}

const rawOf = (ws: WebSocket) => (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;

/**
 * The client stops reading and sends 1-byte frames (each answered with a refusal that piles up on the
 * server's side) until the server stops reading it (what the client sends then stays in its own queue)
 * or `stop` says so.
 */
async function flood(ws: WebSocket, stop: () => boolean): Promise<void> {
  rawOf(ws).pause();
  for (let sent = 0; sent < 400_000 && !stop(); sent += 1_000) {
    for (let i = 0; i < 1_000; i++) ws.send('x');
    await tick();
    if (ws.bufferedAmount > 256 * 1024) {
      // The server has stopped reading this socket, unless it is still catching up: given time to.
      for (let i = 0; i < 50 && !stop(); i++) await wait(20);
      return;
    }
  }
}

describe('what the sockets of one address hold unsent, together', () => {
  it('past the budget the socket that held longest is dropped; other addresses keep theirs', async () => {
    const { url, c, addressHeld } = await serve();
    // Another address's socket that stopped reading holds up to half a socket's cap on its own.
    const other = await open(url, c, '10.0.0.2');
    await flood(other, () => false);
    const otherHeld = addressHeld.held('10.0.0.2');
    expect(otherHeld).toBeGreaterThan(CONNECTION_LIMITS.heldBytes / 2);

    // One address opens sockets one after another, each flooding until the server stops reading it.
    const sockets: WebSocket[] = [];
    const closed: boolean[] = [];
    for (let i = 0; i < 4 && addressHeld.drops < 2; i++) {
      const ws = await open(url, c, '10.0.0.1');
      const n = sockets.push(ws) - 1;
      closed[n] = false;
      ws.on('close', () => {
        closed[n] = true;
      });
      const drops = addressHeld.drops;
      await flood(ws, () => addressHeld.drops > drops);
      expect(addressHeld.held('10.0.0.1')).toBeLessThanOrEqual(ADDRESS_CAP);
    }
    // Each paused socket holds more than half a socket's cap, so the budget dropped sockets of the
    // address, and what the address held never passed it.
    expect(addressHeld.drops).toBeGreaterThan(0);
    expect(addressHeld.peak).toBeLessThanOrEqual(ADDRESS_CAP);
    expect(addressHeld.held('10.0.0.1')).toBeGreaterThan(0);

    // The other address was not touched by the first one's budget: its socket still holds what it held.
    expect(addressHeld.held('10.0.0.2')).toBe(otherHeld);

    // The first socket, the one that held longest, was dropped (the client learns it when it reads).
    rawOf(sockets[0]!).resume();
    for (let i = 0; i < 100 && !closed[0]; i++) await wait(20);
    expect(closed[0]).toBe(true);
    for (const ws of [...sockets, other]) ws.terminate();
  });
});

/** A socket as the model sees it: what it really holds, which the kernel drains without telling. */
class ModelSocket implements HoldingSocket {
  held = 0;
  dropped = false;
  constructor(readonly address: string) {}
  drop(): void {
    this.dropped = true;
    this.held = 0;
  }
}

describe('AddressHeld, the accounting alone', () => {
  const op = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('write' as const),
        socket: fc.nat(7),
        bytes: fc.integer({ min: 1, max: 400 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('drain' as const),
        socket: fc.nat(7),
        bytes: fc.integer({ min: 1, max: 400 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), socket: fc.nat(7) }) },
  );

  it('whatever is written and drained, no address holds more than its budget, and only its own sockets pay', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 300 }), (ops) => {
        const CAP = 1_000;
        const held = new AddressHeld(CAP);
        // Sockets 0–5 share one address, 6 and 7 another.
        const sockets = Array.from({ length: 8 }, (_, i) => new ModelSocket(i < 6 ? 'a' : 'b'));
        const real = (address: string) =>
          sockets.filter((s) => s.address === address && !s.dropped).reduce((n, s) => n + s.held, 0);
        for (const o of ops) {
          // A client whose socket was dropped or closed opens another.
          if (sockets[o.socket]!.dropped) sockets[o.socket] = new ModelSocket(sockets[o.socket]!.address);
          const s = sockets[o.socket]!;
          if (o.kind === 'close') {
            held.forget(s);
            s.dropped = true;
            s.held = 0;
          } else if (o.kind === 'drain') s.held = Math.max(0, s.held - o.bytes);
          else {
            const before = sockets.map((x) => ({ dropped: x.dropped, held: x.held }));
            const written = held.makeRoom(s, o.bytes);
            if (written) {
              s.held += o.bytes;
              held.note(s, s.held);
            }
            sockets.forEach((x, i) => {
              if (x.dropped && !before[i]!.dropped) {
                // Only a socket of the writer's address, and only one that really held something.
                expect(x.address).toBe(s.address);
                expect(before[i]!.held).toBeGreaterThan(0);
              }
            });
            expect(real(s.address)).toBeLessThanOrEqual(CAP);
          }
        }
        expect(held.peak).toBeLessThanOrEqual(CAP);
        for (const address of ['a', 'b']) expect(held.held(address)).toBe(real(address));
      }),
    );
  });
});
