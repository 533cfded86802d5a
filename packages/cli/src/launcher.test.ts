import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The committed `roundkeeper` command (packages/cli/bin/roundkeeper), what `npx roundkeeper` runs, in a
// workspace of its own: the same layout, a build that is a one-line script, and a "CLI" that prints
// what it was given. fresh-clone.test.ts runs it in a real clone; this covers what a clone cannot show
// cheaply: a build that fails, and sources changed after a build.

const launcher = fileURLToPath(new URL('../bin/roundkeeper', import.meta.url));

/** What the build makes: the first file is the stamp the launcher compares sources with. */
const BUILT = [
  'packages/engine/dist/index.js',
  'packages/rulesets/dist/index.js',
  'packages/server/dist/index.js',
  'packages/cli/dist/main.js',
  'packages/web/dist/index.html',
];

const CLI = `console.log(JSON.stringify({ args: process.argv.slice(2), arena: process.env.MALLOC_ARENA_MAX ?? null, mmap: process.env.MALLOC_MMAP_THRESHOLD_ ?? null }));\n`;

/** A workspace whose `npm run build` runs `build` (a shell line) and counts its runs in build.count. */
function workspace(build: string): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'rk-launcher-')));
  const script = `echo x >> build.count && ${build}`;
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name: 'w', private: true, scripts: { build: script } }),
  );
  for (const pkg of ['engine', 'rulesets', 'server', 'cli', 'web']) {
    mkdirSync(join(root, 'packages', pkg, 'src'), { recursive: true });
    writeFileSync(join(root, 'packages', pkg, 'src', 'index.ts'), 'export {};\n');
    writeFileSync(join(root, 'packages', pkg, 'src', 'index.test.ts'), 'export {};\n');
  }
  mkdirSync(join(root, 'packages/cli/bin'));
  copyFileSync(launcher, join(root, 'packages/cli/bin/roundkeeper'));
  // As npm links it: node_modules/.bin/roundkeeper → ../../packages/cli/bin/roundkeeper.
  mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
  symlinkSync('../../packages/cli/bin/roundkeeper', join(root, 'node_modules/.bin/roundkeeper'));
  writeFileSync(join(root, 'cli.js'), CLI);
  return root;
}

/** The build a workspace's script runs: puts the stamp and the CLI in place. */
const WORKING_BUILD = `${BUILT.map((f) => `mkdir -p ${dirname(f)}`).join(' && ')} && ${BUILT.map((f) => `cp cli.js ${f}`).join(' && ')}`;

function run(root: string, ...args: string[]) {
  return runWith(root, {}, ...args);
}

