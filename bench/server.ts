import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { Row } from './engine.js';

const BIN = fileURLToPath(new URL('../../packages/server/dist/main.js', import.meta.url));

/** How many viewers saw a change, when the last of them did, and who waits for the last one. */
interface Seen {
  count: number;
  last: number;
  done?: () => void;
}

interface Enc {
  id: string;
  gm: string;
  viewers: WebSocket[];
  seen: Map<number, Seen>;
}

/**
 * The client shares the server's cores, so it does as little as it can per message: it reads the
 * sequence number from the head of a `change` message (`{"type":"change","seq":N,…`) instead of parsing
 * the whole redacted state 1,200 times per second, and wakes the waiting command when the last viewer
 * has it instead of polling.
 */
const CHANGE_HEAD = /^\{"type":"change","seq":(\d+)/;

function onMessage(enc: Enc, data: Buffer): void {
  const m = CHANGE_HEAD.exec(data.toString('latin1', 0, 40));
  if (!m) return;
  const seq = Number(m[1]);
  let s = enc.seen.get(seq);
  if (!s) {
    s = { count: 0, last: 0 };
    enc.seen.set(seq, s);
  }
  s.count++;
  s.last = performance.now();
  if (s.count >= enc.viewers.length) s.done?.();
}

/** When the last viewer of `enc` saw `seq` (or NaN after 2 s). */
function allSaw(enc: Enc, seq: number): Promise<number> {
  let s = enc.seen.get(seq);
  if (!s) {
    s = { count: 0, last: 0 };
    enc.seen.set(seq, s);
  }
  const seen = s;
  const finish = () => {
    enc.seen.delete(seq);
    return seen.count >= enc.viewers.length ? seen.last : Number.NaN;
  };
  if (seen.count >= enc.viewers.length) return Promise.resolve(finish());
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(finish()), 2000);
    seen.done = () => {
      clearTimeout(timer);
      resolve(finish());
    };
  });
}

/** Resident memory in MB (10^6 bytes, the unit of the target), from /proc. */
function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return (kb * 1024) / 1e6;
}

/**
 * Where a process's resident memory is, from /proc (stderr only): file pages (the node binary and its
 * libraries, shared with every node process) and anonymous memory (V8's heap, malloc, thread stacks).
 */
function rssSplit(pid: number): string {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  const MB = (kb: number) => ((kb * 1024) / 1e6).toFixed(0);
  return `${MB(kB('Rss') - kB('Anonymous'))} MB file pages, ${MB(kB('Anonymous'))} MB anonymous`;
}

/**
 * The server's environment as `npm start` gives it, its allocator settings (design.md, "Memory and
 * latency"); the environment's own values win, and one set empty is left out (glibc's default).
 */
export function serverEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    MALLOC_ARENA_MAX: '2',
    MALLOC_MMAP_THRESHOLD_: '32768',
    ...process.env,
    ...env,
  };
  for (const name of ['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_']) if (!out[name]) delete out[name];
  return out;
}

