import {
  type ActionDef,
  decideSettled,
  type EncounterState,
  isRejection,
  isSettled,
  newDraft,
  type RulesetRegistry,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encounter, registryWith } from '../testing/harness.js';
import { SIX_SECOND_CATALOG, sixSecond } from './index.js';

/**
 * Six-second's `evolve` writes a combatant's `cs` and the round's `rs` in place once the fold (or a
 * simulation trial's draft) copied them. These properties pin what that must never change: a state the
 * log handed out stays as it was, and a trial decided under one draft passes through exactly the states
 * the server's way (a fresh fold per command) gives.
 */

const CURRENT = '@current';
const DELAYING = '@delaying';

const registry: RulesetRegistry = registryWith(sixSecond);
const ids = ['ana', 'bren', 'orc', 'spy'];
const id = fc.constantFrom(...ids, 'nobody');
/** An actor named when the command runs: the one whose turn it is, or one who is delaying. */
const actor = fc.oneof(
  { weight: 1, arbitrary: id },
  { weight: 3, arbitrary: fc.constantFrom(CURRENT, DELAYING) },
);

/** Commands weighted towards what the in-place writes touch: seconds spent, carries, delays, delayed turns. */
const command = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ type: 'next' }) },
  {
    weight: 10,
    arbitrary: fc.record({
      type: fc.constant('act'),
      actor,
      action: fc.constantFrom(...SIX_SECOND_CATALOG.map((a) => a.id), 'ritual'),
      delay: fc.oneof(
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }) },
      ),
      seconds: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }) },
      ),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('delay'), actor }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('take-turn'), actor }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('add-combatant'),
      combatant: fc.record({
        name: fc.constantFrom('Wolf', 'Bat'),
        stats: fc.record({ dexterity: fc.integer({ min: -2, max: 6 }) }),
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('defeat'), combatant: id }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('revive'), combatant: id }) },
  { weight: 1, arbitrary: fc.constant({ type: 'undo' }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('set-options'),
      options: fc.record({ zeroSecondCap: fc.constantFrom(null, 0, 1), carryOver: fc.boolean() }),
    }),
  },
);

/**
 * The command with its placeholder actor named from `state`; a delayed turn asked of nobody delaying is
 * the current one's delay instead (so that delayed turns are often taken).
 */
function resolve(
  state: EncounterState,
  c: { type: string; actor?: string },
): { type: string; actor?: string } {
  if (c.actor === CURRENT) return { ...c, actor: state.current ?? 'nobody' };
  if (c.actor === DELAYING) {
    const who = state.roster.find(
      (x) => (state.combatants[x]?.cs as { delaying?: boolean } | undefined)?.delaying,
    );
    if (who) return { ...c, actor: who };
    return { ...c, type: c.type === 'take-turn' ? 'delay' : c.type, actor: state.current ?? 'nobody' };
  }
  return c;
}

function started(seed: number, start = true) {
  const enc = encounter(
    {
      ruleset: 'six-second',
      seed,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', stats: { dexterity: 2 } },
        { id: 'bren', name: 'Bren', side: 'pc', stats: { dexterity: 2 } },
        { id: 'orc', name: 'Orc', stats: { dexterity: 0 } },
        { id: 'spy', name: 'Spy', hidden: true, stats: { dexterity: 1 } },
      ],
    },
    registry,
  );
  enc.execute({ type: 'define-action', action: { id: 'ritual', name: 'Ritual', cost: { seconds: 9 } } });
  if (start) enc.execute({ type: 'start' });
  return enc;
}

describe('six-second: states written in place only where nobody else holds them', () => {
  it('every state the log handed out is unchanged after later commands (nothing frozen)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(command, { minLength: 20, maxLength: 60 }),
        (seed, commands) => {
          const enc = started(seed);
          const seen: Array<{ state: EncounterState; copy: string }> = [
            { state: enc.state, copy: JSON.stringify(enc.state) },
          ];
          for (const c of commands) {
            const r = enc.execute(resolve(enc.state, c));
            if (isRejection(r)) expect(r.code).not.toBe('engine/internal');
            seen.push({ state: enc.state, copy: JSON.stringify(enc.state) });
          }
          for (const s of seen) expect(JSON.stringify(s.state)).toBe(s.copy);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a trial decided under one draft passes through the same states as a fresh fold per command, the first one kept', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        fc.array(command, { minLength: 20, maxLength: 60 }),
        (seed, start, commands) => {
          const s0 = started(seed, start).state;
          const before = JSON.stringify(s0);
          const draft = newDraft();
          let drafted = s0;
          let plain = s0;
          for (const x of [{ type: 'start' }, ...commands].filter((x) => x.type !== 'undo')) {
            const c = resolve(plain, x);
            const p = decideSettled(plain, c, registry);
            const d = decideSettled(drafted, c, registry, { draft });
            if (draft.spoiled) break;
            expect(isSettled(d)).toBe(isSettled(p));
            if (!isSettled(d) || !isSettled(p)) continue;
            expect(JSON.stringify(d.events)).toBe(JSON.stringify(p.events));
            expect(JSON.stringify(d.state)).toBe(JSON.stringify(p.state));
            drafted = d.state;
            plain = p.state;
          }
          expect(JSON.stringify(s0)).toBe(before);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('lean legal actions (no words) give every action the full answer’s verdict, code and cost', () => {
    const all = (_: ActionDef) => true;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(command, { minLength: 20, maxLength: 60 }),
        (seed, commands) => {
          const enc = started(seed);
          for (const c of commands) {
            enc.execute(resolve(enc.state, c));
            const state = enc.state as Parameters<typeof sixSecond.legalActions>[0];
            for (const who of [...state.roster, 'nobody']) {
              const full = sixSecond.legalActions(state, who);
              const lean = sixSecond.legalActions(state, who, all, true);
              expect(lean.map((l) => [l.action.id, l.enabled, l.code, l.cost])).toEqual(
                full.map((l) => [l.action.id, l.enabled, l.code, l.cost]),
              );
              // The full answer explains every refusal; the lean one writes no words.
              for (const l of full) if (!l.enabled) expect(l.reason?.length).toBeGreaterThan(10);
              for (const l of lean) expect(l.reason).toBeUndefined();
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
