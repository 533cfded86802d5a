import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChangeMessage, type EncounterView, type HeldView, receiveChange } from '@roundkeeper/engine';
import WebSocket from 'ws';

/** nginx from Debian's package, or undefined (then the tests that need it skip, or fail in CI). */
export function nginxBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', 'nginx']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not this one
    }
  }
  const why = 'nginx is not installed (apt-get install nginx; .ci/run does)';
  const env = process.env;
  if (env.RK_REQUIRE_POSTGRES === '1' || env.CI === 'true' || env.CI === '1')
    throw new Error(`${why}: CI must run the load-balancer tests.`);
  process.stderr.write(`Skipping load-balancer tests: ${why}.\n`);
  return undefined;
}

/** A port nobody listens on now (the OS picks it; nginx cannot be given port 0 and tell us). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** The nginx configuration docs/deploy.md shows, pointed at these instances and this port. */
export function deployedNginxConfig(upstreams: string[], port: number): string {
  const doc = readFileSync(new URL('../../../docs/deploy.md', import.meta.url), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/deploy.md shows no nginx configuration');
  const servers = upstreams
    .map((u) => `    server ${new URL(u).host} max_fails=1 fail_timeout=5s;`)
    .join('\n');
  const withServers = block.replace(/( {4}server 10\.0\.0\.\d+:4321 [^\n]*\n)+/, `${servers}\n`);
  if (withServers === block) throw new Error('the nginx configuration in docs/deploy.md lists no upstream');
  return withServers.replace('listen 80;', `listen 127.0.0.1:${port};`);
}

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/** Runs nginx in the foreground with the deployed configuration, in a folder of its own. */
export async function startNginx(binary: string, upstreams: string[]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'rk-nginx-'));
  chmodSync(dir, 0o755);
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(join(dir, sub));
    chmodSync(join(dir, sub), 0o777);
  }
  const port = await freePort();
  const conf = [
    // As root, workers would otherwise run as `nobody`: fine, but they must reach the temp folders.
    process.getuid?.() === 0 ? 'user root;' : '',
    'daemon off;',
    'worker_processes 1;',
    'error_log stderr warn;',
    `pid ${join(dir, 'nginx.pid')};`,
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (t) => `  ${t === 'body' ? 'client_body' : t}_temp_path ${join(dir, t)};`,
    ),
    deployedNginxConfig(upstreams, port),
    '}',
  ].join('\n');
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, conf);
  const proc: ChildProcess = spawn(binary, ['-p', dir, '-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d) => {
    err += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${err}`);
    try {
      await fetch(`${url}/api/health`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (proc.exitCode !== null) return done();
        proc.once('exit', done);
        proc.kill('SIGQUIT');
        setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
      }),
  };
}

interface Entry {
  seq: number;
}

/**
 * A viewer as the web app is one: it follows `change` messages, applying each one's delta to the view it
 * holds, and when its socket closes, reconnects (here through nginx) with `?after=` the last seq it saw.
 * It records every entry it was sent, which instance each connection landed on, every time a change did
 * not follow the view it held (it would ask for the whole view again), and fails loudly on nothing.
 */
export class Viewer {
  readonly seqs: number[] = [];
  readonly instances: string[] = [];
  readonly changes: number[] = [];
  readonly resyncs: string[] = [];
  seq = 0;
  held: HeldView | undefined;
  private ws: WebSocket | undefined;
  private stopped = false;
  private waiters: Array<() => void> = [];
  connections = 0;

  constructor(
    private readonly base: string,
    private readonly encounter: string,
    private readonly token: string,
  ) {}

  /** Resolves once the first `hello` came. */
  async start(): Promise<void> {
    await this.connect();
  }

  private connect(): Promise<void> {
    return new Promise((resolve) => {
      const after = this.connections > 0 ? `&after=${this.seq}` : '';
      const ws = new WebSocket(
        `${this.base.replace(/^http/, 'ws')}/api/encounters/${this.encounter}/live?token=${this.token}${after}`,
      );
      this.ws = ws;
      this.connections++;
      let greeted = false;
      ws.on('upgrade', (res) => {
        this.instances.push(String(res.headers['x-roundkeeper-instance'] ?? '?'));
      });
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as
          | ChangeMessage
          | { type: 'hello'; seq: number; state: EncounterView }
          | { type: 'events'; entries: Entry[] };
        if (m.type === 'hello') {
          if (!greeted && this.connections === 1) this.seq = m.seq;
          this.held = { seq: m.seq, state: m.state };
          greeted = true;
          resolve();
        } else if (m.type === 'events') {
          for (const e of m.entries) this.seqs.push(e.seq);
          this.seq = Math.max(this.seq, m.entries.at(-1)?.seq ?? this.seq);
          for (const w of this.waiters.splice(0)) w();
        } else if (m.type === 'change') {
          const r = receiveChange(this.held, m);
          if ('resync' in r) {
            // As the web app does: reconnect from the view it holds, which sends the whole view again.
            this.resyncs.push(r.resync);
            this.seq = this.held?.seq ?? this.seq;
            ws.close();
            return;
          }
          this.held = r.held;
          for (const e of r.entries) this.seqs.push(e.seq);
          this.changes.push(m.seq);
          this.seq = Math.max(this.seq, m.seq);
          for (const w of this.waiters.splice(0)) w();
        }
      });
      const retry = () => {
        if (this.ws !== ws || this.stopped) return;
        setTimeout(() => {
          if (!this.stopped) void this.connect().then(resolve);
        }, 50);
      };
      ws.on('close', retry);
      ws.on('error', () => undefined);
    });
  }

  /** Waits until this viewer has seen `seq` (or throws after `ms`). */
  async reach(seq: number, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.seq < seq) {
      if (Date.now() > deadline) throw new Error(`viewer at seq ${this.seq}, not ${seq}, after ${ms} ms`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  close(): void {
    this.stopped = true;
    this.ws?.close();
  }
}