export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function post(
  url: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const combatants = [
  { id: 'p1', name: 'P1', side: 'pc', stats: { initiative: 4 } },
  { id: 'p2', name: 'P2', side: 'pc', stats: { initiative: 3 } },
  { id: 'p3', name: 'P3', side: 'pc', stats: { initiative: 2 } },
  { id: 'p4', name: 'P4', side: 'pc', stats: { initiative: 1 } },
  { id: 'orc', name: 'Orc', stats: { initiative: 0 }, hp: 30 },
];

export async function createEncounters(url: string, n: number, watch: boolean): Promise<Enc[]> {
  const out: Enc[] = [];
  for (let i = 0; i < n; i++) {
    const r = await post(url, '/api/encounters', {
      name: `Bench ${i}`,
      ruleset: 'classic',
      seed: i,
      combatants,
    });
    const b = r.body as {
      encounter: { id: string };
      tokens: { gm: string; table: string; players: Record<string, string> };
    };
    const enc: Enc = { id: b.encounter.id, gm: b.tokens.gm, viewers: [], seen: new Map() };
    await post(url, `/api/encounters/${enc.id}/commands`, { command: { type: 'start' } }, enc.gm);
    if (watch) {
      const tokens = [b.tokens.gm, b.tokens.table, ...Object.values(b.tokens.players)];
      // Each table from its own loopback address, as tables come from their own homes: the server takes
      // 200 live connections from one address, and this bench opens 1,200.
      const localAddress = `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
      for (const t of tokens) {
        const ws = new WebSocket(`${url.replace('http', 'ws')}/api/encounters/${enc.id}/live?token=${t}`, {
          localAddress,
        });
        ws.on('message', (data) => onMessage(enc, data as Buffer));
        enc.viewers.push(ws);
      }
      await Promise.all(enc.viewers.map((ws) => new Promise((r) => ws.once('open', r))));
    }
    out.push(enc);
  }
  return out;
}

/** Sends commands at `rate` per second for `seconds`, round-robin over encounters; latency = until all viewers saw it. */
export async function paced(url: string, encs: Enc[], rate: number, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const total = rate * seconds;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const enc = encs[i % encs.length]!;
    const sent = performance.now();
    pending.push(
      post(url, `/api/encounters/${enc.id}/commands`, { command: { type: 'next' } }, enc.gm).then(
        async (r) => {
          const last = await allSaw(enc, (r.body as { seq: number }).seq);
          // A change some viewer never saw counts as the worst case, not as a gap.
          latencies.push(Number.isNaN(last) ? Number.POSITIVE_INFINITY : last - sent);
        },
      ),
    );
  }
  await Promise.all(pending);
  return latencies.sort((a, b) => a - b);
}

/** As many commands as the server takes, 16 in flight, for `seconds`. */
export async function saturate(url: string, encs: Enc[], seconds: number): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1000;
  let i = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < end) {
        const enc = encs[i++ % encs.length]!;
        await post(url, `/api/encounters/${enc.id}/commands`, { command: { type: 'next' } }, enc.gm);
        done++;
      }
    }),
  );
  // Nobody waits for the changes of this phase: forget them.
  for (const enc of encs) enc.seen.clear();
  return done / seconds;
}

export async function benchServer(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-'));
  const proc = spawn(
    process.execPath,
    [
      ...(process.env.RK_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      BIN,
      '--port',
      '0',
      '--data-dir',
      dir,
      '--rate-limit',
      '0',
      // 1,200 encounters from one address: past the storage budgets a public server keeps.
      '--encounter-budget',
      '0',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: serverEnv(),
    },
  );
  const url = await new Promise<string>((resolve) => {
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  const rows: Row[] = [];
  try {
    process.stderr.write('server: 200 encounters × 6 viewers…\n');
    const encs = await createEncounters(url, 200, true);
    await paced(url, encs, 50, 2); // warm-up
    const lat = await paced(url, encs, 50, 10);
    const p50 = pct(lat, 50);
    const p99 = pct(lat, 99);
    rows.push({
      name: 'server: command → all 6 viewers, 200 encounters, 50 commands/s (p50)',
      value: `${p50.toFixed(2)} ms`,
      target: '—',
      met: true,
    });
    rows.push({
      name: 'server: command → all 6 viewers, 200 encounters, 50 commands/s (p99)',
      value: `${p99.toFixed(2)} ms`,
      target: '≤ 10 ms',
      met: p99 <= 10,
    });
    const cps = await saturate(url, encs, 5);
    rows.push({
      name: 'server: sustained commands/s (16 in flight, 1,200 viewers)',
      value: `${cps.toFixed(0)} /s`,
      target: '—',
      met: true,
    });
    const rss = rssMB(proc.pid!);
    process.stderr.write(`server: RSS ${rss.toFixed(0)} MB: ${rssSplit(proc.pid!)}\n`);
    rows.push({
      name: 'server: RSS with 200 live encounters, 1,200 viewers',
      value: `${rss.toFixed(0)} MB`,
      target: '≤ 120 MB',
      met: rss <= 120,
    });

    process.stderr.write('server: + 1,000 stored idle encounters…\n');
    await createEncounters(url, 1000, false);
    // The same two-second warm-up as above: the figures are the steady state with the idle encounters
    // stored (and unloaded from memory), not the seconds in which the server digests their creation.
    await paced(url, encs, 50, 2);
    const lat2 = await paced(url, encs, 50, 10);
    const p99b = pct(lat2, 99);
    rows.push({
      name: 'server: same, with 1,000 more stored idle encounters (p50)',
      value: `${pct(lat2, 50).toFixed(2)} ms`,
      target: '—',
      met: true,
    });
    rows.push({
      name: 'server: same, with 1,000 more stored idle encounters (p99)',
      value: `${p99b.toFixed(2)} ms`,
      target: '≤ 10 ms',
      met: p99b <= 10,
    });
    const rss2 = rssMB(proc.pid!);
    process.stderr.write(`server: RSS ${rss2.toFixed(0)} MB: ${rssSplit(proc.pid!)}\n`);
    rows.push({
      name: 'server: RSS with 1,000 more stored idle encounters',
      value: `${rss2.toFixed(0)} MB`,
      target: '≤ 120 MB',
      met: rss2 <= 120,
    });
    for (const e of encs) for (const ws of e.viewers) ws.close();
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
