import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Row } from './engine.js';
import { createEncounters, paced, pct, saturate } from './server.js';

const BIN = fileURLToPath(new URL('../../packages/server/dist/main.js', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/deploy.md', import.meta.url));
/** The PostgreSQL server to make a scratch database on (the tests' default: .ci/run creates the role). */
const SERVER_URL =
  process.env.RK_TEST_DATABASE_URL ?? 'postgres://roundkeeper:roundkeeper@127.0.0.1:5432/postgres';

interface Proc {
  url: string;
  proc: ChildProcess;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** A server instance as `npm start` runs it, on SQLite in `dir` or on PostgreSQL at `databaseUrl`. */
function startInstance(dir: string, databaseUrl?: string): Promise<Proc> {
  const proc = spawn(process.execPath, [BIN, '--port', '0', '--data-dir', dir, '--rate-limit', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      ...(databaseUrl ? { RK_DATABASE_URL: databaseUrl } : {}),
    },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, proc });
    });
  });
}

/** nginx with docs/deploy.md's configuration in front of `upstreams` (as the tests run it). */
async function startNginx(upstreams: string[]): Promise<Proc & { dir: string }> {
  const block = /```nginx\n([\s\S]*?)```/.exec(readFileSync(DOC, 'utf8'))![1]!;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-nginx-'));
  chmodSync(dir, 0o755);
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];
  for (const t of temps) {
    mkdirSync(join(dir, t));
    chmodSync(join(dir, t), 0o777);
  }
  const servers = upstreams
    .map((u) => `    server ${new URL(u).host} max_fails=1 fail_timeout=5s;`)
    .join('\n');
  const conf = [
    process.getuid?.() === 0 ? 'user root;' : '',
    'daemon off;',
    // One worker: the two cores are the instances' and PostgreSQL's.
    'worker_processes 1;',
    'error_log stderr warn;',
    `pid ${join(dir, 'nginx.pid')};`,
    'events { worker_connections 4096; }',
    'http {',
    '  access_log off;',
    ...temps.map((t) => `  ${t}_temp_path ${join(dir, t)};`),
    block
      .replace(/( {4}server 10\.0\.0\.\d+:4321 [^\n]*\n)+/, `${servers}\n`)
      .replace('listen 80;', `listen 127.0.0.1:${port};`),
    '}',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const proc = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/api/health`);
      return { url, proc, dir };
    } catch {
      if (i > 200) throw new Error('nginx did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function stop(p: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill(signal);
  });
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client(SERVER_URL);
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

const ENCOUNTERS = 20;
const RATE = 50;

/**
 * `npm run bench`'s multi-instance figures: command → all 6 viewers of its encounter, through nginx,
 * for one instance on SQLite, one on PostgreSQL and two on PostgreSQL (viewers and commands spread over
 * both by round-robin), in the same run; then commands/s sustained through nginx with one and two
 * PostgreSQL instances. Needs PostgreSQL and nginx (`.ci/run` installs and starts them).
 */
export async function benchCluster(): Promise<Row[]> {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    await admin('SELECT 1');
  } catch {
    process.stderr.write('cluster: no nginx or PostgreSQL here; skipped (see .ci/run)\n');
    return [
      { name: 'cluster: not measured (needs PostgreSQL and nginx)', value: '—', target: '—', met: true },
    ];
  }
  const rows: Row[] = [];
  const setups: Array<{ name: string; instances: number; postgres: boolean }> = [
    { name: '1 instance, SQLite', instances: 1, postgres: false },
    { name: '1 instance, PostgreSQL', instances: 1, postgres: true },
    { name: '2 instances, PostgreSQL', instances: 2, postgres: true },
  ];
  for (const setup of setups) {
    const db = `rk_bench_${randomBytes(6).toString('hex')}`;
    const url = new URL(SERVER_URL);
    url.pathname = `/${db}`;
    if (setup.postgres) await admin(`CREATE DATABASE ${db}`);
    const dirs: string[] = [];
    const instances: Proc[] = [];
    let nginx: (Proc & { dir: string }) | undefined;
    try {
      for (let i = 0; i < setup.instances; i++) {
        const dir = mkdtempSync(join(tmpdir(), 'rk-bench-'));
        dirs.push(dir);
        instances.push(await startInstance(dir, setup.postgres ? url.toString() : undefined));
      }
      nginx = await startNginx(instances.map((p) => p.url));
      process.stderr.write(`cluster: ${setup.name}, ${ENCOUNTERS} encounters × 6 viewers through nginx…\n`);
      const encs = await createEncounters(nginx.url, ENCOUNTERS, true);
      await paced(nginx.url, encs, RATE, 2); // warm-up
      const lat = await paced(nginx.url, encs, RATE, 10);
      rows.push({
        name: `cluster: command → all 6 viewers via nginx, ${setup.name}, ${RATE}/s (p50 / p99)`,
        value: `${pct(lat, 50).toFixed(2)} / ${pct(lat, 99).toFixed(2)} ms`,
        target: '—',
        met: true,
      });
      if (setup.postgres) {
        const cps = await saturate(nginx.url, encs, 5);
        rows.push({
          name: `cluster: sustained commands/s via nginx, ${setup.name} (16 in flight, 120 viewers)`,
          value: `${cps.toFixed(0)} /s`,
          target: '—',
          met: true,
        });
      }
      for (const e of encs) for (const ws of e.viewers) ws.close();
    } finally {
      if (nginx) {
        await stop(nginx.proc, 'SIGQUIT');
        rmSync(nginx.dir, { recursive: true, force: true });
      }
      for (const p of instances) await stop(p.proc);
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      if (setup.postgres) await admin(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    }
  }
  return rows;
}
