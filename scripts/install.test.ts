import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// What a user needs to install Roundkeeper: Node.js 22.12 or newer and npm, no compiler. `npm ci` runs
// no native build step (.ci/run also fails when its log shows one); the SQLite binding that loads is the
// prebuilt one shipped inside better-sqlite3; CI on a machine with an older node gets Node 24 LTS into
// the checkout (.ci/use-node).

const repo = resolve(import.meta.dirname, '..');
const json = (path: string) => JSON.parse(readFileSync(join(repo, path), 'utf8'));

interface LockEntry {
  hasInstallScript?: boolean;
}

describe('installing needs no compiler', () => {
  it('no dependency may run an install script: none is allowed, and each that has one is denied', () => {
    const root = json('package.json') as { allowScripts?: Record<string, boolean> };
    const allowed = Object.entries(root.allowScripts ?? {}).filter(([, allow]) => allow !== false);
    expect(allowed).toEqual([]);
    // better-sqlite3 keeps a binding.gyp beside its prebuilt bindings, which npm would build by default.
    expect(root.allowScripts?.['better-sqlite3']).toBe(false);
    const lock = json('package-lock.json') as { packages: Record<string, LockEntry> };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
      .filter((name) => root.allowScripts?.[name] !== false);
    expect(withScripts).toEqual([]);
  });

  it("better-sqlite3's binding is the prebuilt one in its package, not one compiled into build/", () => {
    const dir = join(repo, 'node_modules/better-sqlite3');
    expect(existsSync(join(dir, 'build'))).toBe(false);
    const loaded = execFileSync(
      process.execPath,
      [
        '-e',
        `const Database = require('better-sqlite3');
         const db = new Database(':memory:');
         db.prepare('select 1').get();
         console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.endsWith('.node'))));`,
      ],
      { cwd: repo, encoding: 'utf8' },
    );
    const bindings = JSON.parse(loaded) as string[];
    expect(bindings).toHaveLength(1);
    expect(bindings[0]).toMatch(/node_modules\/better-sqlite3\/prebuilds\/[a-z]+-[a-z0-9]+\.node$/);
  });

  it('package.json, the roundkeeper command and the README agree on the Node.js it needs', () => {
    const engines = (json('package.json') as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=22.12');
    // npm ci refuses an older node at once (engine-strict), instead of installing a binding it cannot load.
    expect(readFileSync(join(repo, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
    const launcher = readFileSync(join(repo, 'packages/cli/bin/roundkeeper'), 'utf8');
    expect(launcher).toContain('need=22.12\n');
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    expect(readme).toContain('Node.js ≥ 22.12');
    expect(readme).not.toMatch(/g\+\+|C\+\+ toolchain|python3/);
    // This very run is on a node the project supports.
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    expect(major > 22 || (major === 22 && minor >= 12)).toBe(true);
  });
});

/** The machine's own node when it is older than 22.12 (Debian's Node 20 here), else undefined. */
const oldMachineNode = (() => {
  const r = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
  const m = /^v(\d+)\.(\d+)\./.exec(r.stdout ?? '');
  return m && (Number(m[1]) < 22 || (Number(m[1]) === 22 && Number(m[2]) < 12)) ? r.stdout.trim() : undefined;
})();

describe('CI on a machine whose node is too old (.ci/use-node)', () => {
  it.skipIf(oldMachineNode === undefined)(
    'installs Node 24 LTS from the registry into .node/ of the checkout, once, and puts it first on PATH',
    () => {
      const checkout = mkdtempSync(join(tmpdir(), 'rk-ci-node-'));
      try {
        mkdirSync(join(checkout, '.ci'));
        copyFileSync(join(repo, '.ci/use-node'), join(checkout, '.ci/use-node'));
        const use = () =>
          spawnSync(
            'bash',
            ['-euo', 'pipefail', '-c', '. .ci/use-node; node --version; command -v node; npm --version'],
            { cwd: checkout, env: { HOME: process.env.HOME, PATH: '/usr/bin:/bin' }, encoding: 'utf8' },
          );
        const first = use();
        expect(first.status, first.stderr).toBe(0);
        expect(first.stdout).toContain(`node ${oldMachineNode} is older than 22.12: installing node-`);
        const [, version, where] = first.stdout.trim().split('\n');
        expect(version).toMatch(/^v24\./);
        expect(where).toBe(join(checkout, '.node/bin/node'));
        expect(existsSync(join(checkout, '.node/include/node/node.h'))).toBe(true);
        // The second time it is there already.
        const second = use();
        expect(second.status).toBe(0);
        expect(second.stdout).not.toContain('installing');
        expect(second.stdout).toContain(join(checkout, '.node/bin/node'));
      } finally {
        rmSync(checkout, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it('uses the machine node as it is when it is new enough', () => {
    const r = spawnSync(
      'bash',
      ['-euo', 'pipefail', '-c', `. ${join(repo, '.ci/use-node')}; command -v node`],
      {
        cwd: tmpdir(),
        env: { ...process.env, PATH: `${resolve(process.execPath, '..')}:/usr/bin:/bin` },
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(process.execPath);
    expect(existsSync(join(tmpdir(), '.node'))).toBe(false);
  });
});
