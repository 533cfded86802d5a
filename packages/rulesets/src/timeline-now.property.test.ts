import { view } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { fresh, play, stepArb } from './testing/random-play.js';

/**
 * Every viewer's timeline model holds the round the fight is in — with a spell carried over or a delayed
 * effect scheduled into the next one too — so a page can always draw the current moment.
 */
describe.each(Object.keys(rulesets).sort())('the timeline holds the current round: %s', (rulesetId) => {
  it('for the GM, the table and a player, after every step of random play', () => {
    const ruleset = rulesets[rulesetId]!;
    if (ruleset.clock.roundless) return;
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), fc.integer(), (steps, seed) => {
        const enc = fresh(rulesetId, seed);
        for (const step of steps) {
          play(enc, [step]);
          if (enc.state.status !== 'running' || enc.state.round < 1) continue;
          for (const viewer of [
            { role: 'gm' as const },
            { role: 'table' as const },
            { role: 'player' as const, combatants: ['ana'] },
          ]) {
            const seen = view(enc.state, viewer, ruleset);
            const t = ruleset.timeline(seen as never);
            expect(t.rounds, `${viewer.role} round ${seen.round} now ${JSON.stringify(seen.now)}`).toContain(
              seen.round,
            );
          }
        }
      }),
      { numRuns: 30 },
    );
  });
});
