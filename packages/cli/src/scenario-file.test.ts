import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CliError } from './load.js';
import { importCommand } from './scenario-file.js';

const examples = fileURLToPath(new URL('../../../examples', import.meta.url));
const exported = join(examples, 'improved-initiative/improved-initiative.json');
const tmp = () => mkdtempSync(join(tmpdir(), 'rk-import-'));

describe('import: an Improved Initiative export', () => {
  it('writes the saved encounter as a classic scenario that replays, listing what did not map', () => {
    const out = join(tmp(), 'ambush.yaml');
    const r = importCommand(exported, rulesets, out);
    expect(r.code).toBe(0);
    expect(r.text).toContain('Improved Initiative → classic, "Goblin ambush"');
    const data = parseYaml(readFileSync(out, 'utf8')) as {
      ruleset: string;
      combatants: { name: string; hp: unknown; stats: unknown }[];
    };
    expect(data.ruleset).toBe('classic');
    expect(data.combatants.map((c) => c.name)).toEqual(['Goblin 1', 'Goblin 2']);
    expect(data.combatants[1]?.hp).toEqual({ current: 3, max: 7, temp: 0 });
    expect(r.notMapped).toContain('spell Fire Bolt: classic tracks no spells');
    expect(r.notMapped.some((l) => l.startsWith('Goblin') && l.includes('Actions'))).toBe(true);
    // The written file is itself a scenario: importing it again is the plain scenario path, nothing unmapped.
    const again = importCommand(out, rulesets);
    expect(again.code).toBe(0);
    expect(again.notMapped).toEqual([]);
  });

  it('--encounter picks one by name, and names the ones there are when it is not there', () => {
    expect(importCommand(exported, rulesets, undefined, false, 'Goblin ambush').text).toContain('Goblin 2');
    expect(() => importCommand(exported, rulesets, undefined, false, 'Dragon')).toThrow(
      /it has "Goblin ambush"/,
    );
  });

  it('without a saved encounter, takes every creature and character once', () => {
    const file = join(tmp(), 'creatures.json');
    const all = JSON.parse(readFileSync(exported, 'utf8')) as Record<string, unknown>;
    delete all['SavedEncounters.ambush'];
    writeFileSync(file, JSON.stringify(all));
    const out = join(tmp(), 'out.json');
    expect(importCommand(file, rulesets, out).code).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8')) as {
      combatants: { name: string }[];
    };
    expect(written.combatants.map((c) => c.name).sort()).toEqual(['Dara', 'Goblin', 'Ogre', 'Wolf']);
  });

  it('a scenario file is still read as one; --encounter on it is refused in words', () => {
    const ambush = join(examples, 'classic/ambush.yaml');
    expect(importCommand(ambush, rulesets).notMapped).toEqual([]);
    expect(() => importCommand(ambush, rulesets, undefined, false, 'x')).toThrow(CliError);
    expect(() => importCommand(ambush, rulesets, undefined, false, 'x')).toThrow(/is a scenario file/);
  });
});
