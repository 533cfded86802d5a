import { view } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { fresh, HIDDEN_ID, HIDDEN_NAME, play, stepArb } from './testing/random-play.js';

/**
 * What the clock says of the current moment (the headline's "Round 2 · Orc's turn") as the table and a
 * player read it: during a hidden combatant's turn it names nobody — not the hidden one, and not someone
 * else in its place (a turn left out of their state must not shift the names onto the next one).
 */
describe.each(Object.keys(rulesets).sort())(
  'the clock names nobody else during a hidden turn: %s',
  (rulesetId) => {
    it('for the table and a player, after every step of random play', () => {
      const ruleset = rulesets[rulesetId]!;
      fc.assert(
        fc.property(fc.array(stepArb, { maxLength: 50 }), fc.integer(), (steps, seed) => {
          const enc = fresh(rulesetId, seed);
          for (const step of steps) {
            play(enc, [step]);
            const state = enc.state;
            if (state.status !== 'running' || state.current !== HIDDEN_ID) continue;
            for (const viewer of [
              { role: 'table' as const },
              { role: 'player' as const, combatants: ['ana'] },
            ]) {
              const seen = view(state, viewer, ruleset);
              if (!seen.now) continue;
              const said = ruleset.clock.describe(seen as never, seen.now);
              expect(said).not.toContain(HIDDEN_NAME);
              for (const c of Object.values(seen.combatants)) expect(said, viewer.role).not.toContain(c.name);
            }
          }
        }),
        { numRuns: 40 },
      );
    });
  },
);
