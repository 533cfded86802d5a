import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A newcomer's first hour, on a fresh clone: `npm ci` as the README says, then every command line that
// the README, docs/cli.md and `--help` show, run as written in a shell. One clone and one `npm ci`
// (seconds: nothing is compiled, SQLite's binding comes prebuilt) serve every test here; nothing is built before
// the first `npx roundkeeper`, as on a newcomer's machine.

const repo = resolve(import.meta.dirname, '../../..');

/** Lines shown in the docs that this walk does not run, and why. */
const NOT_RUN: Record<string, string> = {
  'npm ci && npm test': 'CI runs it; this test is part of it',
  'npx vitest': 'the whole test suite, in watch mode at a terminal',
  'npm run bench': 'benchmarks take minutes and want a quiet machine',
  'npm start -- --database-url postgres://…':
    'a placeholder for a PostgreSQL URL; postgres-startup.test.ts starts the server on a real one',
};

let clone = '';
let home = '';
let env: NodeJS.ProcessEnv = {};

beforeAll(() => {
  clone = mkdtempSync(join(tmpdir(), 'rk-clone-'));
  home = mkdtempSync(join(tmpdir(), 'rk-home-'));
  execFileSync('git', ['clone', '--quiet', repo, clone]);
  // The newcomer's shell: none of the npm_* variables of the `npm test` this may run inside; a home of
  // its own (the docs write to ~/rk), with npm's cache and settings where they were (its registry).
  const npmConfig = (key: string) => execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
  const cache = npmConfig('cache');
  const userconfig = npmConfig('userconfig');
  env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE_OPTIONS',
    ),
  );
  Object.assign(env, {
    HOME: home,
    npm_config_cache: cache,
    npm_config_userconfig: userconfig,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  });
  const ci = spawnSync('npm', ['ci'], { cwd: clone, env, encoding: 'utf8', timeout: 600_000 });
  if (ci.status !== 0) throw new Error(`npm ci failed in the clone:\n${ci.stderr.slice(-3000)}`);
}, 660_000);

afterAll(() => {
  for (const dir of [clone, home]) if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** The command lines of every ```sh block of a Markdown file, without their comments. */
function shellLines(markdown: string): string[] {
  const lines: string[] = [];
  let inBlock = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      inBlock = line.startsWith('```sh');
      continue;
    }
    if (!inBlock) continue;
    const command = line.replace(/\s+#\s.*$/, '').trim();
    if (command && !command.startsWith('#')) lines.push(command);
  }
  return lines;
}

/**
 * The command lines written inline in a Markdown file's prose (`npm start -- --port 8080 …`): code spans
 * that start with `npx roundkeeper` or `npm start` and give it arguments.
 */
function inlineCommands(markdown: string): string[] {
  return [...markdown.matchAll(/`([^`\n]+)`/g)]
    .map((m) => m[1]!.trim())
    .filter((span) => /^(npx roundkeeper|npm start) +\S/.test(span));
}

/** The example lines of a `--help` text (`  $ roundkeeper …`), as typed in the clone (`npx roundkeeper`). */
function helpExamples(help: string): string[] {
  return [...help.matchAll(/^ {2}\$ (.+)$/gm)].map((m) =>
    m[1]!.replace(/(^|\| |^(?:[A-Z_]+=\S+ )+)roundkeeper /, '$1npx roundkeeper '),
  );
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function sh(line: string, extraEnv: NodeJS.ProcessEnv = {}): Ran {
  const r = spawnSync('sh', ['-c', line], {
    cwd: clone,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The processes of a process group (Linux): their command lines and environments. */
function groupProcesses(pgid: number): Array<{ cmdline: string; environ: string[] }> {
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …: comm may hold spaces, so count from its closing parenthesis.
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp !== pgid) continue;
      found.push({
        cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '),
        environ: readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'),
      });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const isServer = (line: string) => /(^|\s)(serve|npm start)(\s|$)/.test(line) && !line.includes('--help');

/**
 * Starts a server line as a shell would (its own process group, like a job at a terminal), waits for the
 * URL it prints, asks it for its health and the web app, and stops it with Ctrl-C (SIGINT to the group).
 * Ports become 0 (any free one) so that the walk never takes a port another program uses.
 */
async function runServer(line: string): Promise<{ output: string }> {
  const command = line.replace(/--port \d+/, '--port 0').replace(/\bPORT=\d+/, 'PORT=0');
  const proc: ChildProcess = spawn('sh', ['-c', command], {
    cwd: clone,
    env: { ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
  try {
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL printed in 120 s:\n${output}`)), 120_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const m = /Roundkeeper listening on (http:\/\/\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          ok(m[1]!);
        }
      };
      proc.stdout!.on('data', read);
      proc.stderr!.on('data', read);
      void exited.then((code) => {
        clearTimeout(timer);
        fail(new Error(`exited with ${code} before it listened:\n${output}`));
      });
    });
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    const page = await fetch(`${url}/`);
    expect(await page.text()).toContain('<div id="root">');
    return { output };
  } finally {
    if (proc.exitCode === null && proc.pid) process.kill(-proc.pid, 'SIGINT');
    await exited;
  }
}

