import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const OUTSIDE = ['packages/engine/src', 'packages/server/src', 'packages/cli/src', 'packages/web/src'];

/** Test support that is not named *.test.ts (the storage contract suite's fixtures). */
const TEST_SUPPORT = /(storage\/contract|test-process)\.ts$/;

/** Source files (tests aside: they may use a ruleset as example data). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !TEST_SUPPORT.test(path))
      out.push(path);
  }
  return out;
}

/**
 * What the apps know of a ruleset comes through the SDK (its declarations, `present`, `analysis`): no file
 * outside packages/rulesets names one by id, and nothing but the registry is imported from there. A
 * `switch` on a ruleset id outside its folder is a hook the SDK is missing.
 */
describe('the boundary: only packages/rulesets names a ruleset', () => {
  const ids = Object.keys(rulesets);
  const quoted = new RegExp(`(['"\`])(${ids.map((id) => id.replace(/-/g, '\\-')).join('|')})\\1`);
  const files = OUTSIDE.flatMap((d) => sources(join(root, d)));

  it('finds the sources it checks', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it('no source outside packages/rulesets names a ruleset id', () => {
    const named = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(root, file)}:${i + 1}` }))
        // Comments may use the rules' words ('tempo' is also a clock unit); code may not name a ruleset.
        .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && quoted.test(line))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
    expect(named).toEqual([]);
  });

  it('nothing but the registry is imported from @roundkeeper/rulesets', () => {
    const imports = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*'@roundkeeper\/rulesets'/g)]
        .flatMap((m) =>
          m[2]!
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        )
        .filter((name) => name !== 'rulesets')
        .map((name) => `${relative(root, file)}: ${name}`);
    });
    expect(imports).toEqual([]);
  });
});
