import {
  createdState,
  type EncounterState,
  type EngineEvent,
  evolve,
  type LogEntry,
  Refold,
  reduce,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { fresh, play, type Step, stepArb } from './testing/random-play.js';

/**
 * The fold a command's events go through writes a combatants record it copied itself in place (one copy
 * per command instead of one per event). These properties pin it to the plain fold, where every event
 * copies: the same state after every command, from the live log, from `reduce`, and from a refold that
 * keeps checkpoints between calls (which must never change once kept).
 */
const isUndoRedo = (e: EngineEvent) => e.type === 'undo' || e.type === 'redo';

/** The plain fold: every event on its own, outside any draft, undone groups left out. */
function plainFold(log: readonly LogEntry[]): EncounterState {
  const undone = new Set<number>();
  for (const { event } of log) {
    if (event.type === 'undo') undone.add(event.group as number);
    if (event.type === 'redo') undone.delete(event.group as number);
  }
  let state = createdState(log[0]);
  const ruleset = rulesets[state.ruleset]!;
  for (const [i, entry] of log.entries()) {
    if (i === 0 || isUndoRedo(entry.event) || undone.has(entry.group)) continue;
    state = evolve(state, entry.event, ruleset);
  }
  return state;
}

/** Random play with undo and redo often (they refold from checkpoints the fold must not have written into). */
const steps = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: stepArb },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: 'raw', command: { type: 'undo' } }) },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: 'raw', command: { type: 'redo' } }) },
  ),
  { maxLength: 60 },
);

const core = ({ history: _h, seq: _s, ...rest }: EncounterState) => rest;

describe.each(Object.keys(rulesets).sort())('the drafted fold equals the plain fold: %s', (id) => {
  it('after every command of random play (undo and redo included), and never changes a kept state', () => {
    fc.assert(
      fc.property(steps, fc.integer(), (plays, seed) => {
        const enc = fresh(id, seed);
        const refold = new Refold(2);
        const ruleset = rulesets[id]!;
        const seen: Array<{ state: EncounterState; copy: string }> = [];
        for (const step of plays) {
          play(enc, [step]);
          const log = enc.entries;
          const plain = plainFold(log);
          expect(core(enc.state)).toEqual(core(plain));
          expect(core(reduce(log, rulesets))).toEqual(core(plain));
          if (log.at(-1) && isUndoRedo(log.at(-1)!.event)) {
            expect(core(refold.fold(log, ruleset))).toEqual(core(plain));
          }
          seen.push({ state: enc.state, copy: JSON.stringify(enc.state) });
        }
        // Every state handed out earlier is exactly as it was then.
        for (const s of seen) expect(JSON.stringify(s.state)).toBe(s.copy);
      }),
      { numRuns: 25 },
    );
  });
});
