import { readFileSync } from 'node:fs';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import type { Creature } from '../store/api.js';
import { creaturesFromFile, searchCreatures } from './library.js';

const c = (name: string): Creature => ({ name, side: 'npc', stats: {} });

describe('the library search', () => {
  const lib = {
    creatures: [c('Hobgoblin captain'), c('Orc')],
    examples: [c('Goblin'), c('Bugbear'), c('Éttin')],
  };
  it('finds names holding what was typed, those starting with it first, the library before the examples', () => {
    expect(searchCreatures(lib, 'gob').map((f) => [f.creature.name, f.from])).toEqual([
      ['Goblin', 'examples'],
      ['Hobgoblin captain', 'library'],
    ]);
  });
  it('ignores case and accents; nothing typed finds nothing', () => {
    expect(searchCreatures(lib, '  ETT').map((f) => f.creature.name)).toEqual(['Éttin']);
    expect(searchCreatures(lib, '   ')).toEqual([]);
    expect(searchCreatures(lib, 'dragon')).toEqual([]);
  });
});

describe('creatures from a file', () => {
  const exported: unknown = JSON.parse(
    readFileSync(
      new URL('../../../../examples/improved-initiative/improved-initiative.json', import.meta.url),
      'utf8',
    ),
  );
  it("reads another tracker's export through the ruleset's importer, with what did not map", () => {
    const read = creaturesFromFile(exported, rulesets.classic);
    if (typeof read === 'string') throw new Error(read);
    expect(read.format).toBe('Improved Initiative');
    expect((read.creatures as Creature[]).map((x) => x.name).sort()).toEqual([
      'Dara',
      'Goblin',
      'Ogre',
      'Wolf',
    ]);
    expect(read.creatures).toContainEqual(
      expect.objectContaining({ name: 'Goblin', hp: 7, stats: { initiative: 2, armorClass: 15 } }),
    );
    expect(read.notMapped.join('\n')).toContain('Goblin');
  });
  it('takes a list of creatures or {"creatures": [...]}; says why not otherwise', () => {
    expect(creaturesFromFile([{ name: 'Orc', hp: 15 }], rulesets.classic)).toMatchObject({
      creatures: [{ name: 'Orc' }],
      notMapped: [],
    });
    expect(creaturesFromFile({ creatures: [{ name: 'Orc' }] }, rulesets.tempo)).toMatchObject({
      creatures: [{ name: 'Orc' }],
    });
    // A ruleset without that importer does not read the other tracker's file.
    expect(creaturesFromFile(exported, rulesets.tempo)).toContain('no list of creatures');
  });
});
