import {
  applyDelta,
  type ChangeMessage,
  compactEntries,
  deltaOfView,
  type EncounterView,
  receiveChange,
  resolveIn,
  type Viewer,
  view,
  viewLog,
} from '@roundkeeper/engine';
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
 * view and applies each change as it arrives (JSON: the viewer's events and the delta, which refers to
 * values the events carry) holds exactly the full view after every command — the same JSON, keys in the
 * same order.
 */
describe.each(Object.keys(rulesets).sort())('deltas rebuild every viewer’s view exactly: %s', (rulesetId) => {
  it('applying the deltas in order gives the full view after each command', () => {
    const ruleset = rulesets[rulesetId]!;
    // How many deltas referred to an event's value: the references are exercised, not only plain deltas.
    let referring = 0;
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), fc.integer(), (steps, seed) => {
        const enc = fresh(rulesetId, seed);
        const sent = viewers.map((v) => view(enc.state, v, ruleset, enc.everHidden));
        const held = sent.map(parsed);
        for (const step of steps) {
          const from = enc.state.seq;
          play(enc, [step]);
          const entries = enc.entries.filter((e) => e.seq > from);
          viewers.forEach((viewer, i) => {
            const next = view(enc.state, viewer, ruleset, enc.everHidden);
            const seen = viewLog(entries, viewer, enc.state, ruleset, enc.everHidden);
            const delta = deltaOfView(
              sent[i]!,
              next,
              seen.map((e) => e.event),
            );
            if (/"\d+\.[a-zA-Z]/.test(JSON.stringify(delta))) referring++;
            const message = parsed({
              type: 'change',
              seq: enc.state.seq,
              from,
              ...(compactEntries(seen, from, enc.state.seq) ?? { entries: seen }),
              delta,
            }) as unknown as ChangeMessage;
            const r = receiveChange({ seq: from, state: held[i]! }, message);
            if ('resync' in r) throw new Error(r.resync);
            held[i] = r.held.state;
            expect(JSON.stringify(held[i])).toBe(JSON.stringify(next));
            // The sender's copy, not parsed, gives the same.
            const own = applyDelta(sent[i]!, delta, resolveIn(seen.map((e) => e.event)));
            expect(JSON.stringify({ ...own, seq: next.seq })).toBe(JSON.stringify(next));
            sent[i] = next;
          });
        }
      }),
      { numRuns: 30 },
    );
    expect(referring).toBeGreaterThan(0);
  });
});
