import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';

/**
 * One shape per ruleset folder (docs/design.md, "What a new ruleset writes"): the same files for the same
 * jobs, none over 400 lines, and the parts never import the folder's index (no cycles through it).
 */
const here = dirname(fileURLToPath(import.meta.url));
const folders = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'testing')
  .map((d) => d.name);

/** index.ts wires; the others each do one job. */
const REQUIRED = [
  'index.ts',
  'types.ts',
  'options.ts',
  'commands.ts',
  'events.ts',
  'catalog.ts',
  'decide.ts',
  'evolve.ts',
  'timeline.ts',
  'describe.ts',
  'present.ts',
];
const MAX_LINES = 400;

/** Source files (tests and their fixtures aside). */
const sources = (folder: string) =>
  readdirSync(join(here, folder)).filter(
    (f) => f.endsWith('.ts') && !f.includes('.test.') && f !== 'fixtures.ts',
  );

describe('one shape per ruleset folder', () => {
  it('every registered ruleset has its folder, and every folder is registered', () => {
    expect(folders.sort()).toEqual(Object.keys(rulesets).sort());
  });

  for (const folder of folders) {
    it(`${folder}: the same files for the same jobs, none over ${MAX_LINES} lines, no part imports the index`, () => {
      const files = sources(folder);
      expect(REQUIRED.filter((f) => !files.includes(f))).toEqual([]);
      const ruleset = rulesets[folder];
      if (ruleset?.redact || ruleset?.redactEvent) expect(files).toContain('redact.ts');
      for (const file of files) {
        const text = readFileSync(join(here, folder, file), 'utf8');
        expect(text.split('\n').length, `${folder}/${file}`).toBeLessThanOrEqual(MAX_LINES);
        if (file !== 'index.ts') expect(text, `${folder}/${file}`).not.toMatch(/from '\.\/index\.js'/);
      }
    });
  }
});
