import { EncounterLog, isRejection, scriptedDice } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from '../index.js';
import { must } from '../testing/harness.js';

/** Rule 5 (docs/rulesets/tick.md): a waiting combatant steps in at the current tick, again and again. */

const party = [
  { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { initiative: 2, weaponSpeed: 5 } },
  { id: 'bren', name: 'Bren', side: 'pc', hp: 24, stats: { initiative: 3, weaponSpeed: 6 } },
  { id: 'orc', name: 'Orc', side: 'npc', hp: 20, stats: { initiative: 1, weaponSpeed: 7 } },
];

function fight(options: Record<string, unknown> = {}): EncounterLog {
  const enc = EncounterLog.create(
    { id: 't', name: 'Tick', ruleset: 'tick', options, dice: scriptedDice([], { seed: 1 }) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of party) must(enc, { type: 'add-combatant', combatant });
  return enc;
}

const moment = (enc: EncounterLog) => [enc.state.current, enc.state.now?.at[0]];

describe('tick: stepping in', () => {
  for (const ties of ['arrival', 'initiative'] as const)
    it(`step in, then Next, over and over: the moment never grows deeper (ties by ${ties})`, () => {
      const enc = fight({ ties });
      must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
      must(enc, { type: 'wait', actor: 'ana' });
      expect(moment(enc)).toEqual(['bren', 3]);
      const lengths: number[] = [];
      for (let i = 0; i < 12; i++) {
        must(enc, { type: 'step-in', actor: 'ana' });
        expect(moment(enc), `step-in ${i}`).toEqual(['ana', 3]);
        lengths.push(enc.state.now!.at.length);
        must(enc, { type: 'next' });
        expect(moment(enc), `next ${i}`).toEqual(['bren', 3]);
        lengths.push(enc.state.now!.at.length);
      }
      expect(Math.max(...lengths), lengths.join()).toBeLessThanOrEqual(6);
    });

  it('a step-in during a step-in comes first; then the one it paused, then the one paused before', () => {
    const enc = fight();
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    must(enc, { type: 'wait', actor: 'ana' });
    must(enc, { type: 'wait', actor: 'bren' });
    expect(moment(enc)).toEqual(['orc', 4]);
    must(enc, { type: 'step-in', actor: 'ana' });
    must(enc, { type: 'step-in', actor: 'bren' });
    expect(moment(enc)).toEqual(['bren', 4]);
    must(enc, { type: 'act', actor: 'bren', action: 'move' });
    expect(moment(enc)).toEqual(['ana', 4]);
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    expect(moment(enc)).toEqual(['orc', 4]);
  });

  it('a marker set on the current tick again and again comes right after the moment, never deeper', () => {
    const enc = fight();
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    for (let i = 0; i < 8; i++) {
      must(enc, { type: 'set-tick', actor: enc.state.current!, tick: enc.state.now!.at[0]! });
      expect(enc.state.now!.at.length, `set ${i}: ${enc.state.now!.at.join()}`).toBeLessThanOrEqual(6);
    }
  });
});
