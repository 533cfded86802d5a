import { request } from 'node:http';
import { type EncounterState, type LogEntry, reduce, view } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStorage } from './storage/postgres.js';
import { deployedNginxConfig, type Nginx, nginxBinary, startNginx, Viewer } from './test-cluster.js';
import { postgresAvailable, testDatabase } from './test-postgres.js';
import { api, type ServerProcess, startServerProcess, tempDir } from './test-process.js';

// Several real server processes on one PostgreSQL database, behind a real nginx configured as
// docs/deploy.md shows: round-robin, no sticky sessions, WebSocket upgrades.

const nginxAt = nginxBinary();
const available = (await postgresAvailable()) ? nginxAt : undefined;

const party = [
  { id: 'ana', name: 'Ana', side: 'pc' as const, stats: { initiative: 3 } },
  { id: 'bren', name: 'Bren', side: 'pc' as const, stats: { initiative: 2 } },
  { id: 'orc', name: 'Orc', stats: { initiative: 1 }, hp: 100_000 },
];

interface Created {
  encounter: { id: string };
  tokens: { gm: string; table: string; players: Record<string, string> };
}

const cleanUps: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  // Everything a test started, last first: viewers, nginx, instances, then the database.
  for (const c of cleanUps.splice(0).reverse()) await c().catch(() => undefined);
});

async function cluster(
  instances: number,
): Promise<{ db: string; drop: () => Promise<void>; servers: ServerProcess[]; nginx: Nginx }> {
  const db = await testDatabase();
  cleanUps.push(db.drop);
  const servers: ServerProcess[] = [];
  for (let i = 0; i < instances; i++) {
    const s = await startServerProcess(tempDir(), ['--rate-limit', '0'], {
      env: { RK_DATABASE_URL: db.url },
    });
    // A process killed by a signal has no exit code: it has already gone.
    cleanUps.push(async () => (s.proc.signalCode === null ? s.stop('SIGKILL') : undefined));
    servers.push(s);
  }
  const nginx = await startNginx(
    available!,
    servers.map((s) => s.url),
  );
  cleanUps.push(nginx.stop);
  return { db: db.url, drop: db.drop, servers, nginx };
}

function viewerOf(base: string, id: string, token: string): Viewer {
  const v = new Viewer(base, id, token);
  cleanUps.push(async () => v.close());
  return v;
}

const consecutive = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i + 1);

/**
 * The seqs of the entries a link's holder is sent after `after`: every one for the GM; the others do
 * not see some (a GM's secret roll), and the events endpoint says which.
 */
async function visibleSeqs(base: string, id: string, token: string, after: number): Promise<number[]> {
  const r = await api(base, 'GET', `/api/encounters/${id}/events?after=${after}`, undefined, token);
  return (r.body as { entries: Array<{ seq: number }> }).entries.map((e) => e.seq);
}

/**
 * The viewer holds exactly the view the server gives its link, built from the first view and each change's
 * delta, and no change ever failed to follow the view it held.
 */
async function expectHeld(v: Viewer, base: string, id: string, token: string): Promise<void> {
  expect(v.resyncs).toEqual([]);
  const r = await api(base, 'GET', `/api/encounters/${id}`, undefined, token);
  expect(JSON.stringify(v.held?.state)).toBe(JSON.stringify((r.body as { state: unknown }).state));
}

/** The GM's view of the encounter folded from its whole stored log, as nothing cached could differ. */
async function replayed(db: string, id: string) {
  const storage = await PostgresStorage.open(db);
  try {
    const entries: LogEntry[] = await storage.readEntries(id);
    const state = reduce(entries, rulesets) as EncounterState;
    return { entries, state: view(state, { role: 'gm' }, rulesets[state.ruleset]!) };
  } finally {
    await storage.close();
  }
}

