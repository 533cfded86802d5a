import type { EncounterLog } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { encounter, must } from './testing/harness.js';

/**
 * "Next round: …" (issue 33): where a ruleset says it knows the next round's order now, that is the order
 * the next round's turns come in; where the order is rolled, planned or declared as the round begins it
 * says nothing.
 */

const predict = (enc: EncounterLog) => rulesets[enc.state.ruleset]!.nextRoundOrder?.(enc.state) ?? null;

/** Presses next until the round after this one has begun, then through it: whose turns it had, in order. */
function nextRoundTurns(enc: EncounterLog, extra: Record<string, unknown> = {}): string[] {
  const round = enc.state.round;
  const turns: string[] = [];
  for (let i = 0; i < 60 && enc.state.round <= round + 1 && enc.state.status === 'running'; i++) {
    const from = enc.entries.length;
    must(enc, { type: 'next', ...extra });
    for (const { event } of enc.entries.slice(from))
      if (event.type === 'turn/started' && enc.state.round === round + 1) turns.push(String(event.combatant));
  }
  return turns;
}

const trio = [
  { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
  { id: 'bren', name: 'Bren', side: 'pc', hp: 20 },
  { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
];

describe('next round’s order', () => {
  it('classic: the same order, which the next round follows; a defeated or delaying combatant is left out', () => {
    const enc = encounter({ ruleset: 'classic', combatants: trio });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 15 } });
    expect(predict(enc)).toEqual(['bren', 'orc', 'ana']);
    must(enc, { type: 'next' }); // the Orc's turn
    must(enc, { type: 'defeat', combatant: 'ana' });
    expect(predict(enc)).toEqual(['bren', 'orc']);
    expect(nextRoundTurns(enc)).toEqual(['bren', 'orc']);
    // Bren delays in round 2: no place in round 3 until he comes back.
    const d = encounter({ ruleset: 'classic', combatants: trio });
    must(d, { type: 'start', initiative: { ana: 12, bren: 18, orc: 15 } });
    must(d, { type: 'delay', actor: 'bren' });
    expect(predict(d)).toEqual(['orc', 'ana']);
  });

  it('classic with a reroll each round: not known', () => {
    const enc = encounter({ ruleset: 'classic', options: { rerollEachRound: true }, combatants: trio });
    must(enc, { type: 'start' });
    expect(predict(enc)).toBeNull();
  });

  it('six-second: the Initiative order rolled on start, every round', () => {
    const enc = encounter({ ruleset: 'six-second', seed: 5, combatants: trio });
    must(enc, { type: 'start' });
    const said = predict(enc);
    expect(said).toHaveLength(3);
    expect(nextRoundTurns(enc)).toEqual(said);
  });

  it('stamina: not known while initiative is rechecked each round (the default); the same order when not', () => {
    const checked = encounter({ ruleset: 'stamina', combatants: trio });
    must(checked, { type: 'start' });
    expect(predict(checked)).toBeNull();
    const kept = encounter({ ruleset: 'stamina', options: { recheckInitiative: false }, combatants: trio });
    must(kept, { type: 'start', initiative: { ana: 3, bren: 9, orc: 6 } });
    expect(predict(kept)).toEqual(['bren', 'orc', 'ana']);
    expect(nextRoundTurns(kept)).toEqual(['bren', 'orc', 'ana']);
  });

  it('opend6: the same order under Methods 1 and 2, a group together; not known under Method 3', () => {
    const enc = encounter({
      ruleset: 'opend6',
      seed: 4,
      combatants: [
        { id: 'kira', name: 'Kira', side: 'pc', stats: { perception: '4D' } },
        { id: 'thug1', name: 'Thug 1', side: 'npc', group: 'thugs', stats: { perception: '2D' } },
        { id: 'thug2', name: 'Thug 2', side: 'npc', group: 'thugs', stats: { perception: '2D' } },
      ],
    });
    must(enc, { type: 'start' });
    const said = predict(enc);
    expect(said).toEqual(expect.arrayContaining(['kira', 'thug1', 'thug2']));
    expect(said!.indexOf('thug2')).toBe(said!.indexOf('thug1') + 1);
    // The group's members start their turns together: the round's units, in order.
    const units = (ids: string[]) => [...new Set(ids.map((id) => (id.startsWith('thug') ? 'thugs' : id)))];
    expect(units(nextRoundTurns(enc))).toEqual(units(said!));
    const perRound = encounter({
      ruleset: 'opend6',
      options: { initiativeMethod: 'perception-per-round' },
      combatants: [{ id: 'kira', name: 'Kira', side: 'pc' }],
    });
    must(perRound, { type: 'start' });
    expect(predict(perRound)).toBeNull();
  });

  it('tara-corax, tempo and tick: never known ahead (rolled each Round, planned each round, no rounds)', () => {
    for (const id of ['tara-corax', 'tempo', 'tick']) expect(rulesets[id]!.nextRoundOrder).toBeUndefined();
  });
});
