import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { Row } from './engine.js';
import { pct, serverEnv } from './server.js';

/**
 * Roundkeeper side by side with boardgame.io 0.50 (bench/bgio-server.ts), on issue 19's workload: one
 * encounter of 12 combatants, a GM and five viewers (table and four players), `next` after `next`, the
 * latency from the GM's send until all five viewers have the change; five rounds of 100 commands,
 * interleaved (Roundkeeper over its socket, over HTTP, boardgame.io), so both see the same machine.
 * Then each server's CPU per command at 100 commands a second over 50 encounters × 6 viewers, its
 * event loop's worst delays under the same load (loop-probe.ts), its resident memory, and the bytes each viewer
 * receives per change. Every client parses every message it gets, as a real one does (socket.io's
 * client cannot do otherwise).
 */

// RK_SERVER_MAIN: another build of the server (a copy of packages/*/dist), to measure two side by side.
const RK_BIN =
  process.env.RK_SERVER_MAIN ?? fileURLToPath(new URL('../../packages/server/dist/main.js', import.meta.url));
const BGIO_BIN = fileURLToPath(new URL('./bgio-server.js', import.meta.url));
const PROBE = fileURLToPath(new URL('./loop-probe.js', import.meta.url));

interface Proc {
  child: ChildProcess;
  /** What it printed after `listening on`. */
  address: string;
}

