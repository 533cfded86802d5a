import type { EncounterState } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { encounter, must } from './testing/harness.js';

/**
 * Group initiative in the rulesets whose rules allow it (classic's own tests are in classic/group.test.ts;
 * opend6 rolls once per group as its text says): a group rolls once and its members act one after
 * another in its place.
 */
const goblins = ['g1', 'g2', 'g3', 'g4'].map((id, i) => ({
  id,
  name: `Goblin ${i + 1}`,
  side: 'npc',
  group: 'Goblins',
  hp: 7,
}));
const party = [
  { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
  { id: 'bren', name: 'Bren', side: 'pc', hp: 24 },
];
const order = (state: EncounterState) => [
  state.current,
  ...state.agenda.filter((e) => e.kind === 'turn').map((e) => e.combatant),
];
const rolls = (enc: ReturnType<typeof encounter>) =>
  enc.entries.filter((e) => e.event.type === 'dice/rolled' && e.event.purpose === 'initiative').length;

describe('stamina: group initiative (option groupInitiative: group)', () => {
  it('a group of 4 checks once and its members take their turns one after another, round after round', () => {
    for (const seed of [1, 2, 3]) {
      const enc = encounter({
        ruleset: 'stamina',
        seed,
        options: { groupInitiative: 'group' },
        combatants: [...party, ...goblins],
      });
      must(enc, { type: 'start' });
      expect(rolls(enc)).toBe(3);
      for (const round of [1, 2]) {
        expect(enc.state.round).toBe(round);
        const turns = order(enc.state);
        const at = turns.indexOf('g1');
        expect(turns.slice(at, at + 4)).toEqual(['g1', 'g2', 'g3', 'g4']);
        for (let i = 0; i < 6; i++) must(enc, { type: 'next' });
      }
      // Rechecked at the start of rounds 2 and 3: three checks each time.
      expect(enc.state.round).toBe(3);
      expect(rolls(enc)).toBe(9);
    }
  });

  it("everyone checks by default; the GM's value for one member is the group's; a late member joins", () => {
    const each = encounter({ ruleset: 'stamina', combatants: [...party, ...goblins] });
    must(each, { type: 'start' });
    expect(rolls(each)).toBe(6);
    const enc = encounter({
      ruleset: 'stamina',
      options: { groupInitiative: 'group' },
      combatants: [...party, ...goblins],
    });
    must(enc, { type: 'start', initiative: { ana: 20, bren: 5, g3: 12 } });
    expect(order(enc.state)).toEqual(['ana', 'g1', 'g2', 'g3', 'g4', 'bren']);
    must(enc, {
      type: 'add-combatant',
      combatant: { id: 'g5', name: 'Goblin 5', side: 'npc', group: 'Goblins' },
    });
    expect(order(enc.state)).toEqual(['ana', 'g1', 'g2', 'g3', 'g4', 'g5', 'bren']);
  });
});

describe('six-second: group initiative (option groupInitiative: group)', () => {
  const checks = (enc: ReturnType<typeof encounter>) =>
    enc.entries.filter(
      (e) => e.event.type === 'dice/rolled' && String(e.event.purpose).startsWith('Initiative (Reflex'),
    ).length;
  const slots = (enc: ReturnType<typeof encounter>) => (enc.state.rs as { order: string[] }).order;

  it('one Initiative check for the group; its members take the turns after it, one after another', () => {
    for (const seed of [1, 2, 3]) {
      const enc = encounter({
        ruleset: 'six-second',
        seed,
        options: { groupInitiative: 'group' },
        combatants: [...party, ...goblins],
      });
      must(enc, { type: 'start' });
      expect(checks(enc)).toBe(3);
      const order = slots(enc);
      const at = order.indexOf('g1');
      expect(order.slice(at, at + 4)).toEqual(['g1', 'g2', 'g3', 'g4']);
      const totals = goblins.map(
        (g) => (enc.state.combatants[g.id]!.cs as { initiative: number }).initiative,
      );
      expect(new Set(totals).size).toBe(1);
    }
  });

  it('by default everyone checks; a late member joins after its group without a check', () => {
    const each = encounter({ ruleset: 'six-second', combatants: [...party, ...goblins] });
    must(each, { type: 'start' });
    expect(checks(each)).toBe(6);
    const enc = encounter({
      ruleset: 'six-second',
      options: { groupInitiative: 'group' },
      combatants: [...party, ...goblins],
    });
    must(enc, { type: 'start', initiative: { ana: 30, bren: 1, g2: 15 } });
    expect(slots(enc)).toEqual(['ana', 'g1', 'g2', 'g3', 'g4', 'bren']);
    const before = checks(enc);
    must(enc, {
      type: 'add-combatant',
      combatant: { id: 'g5', name: 'Goblin 5', side: 'npc', group: 'Goblins' },
    });
    expect(slots(enc)).toEqual(['ana', 'g1', 'g2', 'g3', 'g4', 'g5', 'bren']);
    expect(checks(enc)).toBe(before);
  });
});

describe('tick: group initiative (option groupInitiative: group)', () => {
  it('one roll for the group; its members start on its tick, one after another; then each moves on alone', () => {
    for (const seed of [1, 2, 3]) {
      const enc = encounter({
        ruleset: 'tick',
        seed,
        options: { groupInitiative: 'group' },
        combatants: [...party, ...goblins],
      });
      const from = enc.entries.length;
      must(enc, { type: 'start' });
      const rolled = enc.entries
        .slice(from)
        .filter((e) => e.event.type === 'tick/initiative' && e.event.rolled);
      expect(rolled).toHaveLength(3);
      const turns = order(enc.state);
      const at = turns.indexOf('g1');
      expect(turns.slice(at, at + 4)).toEqual(['g1', 'g2', 'g3', 'g4']);
      const ticks = enc.state.agenda
        .filter((e) => e.kind === 'turn' && e.combatant?.startsWith('g'))
        .map((e) => e.at.at[0]);
      expect(new Set(ticks).size).toBeLessThanOrEqual(1);
    }
  });
});
