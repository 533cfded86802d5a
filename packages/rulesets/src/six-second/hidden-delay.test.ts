import { isRejection, view } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { fresh, HIDDEN_ID } from '../testing/random-play.js';
import { sixSecond } from './index.js';

// Found by clock-words.property.test.ts on a rare seed: a hidden NPC's delayed turn, taken in Ana's turn,
// read on the table's clock as "second 0 of a delayed turn taken after second 0 of Ana's turn".
describe('a hidden combatant’s delayed turn', () => {
  it('names nobody on the clock of the table and the players, and the GM still reads it whole', () => {
    const enc = fresh('six-second', -3);
    const hidden = { actor: HIDDEN_ID, combatant: HIDDEN_ID, action: 'cast-spell', target: 'ana' };
    for (const command of [
      { type: 'start' },
      { type: 'delay', ...hidden },
      { type: 'take-turn', ...hidden },
    ]) {
      const r = enc.execute(command);
      expect(isRejection(r) ? r.message : 'done').toBe('done');
    }
    expect(enc.state.current).toBe(HIDDEN_ID);
    for (const viewer of [{ role: 'table' as const }, { role: 'player' as const, combatants: ['ana'] }]) {
      const seen = view(enc.state, viewer, sixSecond);
      expect(sixSecond.clock.describe(seen as never, seen.now!)).toBe('Round 1');
    }
    expect(sixSecond.clock.describe(enc.state as never, enc.state.now!)).toBe(
      "Round 1 · second 0 of a delayed turn taken after second 0 of Ana's turn",
    );
  });
});
