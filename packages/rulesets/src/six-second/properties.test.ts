import { compareInstants, type Instant, isRejection, view } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvariants, encounter, registryWith, runFrozen } from '../testing/harness.js';
import { SIX_SECOND_CATALOG, sixSecond } from './index.js';

const registry = registryWith(sixSecond);
const ids = ['ana', 'bren', 'orc', 'spy'];
const id = fc.constantFrom(...ids, 'nobody');

/** Any command a table might send, valid or not. */
const command = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ type: 'next' }) },
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant('act'),
      actor: id,
      action: fc.constantFrom(...SIX_SECOND_CATALOG.map((a) => a.id), 'ritual', 'nope'),
      delay: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
      seconds: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('delay'), actor: id }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('take-turn'), actor: id }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('contest'),
      actors: fc.array(id, { minLength: 1, maxLength: 4 }),
    }),
  },
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
      options: fc.record({ zeroSecondCap: fc.constantFrom(null, 1, 3) }),
    }),
  },
);

describe('six-second: properties over random command sequences', () => {
  it('fold(log) = live state, plain JSON, no mutation, never throws; the clock never runs backwards in a command', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(command, { minLength: 1, maxLength: 40 }),
        (seed, commands) => {
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
          enc.execute({
            type: 'define-action',
            action: { id: 'ritual', name: 'Ritual', cost: { seconds: 9 } },
          });
          enc.execute({ type: 'start' });
          const results = runFrozen(enc, commands);
          for (const r of results) {
            if (isRejection(r)) {
              expect(r.code).not.toBe('engine/internal');
              expect(r.message.length).toBeGreaterThan(10);
              continue;
            }
            const clock = r
              .filter((e) => e.event.type === 'clock/advanced')
              .map((e) => e.event.to as unknown as Instant);
            for (let i = 1; i < clock.length; i++)
              expect(compareInstants(clock[i - 1]!, clock[i]!)).toBeLessThanOrEqual(0);
          }
          checkInvariants(enc);
          const state = enc.state;
          // Seconds never exceed the turn; every pending delay is on the agenda.
          for (const cid of state.roster) {
            const cs = state.combatants[cid]!.cs as { secondsUsed: number; pending: { id: string }[] };
            expect(cs.secondsUsed).toBeGreaterThanOrEqual(0);
            expect(cs.secondsUsed).toBeLessThanOrEqual(6);
            if (state.combatants[cid]!.active) {
              for (const p of cs.pending) expect(state.agenda.some((e) => e.id === p.id)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('the clock as the table and a player read it names the one acting, or nobody during a hidden turn', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(command, { minLength: 1, maxLength: 40 }),
        (seed, commands) => {
          const enc = encounter(
            {
              ruleset: 'six-second',
              seed,
              combatants: [
                { id: 'spy', name: 'Spy', hidden: true, stats: { dexterity: 4 } },
                { id: 'ana', name: 'Ana', side: 'pc', stats: { dexterity: 2 } },
                { id: 'bren', name: 'Bren', side: 'pc', stats: { dexterity: 2 } },
                { id: 'orc', name: 'Orc', stats: { dexterity: 0 } },
              ],
            },
            registry,
          );
          enc.execute({ type: 'start' });
          for (const c of commands) {
            enc.execute(c);
            const live = enc.state;
            for (const viewer of [
              { role: 'table' as const },
              { role: 'player' as const, combatants: ['ana'] },
            ]) {
              const seen = view(live, viewer, sixSecond);
              if (live.status !== 'running' || !seen.now || seen.now.at.length > 2) continue;
              const said = sixSecond.clock.describe(seen as never, seen.now);
              expect(said).not.toContain('Spy');
              const turnOf = /of (.+)'s turn$/.exec(said)?.[1];
              // An instant of a plain turn belongs to the one whose turn is in progress, and to no one else.
              if (turnOf && live.current) expect(turnOf, said).toBe(live.combatants[live.current]!.name);
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
