import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { Row } from './engine.js';

/**
 * Issue 34's measurements, each against a real server process with the loop probe (loop-probe.ts):
 *
 * - a client that floods and never reads: it opens the table's live socket, stops reading, and writes
 *   1-byte frames for a few seconds, with the message budget off (the held-bytes cap alone holds it).
 *   The server's resident memory before and after, and `/api/health`'s answers meanwhile.
 * - the largest encounter allowed (200 combatants) in each ruleset: how long `start`, `next`, `undo` and
 *   `redo` hold the event loop (the probe's worst delay around each; target ≤ 50 ms).
 */

const BIN = fileURLToPath(new URL('../../packages/server/dist/main.js', import.meta.url));
const PROBE = fileURLToPath(new URL('./loop-probe.js', import.meta.url));
const RULESETS = ['classic', 'tara-corax', 'six-second', 'opend6', 'tempo', 'stamina', 'tick'];

interface Proc {
  child: ChildProcess;
  url: string;
}

async function start(args: string[]): Promise<Proc> {
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-hardening-'));
  const child = spawn(
    process.execPath,
    ['--import', PROBE, BIN, '--port', '0', '--data-dir', dir, '--rate-limit', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
  });
  child.stdout!.resume();
  return { child, url };
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

/** The worst delay of the server's event loop since the last report (ms). */
function loopMax(p: Proc): Promise<number> {
  return new Promise((resolve) => {
    p.child.once('message', (m) => resolve((m as { max: number }).max));
    p.child.send('report');
  });
}

async function post(url: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Created {
  encounter: { id: string };
  tokens: { gm: string; table: string };
}

async function create(url: string, ruleset: string, n: number): Promise<Created> {
  const combatants = Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    name: `C${i}`,
    side: i % 4 === 0 ? 'pc' : 'npc',
    stats: {},
  }));
  const r = await post(url, '/api/encounters', { name: 'Largest', ruleset, seed: 7, combatants });
  if (r.status !== 201) throw new Error(`${ruleset}: ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body as unknown as Created;
}

/** The flooding client: RSS growth and health latency while it writes and never reads. */
async function flood(seconds: number): Promise<Row[]> {
  const p = await start(['--socket-rate', '0']);
  try {
    const c = await create(p.url, 'classic', 5);
    const before = rssMB(p.child.pid!);
    const ws = new WebSocket(
      `${p.url.replace(/^http/, 'ws')}/api/encounters/${c.encounter.id}/live?token=${c.tokens.table}`,
    );
    await new Promise((r) => ws.once('message', r));
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    let peak = before;
    const health: number[] = [];
    const end = performance.now() + seconds * 1000;
    let sent = 0;
    while (performance.now() < end) {
      if (ws.bufferedAmount < 8 * 2 ** 20) {
        for (let i = 0; i < 2_000; i++) ws.send('x');
        sent += 2_000;
      }
      const t = performance.now();
      await fetch(`${p.url}/api/health`).then((r) => r.text());
      health.push(performance.now() - t);
      peak = Math.max(peak, rssMB(p.child.pid!));
      await new Promise((r) => setTimeout(r, 20));
    }
    ws.terminate();
    await new Promise((r) => setTimeout(r, 500));
    const after = rssMB(p.child.pid!);
    health.sort((a, b) => a - b);
    const at = (q: number) => health[Math.min(health.length - 1, Math.floor(q * health.length))]!;
    process.stderr.write(`  flood: ${sent} frames sent in ${seconds} s, ${health.length} health checks\n`);
    return [
      {
        name: `a client flooding 1-byte frames and never reading (${seconds} s): server RSS growth, peak / after`,
        value: `+${(peak - before).toFixed(0)} / +${(after - before).toFixed(0)} MB`,
        target: '≤ 50 MB',
        met: peak - before <= 50,
      },
      {
        name: 'GET /api/health during that flood, p50 / p99 / max',
        value: `${at(0.5).toFixed(1)} / ${at(0.99).toFixed(1)} / ${health.at(-1)!.toFixed(1)} ms`,
        target: 'p99 ≤ 100 ms',
        met: at(0.99) <= 100,
      },
    ];
  } finally {
    await stop(p);
  }
}

/** How long start, next, undo and redo hold the loop at 200 combatants, in each ruleset. */
async function largest(): Promise<Row[]> {
  const p = await start([]);
  const rows: Row[] = [];
  try {
    for (const ruleset of RULESETS) {
      const c = await create(p.url, ruleset, 200);
      const worst: Record<string, number> = {};
      for (const type of ['start', 'next', 'undo', 'redo']) {
        await new Promise((r) => setTimeout(r, 50));
        await loopMax(p);
        const r = await post(
          p.url,
          `/api/encounters/${c.encounter.id}/commands`,
          { command: { type } },
          c.tokens.gm,
        );
        worst[type] = await loopMax(p);
        if (r.status !== 200) worst[type] = Number.NaN;
      }
      const max = Math.max(...Object.values(worst).filter((x) => !Number.isNaN(x)));
      rows.push({
        name: `${ruleset} at 200 combatants: the loop held by start / next / undo / redo`,
        value: Object.entries(worst)
          .map(([, ms]) => (Number.isNaN(ms) ? 'refused' : ms.toFixed(0)))
          .join(' / ')
          .concat(' ms'),
        target: '≤ 50 ms',
        met: max <= 50,
      });
    }
  } finally {
    await stop(p);
  }
  return rows;
}

export async function benchHardening(seconds = 10): Promise<Row[]> {
  return [...(await flood(seconds)), ...(await largest())];
}

// `node bench/dist/hardening.js [seconds]`: this section alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await benchHardening(Number(process.argv[2] ?? 10));
  for (const r of rows)
    process.stdout.write(`${r.met ? '✓' : '✗'} ${r.name}: ${r.value} (target ${r.target})\n`);
}
