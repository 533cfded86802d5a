import { EncounterLog, isRejection, seededDice, view } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { nextRound } from './next-round.js';

function fight(ruleset: string, options: Record<string, unknown> = {}) {
  const enc = EncounterLog.create({ id: 'e', name: 'N', ruleset, options, dice: seededDice(9) }, rulesets);
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of [
    { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
    { id: 'g1', name: 'Goblin', side: 'npc', hp: 7 },
    { id: 'g2', name: 'Goblin', side: 'npc', hp: 7 },
    { id: 'spy', name: 'Spy', side: 'npc', hp: 9, hidden: true },
  ])
    expect(enc.execute({ type: 'add-combatant', combatant })).not.toHaveProperty('code');
  return enc;
}

const gm = { role: 'gm' as const };
const table = { role: 'table' as const };
const line = (enc: EncounterLog, viewer: typeof gm | typeof table) => {
  const rs = rulesets[enc.state.ruleset]!;
  return nextRound(view(enc.state, viewer, rs, enc.everHidden), rs);
};

describe('the next round line', () => {
  it('classic: the same order, names told apart, the hidden spy for the GM only; nothing before the fight', () => {
    const enc = fight('classic');
    expect(line(enc, gm)).toBeNull();
    expect(
      enc.execute({ type: 'start', initiative: { ana: 12, g1: 15, g2: 9, spy: 20 } }),
    ).not.toHaveProperty('code');
    expect(line(enc, gm)).toEqual(['Spy', 'Goblin', 'Ana', 'Goblin 2']);
    expect(line(enc, table)).toEqual(['Goblin', 'Ana', 'Goblin 2']);
    expect(enc.execute({ type: 'end' })).not.toHaveProperty('code');
    expect(line(enc, gm)).toBeNull();
  });

  it('classic with a reroll each round, tara-corax, tempo: nothing to say', () => {
    for (const [id, options] of [
      ['classic', { rerollEachRound: true }],
      ['tara-corax', {}],
      ['tempo', {}],
    ] as const) {
      const enc = fight(id, options);
      expect(enc.execute({ type: 'start' })).not.toHaveProperty('code');
      expect(line(enc, gm), id).toBeNull();
    }
  });

  it('six-second: the Initiative order, every round', () => {
    const enc = fight('six-second');
    expect(enc.execute({ type: 'start' })).not.toHaveProperty('code');
    const said = line(enc, table);
    expect(said).toHaveLength(3);
    expect(new Set(said)).toEqual(new Set(['Ana', 'Goblin', 'Goblin 2']));
  });
});
