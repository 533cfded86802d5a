import { readFileSync } from 'node:fs';
import { isRejection, parseScenario, runScenario } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from '../index.js';
import { fromImprovedInitiative, improvedInitiativeScenario } from './improved-initiative.js';
import { classicStats } from './options.js';

/** A file in Improved Initiative's own export format, written by hand from its published types. */
const exported: unknown = JSON.parse(
  readFileSync(
    new URL('../../../../examples/improved-initiative/improved-initiative.json', import.meta.url),
    'utf8',
  ),
);

describe('Improved Initiative import (classic)', () => {
  const read = fromImprovedInitiative(exported);
  const byName = (name: string) => read.creatures.find((c) => c.name === name);

  it('maps name, HP, AC and the initiative modifier of each creature', () => {
    expect(byName('Goblin')).toMatchObject({ side: 'npc', hp: 7, stats: { initiative: 2, armorClass: 15 } });
    expect(byName('Ogre')).toMatchObject({
      hp: 59,
      stats: { armorClass: 11 },
      notes: 'Smells of old cheese.',
    });
  });

  it('takes the Dexterity modifier where a stat block has no initiative modifier', () => {
    expect(byName('Ogre')?.stats.initiative).toBe(-1); // Dex 8
    expect(byName('Wolf')?.stats.initiative).toBe(2); // Dex 15, from an older export's JSON text
  });

  it('keeps HP and AC notes as notes', () => {
    expect(byName('Goblin')?.notes).toBe('HP (2d6)\nAC (leather armor, shield)');
  });

  it('reads a player character as a PC with its notes', () => {
    expect(byName('Dara')).toMatchObject({ side: 'pc', hp: 31, stats: { initiative: 3, armorClass: 16 } });
    expect(byName('Dara')?.notes).toContain('Ranger, level 4');
  });

  it('reads a saved encounter with its combatants’ names and current HP', () => {
    expect(read.encounters).toHaveLength(1);
    const [enc] = read.encounters;
    expect(enc?.name).toBe('Goblin ambush');
    expect(enc?.combatants.map((c) => [c.name, c.currentHp])).toEqual([
      ['Goblin 1', undefined],
      ['Goblin 2', 3],
    ]);
  });

  it('lists what did not map, by creature, never silently', () => {
    expect(read.notMapped).toContain(
      'Goblin: Traits, Actions, Skills, Speed, Senses, Languages, Challenge, Type, Source, ability scores',
    );
    expect(read.notMapped).toContain(
      'Goblin ambush · Goblin 2: Traits, Actions, Skills, Speed, Senses, Languages, Challenge, Type, Source, ability scores, conditions (tags)',
    );
    expect(read.notMapped).toContain('spell Fire Bolt: classic tracks no spells');
  });

  it('ignores settings and key bindings', () => {
    expect(read.creatures.map((c) => c.name).sort()).toEqual(['Dara', 'Goblin', 'Ogre', 'Wolf']);
  });

  it('gives classic stats that classic’s own schema accepts', () => {
    for (const c of read.creatures) expect(classicStats().safeParse(c.stats).success).toBe(true);
  });

  it('refuses out-of-range values by name instead of importing them', () => {
    const r = fromImprovedInitiative({
      Name: 'Tarrasque',
      HP: { Value: 676, Notes: '' },
      AC: { Value: 125, Notes: '' },
      InitiativeModifier: 99,
    });
    expect(r.creatures[0]?.stats).toEqual({ initiative: 0 });
    expect(r.notMapped[0]).toBe(
      'Tarrasque: initiative modifier 99 (classic takes -20 to 50), AC 125 (classic takes 0 to 50)',
    );
  });

  it('reads one stat block or a list of them', () => {
    const one = { Name: 'Kobold', HP: { Value: 5, Notes: '' }, AC: { Value: 12, Notes: '' } };
    expect(fromImprovedInitiative(one).creatures).toHaveLength(1);
    expect(fromImprovedInitiative([one, one]).creatures).toHaveLength(2);
  });

  it('says what to export when a file holds nothing it can read', () => {
    expect(() => fromImprovedInitiative({ 'ImprovedInitiative.Settings': '{}' })).toThrow(/Export all/);
    expect(() => fromImprovedInitiative(42)).toThrow(/no Improved Initiative creatures/);
  });
});

describe('Improved Initiative import as a classic scenario', () => {
  const read = fromImprovedInitiative(exported);

  it('takes the saved encounter, with current HP where it was hurt', () => {
    const s = improvedInitiativeScenario(read);
    expect(s.name).toBe('Goblin ambush');
    expect(s.combatants.map((c) => [c.name, c.hp])).toEqual([
      ['Goblin 1', 7],
      ['Goblin 2', { current: 3, max: 7 }],
    ]);
  });

  it('replays in the engine as a classic encounter', () => {
    const scenario = parseScenario(improvedInitiativeScenario(read));
    if (isRejection(scenario)) throw new Error(scenario.message);
    const r = runScenario(scenario, rulesets);
    if (isRejection(r)) throw new Error(r.message);
    expect(r.failures).toEqual([]);
    expect(Object.values(r.encounter.state.combatants).map((c) => c.hp)).toEqual([
      { current: 7, max: 7, temp: 0 },
      { current: 3, max: 7, temp: 0 },
    ]);
  });

  it('without an encounter, takes every creature once, each name distinct', () => {
    const one = { Name: 'Kobold', HP: { Value: 5, Notes: '' }, AC: { Value: 12, Notes: '' } };
    const s = improvedInitiativeScenario(fromImprovedInitiative([one, one, one]));
    expect(s.combatants.map((c) => c.name)).toEqual(['Kobold', 'Kobold 2', 'Kobold 3']);
  });

  it('names the encounters a file has when asked for one it lacks', () => {
    expect(() => improvedInitiativeScenario(read, 'Dragon')).toThrow('it has "Goblin ambush"');
  });
});
