import { EncounterLog, isRejection, seededDice, view } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { statusFor } from './status.js';

/** Issue 30: no page tells its viewer to press a control it lacks, the status line's refusals included. */
describe("the status line's words for its viewer", () => {
  it('a refusal that says "Press Next" names the player’s End my turn on their turn, the GM’s Next otherwise', () => {
    const enc = EncounterLog.create(
      { id: 's', name: 'S', ruleset: 'tara-corax', dice: seededDice(2) },
      rulesets,
    );
    if (isRejection(enc)) throw new Error(enc.message);
    for (const combatant of [
      { id: 'kael', name: 'Kael', side: 'pc', hp: 20 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 9 },
    ])
      expect(enc.execute({ type: 'add-combatant', combatant })).not.toHaveProperty('code');
    expect(enc.execute({ type: 'start' })).not.toHaveProperty('code');
    const rs = rulesets['tara-corax']!;
    const acting = enc.state.current!;
    const other = acting === 'kael' ? 'orc' : 'kael';
    const refusal = 'Kael is busy until Mark 9. Press Next.';
    const as = (combatants: string[]) => {
      const viewer = { role: 'player' as const, combatants };
      return statusFor(refusal, view(enc.state, viewer, rs, enc.everHidden), viewer, rs);
    };
    expect(as([acting])).toBe('Kael is busy until Mark 9. Press End my turn.');
    expect(as([other])).toBe('Kael is busy until Mark 9. The GM presses Next.');
    const gm = { role: 'gm' as const };
    expect(statusFor(refusal, view(enc.state, gm, rs), gm, rs)).toBe(refusal);
  });
});
