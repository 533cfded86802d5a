import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, vi } from 'vitest';

/** Shared by the end-to-end tests: a real server process on a temp data dir, and Debian's Chromium. */
export const repo = resolve(import.meta.dirname, '../../..');
export const shots = join(repo, 'test-results');

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

export function chromiumPath(): string {
  let found = CHROMIUM.find((p) => existsSync(p));
  if (!found && process.getuid?.() === 0) {
    // A fresh machine has no package lists yet: update them first.
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    found = CHROMIUM.find((p) => existsSync(p));
  }
  if (!found) throw new Error('Chromium is missing: run `apt-get install -y chromium` as root.');
  return found;
}

/** Builds what the run needs when it is missing (the web app and the server). */
export function ensureBuilt(): void {
  if (!existsSync(join(repo, 'packages/server/dist/main.js'))) {
    execFileSync('npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
  }
  if (!existsSync(join(repo, 'packages/web/dist/index.html'))) {
    execFileSync('npm', ['run', 'build', '-w', '@roundkeeper/web'], { cwd: repo, stdio: 'inherit' });
  }
}

/**
 * How long a read in the browser may wait on a loaded machine (two cores shared by several builds and
 * browsers): a page's first draw, or its drawing of a change, can take seconds there.
 */
export const LOADED_MS = 15_000;

/**
 * Every `expect.poll` of the calling test file waits up to `LOADED_MS` (vitest's default is 1 s, which a
 * loaded machine overruns right after a page opens). `endToEnd` calls it; a file that starts its own
 * server calls it in its `beforeAll`.
 */
export function patient(): void {
  vi.setConfig({ expect: { poll: { timeout: LOADED_MS, interval: 50 } } });
}

/**
 * Waits for an encounter page to have drawn: its root's `data-seq` set (the change the page shows, set
 * with its log and timeline) and at least `seq` when given.
 */
export async function drawn(page: Page, seq = 0): Promise<void> {
  await page.waitForFunction(
    (at) => {
      const v = document.querySelector('.encounter-page')?.getAttribute('data-seq');
      return v != null && Number(v) >= at;
    },
    seq,
    { timeout: LOADED_MS },
  );
}

export interface Server {
  url: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

export async function startServer(dataDir?: string, port = 0): Promise<Server> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'roundkeeper-e2e-'));
  const proc = spawn(
    process.execPath,
    [join(repo, 'packages/server/dist/main.js'), '--port', String(port), '--data-dir', dir],
    {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`The server did not start in 15 s:\n${output}`)), 15_000);
    const onData = (b: Buffer) => {
      output += b.toString();
      const m = /Roundkeeper listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!.replace(/\/$/, ''));
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`The server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    port: Number(new URL(url).port),
    dataDir: dir,
    proc,
    // A server that does not exit is a bug to see (its shutdown waits for something), not a test timeout:
    // after 10 s it is killed and the test fails with what it printed.
    stop: () =>
      new Promise<void>((done, fail) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return done();
        const timer = setTimeout(() => {
          proc.kill('SIGKILL');
          fail(new Error(`The server did not exit within 10 s of SIGTERM:\n${output.slice(-2000)}`));
        }, 10_000);
        proc.once('exit', () => {
          clearTimeout(timer);
          done();
        });
        proc.kill('SIGTERM');
      }),
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(shots, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * For a test file: a real server process and Chromium, started before its tests and stopped after.
 * Read `server` and `browser` inside tests (they are set once `beforeAll` has run).
 */
export function endToEnd(): { server: Server; browser: Browser } {
  const env = {} as { server: Server; browser: Browser };
  beforeAll(async () => {
    patient();
    ensureBuilt();
    env.server = await startServer();
    env.browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.stop();
    if (env.server) removeDir(env.server.dataDir);
  });
  return env;
}

/** A call to the API of the server the test files share (`endToEnd`), failing the test on an error. */
export function apiOf(server: () => Server) {
  return async (method: string, path: string, token: string | null, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${server().url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = (await res.json()) as unknown;
    if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(data)}`);
    return data;
  };
}

/**
 * A classic encounter made through the API (seed 3) and its GM page open and drawn in a browser context of
 * its own, which the caller closes (it is closed here if the page never comes).
 */
export async function openClassicGm(
  env: { server: Server; browser: Browser },
  name: string,
  combatants: Array<{ id: string; name: string; side: 'pc' | 'npc'; hp: number }>,
  viewport = { width: 1280, height: 720 },
): Promise<{ ctx: BrowserContext; page: Page }> {
  const r = (await apiOf(() => env.server)('POST', '/api/encounters', null, {
    name,
    ruleset: 'classic',
    seed: 3,
    combatants,
  })) as { encounter: { id: string }; tokens: { gm: string } };
  const ctx = await env.browser.newContext({ viewport });
  try {
    const page = await ctx.newPage();
    await page.goto(
      `${env.server.url}/e/${encodeURIComponent(r.encounter.id)}?token=${encodeURIComponent(r.tokens.gm)}`,
    );
    await drawn(page);
    return { ctx, page };
  } catch (error) {
    await ctx.close();
    throw error;
  }
}
