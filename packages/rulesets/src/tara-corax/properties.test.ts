import { type EncounterLog, isRejection } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvariants, encounter, registryWith, runFrozen, stateOf } from '../testing/harness.js';
import { taraCorax } from './index.js';
import type { TaraTypes } from './types.js';

const registry = registryWith(taraCorax);
const ids = ['ana', 'bo', 'cy'] as const;
const actions = [
  'move',
  'set',
  'melee-attack',
  'ranged-attack',
  'desperate-shot',
  'cast',
  'drink-potion',
  'speak',
  'channel',
  'break-channel',
  'car',
  'combat-casting-move',
];

const commandArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ type: 'next' }) },
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant('act'),
      actor: fc.constantFrom(...ids),
      action: fc.constantFrom(...actions),
      units: fc.integer({ min: 0, max: 12 }),
      castingTime: fc.integer({ min: 1, max: 90 }),
      combatCasting: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('next'), delay: fc.constant({ bo: 'down' }) }) },
  { weight: 1, arbitrary: fc.constantFrom(...ids).map((actor) => ({ type: 'fizzle', actor })) },
  { weight: 1, arbitrary: fc.constantFrom(...ids).map((combatant) => ({ type: 'defeat', combatant })) },
  { weight: 1, arbitrary: fc.constant({ type: 'undo' }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('full', 'simple', 'very-simply')
      .map((roundMode) => ({ type: 'set-options', options: { roundMode } })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({ type: 'add-combatant', combatant: { name: 'Late', stats: { initiative: 12 } } }),
  },
  { weight: 1, arbitrary: fc.anything() },
);

/** A fight to run: its dice's seed, the rules' mode, and up to 40 commands. */
const fight = [
  fc.integer({ min: 1, max: 10_000 }),
  fc.constantFrom('full', 'simple', 'very-simply'),
  fc.array(commandArb, { maxLength: 40 }),
] as const;

function fresh(seed: number, mode: string): EncounterLog {
  const enc = encounter(
    {
      ruleset: 'tara-corax',
      seed,
      options: { roundMode: mode },
      combatants: [
        { id: 'ana', name: 'Ana', stats: { initiative: 12, meleeAttacks: 3, rangedAttacks: 2 } },
        { id: 'bo', name: 'Bo', hidden: true, stats: { agility: 9, intellect: 6, meleeAttacks: 5 } },
        { id: 'cy', name: 'Cy', stats: { initiative: 4, landSpeed: 4 } },
      ],
    },
    registry,
  );
  enc.execute({
    type: 'define-action',
    action: {
      id: 'car',
      name: 'CAR',
      kind: 'free',
      cost: { marks: 0 },
      data: { freeMove: 10, autoSet: true, reactive: true, grantsAttack: 1 },
    },
  });
  enc.execute({ type: 'start' });
  return enc;
}

describe('tara-corax properties over random command sequences', () => {
  it('fold(log) = live state, plain JSON, no mutation, never throws; Marks stay within 0..30', () => {
    fc.assert(
      fc.property(...fight, (seed, mode, commands) => {
        const enc = fresh(seed, mode);
        const results = runFrozen(enc, commands);
        for (const r of results) if (isRejection(r)) expect(r.message.length).toBeGreaterThan(10);
        checkInvariants(enc);
        const s = stateOf<TaraTypes>(enc);
        for (const c of Object.values(s.combatants)) {
          expect(c.cs.marksLeft).toBeGreaterThanOrEqual(0);
          expect(c.cs.marksLeft).toBeLessThanOrEqual(30);
          expect(c.cs.landSpeedUsed).toBeLessThanOrEqual(c.stats.landSpeed);
        }
        // The agenda stays in clock order, and never holds anything in a past round.
        for (const e of s.agenda) expect(e.at.round).toBeGreaterThanOrEqual(s.round);
      }),
      { numRuns: 100 },
    );
  });

  it("the timeline gives each combatant's lane its own history, in order, then its agenda", () => {
    fc.assert(
      fc.property(...fight, (seed, mode, commands) => {
        const enc = fresh(seed, mode);
        runFrozen(enc, commands);
        const s = stateOf<TaraTypes>(enc);
        const t = taraCorax.timeline(s);
        expect(t.lanes.map((l) => l.id)).toEqual(s.roster.filter((id) => s.combatants[id]));
        for (const lane of t.lanes) {
          const own = <T extends { combatant?: string | null }>(xs: readonly T[]) =>
            xs.filter((x) => x.combatant === lane.id);
          expect(lane.spans).toEqual(own(s.rs.history.spans).map(({ combatant: _c, ...x }) => x));
          const agenda = own(s.agenda);
          expect(lane.markers.slice(0, lane.markers.length - agenda.length)).toEqual(
            own(s.rs.history.markers).map(({ combatant: _c, ...x }) => x),
          );
          expect(lane.markers.slice(lane.markers.length - agenda.length).map((m) => m.label)).toEqual(
            agenda.map((e) => expect.stringContaining(e.label)),
          );
        }
      }),
      { numRuns: 100 },
    );
  });
});