async function start(
  bin: string,
  args: string[],
  name: string,
  dir: string,
  env: NodeJS.ProcessEnv = {},
  flags: string[] = [],
): Promise<Proc> {
  const child = spawn(process.execPath, [...flags, '--import', PROBE, bin, ...args], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: serverEnv(env),
  });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening: ${out}`)));
  });
  // RK_SERVER_STDOUT: what the server prints after it listens (node's --trace-gc, say) goes to that file.
  const stdout = name === 'roundkeeper' ? process.env.RK_SERVER_STDOUT : undefined;
  if (stdout) child.stdout!.pipe(createWriteStream(stdout));
  else child.stdout!.resume();
  return { child, address };
}

async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode !== null) return;
  p.child.kill('SIGTERM');
  await new Promise((r) => p.child.once('exit', r));
}

function rssMB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return (kb * 1024) / 1e6;
}

interface Report {
  /** The server's CPU time so far (user + system), µs. */
  cpuMicros: number;
  /** Of which in the kernel (system calls: the sockets' writes and reads, SQLite's file writes). */
  systemMicros: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/** The server's CPU time, and its event loop's delays since the last report (loop-probe.ts). */
function report(p: Proc): Promise<Report> {
  return new Promise((resolve) => {
    p.child.once('message', (m) => resolve(m as Report));
    p.child.send('report');
  });
}

/** One encounter (or match) with its GM and five viewers, as the benchmark drives it. */
interface Table {
  /** Sends `next`; resolves with the ms until all five viewers had its change (Infinity after 5 s). */
  next(): Promise<number>;
  /** Bytes and changes received by the five viewers, since the last `resetBytes`. */
  bytes: number;
  changes: number;
  resetBytes(): void;
  close(): void;
}

/** Waits for every viewer's count to reach a target; shared by both systems. */
class Arrivals {
  readonly counts: number[];
  private target = 0;
  private waiting: { target: number; resolve: (at: number) => void } | undefined;

  constructor(viewers: number) {
    this.counts = new Array<number>(viewers).fill(0);
  }

  arrived(viewer: number): void {
    this.counts[viewer]!++;
    const w = this.waiting;
    if (w && this.counts.every((c) => c >= w.target)) {
      this.waiting = undefined;
      w.resolve(performance.now());
    }
  }

  /** The moment all viewers have the next change, or Infinity after 5 s. */
  expect(): Promise<number> {
    const target = ++this.target;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        // Later arrivals of this change count towards the next one: skip them.
        this.target = Math.max(...this.counts, target);
        resolve(Number.POSITIVE_INFINITY);
      }, 5000);
      this.waiting = {
        target,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
    });
  }
}

const rkCombatants = Array.from({ length: 12 }, (_, i) =>
  i < 4
    ? { id: `p${i + 1}`, name: `P${i + 1}`, side: 'pc', stats: { initiative: 20 - i } }
    : { id: `n${i - 3}`, name: `Orc ${i - 3}`, stats: { initiative: 20 - i }, hp: 30 },
);

/** A JSON POST over a kept-alive connection of `agent` (each table its own, as each browser has). */
function post(agent: Agent, url: string, body: unknown, token?: string): Promise<unknown> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let out = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          out += d;
        });
        res.on('end', () => {
          try {
            resolve(JSON.parse(out));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** A Roundkeeper encounter; the GM sends over its socket, or over HTTP (`via`). */
async function rkTable(base: string, seed: number): Promise<Table & { via: 'socket' | 'http' }> {
  // Each table from an address of its own on the loopback network, as a table's devices are: the
  // server takes at most 200 live connections, and 100 new encounters in 10 minutes, from one address.
  const localAddress = `127.0.${1 + Math.floor(seed / 250)}.${1 + (seed % 250)}`;
  const agent = new Agent({ keepAlive: true, localAddress });
  const created = (await post(agent, `${base}/api/encounters`, {
    name: `Side ${seed}`,
    ruleset: 'classic',
    seed,
    combatants: rkCombatants,
  })) as {
    encounter: { id: string };
    tokens: { gm: string; table: string; players: Record<string, string> };
  };
  const id = created.encounter.id;
  const gmToken = created.tokens.gm;
  await post(agent, `${base}/api/encounters/${id}/commands`, { command: { type: 'start' } }, gmToken);
  const live = (token: string) =>
    new WebSocket(`${base.replace('http', 'ws')}/api/encounters/${id}/live?token=${token}`, { localAddress });
  const gm = live(gmToken);
  gm.on('message', (data) => JSON.parse(String(data)));
  const viewers = [created.tokens.table, ...Object.values(created.tokens.players)].map(live);
  const arrivals = new Arrivals(viewers.length);
  const table = {
    via: 'socket' as 'socket' | 'http',
    bytes: 0,
    changes: 0,
    resetBytes() {
      table.bytes = 0;
      table.changes = 0;
    },
    async next() {
      const seen = arrivals.expect();
      const sent = performance.now();
      if (table.via === 'socket') {
        gm.send(`{"type":"command","id":"${sent}","command":{"type":"next"}}`);
      } else {
        await post(agent, `${base}/api/encounters/${id}/commands`, { command: { type: 'next' } }, gmToken);
      }
      return (await seen) - sent;
    },
    close() {
      for (const ws of [gm, ...viewers]) ws.close();
      agent.destroy();
    },
  };
  viewers.forEach((ws, i) => {
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as { type?: string };
      if (msg.type !== 'change') return;
      table.bytes += data.length;
      table.changes++;
      arrivals.arrived(i);
    });
  });
  await Promise.all([gm, ...viewers].map((ws) => new Promise((r) => ws.once('open', r))));
  // Each viewer's hello has come: nothing of the set-up is counted.
  await new Promise((r) => setTimeout(r, 50));
  return table;
}

/** A boardgame.io match: the GM is player 0 with its credentials, the five viewers spectators. */
async function bgioTable(base: string, game: string): Promise<Table> {
  const agent = new Agent({ keepAlive: false });
  const { matchID } = (await post(agent, `${base}/games/${game}/create`, { numPlayers: 2 })) as {
    matchID: string;
  };
  const { playerCredentials } = (await post(agent, `${base}/games/${game}/${matchID}/join`, {
    playerID: '0',
    playerName: 'GM',
  })) as { playerCredentials: string };
  const connect = () => io(`${base}/${game}`, { transports: ['websocket'], forceNew: true });
  let stateID = 0;
  const gm = connect();
  const synced = new Promise<void>((resolve) => {
    gm.on('sync', (_m: string, info: { state: { _stateID: number } }) => {
      stateID = info.state._stateID;
      resolve();
    });
  });
  gm.on('update', (_m: string, state: { _stateID: number }) => {
    stateID = Math.max(stateID, state._stateID);
  });
  gm.on('patch', (_m: string, _prev: number, next: number) => {
    stateID = Math.max(stateID, next);
  });
  const viewers: Socket[] = Array.from({ length: 5 }, connect);
  const arrivals = new Arrivals(viewers.length);
  const table: Table = {
    bytes: 0,
    changes: 0,
    resetBytes() {
      table.bytes = 0;
      table.changes = 0;
    },
    async next() {
      const seen = arrivals.expect();
      const sent = performance.now();
      gm.emit(
        'update',
        {
          type: 'MAKE_MOVE',
          payload: { type: 'next', args: [], playerID: '0', credentials: playerCredentials },
        },
        stateID,
        matchID,
        '0',
      );
      // boardgame.io's own client runs the move at once on its copy (an optimistic update), so it
      // knows the next state id before the server's update comes back: the same here.
      stateID++;
      return (await seen) - sent;
    },
    close() {
      for (const s of [gm, ...viewers]) s.disconnect();
    },
  };
  await Promise.all(
    [gm, ...viewers].map((s) => new Promise<void>((r) => (s.connected ? r() : s.once('connect', () => r())))),
  );
  viewers.forEach((s, i) => {
    // What came over the wire for the packet being handled: socket.io's frame, namespace and JSON
    // (+1 for engine.io's packet type).
    let last = 0;
    s.io.engine.on('data', (d: string | Buffer) => {
      last = d.length + 1;
    });
    const changed = () => {
      table.bytes += last;
      table.changes++;
      arrivals.arrived(i);
    };
    s.on('update', changed);
    s.on('patch', changed);
    s.emit('sync', matchID, null, undefined, 2);
  });
  gm.emit('sync', matchID, '0', playerCredentials, 2);
  await synced;
  await new Promise((r) => setTimeout(r, 50));
  return table;
}

function summary(lat: number[]): string {
  const s = [...lat].sort((a, b) => a - b);
  return `${[50, 95, 99].map((p) => pct(s, p).toFixed(2)).join(' / ')} / ${s.at(-1)!.toFixed(1)}`;
}

/**
 * Commands at `rate` a second over the tables, each table's one after its previous: CPU µs per command,
 * measured with the server's loop probe quiet (its own timer would count), then the event loop's delays
 * over a second, shorter run with the probe watching. The latencies are both runs'.
 */
async function load(
  proc: Proc,
  tables: Table[],
  rate: number,
  seconds: number,
  /** Called as the measured part begins and as it ends (after the warm-up). */
  measured?: (phase: 'begin' | 'end') => void,
): Promise<{ cpu: number; system: number; lat: number[]; loop: Report }> {
  const lat: number[] = [];
  const chains = tables.map(() => Promise.resolve());
  const run = async (total: number, keep: boolean) => {
    const begin = performance.now();
    for (let i = 0; i < total; i++) {
      const due = begin + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const k = i % tables.length;
      chains[k] = chains[k]!.then(async () => {
        const ms = await tables[k]!.next();
        if (keep) lat.push(ms);
      });
    }
    await Promise.all(chains);
  };
  // Warm-up (RK_WARMUP_SECONDS, default 40), the same for every server: a server's CPU per command is
  // its steady state's. V8 optimizes a function once it has run enough (a few thousand calls for the
  // larger ones); at 100 commands a second that takes tens of seconds: after 2 seconds of warm-up ~250 µs
  // a command went to compiling on the helper threads, after 10 seconds ~80 of the server's hot functions
  // (the broadcast's, the delta's, the engine's, Node's stream writes) were first optimized inside the
  // measured 10 seconds, after 40 seconds 4 were (`--trace-opt`).
  await run(rate * Number(process.env.RK_WARMUP_SECONDS ?? 40), false);
  proc.child.send('quiet');
  const before = await report(proc);
  measured?.('begin');
  await run(rate * seconds, true);
  measured?.('end');
  const end = await report(proc);
  const cpu = (end.cpuMicros - before.cpuMicros) / (rate * seconds);
  const system = (end.systemMicros - before.systemMicros) / (rate * seconds);
  proc.child.send('watch');
  await run(rate * Math.ceil(seconds / 2), true);
  const after = await report(proc);
  process.stderr.write(
    `  ${cpu.toFixed(0)} µs/command (${system.toFixed(0)} in the kernel), p50 ${pct(
      lat.sort((a, b) => a - b),
      50,
    ).toFixed(2)} ms, loop max ${after.max.toFixed(1)} ms\n`,
  );
  return { cpu, system, lat, loop: after };
}

/**
 * `npm run bench -- --profile=DIR`: only Roundkeeper's share of the CPU load above (50 encounters × 6
 * viewers, 100 commands a second over the GM's socket, 10 s after a 40 s warm-up), with the server under
 * `--cpu-prof`; its profile is written to DIR when it stops (open it in Chromium's DevTools, or summarize
 * it with `node bench/dist/profile-summary.js DIR/*.cpuprofile`).
 */
