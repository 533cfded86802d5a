import { applyDelta, diffView, type EncounterView, type Viewer, view } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { fresh, HIDDEN_ID, play, stepArb } from './testing/random-play.js';

/** Every kind of viewer: the GM, the table, a player, a player of two, the player of the hidden NPC. */
const viewers: Viewer[] = [
  { role: 'gm' },
  { role: 'table' },
  { role: 'player', combatants: ['ana'] },
  { role: 'player', combatants: ['ana', 'bren'] },
  { role: 'player', combatants: [HIDDEN_ID] },
];

const parsed = (v: unknown): EncounterView => JSON.parse(JSON.stringify(v)) as EncounterView;

/**
 * For any command sequence of any ruleset and every kind of viewer, a receiver that starts from the first
 * view and applies each change's delta (as it arrives: JSON) holds exactly the full view after every
 * command — the same JSON, keys in the same order.
 */
describe.each(Object.keys(rulesets).sort())('deltas rebuild every viewer’s view exactly: %s', (rulesetId) => {
  it('applying the deltas in order gives the full view after each command', () => {
    const ruleset = rulesets[rulesetId]!;
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), fc.integer(), (steps, seed) => {
        const enc = fresh(rulesetId, seed);
        const sent = viewers.map((v) => view(enc.state, v, ruleset, enc.everHidden));
        const held = sent.map(parsed);
        for (const step of steps) {
          play(enc, [step]);
          viewers.forEach((viewer, i) => {
            const next = view(enc.state, viewer, ruleset, enc.everHidden);
            const delta = parsed(diffView(sent[i]!, next)) as never;
            held[i] = applyDelta(held[i]!, delta);
            expect(JSON.stringify(held[i])).toBe(JSON.stringify(next));
            // The sender's copy, not parsed, gives the same.
            expect(JSON.stringify(applyDelta(sent[i]!, delta))).toBe(JSON.stringify(next));
            sent[i] = next;
          });
        }
      }),
      { numRuns: 30 },
    );
  });
});
