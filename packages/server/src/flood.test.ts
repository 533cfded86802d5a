import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONNECTION_LIMITS } from './limits.js';
import { api, type ServerProcess, startServerProcess } from './test-process.js';

// Issue 34, item 1: a client that holds a link, opens the live socket, never reads, and writes 1-byte
// frames. Against real server processes; what the server holds is read from its own log lines.

interface Created {
  encounter: { id: string };
  tokens: { gm: string; table: string; players: Record<string, string> };
}

const party = [
  { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 } },
  { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 } },
];

async function create(server: ServerProcess): Promise<Created> {
  const r = await api(server.url, 'POST', '/api/encounters', {
    name: 'Flood',
    ruleset: 'classic',
    seed: 1,
    combatants: party,
  });
  expect(r.status).toBe(201);
  return r.body as Created;
}

const tokensOf = (c: Created) => ({ gm: c.tokens.gm, table: c.tokens.table, player: c.tokens.players.ana! });

function open(server: ServerProcess, c: Created, token: string): Promise<WebSocket> {
  const ws = new WebSocket(
    `${server.url.replace(/^http/, 'ws')}/api/encounters/${c.encounter.id}/live?token=${token}`,
  );
  return new Promise((resolve, reject) => {
    ws.once('message', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** The server's log lines (pino, one JSON object a line) with this message. */
function logLines(server: ServerProcess, msg: string): Array<Record<string, number>> {
  return server
    .stdout()
    .split('\n')
    .filter((l) => l.includes(msg))
    .map((l) => JSON.parse(l) as Record<string, number>);
}

const tick = () => new Promise((r) => setImmediate(r));

describe('a client that floods and never reads (no message budget: the held-bytes cap alone)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(undefined, ['--rate-limit', '0', '--socket-rate', '0']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const kind of ['gm', 'table', 'player'] as const) {
    it(`${kind} link: the server stops reading, and what it holds for the socket stays under its cap`, async () => {
      const c = await create(server);
      const ws = await open(server, c, tokensOf(c)[kind]);
      const before = logLines(server, 'live connection closed').length;
      // The client stops reading: every reply the server writes piles up on the server's side.
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const paused = () => logLines(server, 'stopped reading').length;
      const pausedBefore = paused();
      let sent = 0;
      while (paused() === pausedBefore && sent < 400_000) {
        for (let i = 0; i < 2_000; i++) ws.send('x');
        sent += 2_000;
        // The client's own queue growing means the server stopped reading from the connection.
        while (ws.bufferedAmount > 4 * 2 ** 20 && paused() === pausedBefore) await tick();
        await tick();
      }
      // A server slowed by a busy machine may still be reading what was sent: it is given time to.
      for (let i = 0; i < 300 && paused() === pausedBefore; i++) await new Promise((r) => setTimeout(r, 100));
      expect(
        paused(),
        `no back-pressure after ${sent} frames: ${server.stdout().slice(-2000)}`,
      ).toBeGreaterThan(pausedBefore);
      // The health check is answered at once meanwhile.
      const t0 = performance.now();
      expect((await api(server.url, 'GET', '/api/health')).status).toBe(200);
      expect(performance.now() - t0).toBeLessThan(1_000);
      ws.terminate();
      for (let i = 0; i < 100 && logLines(server, 'live connection closed').length === before; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const closed = logLines(server, 'live connection closed').slice(before);
      expect(closed).toHaveLength(1);
      expect(closed[0]!.cap).toBe(CONNECTION_LIMITS.heldBytes);
      expect(closed[0]!.peak).toBeGreaterThan(CONNECTION_LIMITS.heldBytes / 2);
      expect(closed[0]!.peak).toBeLessThanOrEqual(CONNECTION_LIMITS.heldBytes);
    });
  }
});

describe('a client that floods past its message budget', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(undefined, ['--rate-limit', '0']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const kind of ['gm', 'table', 'player'] as const) {
    it(`${kind} link: is closed (1008), its refusals not answered one per frame`, async () => {
      const c = await create(server);
      const ws = await open(server, c, tokensOf(c)[kind]);
      const replies: Array<{ type: string; error?: { code: string } }> = [];
      ws.on('message', (d) => replies.push(JSON.parse(String(d))));
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      for (let i = 0; i < 5_000 && ws.readyState === WebSocket.OPEN; i++) {
        ws.send('x');
        if (i % 500 === 0) await tick();
      }
      expect(await closed).toBe(1008);
      // The burst's malformed-JSON answers, one rate-limited refusal, and the closing one.
      expect(replies.length).toBeLessThanOrEqual(30 + 2);
      expect(replies.filter((m) => m.error?.code === 'request/rate-limited').length).toBeLessThanOrEqual(2);
      expect(replies.at(-1)?.error?.code).toBe('request/rate-limited');
    });
  }
});
