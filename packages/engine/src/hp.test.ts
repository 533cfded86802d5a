import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededDice } from './dice/rng.js';
import { damaged, setHp } from './hp.js';
import { EncounterLog } from './log.js';
import { roundRobin } from './test-ruleset.js';
import { isRejection } from './types.js';

describe('hit points', () => {
  it('raising the maximum of an unhurt combatant keeps it unhurt; of a hurt one keeps the damage taken', () => {
    expect(setHp({ current: 11, max: 11, temp: 0 }, { max: 37 })).toEqual({ current: 37, max: 37, temp: 0 });
    expect(setHp({ current: 6, max: 11, temp: 0 }, { max: 37 })).toEqual({ current: 32, max: 37, temp: 0 });
    expect(setHp({ current: 6, max: 11, temp: 2 }, { max: 5 })).toEqual({ current: 1, max: 5, temp: 2 });
    expect(setHp({ current: 0, max: 11, temp: 0 }, { max: 20 })).toEqual({ current: 9, max: 20, temp: 0 });
    expect(setHp(undefined, { current: 9 })).toEqual({ current: 9, max: 9, temp: 0 });
    expect(setHp({ current: 5, max: 10, temp: 0 }, { current: 40 })).toEqual({
      current: 10,
      max: 10,
      temp: 0,
    });
  });

  it('damage takes temporary HP first and stops at 0 unless the ruleset has negative HP', () => {
    expect(damaged({ current: 5, max: 7, temp: 2 }, 10)).toEqual({ current: 0, max: 7, temp: 0 });
    expect(damaged({ current: 5, max: 7, temp: 2 }, 10, true)).toEqual({ current: -3, max: 7, temp: 0 });
  });

  const hp = fc
    .record({ max: fc.nat(200), current: fc.integer({ min: -50, max: 250 }), temp: fc.nat(20) })
    .map((h) => ({ ...h, current: Math.min(h.max, Math.max(0, h.current)) }));
  it('HP stays between 0 and the maximum whatever is dealt or set (property)', () => {
    fc.assert(
      fc.property(
        hp,
        fc.nat(500),
        fc.record({
          current: fc.option(fc.integer({ min: -100, max: 400 }), { nil: undefined }),
          max: fc.option(fc.nat(400), { nil: undefined }),
        }),
        (h, amount, set) => {
          for (const next of [damaged(h, amount), setHp(h, set)]) {
            expect(next.current).toBeGreaterThanOrEqual(0);
            expect(next.current).toBeLessThanOrEqual(next.max);
          }
          const unhurt = { ...h, current: h.max };
          if (set.max !== undefined) expect(setHp(unhurt, { max: set.max }).current).toBe(set.max);
        },
      ),
    );
  });

  it('the commands keep the bounds: damage past 0 leaves 0, and set-hp max raises an unhurt combatant', () => {
    const enc = EncounterLog.create(
      { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
      { 'round-robin': roundRobin },
    );
    if (isRejection(enc)) throw new Error(enc.message);
    enc.execute({ type: 'add-combatant', combatant: { id: 'g', name: 'Goblin', hp: 7 } });
    enc.execute({ type: 'damage', combatant: 'g', amount: 9 });
    expect(enc.state.combatants.g?.hp).toEqual({ current: 0, max: 7, temp: 0 });
    enc.execute({ type: 'add-combatant', combatant: { id: 'b', name: 'Bren', hp: 11 } });
    enc.execute({ type: 'set-hp', combatant: 'b', max: 37 });
    expect(enc.state.combatants.b?.hp).toEqual({ current: 37, max: 37, temp: 0 });
  });
});