function runWith(root: string, extraEnv: NodeJS.ProcessEnv, ...args: string[]) {
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !/^npm_/i.test(k) && k !== 'MALLOC_ARENA_MAX' && k !== 'MALLOC_MMAP_THRESHOLD_',
      ),
    ),
    ...extraEnv,
  };
  // From another folder, through the link, as `npx roundkeeper` runs it.
  const r = spawnSync(join(root, 'node_modules/.bin/roundkeeper'), args, {
    cwd: tmpdir(),
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const builds = (root: string) =>
  existsSync(join(root, 'build.count'))
    ? readFileSync(join(root, 'build.count'), 'utf8').split('\n').length - 1
    : 0;

/** A folder holding a `node` that says it is `version` and otherwise fails, to put first on PATH. */
function fakeNode(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rk-node-'));
  writeFileSync(
    join(dir, 'node'),
    `#!/bin/sh\n[ "$1" = --version ] && echo v${version} && exit 0\necho "ran with $*" >&2\nexit 99\n`,
    { mode: 0o755 },
  );
  return dir;
}

/** The machine's own node when it is older than 22.12 (Debian's Node 20 here), else undefined. */
const oldMachineNode = (() => {
  const r = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
  const m = /^v(\d+)\.(\d+)\./.exec(r.stdout ?? '');
  return m && (Number(m[1]) < 22 || (Number(m[1]) === 22 && Number(m[2]) < 12))
    ? r.stdout.trim().slice(1)
    : undefined;
})();

const NEEDS = 'roundkeeper needs Node.js 22.12 or newer (Node 24 LTS recommended)';

describe('the roundkeeper command (bin/roundkeeper)', () => {
  it('on a node older than 22.12 says which Node it needs and what to do, exit 2, and builds and runs nothing', () => {
    const root = workspace(WORKING_BUILD);
    for (const version of ['20.19.0', '22.11.0', '18.20.8']) {
      const dir = fakeNode(version);
      const r = runWith(root, { PATH: `${dir}:${process.env.PATH}` }, 'serve');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`${NEEDS}; this is Node.js ${version} (${dir}/node).`);
      expect(r.stderr).toContain('Install Node 24 LTS');
      expect(r.stderr).not.toContain('ran with');
    }
    expect(builds(root)).toBe(0);
    // 22.12 and later pass (the fake node runs the build's `npm`, so only the check is shown here).
    for (const version of ['22.12.0', '24.21.0', '26.0.0']) {
      const r = runWith(root, { PATH: `${fakeNode(version)}:${process.env.PATH}` }, '--version');
      expect(r.stderr).not.toContain(NEEDS);
    }
    // No node at all.
    const r = spawnSync('/bin/sh', [join(root, 'packages/cli/bin/roundkeeper'), '--version'], {
      env: { PATH: mkdtempSync(join(tmpdir(), 'rk-empty-')) },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${NEEDS}; no \`node\` command was found.`);
  });

  it.skipIf(oldMachineNode === undefined)(
    "started on the machine's own older Node (Debian's Node 20) says so, as npx roundkeeper and npm start",
    () => {
      const root = workspace(WORKING_BUILD);
      const r = runWith(root, { PATH: `/usr/bin:/bin` }, 'serve');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${NEEDS}; this is Node.js ${oldMachineNode} (/usr/bin/node).`);
      expect(builds(root)).toBe(0);
    },
  );

  it('builds a workspace that was never built, says so, then runs the CLI; built, it runs it at once', () => {
    const root = workspace(WORKING_BUILD);
    const first = run(root, 'rulesets', 'classic');
    expect(first.stderr).toContain('compiling Roundkeeper first (it has not been built yet)');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ args: ['rulesets', 'classic'], arena: null, mmap: null });
    expect(builds(root)).toBe(1);
    const again = run(root, 'run', 'x.yaml');
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout).args).toEqual(['run', 'x.yaml']);
    expect(builds(root)).toBe(1);
    // `serve` gets the server's allocator setting before node starts.
    expect(JSON.parse(run(root, 'serve', '--lan').stdout)).toEqual({
      args: ['serve', '--lan'],
      arena: '2',
      mmap: '32768',
    });
  });

  it('builds again when a source changed since the last build (a git pull, an edit), not when a test did', () => {
    const root = workspace(WORKING_BUILD);
    run(root, '--version');
    expect(builds(root)).toBe(1);
    // Sources written two minutes ago, built one minute ago.
    const written = new Date(Date.now() - 120_000);
    const built = new Date(Date.now() - 60_000);
    for (const pkg of ['engine', 'rulesets', 'server', 'cli', 'web'])
      for (const f of ['src/index.ts', 'src/index.test.ts', 'src'])
        utimesSync(join(root, 'packages', pkg, f), written, written);
    for (const f of BUILT) utimesSync(join(root, f), built, built);
    expect(run(root, '--version').stderr).toBe('');
    // An edited test is not a source of the build, nor a new one (its folder's time changes with it).
    writeFileSync(join(root, 'packages/engine/src/index.test.ts'), 'export const edited = 1;\n');
    writeFileSync(join(root, 'packages/server/src/added.test.ts'), 'export {};\n');
    writeFileSync(join(root, 'packages/web/src/Added.test.tsx'), 'export {};\n');
    expect(run(root, '--version').stderr).toBe('');
    writeFileSync(join(root, 'packages/rulesets/src/index.ts'), 'export const changed = 1;\n');
    const r = run(root, '--version');
    expect(r.stderr).toContain('compiling Roundkeeper first (its sources changed since the last build)');
    expect(r.code).toBe(0);
    expect(builds(root)).toBe(2);
  });

  it('says what to do when the build fails, with exit code 2, and runs nothing', () => {
    const root = workspace('echo "error TS2322: broken" >&2 && exit 1');
    const r = run(root, 'rulesets');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error TS2322: broken');
    expect(r.stderr).toContain(
      `roundkeeper: the build failed (above). In ${root} run \`npm ci\`, then \`npm run build\`, and try again.`,
    );
  });
});