describe.skipIf(!available)('several instances behind nginx on one PostgreSQL database', () => {
  beforeAll(() => {
    // The configuration the tests run is the one the deployment guide shows.
    expect(deployedNginxConfig(['http://127.0.0.1:1', 'http://127.0.0.1:2'], 9)).toContain(
      'proxy_set_header Upgrade $http_upgrade;',
    );
  });

  it('a GM and five viewers spread over two instances: 500 commands, every viewer gets every change in order, every instance the same state', async () => {
    const { db, servers, nginx } = await cluster(2);
    const created = (
      await api(nginx.url, 'POST', '/api/encounters', { name: 'LB', ruleset: 'classic', combatants: party })
    ).body as Created;
    const id = created.encounter.id;
    const t = created.tokens;
    // The GM's page and five viewers: the table screen twice, each player, and a second phone of Ana's.
    const tokens = [t.gm, t.table, t.players.ana!, t.players.bren!, t.table, t.players.ana!];
    const viewers = tokens.map((token) => viewerOf(nginx.url, id, token));
    for (const v of viewers) await v.start();
    // Round-robin spread the sockets over both instances.
    expect(new Set(viewers.map((v) => v.instances[0])).size).toBe(2);
    // Every viewer's hello came at this seq: what follows is what each must get.
    const first = viewers[0]!.seq;
    const start = (
      await api(nginx.url, 'POST', `/api/encounters/${id}/commands`, { command: { type: 'start' } }, t.gm)
    ).body as { seq: number };
    let seq = start.seq;
    const answered = new Set<string>();
    for (let i = 1; i < 500; i++) {
      const command = i % 5 === 0 ? { type: 'next' } : { type: 'damage', combatant: 'orc', amount: 1 };
      const r = await api(nginx.url, 'POST', `/api/encounters/${id}/commands`, { command }, t.gm);
      expect(r.status).toBe(200);
      seq = (r.body as { seq: number }).seq;
    }
    for (const v of viewers) await v.reach(seq);
    for (const [i, v] of viewers.entries()) {
      // Every entry once and in order, from the seq the viewer joined at: nothing missed or repeated.
      expect(v.seqs).toEqual(await visibleSeqs(nginx.url, id, tokens[i]!, first));
      await expectHeld(v, nginx.url, id, tokens[i]!);
      expect(v.changes).toEqual([...v.changes].sort((a, b) => a - b));
      expect(v.connections).toBe(1);
    }
    expect(viewers[0]!.seqs).toEqual(consecutive(first, seq));
    // Commands went through both instances too (nginx alternates).
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${nginx.url}/api/health`);
      answered.add(r.headers.get('x-roundkeeper-instance') ?? '?');
    }
    expect(answered.size).toBe(2);
    const { state } = await replayed(db, id);
    expect((state.combatants.orc as { hp: { current: number } }).hp.current).toBe(100_000 - 400);
    for (const s of servers) {
      const r = (await api(s.url, 'GET', `/api/encounters/${id}`, undefined, t.gm)).body as {
        seq: number;
        state: unknown;
      };
      expect(r.seq).toBe(seq);
      expect(r.state).toEqual(state);
    }
  });

  it('2 × 200 commands racing for one encounter through both instances: gap-free, nothing lost or doubled, state = replay of the log', async () => {
    const { db, servers, nginx } = await cluster(2);
    const created = (
      await api(nginx.url, 'POST', '/api/encounters', { name: 'Race', ruleset: 'classic', combatants: party })
    ).body as Created;
    const id = created.encounter.id;
    const gm = created.tokens.gm;
    await api(nginx.url, 'POST', `/api/encounters/${id}/commands`, { command: { type: 'start' } }, gm);
    // Each instance gets 200 commands, four in flight at a time, both at once.
    const acknowledged: number[] = [];
    await Promise.all(
      servers.flatMap((s) =>
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < 50; i++) {
            const r = await api(
              s.url,
              'POST',
              `/api/encounters/${id}/commands`,
              { command: { type: 'damage', combatant: 'orc', amount: 1 } },
              gm,
            );
            expect(r.status).toBe(200);
            acknowledged.push((r.body as { seq: number }).seq);
          }
        }),
      ),
    );
    expect(new Set(acknowledged).size).toBe(400);
    const { entries, state } = await replayed(db, id);
    expect(entries.map((e) => e.seq)).toEqual(consecutive(0, entries.length));
    for (const seq of acknowledged) expect(entries.some((e) => e.seq === seq)).toBe(true);
    expect((state.combatants.orc as { hp: { current: number } }).hp.current).toBe(100_000 - 400);
    const storage = await PostgresStorage.open(db);
    const commands = await storage.readCommands(id);
    await storage.close();
    expect(commands.filter((c) => (c.command as { type: string }).type === 'damage')).toHaveLength(400);
    await new Promise((r) => setTimeout(r, 200)); // each instance hears the other's last appends
    for (const s of servers) {
      const r = (await api(s.url, 'GET', `/api/encounters/${id}`, undefined, gm)).body as { state: unknown };
      expect(r.state).toEqual(state);
    }
  });

  it('kill -9 of one instance under ~50 commands/s: viewers reconnect through nginx to the survivor, every acknowledged command is in the log, nothing is shown twice', async () => {
    const { db, servers, nginx } = await cluster(2);
    const created = (
      await api(nginx.url, 'POST', '/api/encounters', { name: 'Kill', ruleset: 'classic', combatants: party })
    ).body as Created;
    const id = created.encounter.id;
    const gm = created.tokens.gm;
    const tokens = [gm, created.tokens.table, created.tokens.players.ana!, gm];
    const viewers = tokens.map((token) => viewerOf(nginx.url, id, token));
    for (const v of viewers) await v.start();
    const first = viewers[0]!.seq;
    await api(nginx.url, 'POST', `/api/encounters/${id}/commands`, { command: { type: 'start' } }, gm);
    // Each command its own amount of damage, so that the entry at an acknowledged seq tells which
    // command it holds.
    const acknowledged: Array<{ seq: number; amount: number }> = [];
    let failed = 0;
    const inflight: Array<Promise<void>> = [];
    // 50 commands a second for 3 s, each sent without waiting for the last; the first instance dies
    // after one second.
    for (let i = 0; i < 150; i++) {
      const amount = i + 1;
      inflight.push(
        api(
          nginx.url,
          'POST',
          `/api/encounters/${id}/commands`,
          { command: { type: 'damage', combatant: 'orc', amount } },
          gm,
        ).then(
          (r) => {
            if (r.status === 200) acknowledged.push({ seq: (r.body as { seq: number }).seq, amount });
            else failed++;
          },
          () => {
            failed++;
          },
        ),
      );
      if (i === 50) expect(await servers[0]!.stop('SIGKILL')).toBeNull();
      await new Promise((r) => setTimeout(r, 20));
    }
    await Promise.all(inflight);
    const { entries, state } = await replayed(db, id);
    const last = entries.at(-1)!.seq;
    expect(entries.map((e) => e.seq)).toEqual(consecutive(0, last));
    // Every acknowledged command is in the log at the seq it was acknowledged with: that entry is its
    // damage, not another command's stored at the same seq after it was lost.
    const damageAt = new Map(
      entries.map((e) => {
        const ev = e.event as { type: string; from?: { current: number }; hp?: { current: number } };
        return [e.seq, ev.type === 'hp/changed' ? ev.from!.current - ev.hp!.current : undefined];
      }),
    );
    for (const { seq, amount } of acknowledged) expect(damageAt.get(seq), `seq ${seq}`).toBe(amount);
    // Only commands in flight when the instance died can have failed; most were acknowledged.
    expect(acknowledged.length).toBeGreaterThan(140 - failed);
    expect(failed).toBeLessThan(10);
    for (const [i, v] of viewers.entries()) {
      await v.reach(last);
      expect(v.seqs).toEqual(await visibleSeqs(servers[1]!.url, id, tokens[i]!, first));
      await expectHeld(v, servers[1]!.url, id, tokens[i]!);
    }
    expect(viewers[0]!.seqs).toEqual(consecutive(first, last));
    // The viewers that were on the dead instance came back through nginx, to the survivor.
    const moved = viewers.filter((v) => v.connections > 1);
    expect(moved.length).toBeGreaterThan(0);
    for (const v of moved) expect(v.instances.at(-1)).toBe(new URL(servers[1]!.url).host);
    const r = (await api(servers[1]!.url, 'GET', `/api/encounters/${id}`, undefined, gm)).body as {
      state: unknown;
    };
    expect(r.state).toEqual(state);
  });

  it('SIGTERM drains an instance: its viewers reconnect elsewhere and miss nothing; health says when the database is gone', async () => {
    const { servers, nginx, drop } = await cluster(2);
    const created = (
      await api(nginx.url, 'POST', '/api/encounters', {
        name: 'Drain',
        ruleset: 'classic',
        combatants: party,
      })
    ).body as Created;
    const id = created.encounter.id;
    const gm = created.tokens.gm;
    const tokens = [gm, created.tokens.table, gm, created.tokens.table];
    const viewers = tokens.map((t) => viewerOf(nginx.url, id, t));
    for (const v of viewers) await v.start();
    const first = viewers[0]!.seq;
    await api(nginx.url, 'POST', `/api/encounters/${id}/commands`, { command: { type: 'start' } }, gm);
    expect(await servers[0]!.stop('SIGTERM')).toBe(0);
    let seq = 0;
    for (let i = 0; i < 10; i++) {
      const r = await api(
        nginx.url,
        'POST',
        `/api/encounters/${id}/commands`,
        { command: { type: 'next' } },
        gm,
      );
      expect(r.status).toBe(200);
      seq = (r.body as { seq: number }).seq;
    }
    for (const [i, v] of viewers.entries()) {
      await v.reach(seq);
      expect(v.seqs).toEqual(await visibleSeqs(servers[1]!.url, id, tokens[i]!, first));
      await expectHeld(v, servers[1]!.url, id, tokens[i]!);
    }
    expect(viewers[0]!.seqs).toEqual(consecutive(first, seq));
    expect(viewers.some((v) => v.connections > 1)).toBe(true);
    const health = await api(servers[1]!.url, 'GET', '/api/health');
    expect(health).toMatchObject({ status: 200, body: { ok: true, database: 'reachable' } });
    await drop();
    const gone = await api(servers[1]!.url, 'GET', '/api/health');
    expect(gone).toMatchObject({ status: 503, body: { ok: false, database: 'unreachable' } });
  });
});

/** Creates an encounter through `base` from this machine's loopback address `from` (a client of its own). */
function createFrom(base: string, from: string, forwardedFor?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
    const req = request(`${base}/api/encounters`, { method: 'POST', localAddress: from, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ name: 'From afar', ruleset: 'classic' }));
  });
}

describe.skipIf(!nginxAt)('per-address limits behind nginx', () => {
  it('count the client nginx forwards with --trust-proxy, and nginx itself without it; a client reaching an instance directly cannot pick its address', async () => {
    for (const trusted of [false, true]) {
      const server = await startServerProcess(tempDir(), [
        '--encounter-budget',
        '1',
        ...(trusted ? ['--trust-proxy', '127.0.0.1'] : []),
      ]);
      cleanUps.push(() => server.stop());
      const lb = await startNginx(nginxAt!, [server.url]);
      cleanUps.push(lb.stop);
      // One encounter per address in the window: a second one from the same client is refused…
      expect(await createFrom(lb.url, '127.0.0.2')).toBe(201);
      expect(await createFrom(lb.url, '127.0.0.2')).toBe(429);
      // … and another client's is its own, once the server knows who nginx forwards.
      expect(await createFrom(lb.url, '127.0.0.3')).toBe(trusted ? 201 : 429);
      if (trusted) {
        // A client that reaches the instance itself cannot pick the address its budget counts.
        expect(await createFrom(server.url, '127.0.0.4', '127.0.0.5')).toBe(201);
        expect(await createFrom(server.url, '127.0.0.4', '127.0.0.6')).toBe(429);
      }
    }
  });
});
