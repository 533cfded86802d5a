import { describe, expect, it } from 'vitest';
import { backoff, mergeEntries, share } from './merge.js';

describe('share (structural sharing of successive states)', () => {
  it('keeps the identity of every unchanged part and takes the changed ones', () => {
    const prev = JSON.parse(
      '{"round":1,"combatants":{"a":{"hp":{"current":5}},"b":{"hp":{"current":7}}},"effects":[{"id":"x"}]}',
    );
    const next = JSON.parse(
      '{"round":1,"combatants":{"a":{"hp":{"current":4}},"b":{"hp":{"current":7}}},"effects":[{"id":"x"}]}',
    );
    const out = share(prev, next);
    expect(out).not.toBe(prev);
    expect(out.combatants.b).toBe(prev.combatants.b);
    expect(out.effects).toBe(prev.effects);
    expect(out.combatants.a).not.toBe(prev.combatants.a);
    expect(out.combatants.a.hp.current).toBe(4);
    expect(out).toEqual(JSON.parse(JSON.stringify(next)));
  });

  it('returns the previous state itself when nothing changed', () => {
    const prev = JSON.parse('{"a":[1,2,{"b":null}],"c":"x"}');
    expect(share(prev, JSON.parse('{"a":[1,2,{"b":null}],"c":"x"}'))).toBe(prev);
  });

  it('sees added and removed keys and array items, and type changes', () => {
    const prev = JSON.parse('{"a":{"x":1},"l":[1,2],"t":[1]}');
    const added = share(prev, JSON.parse('{"a":{"x":1,"y":2},"l":[1,2],"t":[1]}'));
    expect(added.a).toEqual({ x: 1, y: 2 });
    expect(added.l).toBe(prev.l);
    const removed = share(prev, JSON.parse('{"a":{},"l":[1],"t":{"0":1}}'));
    expect(removed.a).toEqual({});
    expect(removed.l).toEqual([1]);
    expect(Array.isArray(removed.t)).toBe(false);
    expect(share(undefined, { a: 1 })).toEqual({ a: 1 });
  });
});

describe('mergeEntries and backoff', () => {
  it('appends new entries by seq and ignores the ones already held', () => {
    const e = (seq: number) => ({ seq, at: '', event: { type: 'x' } }) as never;
    expect(mergeEntries([e(1), e(2)], [e(2), e(3)]).map((x) => (x as { seq: number }).seq)).toEqual([
      1, 2, 3,
    ]);
  });
  it('reconnects after at most 0.3 s, doubling up to 5 s, and at least half of that (jitter)', () => {
    const attempts = [0, 1, 2, 3, 4, 5, 40];
    expect(attempts.map((n) => backoff(n, () => 1))).toEqual([300, 600, 1200, 2400, 4800, 5000, 5000]);
    expect(attempts.map((n) => backoff(n, () => 0))).toEqual([150, 300, 600, 1200, 2400, 2500, 2500]);
    for (const n of attempts) {
      const wait = backoff(n);
      expect(wait).toBeGreaterThanOrEqual(backoff(n, () => 0));
      expect(wait).toBeLessThanOrEqual(backoff(n, () => 1));
    }
  });
});