describe('a fresh clone, as the README says', () => {
  it('npx roundkeeper works right after npm ci: it builds the project the first time, with a message', () => {
    const r = sh('npx roundkeeper rulesets');
    expect(r.stderr).toContain('compiling Roundkeeper first');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('tara-corax');
    // Built now: the next run goes straight to the CLI.
    const again = sh('npx roundkeeper --version');
    expect(again.stderr).not.toContain('compiling');
    expect(again.stdout.trim()).toBe('0.1.0');
  }, 300_000);

  it('npm start and npx roundkeeper serve are one server: the same help, options and memory settings', async () => {
    const npmHelp = sh('npm start --silent -- --help');
    const serveHelp = sh('npx roundkeeper serve --help');
    expect(serveHelp.code).toBe(0);
    expect(npmHelp.stdout).toContain(serveHelp.stdout);
    for (const option of ['--lan', '--public-url', 'RK_PORT or PORT', 'RK_HOST or HOST', 'MALLOC_ARENA_MAX'])
      expect(serveHelp.stdout).toContain(option);

    // The conventional PORT, and an allocator setting in the environment of the process that listens.
    const proc = spawn('sh', ['-c', 'npm start'], {
      cwd: clone,
      env: { ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
    try {
      const url = await new Promise<string>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`npm start printed no URL:\n${output}`)), 120_000);
        proc.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const m = /listening on (http:\/\/\S+)/.exec(output);
          if (m) {
            clearTimeout(timer);
            ok(m[1]!);
          }
        });
      });
      expect(new URL(url).port).not.toBe('4321');
      // The process that listens (npm → sh → node, one process group) was started with MALLOC_ARENA_MAX=2.
      const server = groupProcesses(proc.pid!).find((p) => p.cmdline.includes('packages/cli/dist/main.js'));
      expect(server?.cmdline).toContain('serve');
      expect(server?.environ).toContain('MALLOC_ARENA_MAX=2');
      expect(server?.environ).toContain('MALLOC_MMAP_THRESHOLD_=32768');
    } finally {
      if (proc.exitCode === null && proc.pid) process.kill(-proc.pid, 'SIGINT');
      await exited;
    }
  }, 300_000);

  it('every command line of the README, docs/cli.md and --help works as written', async () => {
    const readmeText = readFileSync(join(clone, 'README.md'), 'utf8');
    const manualText = readFileSync(join(clone, 'docs/cli.md'), 'utf8');
    const readme = [...shellLines(readmeText), ...inlineCommands(readmeText)];
    const manual = [...shellLines(manualText), ...inlineCommands(manualText)];
    expect(readme).toContain('npm start -- --port 8080 --data-dir ~/rk');
    const help = sh('npx roundkeeper --help');
    expect(help.code).toBe(0);
    const commands = [...help.stdout.matchAll(/^ {2}([a-z]+) \[?/gm)]
      .map((m) => m[1]!)
      .filter((c) => c !== 'help');
    expect(commands).toEqual(['run', 'rulesets', 'play', 'simulate', 'analyze', 'export', 'import', 'serve']);
    const shown = [
      ...readme,
      ...manual.flatMap((line) =>
        line.includes('<command>') ? commands.map((c) => line.replace('<command>', c)) : [line],
      ),
      ...helpExamples(help.stdout),
      ...commands.flatMap((c) => helpExamples(sh(`npx roundkeeper ${c} --help`).stdout)),
    ];
    // Each line once, however many places show it.
    const lines = [...new Set(shown)];
    expect(lines.length).toBeGreaterThan(40);
    mkdirSync(join(home, 'rk'), { recursive: true });

    const failures: string[] = [];
    for (const written of lines) {
      if (NOT_RUN[written]) continue;
      // The README's first line: npm ci has run already (it is how this clone was installed).
      const line = written.replace(/^npm ci && /, '');
      if (isServer(line)) {
        try {
          const { output } = await runServer(line);
          if (
            /--lan/.test(line) &&
            !/open: http:\/\/\d/.test(output) &&
            !/no address on a local network/.test(output)
          )
            failures.push(`${written}\n  printed no address for phones:\n${output}`);
        } catch (error) {
          failures.push(`${written}\n  ${(error as Error).message}`);
        }
        continue;
      }
      const r = sh(line);
      if (r.code !== 0)
        failures.push(`${written}\n  exit ${r.code}\n${r.stderr.slice(-1500)}${r.stdout.slice(-500)}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
