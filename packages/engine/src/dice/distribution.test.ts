import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DiceExpr } from './ast.js';
import {
  complicationProbability,
  constantDistribution,
  convolve,
  type Distribution,
  distribution,
  mean,
  negateDistribution,
  probAtLeast,
  probAtMost,
  probCompare,
  probExactly,
  productDistribution,
  scaleDistribution,
  shiftDistribution,
  stdev,
} from './distribution.js';
import { DiceLimitError, DiceRefError } from './errors.js';
import { parseDice } from './parse.js';
import { StateRng, seededDice } from './rng.js';
import { type RollOptions, rollTotal, type WildComplicationMode } from './roll.js';
import { enumerateRolls } from './test-enumerate.js';

function mass(d: Distribution): number {
  return d.outcomes.reduce((sum, [, p]) => sum + p, 0);
}

/** Same values, probabilities equal within `tolerance`. */
function expectSameDistribution(actual: Distribution, expected: Distribution, tolerance = 1e-13): void {
  expect(actual.outcomes.map(([v]) => v)).toEqual(expected.outcomes.map(([v]) => v));
  actual.outcomes.forEach(([, p], i) => {
    expect(Math.abs(p - expected.outcomes[i]![1])).toBeLessThanOrEqual(tolerance);
  });
}

/** Brute force: every face sequence through the roller itself. */
function bruteForce(expr: DiceExpr | string, options: RollOptions = {}): Distribution {
  return enumerateRolls((rng) => rollTotal(expr, rng, { dex: 2 }, options));
}

