import type { ActionDef, LegalAction } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { fresh, play, stepArb } from './testing/random-play.js';

/**
 * `legalActions(state, actor, only)` (a simulation's policy asks about its candidates alone) answers for
 * every action `only` keeps exactly what the full list answers, in the same order, in every ruleset —
 * whether the ruleset checks only those or all of them.
 */
/** What a lean answer keeps (see `Ruleset.legalActions`). */
const core = (l: LegalAction) => ({ action: l.action, enabled: l.enabled, code: l.code, cost: l.cost });

describe.each(Object.keys(rulesets).sort())('legal actions for some candidates only: %s', (id) => {
  it('are the full list’s answers for those candidates, in every state of random play', () => {
    const ruleset = rulesets[id]!;
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), fc.integer(), fc.nat(100), (steps, seed, pick) => {
        const enc = fresh(id, seed);
        for (const step of steps) {
          play(enc, [step]);
          const state = enc.state;
          for (const actor of state.roster) {
            const all = ruleset.legalActions(state, actor);
            const some = all[pick % Math.max(1, all.length)]?.action;
            const tag = some?.tags[pick % Math.max(1, some.tags.length)];
            const onlys: Array<(a: ActionDef) => boolean> = [
              (a) => a.id === some?.id,
              (a) => tag !== undefined && a.tags.includes(tag),
              (a) => a.kind === some?.kind,
              () => false,
            ];
            for (const only of onlys) {
              const asked = ruleset.legalActions(state, actor, only).filter((l) => only(l.action));
              expect(asked).toEqual(all.filter((l) => only(l.action)));
              // Lean (a policy reads only these four): the same answers, words and previews aside.
              const lean = ruleset.legalActions(state, actor, only, true).filter((l) => only(l.action));
              expect(lean.map(core)).toEqual(asked.map(core));
            }
          }
        }
      }),
      { numRuns: 15 },
    );
  });
});
