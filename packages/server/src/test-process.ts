import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChangeMessage, type EncounterView, type HeldView, receiveChange } from '@roundkeeper/engine';
import WebSocket from 'ws';

/** The built server binary: tests run the real thing (npm test builds before vitest runs). */
export const SERVER_BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface ServerProcess {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  stderr: () => string;
  /** Everything the process wrote to stdout (its log lines among them). */
  stdout: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'rk-server-'));
}

/**
 * Starts a real server process and waits for its "listening" line: on a free port with `dataDir` given
 * as flags, or, with `flags: false`, configured by `env` alone.
 */
export function startServerProcess(
  dataDir = tempDir(),
  args: string[] = [],
  { env, flags = true }: { env?: Record<string, string>; flags?: boolean } = {},
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const base = flags ? ['--port', '0', '--data-dir', dataDir] : [];
    const proc = spawn(process.execPath, [SERVER_BIN, ...base, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    proc.stderr!.on('data', (d) => {
      err += d;
    });
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          dataDir,
          proc,
          stderr: () => err,
          stdout: () => out,
          stop: (signal = 'SIGTERM') =>
            new Promise((res) => {
              if (proc.exitCode !== null) return res(proc.exitCode);
              proc.once('exit', (code) => res(code));
              proc.kill(signal);
            }),
        });
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
  });
}

export interface Api {
  status: number;
  body: unknown;
}

export async function api(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<Api> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (a YAML export, an empty 204)
  }
  return { status: res.status, body: parsed };
}

/**
 * A WebSocket client that collects every message, and holds the view as the web app does: the `hello`'s,
 * with each `change` applied (its delta, or its whole view).
 */
export class LiveClient {
  readonly messages: Array<Record<string, unknown>> = [];
  held: HeldView | undefined;
  /** Every change that did not follow the view held, and why. */
  readonly resyncs: string[] = [];
  private waiters: Array<() => void> = [];
  readonly ws: WebSocket;
  closed: { code: number } | null = null;
  /** Why the socket failed, if it did (the close that follows is in `closed`). */
  error: Error | undefined;

  constructor(url: string) {
    this.ws = new WebSocket(url.replace(/^http/, 'ws'));
    this.ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      if (m.type === 'hello') this.held = { seq: m.seq as number, state: m.state as EncounterView };
      if (m.type === 'change') {
        const r = receiveChange(this.held, m as unknown as ChangeMessage);
        if ('resync' in r) this.resyncs.push(r.resync);
        else this.held = r.held;
      }
      this.messages.push(m);
      for (const w of this.waiters.splice(0)) w();
    });
    // A refused upgrade (a 404 for an id no route matches) is an 'error' and then a close: kept, not thrown
    // as an uncaught exception into whichever test runs next.
    this.ws.on('error', (err) => {
      this.error = err;
    });
    this.ws.on('close', (code) => {
      this.closed = { code };
      for (const w of this.waiters.splice(0)) w();
    });
  }

  opened(): Promise<void> {
    return new Promise((res, rej) => {
      if (this.ws.readyState === WebSocket.OPEN) return res();
      this.ws.once('open', () => res());
      this.ws.once('error', rej);
    });
  }

  /** Waits until a message matches (or the socket closes), up to `ms`. */
  async next(test: (m: Record<string, unknown>) => boolean, ms = 5000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.messages.find(test);
      if (found) return found;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) before the message came`);
      if (Date.now() > deadline)
        throw new Error(`no such message in ${ms} ms; got ${JSON.stringify(this.messages).slice(0, 500)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  send(m: unknown): void {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }

  close(): void {
    this.ws.close();
  }
}
