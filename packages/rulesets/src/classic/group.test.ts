import type { EncounterState } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { encounter, must } from '../testing/harness.js';

const goblins = ['g1', 'g2', 'g3', 'g4'].map((id, i) => ({
  id,
  name: `Goblin ${i + 1}`,
  side: 'npc',
  group: 'Goblins',
  stats: { initiative: 2 },
  hp: 7,
}));
const party = [
  { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 }, hp: 20 },
  { id: 'bren', name: 'Bren', side: 'pc', stats: { initiative: 1 }, hp: 24 },
];

/** The order of the turns still to come this round, the current one first. */
const order = (state: EncounterState) => [
  state.current,
  ...state.agenda.filter((e) => e.kind === 'turn').map((e) => e.combatant),
];
const initiativeRolls = (enc: ReturnType<typeof encounter>) =>
  enc.entries.filter((e) => e.event.type === 'dice/rolled' && e.event.purpose === 'initiative').length;

describe('classic: group initiative (option groupInitiative: group)', () => {
  it('a group of 4 rolls once and its members take their turns one after another', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const enc = encounter({
        ruleset: 'classic',
        seed,
        options: { groupInitiative: 'group' },
        combatants: [...party, ...goblins],
      });
      must(enc, { type: 'start' });
      expect(initiativeRolls(enc)).toBe(3);
      const turns = order(enc.state);
      const at = turns.indexOf('g1');
      expect(turns.slice(at, at + 4)).toEqual(['g1', 'g2', 'g3', 'g4']);
      const totals = goblins.map((g) => enc.state.combatants[g.id]!.cs as { initiative: number });
      expect(new Set(totals.map((t) => t.initiative)).size).toBe(1);
    }
  });

  it('everyone rolls by default: the group is a label', () => {
    const enc = encounter({ ruleset: 'classic', combatants: [...party, ...goblins] });
    must(enc, { type: 'start' });
    expect(initiativeRolls(enc)).toBe(6);
  });

  it("the GM's value for one member is the group's", () => {
    const enc = encounter({
      ruleset: 'classic',
      options: { groupInitiative: 'group' },
      combatants: [...party, ...goblins],
    });
    must(enc, { type: 'start', initiative: { ana: 20, bren: 5, g2: 12 } });
    expect(order(enc.state)).toEqual(['ana', 'g1', 'g2', 'g3', 'g4', 'bren']);
  });

  it('a goblin arriving late joins its group, after the others; a reroll keeps the group together', () => {
    const enc = encounter({
      ruleset: 'classic',
      options: { groupInitiative: 'group', rerollEachRound: true },
      combatants: [...party, ...goblins],
    });
    must(enc, { type: 'start', initiative: { ana: 20, bren: 5, g1: 12 } });
    must(enc, {
      type: 'add-combatant',
      combatant: { id: 'g5', name: 'Goblin 5', side: 'npc', group: 'Goblins', stats: { initiative: 2 } },
    });
    expect(order(enc.state)).toEqual(['ana', 'g1', 'g2', 'g3', 'g4', 'g5', 'bren']);
    for (let i = 0; i < 7; i++) must(enc, { type: 'next' });
    expect(enc.state.round).toBe(2);
    const turns = order(enc.state);
    const at = turns.indexOf('g1');
    expect(turns.slice(at, at + 5)).toEqual(['g1', 'g2', 'g3', 'g4', 'g5']);
  });
});