describe('exact distributions', () => {
  it('2d6 in 36ths', () => {
    const d = distribution('2d6');
    const ways = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
    expect(d.outcomes.map(([v]) => v)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    d.outcomes.forEach(([, p], i) => {
      expect(p).toBeCloseTo(ways[i]! / 36, 15);
    });
    expect(mean(d)).toBeCloseTo(7, 12);
    expect(stdev(d)).toBeCloseTo(Math.sqrt(35 / 6), 12);
  });

  it('1d10! with the default cap of 100 extra dice', () => {
    const d = distribution('1d10!');
    for (let k = 1; k <= 9; k++) expect(probExactly(d, k)).toBeCloseTo(1 / 10, 15);
    // 10 never stands alone: it always explodes.
    expect(probExactly(d, 10)).toBe(0);
    for (let j = 1; j <= 9; j++) expect(probExactly(d, 10 + j) / 1e-2).toBeCloseTo(1, 12);
    expect(probExactly(d, 20)).toBe(0);
    expect(probExactly(d, 25) / 1e-3).toBeCloseTo(1, 12);
    expect(probExactly(d, 999) / 1e-100).toBeCloseTo(1, 10);
    // After 100 explosions the 101st die counts as rolled, so the all-tens chain lands on 1010.
    expect(d.outcomes.at(-1)![0]).toBe(1010);
    expect(d.outcomes.at(-1)![1] / 1e-101).toBeCloseTo(1, 10);
    expect(probExactly(d, 1001) / 1e-101).toBeCloseTo(1, 10);
    expect(d.outcomes).toHaveLength(9 * 101 + 1);
    expect(Math.abs(mass(d) - 1)).toBeLessThan(1e-12);
    expect(mean(d)).toBeCloseTo(5.5 / 0.9, 12); // the uncapped mean; the cap changes it by ~1e-98
  });

  it('explosion caps agree with brute force over the roller', () => {
    for (const notation of ['1d6!2', '1d4!o', '2d4!2', '1d1!3', '1d3!3+1d2!4']) {
      expectSameDistribution(distribution(notation), bruteForce(notation));
    }
    expect(distribution('1d1!')).toEqual(constantDistribution(101));
    expect(distribution('3d1!2')).toEqual(constantDistribution(9));
  });

  it('sums of exploding dice equal convolving the single dice', () => {
    for (const [notation, die, count] of [
      ['3d10!', '1d10!', 3],
      ['2d6!', '1d6!', 2],
      ['5d2!3', '1d2!3', 5],
      ['4d3!o', '1d3!o', 4],
      ['3d12!', '1d12!', 3],
    ] as const) {
      const single = distribution(die);
      let expected = single;
      for (let i = 1; i < count; i++) expected = convolve(expected, single);
      const actual = distribution(notation);
      expect(Math.abs(mass(actual) - 1)).toBeLessThan(1e-12);
      // Equal to within rounding, relative to each probability's size. Both ways drop products of
      // probabilities below 1e-150, at different steps, so only outcomes above 1e-120 are compared.
      const significant = (d: Distribution) => d.outcomes.filter(([, p]) => p > 1e-120);
      const want = significant(expected);
      expect(significant(actual).map(([v]) => v)).toEqual(want.map(([v]) => v));
      significant(actual).forEach(([, p], i) => {
        expect(Math.abs(p - want[i]![1])).toBeLessThanOrEqual(1e-12 * want[i]![1]);
      });
    }
  });

  it('4d6kh3 exactly', () => {
    const d = distribution('4d6kh3');
    expect(mean(d)).toBeCloseTo(15869 / 1296, 12); // 12.2446…
    expect(probExactly(d, 18)).toBeCloseTo(21 / 1296, 15);
    expect(probExactly(d, 3)).toBeCloseTo(1 / 1296, 15);
    expectSameDistribution(d, bruteForce('4d6kh3'));
  });

  it('keep highest/lowest agrees with brute force on small pools, exploding ones too', () => {
    const pools = fc
      .record({
        count: fc.integer({ min: 1, max: 4 }),
        sides: fc.integer({ min: 1, max: 5 }),
        keep: fc.integer({ min: 1, max: 4 }),
        highest: fc.boolean(),
        cap: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
      })
      .filter(({ count, sides, cap }) => sides ** (count * ((cap ?? 0) + 1)) <= 5000)
      .map(({ count, sides, keep, highest, cap }): DiceExpr => {
        const pool: DiceExpr = { type: 'dice', count, sides };
        pool.keep = { which: highest ? 'highest' : 'lowest', count: Math.min(keep, count) };
        if (cap !== undefined) pool.explode = { cap };
        return pool;
      });
    fc.assert(
      fc.property(pools, (pool) => {
        expectSameDistribution(distribution(pool), bruteForce(pool));
      }),
      { numRuns: 60 },
    );
  });

  it('4D with its Wild Die agrees with brute force, in every complication mode', () => {
    // A small cap keeps the enumeration finite; the computation is the same for any cap.
    const code: DiceExpr = { type: 'd6code', count: 4, wildCap: 2 };
    for (const complication of ['none', 'gm', 'remove-highest'] as WildComplicationMode[]) {
      expectSameDistribution(distribution(code, {}, { complication }), bruteForce(code, { complication }));
    }
    for (const count of [0, 1, 2, 3]) {
      const small: DiceExpr = { type: 'd6code', count, wildCap: 3 };
      const options = { complication: 'remove-highest' as const };
      expectSameDistribution(distribution(small, {}, options), bruteForce(small, options));
    }
  });

  it('4D with the full cap', () => {
    const d = distribution('4D');
    expect(Math.abs(mass(d) - 1)).toBeLessThan(1e-12);
    expect(mean(d)).toBeCloseTo(3 * 3.5 + 3.5 * 1.2, 12); // the Wild Die averages 4.2
    expect(probExactly(d, 4)).toBeCloseTo(1 / 6 ** 4, 15);
    // Truncating at cap 3 only moves mass below 6^-4 ≈ 8e-4 per outcome past 4·6.
    const capped = distribution({ type: 'd6code', count: 4, wildCap: 3 });
    for (let v = 4; v <= 24; v++) expect(probExactly(d, v)).toBeCloseTo(probExactly(capped, v), 15);
    expect(complicationProbability('4D')).toBeCloseTo(1 / 6, 15);
    expect(complicationProbability('0D+2')).toBe(0);
    expect(complicationProbability('2d6')).toBe(0);
    const removed = distribution('4D', {}, { complication: 'remove-highest' });
    expect(Math.abs(mass(removed) - 1)).toBeLessThan(1e-12);
    expect(mean(removed)).toBeLessThan(mean(d));
  });

  it('arithmetic and refs agree with brute force', () => {
    for (const notation of [
      '1d6-1d4',
      '2d4*1d3',
      '-(1d4)*2+@dex',
      '1d6*-2',
      '(1d3+1)*(1d2-3)',
      '2D+1d4-@dex',
    ]) {
      expectSameDistribution(distribution(notation, { dex: 2 }), bruteForce(notation), 1e-14);
    }
    expect(distribution('0D+2')).toEqual(constantDistribution(2));
    expect(distribution('0*1d6')).toEqual(constantDistribution(0));
    expect(() => distribution('1d6+@dex')).toThrow(DiceRefError);
  });

  it('handles large pools within the mass tolerance', () => {
    const big = distribution('1000d6');
    expect(Math.abs(mass(big) - 1)).toBeLessThan(1e-12);
    expect(mean(big)).toBeCloseTo(3500, 8);
    // 100d1000 takes the sliding-window path.
    const wide = distribution('100d1000');
    expect(Math.abs(mass(wide) - 1)).toBeLessThan(1e-12);
    expect(mean(wide)).toBeCloseTo(50050, 6);
    expect(stdev(wide)).toBeCloseTo(Math.sqrt((100 * (1000 ** 2 - 1)) / 12), 4);
    const exploding = distribution('10d10!kh3');
    expect(Math.abs(mass(exploding) - 1)).toBeLessThan(1e-12);
  });

  it('refuses computations that are too large, with a clear error', () => {
    expect(() => distribution('500d1000*500d1000')).toThrow(DiceLimitError);
    expect(() => distribution('1000d6kh500')).toThrow(/too costly/);
    expect(() => distribution('2d1000000')).toThrow(/possible totals/);
  });
});

describe('working with distributions', () => {
  const d6 = distribution('1d6');
  const d20 = distribution('1d20');

  it('convolves, shifts, scales and multiplies', () => {
    expectSameDistribution(convolve(d6, d6), distribution('2d6'));
    expectSameDistribution(shiftDistribution(d6, 3), distribution('1d6+3'));
    expectSameDistribution(scaleDistribution(d6, -2), distribution('1d6*-2'));
    expectSameDistribution(negateDistribution(d6), distribution('-1d6'));
    expectSameDistribution(productDistribution(d6, d6), distribution('1d6*1d6'));
    expect(scaleDistribution(d6, 0)).toEqual(constantDistribution(0));
  });

  it('answers "at least", "at most" and comparisons', () => {
    const twoD6 = distribution('2d6');
    expect(probAtLeast(twoD6, 7)).toBeCloseTo(21 / 36, 15);
    expect(probAtMost(twoD6, 7)).toBeCloseTo(21 / 36, 15);
    expect(probAtLeast(twoD6, 13)).toBe(0);
    expect(probAtLeast(twoD6, 2)).toBeCloseTo(1, 15);
    const duel = probCompare(d20, d20);
    expect(duel.equal).toBeCloseTo(1 / 20, 15);
    expect(duel.greater).toBeCloseTo(19 / 40, 15);
    expect(duel.less).toBeCloseTo(19 / 40, 15);
    const attack = probCompare(distribution('1d20+5'), constantDistribution(15));
    expect(attack.greater + attack.equal).toBeCloseTo(probAtLeast(distribution('1d20+5'), 15), 15);
    const check = probCompare(distribution('3D+1'), distribution('2D+2'));
    expect(check.greater + check.equal + check.less).toBeCloseTo(1, 12);
  });
});

describe('sampling converges to the exact distribution', () => {
  const ROLLS = 20_000;

  it.each(['2d6', '4d6kh3', '1d10!', '3D+2', '2d20kl1-@dex', '1d6*1d4'])(
    '%s (chi-square, fixed seed)',
    (notation) => {
      const expr = parseDice(notation);
      const exact = distribution(expr, { dex: 2 });
      const rng = new StateRng(seededDice(20_240_601));
      const counts = new Map<number, number>();
      for (let i = 0; i < ROLLS; i++) {
        const total = rollTotal(expr, rng, { dex: 2 });
        counts.set(total, (counts.get(total) ?? 0) + 1);
      }
      // Bins in value order, merged until each expects at least 5 rolls.
      const bins: Array<{ expected: number; observed: number }> = [];
      let pending = { expected: 0, observed: 0 };
      for (const [value, p] of exact.outcomes) {
        pending.expected += p * ROLLS;
        pending.observed += counts.get(value) ?? 0;
        counts.delete(value);
        if (pending.expected >= 5) {
          bins.push(pending);
          pending = { expected: 0, observed: 0 };
        }
      }
      const last = bins.at(-1)!;
      last.expected += pending.expected;
      last.observed += pending.observed;
      expect(counts.size).toBe(0); // no total outside the exact distribution
      const chiSquare = bins.reduce((sum, b) => sum + (b.observed - b.expected) ** 2 / b.expected, 0);
      const df = bins.length - 1;
      // Far beyond the 0.1% critical value (about df + 3.1·√(2df) for these sizes): fails only on real bias.
      expect(chiSquare).toBeLessThan(df + 6 * Math.sqrt(2 * df) + 10);
    },
  );
});
