import { EncounterLog, foldWork, isRejection, seededDice } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';

/**
 * At the largest encounter, `start`, `next`, `undo` and `redo` do work linear in its size: the combatant
 * entries the fold copies for one command, counted, at most double when the combatants double. (Copying
 * the whole record for every event made `start` cost n²: 40,000 entries at 200 combatants.)
 */
function work(id: string, n: number): Record<string, number> {
  const enc = EncounterLog.create({ id: 'w', name: 'Work', ruleset: id, dice: seededDice(7) }, rulesets);
  if (isRejection(enc)) throw new Error(enc.message);
  for (let i = 0; i < n; i++) {
    const side = i % 4 === 0 ? 'pc' : 'npc';
    const r = enc.execute({
      type: 'add-combatant',
      combatant: { id: `c${i}`, name: `C${i}`, side, stats: {} },
    });
    if (isRejection(r)) throw new Error(r.message);
  }
  const out: Record<string, number> = {};
  for (const type of ['start', 'next', 'undo', 'redo']) {
    foldWork.entriesCopied = 0;
    enc.execute({ type });
    out[type] = foldWork.entriesCopied;
  }
  return out;
}

describe.each(Object.keys(rulesets).sort())('a command costs what it changes: %s', (id) => {
  it('doubling the combatants (100 → 200) at most doubles the entries start, next, undo and redo copy', () => {
    const small = work(id, 100);
    const large = work(id, 200);
    for (const type of ['start', 'next', 'undo', 'redo']) {
      expect(large[type], `${type}: ${small[type]} → ${large[type]}`).toBeLessThanOrEqual(2 * small[type]!);
    }
    // The start copies each combatant a bounded number of times, not once per event.
    expect(large.start).toBeLessThanOrEqual(4 * 200);
  });
});
