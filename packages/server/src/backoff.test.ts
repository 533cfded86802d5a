import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.js';

describe('reconnection back-off', () => {
  it('doubles up to its ceiling, each wait between half of it and all of it', () => {
    fc.assert(
      fc.property(fc.nat(40), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const ceiling = Math.min(5_000, 200 * 2 ** attempt);
        const wait = backoffMs(attempt, {}, () => r);
        expect(wait).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
        expect(wait).toBeLessThanOrEqual(ceiling);
      }),
    );
  });

  it('spreads a hundred clients dropped at once over the window instead of one instant', () => {
    const waits = Array.from({ length: 100 }, () => backoffMs(3));
    expect(new Set(waits).size).toBeGreaterThan(50);
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(300);
  });
});
