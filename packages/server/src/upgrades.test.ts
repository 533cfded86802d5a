import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONNECTION_LIMITS } from './limits.js';
import { api, LiveClient, type ServerProcess, startServerProcess } from './test-process.js';

// Issue 34, items 5 and 6, and the close code of item 7, against real server processes.

interface Created {
  encounter: { id: string };
  tokens: { gm: string; table: string };
}

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(undefined, ['--rate-limit', '0']);
});
afterAll(async () => {
  await server?.stop();
});

async function create(s: ServerProcess): Promise<Created> {
  const r = await api(s.url, 'POST', '/api/encounters', {
    name: 'Doors',
    ruleset: 'classic',
    combatants: [{ id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 } }],
  });
  expect(r.status).toBe(201);
  return r.body as Created;
}

const wsUrl = (s: ServerProcess, path: string) => `${s.url.replace(/^http/, 'ws')}${path}`;

/** What an upgrade to `path` gets: the HTTP status it is refused with, or 101 when it is upgraded. */
function upgrade(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(server, path));
    ws.once('upgrade', () => {
      ws.terminate();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

describe('WebSocket upgrades', () => {
  it('are refused on every route but the live one', async () => {
    const c = await create(server);
    for (const path of [
      '/',
      '/api/health',
      '/api/rulesets',
      '/e/x',
      `/api/encounters/${c.encounter.id}`,
      '/nope',
    ]) {
      expect(await upgrade(path), path).toBe(404);
    }
    expect(await upgrade(`/api/encounters/${c.encounter.id}/live?token=${c.tokens.table}`)).toBe(101);
  });
});

describe("the GM's connection always gets in", () => {
  it(`with the encounter's ${CONNECTION_LIMITS.perEncounter} connections taken by the table's link`, async () => {
    const c = await create(server);
    const live = (token: string) =>
      new LiveClient(`${server.url}/api/encounters/${c.encounter.id}/live?token=${token}`);
    const tables = Array.from({ length: CONNECTION_LIMITS.perEncounter }, () => live(c.tokens.table));
    await Promise.all(tables.map((t) => t.next((m) => m.type === 'hello', 20_000)));
    const extra = live(c.tokens.table);
    await expect(extra.next((m) => m.type === 'hello')).rejects.toThrow(/closed \(4429\)/);
    const gm = live(c.tokens.gm);
    expect(await gm.next((m) => m.type === 'hello')).toMatchObject({ role: 'gm' });
    for (const t of [...tables, gm]) t.close();
  });
});

describe('shutting down', () => {
  it('closes live connections with 1001 (going away) on SIGTERM', async () => {
    const own = await startServerProcess();
    const c = await create(own);
    const client = new LiveClient(`${own.url}/api/encounters/${c.encounter.id}/live?token=${c.tokens.gm}`);
    await client.next((m) => m.type === 'hello');
    const code = new Promise<number>((r) => client.ws.once('close', (n) => r(n)));
    await own.stop('SIGTERM');
    expect(await code).toBe(1001);
  });
});

describe('shutting down with a client that does not read', () => {
  it('does not wait for it: the process exits within a few seconds of SIGTERM', async () => {
    const own = await startServerProcess();
    const c = await create(own);
    const ws = new WebSocket(wsUrl(own, `/api/encounters/${c.encounter.id}/live?token=${c.tokens.table}`));
    await new Promise((r) => ws.once('message', r));
    // It stops reading: the close handshake it owes never comes.
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const t0 = performance.now();
    expect(await own.stop('SIGTERM')).toBe(0);
    expect(performance.now() - t0).toBeLessThan(5_000);
    ws.terminate();
  });
});

describe('shutting down with connections that never finish a request', () => {
  it('does not wait for them: a preconnected socket and a half-sent request are cut, the process exits within a few seconds', async () => {
    const own = await startServerProcess();
    const { port } = new URL(own.url);
    const open = (first?: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          if (first) socket.write(first);
          resolve(socket);
        });
        // Cut by the server (a reset) is what is expected of it once connected.
        socket.on('error', reject);
      });
    // What a browser opens ahead of need (no request yet), and a request whose headers never end:
    // Node's close() waits ~60 s for both (its header timeout), which held a restart that long.
    const sockets = [await open(), await open('GET /api/health HTTP/1.1\r\nHost: x\r\n')];
    const closed = sockets.map((s) => new Promise<void>((r) => s.once('close', () => r())));
    const t0 = performance.now();
    expect(await own.stop('SIGTERM')).toBe(0);
    expect(performance.now() - t0).toBeLessThan(5_000);
    await Promise.all(closed);
  });
});
