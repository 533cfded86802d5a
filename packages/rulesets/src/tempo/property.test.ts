import { isRejection } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvariants, runFrozen } from '../testing/harness.js';
import { fight, ts } from './fixtures.js';

const actors = ['ana', 'bren', 'orc', 'wolf'];
const actions = [
  'rest',
  'scan',
  'mark',
  'quick-attack',
  'standard-attack',
  'slow-attack',
  'guard',
  'move',
  'shift',
  'magic',
  'roar',
  'cleave',
];

const command = fc.oneof(
  fc.constant({ type: 'next', skipPlanning: true }),
  fc.constant({ type: 'next' }),
  fc.record({
    type: fc.constant('plan'),
    actor: fc.constantFrom(...actors),
    action: fc.constantFrom(...actions),
    tempo: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
  }),
  fc.record({
    type: fc.constant('act'),
    actor: fc.constantFrom(...actors),
    weapon: fc.constantFrom('Left Dagger', 'Greataxe', 'Sword'),
    target: fc.constantFrom(...actors),
    recover: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('move'),
    actor: fc.constantFrom(...actors),
    distance: fc.integer({ min: 1, max: 12 }),
  }),
  fc.record({
    type: fc.constant('react'),
    actor: fc.constantFrom(...actors),
    reaction: fc.constantFrom('intercept', 'dual-wield'),
    trigger: fc.constantFrom('a', 'b'),
  }),
  fc.record({
    type: fc.constant('exert'),
    actor: fc.constantFrom(...actors),
    use: fc.constantFrom('another-action', 'momentum', 'retry', 'prepared'),
  }),
  fc.record({
    type: fc.constant('force-exertion'),
    actor: fc.constantFrom(...actors),
    amount: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    type: fc.constant('damage'),
    combatant: fc.constantFrom(...actors),
    amount: fc.integer({ min: 0, max: 30 }),
  }),
  fc.constant({ type: 'end-scene' }),
  fc.constant({ type: 'undo' }),
);

describe('tempo: property over random command sequences', () => {
  it('never throws, never mutates, fold(log) = live state, and Exertion stays within 0..max', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        const enc = fight(3);
        runFrozen(enc, [{ type: 'start' }]);
        const results = runFrozen(enc, commands);
        for (const r of results) if (isRejection(r)) expect(r.code).not.toBe('engine/internal');
        checkInvariants(enc);
        for (const c of Object.values(ts(enc).combatants)) {
          expect(c.cs.exertion).toBeGreaterThanOrEqual(0);
          expect(c.cs.exertion).toBeLessThanOrEqual(Math.max(1, 2 + c.stats.FOR));
          // Unique Action Restriction holds for the round's actions.
          const keys = c.cs.plan
            .filter((p) => p.slot === 'action')
            .map((p) => (p.action.endsWith('attack') ? 'attack' : p.action));
          expect(new Set(keys).size).toBe(keys.length);
        }
      }),
      { numRuns: 100 },
    );
  });
});
