import { describe, expect, it } from 'vitest';
import {
  appendTo,
  drafting,
  foldWork,
  newDraft,
  ownState,
  sealDraft,
  updateCombatant,
  withCombatants,
  writeCombatant,
  writeCs,
  writeRs,
} from './draft.js';

type S = { round: number; combatants: Record<string, { hp: number }> };
const base = (): S => ({ round: 1, combatants: { a: { hp: 1 }, b: { hp: 2 } } });
const hit = (s: S, id: string) => updateCombatant(s, id, (c) => ({ hp: c.hp - 1 }));

describe('a fold that copies the combatants record once', () => {
  it('outside a fold, every change copies the record and leaves the given state as it was', () => {
    const s0 = base();
    const s1 = hit(s0, 'a');
    const s2 = hit(s1, 'b');
    expect(s1.combatants).not.toBe(s0.combatants);
    expect(s2.combatants).not.toBe(s1.combatants);
    expect(s0.combatants).toEqual({ a: { hp: 1 }, b: { hp: 2 } });
    expect(s1.combatants).toEqual({ a: { hp: 0 }, b: { hp: 2 } });
  });

  it('inside one, the first change copies and the next write into that copy; the input is untouched', () => {
    const s0 = base();
    foldWork.entriesCopied = 0;
    const out = drafting(() => {
      const s1 = hit(s0, 'a');
      const s2 = hit(s1, 'b');
      expect(s2.combatants).toBe(s1.combatants);
      expect(s2).toBe(s1);
      return s2;
    });
    expect(foldWork.entriesCopied).toBe(2);
    expect(out.combatants).toEqual({ a: { hp: 0 }, b: { hp: 1 } });
    expect(s0.combatants).toEqual({ a: { hp: 1 }, b: { hp: 2 } });
  });

  it('a sealed state is never written again, nor is what a finished fold returned', () => {
    const kept: S[] = [];
    const out = drafting(() => {
      const s1 = hit(base(), 'a');
      sealDraft();
      kept.push(s1);
      return hit(s1, 'a');
    });
    expect(kept[0]!.combatants.a).toEqual({ hp: 0 });
    expect(out.combatants.a).toEqual({ hp: -1 });
    const later = drafting(() => withCombatants(out, (all) => delete all.a));
    expect(out.combatants).toHaveProperty('a');
    expect(later.combatants).not.toHaveProperty('a');
  });

  it('a combatant that is not there changes nothing', () => {
    const s0 = base();
    expect(drafting(() => hit(s0, 'nobody'))).toBe(s0);
    expect(hit(s0, 'constructor')).toBe(s0);
  });
});

describe('appendTo: a list that grows within one fold', () => {
  it("copies once per fold, then adds in place; the list it was given and the last fold's stay as they were", () => {
    const given = [1];
    const first = drafting(() => {
      const a = appendTo(given, [2]);
      const b = appendTo(a, [3, 4]);
      expect(b).toBe(a);
      expect(appendTo(b, [])).toBe(b);
      return b;
    });
    expect(given).toEqual([1]);
    expect(first).toEqual([1, 2, 3, 4]);
    const second = drafting(() => appendTo(first, [5]));
    expect(second).not.toBe(first);
    expect(first).toEqual([1, 2, 3, 4]);
    expect(second).toEqual([1, 2, 3, 4, 5]);
  });

  it('outside a fold, and after a seal, every addition copies', () => {
    const a = appendTo([1], [2]);
    expect(appendTo(a, [3])).not.toBe(a);
    expect(a).toEqual([1, 2]);
    drafting(() => {
      const b = appendTo(a, [3]);
      sealDraft();
      expect(appendTo(b, [4])).not.toBe(b);
      expect(b).toEqual([1, 2, 3]);
    });
  });
});

describe('writing a combatant, its cs and the round state in place', () => {
  type W = { rs: { n: number }; combatants: Record<string, { hp: number; cs: { used: number } }> };
  const start = (): W => ({
    rs: { n: 0 },
    combatants: { a: { hp: 3, cs: { used: 0 } }, b: { hp: 2, cs: { used: 0 } } },
  });
  const use = (s: W, id: string) =>
    writeCs(s, id, (cs) => {
      cs.used++;
    });
  const hurt = (s: W, id: string) =>
    writeCombatant(s, id, (c) => {
      c.hp--;
    });
  const tick = (s: W) =>
    writeRs(s, (rs) => {
      rs.n++;
    });

  it('outside a fold, copies every time and never writes the given state', () => {
    const s0 = start();
    const s1 = tick(hurt(use(s0, 'a'), 'a'));
    const s2 = tick(hurt(use(s1, 'a'), 'a'));
    expect(s0).toEqual(start());
    expect(s1.combatants.a).toEqual({ hp: 2, cs: { used: 1 } });
    expect(s1.rs).toEqual({ n: 1 });
    expect(s2.combatants.a).not.toBe(s1.combatants.a);
    expect(s2.combatants.a!.cs).not.toBe(s1.combatants.a!.cs);
    expect(s2.rs).not.toBe(s1.rs);
    expect(s2.combatants.a).toEqual({ hp: 1, cs: { used: 2 } });
    expect(use(s0, 'nobody')).toBe(s0);
  });

  it('inside a fold, copies once and then writes into its copies; the input is untouched', () => {
    const s0 = start();
    const out = drafting(() => {
      const s1 = tick(hurt(use(s0, 'a'), 'a'));
      const s2 = tick(hurt(use(s1, 'a'), 'a'));
      expect(s2.combatants.a).toBe(s1.combatants.a);
      expect(s2.combatants.a!.cs).toBe(s1.combatants.a!.cs);
      expect(s2.rs).toBe(s1.rs);
      expect(s2).toBe(s1);
      return s2;
    });
    expect(out.combatants.a).toEqual({ hp: 1, cs: { used: 2 } });
    expect(out.combatants.b).toBe(s0.combatants.b);
    expect(out.rs).toEqual({ n: 2 });
    expect(s0).toEqual(start());
  });

  it("under a caller's draft, the next fold writes into what the last one copied; without it, it copies", () => {
    const s0 = start();
    const draft = newDraft();
    const s1 = drafting(() => use(s0, 'a'), draft);
    const s2 = drafting(() => use(s1, 'a'), draft);
    expect(s2.combatants.a!.cs).toBe(s1.combatants.a!.cs);
    const s3 = drafting(() => use(s2, 'a'));
    expect(s3.combatants.a!.cs).not.toBe(s2.combatants.a!.cs);
    expect(s2.combatants.a!.cs).toEqual({ used: 2 });
    expect(s3.combatants.a!.cs).toEqual({ used: 3 });
    expect(s0).toEqual(start());
  });
});

describe('ownState: the state object itself', () => {
  it('outside a fold, a copy every time; inside, copied once and then set in place; never the input', () => {
    const s0 = base();
    const o1 = ownState(s0);
    expect(o1).not.toBe(s0);
    expect(ownState(o1)).not.toBe(o1);
    const out = drafting(() => {
      const s1 = ownState(s0);
      s1.round = 2;
      const s2 = ownState(hit(s1, 'a'));
      s2.round = 3;
      expect(s2).toBe(s1);
      return s2;
    });
    expect(out).not.toBe(s0);
    expect(out.round).toBe(3);
    expect(s0).toEqual(base());
    // A finished fold's state is not written by the next fold, which copies it.
    const next = drafting(() => ownState(out));
    expect(next).not.toBe(out);
  });
});