export async function profileSide(out: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rk-profile-'));
  const rk = await start(
    RK_BIN,
    ['--port', '0', '--data-dir', join(dir, 'data'), '--rate-limit', '0', '--socket-rate', '0'],
    'roundkeeper',
    dir,
    {},
    // `--profile=none`: the same load, unprofiled (the profiler's own thread counts in the CPU time).
    // RK_SERVER_NODE_FLAGS: node's own flags for the server (V8's are refused in NODE_OPTIONS).
    [
      ...(process.env.RK_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      ...(out === 'none' ? [] : ['--cpu-prof', `--cpu-prof-dir=${out}`]),
    ],
  );
  try {
    const many: Table[] = [];
    for (let k = 0; k < 50; k++) many.push(await rkTable(rk.address, 100 + k));
    let before = new Map<string, number>();
    let after = new Map<string, number>();
    await load(rk, many, 100, 10, (phase) => {
      if (phase === 'begin') before = threadTimes(rk.child.pid!);
      else after = threadTimes(rk.child.pid!);
    });
    // Where the CPU of the measured 1,000 commands went, thread by thread (the event loop, V8's helpers
    // for compiling and GC, libuv's pool…).
    for (const [name, ticks] of after) {
      const used = ticks - (before.get(name) ?? 0);
      if (used > 0) process.stderr.write(`  ${name}: ${((used * 10_000) / 1000).toFixed(0)} µs/command\n`);
    }
    for (const t of many) t.close();
  } finally {
    await stop(rk);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A measured Roundkeeper server's arguments: any port, its data in `dir/data`, no rate limits. */
function serverArgs(dir: string, data: string): string[] {
  return ['--port', '0', '--data-dir', join(dir, data), '--rate-limit', '0', '--socket-rate', '0'];
}

/**
 * `npm run bench -- --pair`: two builds of the server under the side-by-side CPU load at once, each its
 * own 50 encounters × 6 viewers at 100 commands a second, measured over the same seconds: on a shared,
 * noisy machine both meet the same moods, so their difference is the builds'. A is RK_SERVER_MAIN (this
 * build by default), B is RK_SERVER_MAIN_B (with RK_SERVER_ENV_B's variables added to its environment).
 * Prints each one's CPU per command, then B's against A's.
 */
export async function pairSide(): Promise<void> {
  const other = process.env.RK_SERVER_MAIN_B;
  if (!other) throw new Error('--pair compares two builds: set RK_SERVER_MAIN_B to the other server entry.');
  const dir = mkdtempSync(join(tmpdir(), 'rk-pair-'));
  const args = (data: string) => serverArgs(dir, data);
  const flags = process.env.RK_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  // RK_SERVER_ENV_B="MALLOC_ARENA_MAX=1 …": B's own environment on top of A's (an allocator setting,
  // which must be in place before node starts); "MALLOC_MMAP_THRESHOLD_=" leaves it out (glibc's default).
  const envB: NodeJS.ProcessEnv = Object.fromEntries(
    (process.env.RK_SERVER_ENV_B ?? '')
      .split(' ')
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  const a = await start(RK_BIN, args('a'), 'roundkeeper', dir, {}, flags);
  const b = await start(other, args('b'), 'roundkeeper-b', dir, envB, flags);
  try {
    const tablesA: Table[] = [];
    const tablesB: Table[] = [];
    for (let k = 0; k < 50; k++) {
      tablesA.push(await rkTable(a.address, 100 + k));
      tablesB.push(await rkTable(b.address, 400 + k));
    }
    const [ra, rb] = await Promise.all([load(a, tablesA, 100, 10), load(b, tablesB, 100, 10)]);
    process.stderr.write(
      `  A ${ra.cpu.toFixed(0)} µs/command, B ${rb.cpu.toFixed(0)} (B/A ${(rb.cpu / ra.cpu).toFixed(3)})\n`,
    );
    for (const t of [...tablesA, ...tablesB]) t.close();
  } finally {
    await stop(a);
    await stop(b);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU time (user + system, in clock ticks of 10 ms) of each thread of a process, summed by thread name. */
function threadTimes(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))} ${tid === String(pid) ? '(main)' : tid}`;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(name, (out.get(name) ?? 0) + Number(fields[11]) + Number(fields[12]));
  }
  return out;
}

/** One of the set-ups measured side by side. */
interface System {
  name: string;
  proc: Proc;
  /** One table with its GM and five viewers, made on first use. */
  table(seed: number): Promise<Table>;
}

export async function benchSide(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rk-side-'));
  const rows: Row[] = [];
  const row = (name: string, value: string, target = '—', met = true) =>
    rows.push({ name, value, target, met });
  const rkArgs = (data: string) => serverArgs(dir, data);
  const rk = await start(RK_BIN, rkArgs('data'), 'roundkeeper', dir);
  // As boardgame.io's documentation deploys it: no development logging.
  const bgio = await start(BGIO_BIN, [], 'bgio', dir, { NODE_ENV: 'production' });
  const bgioBase = `http://127.0.0.1:${bgio.address}`;
  const rkVia = (proc: Proc, via: 'socket' | 'http') => async (seed: number) => {
    const t = await rkTable(proc.address, seed);
    t.via = via;
    return t;
  };
  const systems: System[] = [
    { name: 'Roundkeeper, command over its socket', proc: rk, table: rkVia(rk, 'socket') },
    { name: 'Roundkeeper, command over HTTP', proc: rk, table: rkVia(rk, 'http') },
    { name: 'boardgame.io 0.50 (socket.io)', proc: bgio, table: () => bgioTable(bgioBase, 'rkbench') },
  ];
  const drive = async (t: Table, n: number, into?: number[]) => {
    for (let i = 0; i < n; i++) {
      const ms = await t.next();
      into?.push(ms);
    }
  };
  try {
    process.stderr.write('side by side: one encounter, GM + 5 viewers, 5 rounds of 100 "next"…\n');
    const tables = await Promise.all(systems.map((sys, i) => sys.table(1 + i)));
    const runs = systems.map(() => [] as number[]);
    for (const t of tables) {
      await drive(t, 50);
      t.resetBytes();
    }
    for (let round = 0; round < 5; round++) {
      const order = systems.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const i of order) await drive(tables[i]!, 100, runs[i]);
    }
    const sorted = runs.map((r) => [...r].sort((x, y) => x - y));
    systems.forEach((sys, i) => {
      row(`side by side: command → 5 viewers, p50 / p95 / p99 / max (ms): ${sys.name}`, summary(sorted[i]!));
    });
    const s = sorted[0]!;
    const b = sorted[2]!;
    row(
      'side by side: Roundkeeper (socket) / boardgame.io, p50 and p99',
      `${(pct(s, 50) / pct(b, 50)).toFixed(2)}× / ${(pct(s, 99) / pct(b, 99)).toFixed(2)}×`,
      '≤ 1× each, max ≤ 8 ms',
      pct(s, 50) <= pct(b, 50) && pct(s, 99) <= pct(b, 99) && s.at(-1)! <= 8,
    );
    const rkBytes = tables[0]!.bytes / tables[0]!.changes;
    const bgBytes = tables[2]!.bytes / tables[2]!.changes;
    for (const t of tables) t.close();
    const bgDelta = await bgioTable(bgioBase, 'rkbench-delta');
    await drive(bgDelta, 20);
    bgDelta.resetBytes();
    await drive(bgDelta, 100);
    const deltaBytes = bgDelta.bytes / bgDelta.changes;
    bgDelta.close();
    row(
      'side by side: bytes per change per viewer ("next", 12 combatants): Roundkeeper; boardgame.io; boardgame.io deltaState',
      `${rkBytes.toFixed(0)} B; ${bgBytes.toFixed(0)} B; ${deltaBytes.toFixed(0)} B`,
      '≤ 600 B',
      rkBytes <= 600,
    );

    process.stderr.write('side by side: WAL checkpoints, fsyncs on the thread pool or on the event loop…\n');
    const stalls = { pool: [] as number[], inline: [] as number[] };
    const appendMax = { pool: 0, inline: 0 };
    for (let i = 0; i < 4; i++) {
      const mode = i % 2 ? 'inline' : 'pool';
      const r = await checkpointStalls(mode, 4);
      stalls[mode].push(...r.checkpoints);
      appendMax[mode] = Math.max(appendMax[mode], r.appendMax);
    }
    const stall = (a: number[]) => {
      const sorted = [...a].sort((x, y) => x - y);
      return `${pct(sorted, 50).toFixed(2)} / ${sorted.at(-1)!.toFixed(2)} ms (${sorted.length})`;
    };
    row(
      'side by side: a WAL checkpoint on the event loop, p50 / max (how many), 100 appends/s: fsyncs on the thread pool; inside it (before)',
      `${stall(stalls.pool)}; ${stall(stalls.inline)}`,
      '≤ ~1 ms',
      pct(
        [...stalls.pool].sort((x, y) => x - y),
        50,
      ) <= 1,
    );
    row(
      'side by side: the longest append meanwhile: fsyncs on the thread pool; inside the checkpoint',
      `${appendMax.pool.toFixed(2)} ms; ${appendMax.inline.toFixed(2)} ms`,
    );

    process.stderr.write('side by side: 50 encounters × 6 viewers, 100 commands/s…\n');
    const loads: Array<Awaited<ReturnType<typeof load>>> = [];
    for (const [i, sys] of systems.entries()) {
      process.stderr.write(` ${sys.name}:\n`);
      const many: Table[] = [];
      for (let k = 0; k < 50; k++) many.push(await sys.table(100 * (i + 1) + k));
      loads.push(await load(sys.proc, many, 100, 10));
      for (const t of many) t.close();
    }
    const names = systems.map((sys) => sys.name).join('; ');
    row(
      `side by side: server CPU per command, 50 encounters × 6 viewers at 100/s: ${names}`,
      loads.map((l) => `${l.cpu.toFixed(0)} µs`).join('; '),
      '≤ 600 µs (socket)',
      loads[0]!.cpu <= 600,
    );
    row(
      `side by side: the same load, command → 6 viewers p50 / p99 (ms): ${names}`,
      loads.map((l) => `${pct(l.lat, 50).toFixed(2)} / ${pct(l.lat, 99).toFixed(2)}`).join('; '),
    );
    row(
      `side by side: the same load, server event-loop delay p99 / p99.9 / max (ms, 2 ms probe): ${names}`,
      loads
        .map((l) => `${l.loop.p99.toFixed(1)} / ${l.loop.p999.toFixed(1)} / ${l.loop.max.toFixed(1)}`)
        .join('; '),
    );
    row(
      'side by side: server RSS after the load: Roundkeeper; boardgame.io',
      [rk, bgio].map((p) => `${rssMB(p.child.pid!).toFixed(0)} MB`).join('; '),
    );
  } finally {
    for (const p of [rk, bgio]) await stop(p);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/**
 * What a WAL checkpoint holds the event loop for, its fsyncs on libuv's thread pool or inside it
 * (SqliteStorage's `checkpointSync`): appends of a `next` (two events, as in the workload) at 100 a
 * second for `seconds`, the time of every `wal_checkpoint` statement on the serving connection, and
 * the longest append.
 */
export async function checkpointStalls(
  checkpointSync: 'pool' | 'inline',
  seconds: number,
): Promise<{ checkpoints: number[]; appendMax: number }> {
  const { SqliteStorage } = await import('@roundkeeper/server');
  const dir = mkdtempSync(join(tmpdir(), 'rk-ckpt-'));
  const storage = new SqliteStorage(join(dir, 'db.sqlite'), { synchronous: 'normal', checkpointSync });
  const db = (storage as unknown as { db: { pragma(sql: string): unknown } }).db;
  const pragma = db.pragma.bind(db);
  const checkpoints: number[] = [];
  db.pragma = (sql: string) => {
    const t = performance.now();
    const r = pragma(sql);
    if (sql.startsWith('wal_checkpoint')) checkpoints.push(performance.now() - t);
    return r;
  };
  const record = (id: string) => ({
    id,
    name: id,
    ruleset: 'classic',
    status: 'active' as const,
    createdAt: 't',
    updatedAt: 't',
    seq: 1,
    origin: { seed: 1 },
  });
  const encounters: Array<{ id: string; seq: number }> = [];
  for (let i = 0; i < 50; i++) {
    await storage.createEncounter(
      record(`e${i}`),
      [{ seq: 1, group: 0, event: { type: 'started' } }],
      [],
      [],
    );
    encounters.push({ id: `e${i}`, seq: 1 });
  }
  const event = { type: 'turn/ended', combatant: 'p1', round: 1, text: 'x'.repeat(250) };
  let appendMax = 0;
  const begin = performance.now();
  for (let n = 0; performance.now() < begin + seconds * 1000; n++) {
    const e = encounters[n % encounters.length]!;
    const t = performance.now();
    await storage.append(
      e.id,
      e.seq,
      [
        { seq: e.seq + 1, group: e.seq + 1, event },
        { seq: e.seq + 2, group: e.seq + 1, event },
      ],
      { group: e.seq + 1, command: { type: 'next' }, role: 'gm' },
      't',
    );
    appendMax = Math.max(appendMax, performance.now() - t);
    e.seq += 2;
    await new Promise((r) => setTimeout(r, Math.max(0, begin + (n + 1) * 10 - performance.now())));
  }
  // Not the last one, which `close()` runs with SQLite's own fsyncs once nobody waits.
  const serving = [...checkpoints].sort((a, b) => a - b);
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
  return { checkpoints: serving, appendMax };
}
