import { decideSettled, type EncounterState, isRejection, newDraft, writeCs } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { fresh, play, type Step, stepArb } from './testing/random-play.js';

type S = { combatants: Record<string, { id: string; cs: { n: number; list: number[] } }> };

const start = (): S =>
  Object.freeze({
    combatants: Object.freeze({
      a: Object.freeze({
        id: 'a',
        cs: Object.freeze({ n: 0, list: Object.freeze([]) as unknown as number[] }),
      }),
      b: Object.freeze({
        id: 'b',
        cs: Object.freeze({ n: 0, list: Object.freeze([]) as unknown as number[] }),
      }),
    }),
  });

const bump = (s: S, id: string) =>
  writeCs(s, id, (cs) => {
    cs.n += 1;
    cs.list = [...cs.list, cs.n];
  });

describe('writeCs: a combatant state written in place only where nobody else can hold it', () => {
  it('outside a fold, copies every time and never writes what it was given', () => {
    const s0 = start();
    const s1 = bump(s0, 'a');
    const s2 = bump(s1, 'a');
    expect(s0.combatants.a!.cs).toEqual({ n: 0, list: [] });
    expect(s1.combatants.a!.cs).toEqual({ n: 1, list: [1] });
    expect(s2.combatants.a!.cs).toEqual({ n: 2, list: [1, 2] });
    expect(s2.combatants.a!.cs).not.toBe(s1.combatants.a!.cs);
    expect(s2.combatants.b).toBe(s0.combatants.b);
    expect(bump(s0, 'nobody')).toBe(s0);
  });

  it("under a trial's draft, writes one copy across commands; the state it started from is kept", () => {
    const enc = fresh('tara-corax', 7);
    enc.execute({ type: 'start' });
    const s0 = enc.state;
    const before = structuredClone(s0);
    const draft = newDraft();
    let state = s0;
    let made: object | undefined;
    const contents = new Set<string>();
    for (let i = 0; i < 30; i++) {
      // Read before deciding: under the draft, the state given and the one returned share what changes.
      const was = (state as unknown as S).combatants.ana!.cs;
      const r = decideSettled(state, { type: 'next' }, rulesets, { draft });
      if (isRejection(r)) throw new Error(r.message);
      const cs = (r.state as unknown as S).combatants.ana!.cs;
      if (cs !== was) {
        // Made once (the first change copies what the trial started from), then written in place.
        expect(made).toBeUndefined();
        made = cs;
      }
      contents.add(JSON.stringify(cs));
      state = r.state;
    }
    expect(made).toBeDefined();
    expect(contents.size).toBeGreaterThan(1);
    expect(s0).toEqual(before);
    // The same commands decided one by one without a draft (the server's way) end in the same state.
    let plain = s0;
    for (let i = 0; i < 30; i++) {
      const r = decideSettled(plain, { type: 'next' }, rulesets);
      if (isRejection(r)) throw new Error(r.message);
      plain = r.state;
    }
    expect(plain.combatants).toEqual(state.combatants);
  });
});

/**
 * The rulesets that write `cs` in place, played at random through the log as the server does, with
 * nothing frozen (a frozen state would turn a wrong write into a refusal and hide it): every state the
 * log handed out is exactly as it was when handed out.
 */
describe.each(['classic', 'stamina', 'tara-corax', 'tempo'])('kept states never change: %s', (id) => {
  it('after random play, undo and redo included', () => {
    const steps = fc.array(
      fc.oneof(
        { weight: 6, arbitrary: stepArb },
        { weight: 1, arbitrary: fc.constant<Step>({ kind: 'raw', command: { type: 'undo' } }) },
      ),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(steps, fc.integer(), (plays, seed) => {
        // The commands come from a frozen run; they are then sent to a log nobody freezes.
        const commands = play(fresh(id, seed), plays);
        const enc = fresh(id, seed);
        const seen: Array<{ state: EncounterState; copy: string }> = [];
        for (const command of commands) {
          const r = enc.execute(command);
          if (isRejection(r)) expect(r.code).not.toBe('engine/internal');
          seen.push({ state: enc.state, copy: JSON.stringify(enc.state) });
        }
        for (const s of seen) expect(JSON.stringify(s.state)).toBe(s.copy);
      }),
      { numRuns: 25 },
    );
  });
});
