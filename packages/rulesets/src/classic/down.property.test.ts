import type { EncounterState } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fresh, play, type Step, stepArb } from '../testing/random-play.js';
import { classic } from './index.js';
import type { ClassicTypes } from './types.js';

/** Random play with PCs hurt and healed too, so they go down and come back. */
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: stepArb },
  {
    weight: 2,
    arbitrary: fc
      .record({
        combatant: fc.constantFrom('ana', 'bren', 'orc'),
        amount: fc.integer({ min: 0, max: 25 }),
        type: fc.constantFrom('damage', 'damage', 'heal'),
      })
      .map((command): Step => ({ kind: 'raw', command })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('ana', 'bren')
      .map((actor): Step => ({ kind: 'raw', command: { type: 'act', actor, action: 'death-save' } })),
  },
);

describe('classic: down at 0 HP, under random play', () => {
  it('an NPC at 0 HP is out of the fight; a PC at 0 HP is unconscious and can only make death saves', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), fc.integer(), (steps, seed) => {
        const enc = fresh('classic', seed);
        for (const s of steps) {
          const before = enc.state.current;
          play(enc, [s]);
          const state = enc.state as EncounterState<ClassicTypes>;
          for (const c of Object.values(state.combatants)) {
            if (!c.hp) continue;
            expect(c.hp.current, c.name).toBeGreaterThanOrEqual(0);
            if (c.side === 'npc' && c.hp.current === 0 && c.hp.max > 0) expect(c.active, c.name).toBe(false);
            if (c.side === 'pc' && c.active) expect(Boolean(c.cs.dying), c.name).toBe(c.hp.current === 0);
            if (!c.cs.dying || !c.active) continue;
            const enabled = classic
              .legalActions(state, c.id)
              .filter((l) => l.enabled)
              .map((l) => l.action.id);
            const allowed =
              state.current === c.id && !c.cs.dying.stable && !c.cs.used.action ? ['death-save'] : [];
            expect(enabled, c.name).toEqual(allowed);
          }
          // A turn never starts for a combatant out of the fight.
          if (state.current && state.current !== before)
            expect(state.combatants[state.current]?.active, state.current).not.toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });
});
