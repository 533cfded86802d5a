import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDelta, DeltaMismatchError, diffView, sameJson, type ViewDelta } from './delta.js';
import { deepFreeze, type Json } from './json.js';
import type { EncounterView } from './view.js';

/** Any JSON value, typed as a view: the delta works on JSON whatever its shape. */
const asView = (v: unknown) => v as EncounterView;
const roundTrip = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The delta from `a` to `b`, applied to `a` as the receiver holds it (parsed JSON): exactly `b`'s JSON. */
function check(a: Json, b: Json): ViewDelta {
  deepFreeze(a);
  deepFreeze(b);
  const delta = roundTrip(diffView(asView(a), asView(b)));
  expect(JSON.stringify(applyDelta(asView(roundTrip(a)), delta))).toBe(JSON.stringify(b));
  // Applied to the sender's own copy too (not parsed: frozen, so a change in place would throw).
  expect(JSON.stringify(applyDelta(asView(a), delta))).toBe(JSON.stringify(b));
  return delta;
}

const record = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, { id: `k${i}`, v: i }]));

describe('diffView / applyDelta', () => {
  it('sends only what changed: a changed field, a removed key, an added one', () => {
    const a = { round: 1, combatants: record(12), current: 'k1', note: 'x' };
    const b = { ...a, combatants: { ...a.combatants, k3: { id: 'k3', v: 30 } }, current: null, extra: [1] };
    delete (b as { note?: string }).note;
    expect(check(a, b)).toEqual({ combatants: { k3: { v: [30] } }, current: [null], note: [], extra: [[1]] });
    expect(check(a, a)).toEqual({});
  });

  it('rebuilds lists by identity: the first agenda entry gone, a window of numbers moved on', () => {
    const agenda = Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, at: [i, 0], label: `Turn ${i}` }));
    expect(check({ agenda }, { agenda: agenda.slice(1) })).toEqual({ agenda: [0, [-1]] });
    const undoable = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(check({ undoable }, { undoable: [...undoable.slice(1), 201] })).toEqual({
      undoable: [0, [-1, 199, [201]]],
    });
    // An entry with the same id and a changed field is changed in place.
    const moved = agenda.map((e) => (e.id === 't4' ? { ...e, label: 'Late' } : e));
    expect(check({ agenda }, { agenda: moved })).toEqual({ agenda: [0, [4, { label: ['Late'] }]] });
  });

  it('replaces whole what is smaller whole', () => {
    expect(check({ at: [-18, 0] }, { at: [-17, 0] })).toEqual({ at: [[-17, 0]] });
    const a = Array.from({ length: 12 }, (_, i) => ({ id: `a${i}` }));
    const b = Array.from({ length: 12 }, (_, i) => ({ id: `b${i}` }));
    expect(check({ a }, { a: b })).toEqual({ a: [b] });
  });

  it('keeps the order of keys: a key removed and added back earlier is sent with its object whole', () => {
    const a = { x: 1, y: 2, z: 3 };
    const b = { y: 2, x: 1, z: 3 };
    expect(check({ o: a }, { o: b })).toEqual({ o: [b] });
  });

  it('a key held without a value (undefined) counts as absent, as in JSON', () => {
    check({ a: 1, b: undefined, c: 2 } as unknown as Json, { a: 1, b: 5, c: 2 });
    check({ a: 1, b: 5 }, { a: 1, b: undefined } as unknown as Json);
  });

  it('shares what the delta leaves alone', () => {
    const a = { combatants: record(3), agenda: [{ id: 'x' }] };
    const b = { ...a, combatants: { ...a.combatants, k1: { id: 'k1', v: 9 } } };
    const applied = applyDelta(asView(a), diffView(asView(a), asView(b))) as unknown as typeof a;
    expect(applied.agenda).toBe(a.agenda);
    expect(applied.combatants.k0).toBe(a.combatants.k0);
  });

  it('a delta that does not fit the view held is refused, not guessed', () => {
    const l = Array.from({ length: 20 }, (_, i) => i);
    const delta = diffView(asView({ a: { b: 1 }, l }), asView({ a: { b: 2 }, l: l.slice(1) }));
    expect(delta).toEqual({ a: { b: [2] }, l: [0, [-1]] });
    expect(() => applyDelta(asView({ a: 5, l }), delta)).toThrow(DeltaMismatchError);
    expect(() => applyDelta(asView({ a: { b: 1 }, l: [] }), delta)).toThrow(DeltaMismatchError);
    expect(() => applyDelta(asView({}), { gone: [] })).toThrow(DeltaMismatchError);
    expect(() => applyDelta(asView({}), { x: { y: [1] } })).toThrow(DeltaMismatchError);
    expect(() => applyDelta(asView({ x: 1 }), { x: [1, 2, 3] as never })).toThrow(DeltaMismatchError);
  });

  it('a `__proto__` key is data, never the prototype', () => {
    const a = JSON.parse('{"o":{"__proto__":{"x":1}}}') as Json;
    const b = JSON.parse('{"o":{"__proto__":{"x":2},"y":1}}') as Json;
    check(a, b);
    const applied = applyDelta(asView(a), diffView(asView(a), asView(b))) as unknown as { o: object };
    expect(Object.getPrototypeOf(applied.o)).toBe(Object.prototype);
  });

  it('for any two JSON values, applying the delta gives exactly the second', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        check({ v: a as Json }, { v: b as Json });
      }),
      { numRuns: 300 },
    );
  });

  it('for lists of records that share ids, applying the delta gives exactly the second', () => {
    const item = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      v: fc.jsonValue({ maxDepth: 2 }),
    });
    const list = fc.array(fc.oneof(item, fc.integer({ min: 0, max: 5 })), { maxLength: 12 });
    fc.assert(
      fc.property(list, list, (a, b) => {
        check({ l: a as Json }, { l: b as Json });
        check({ l: a as Json }, { l: [...(a as Json[]).slice(2), ...(b as Json[])] });
      }),
      { numRuns: 300 },
    );
  });
});

describe('sameJson', () => {
  it('is JSON equality: keys in order, a key without a value absent', () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { a: 1, b: [1, { c: null }] })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
        expect(sameJson(a, JSON.parse(JSON.stringify(a)))).toBe(true);
      }),
    );
  });
});
