import type { Rng } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import {
  compileTaraKernel,
  KERNEL_ACTIONS,
  KERNEL_ATTACKS,
  KERNEL_FIELDS,
  KERNEL_FIRST,
  KERNEL_FORFEITS,
  KERNEL_TURNS,
  kernelRound,
} from './kernel.js';
import { taraStats } from './options.js';

/** Dice that give these faces in order. */
const faces = (...list: number[]): Rng => ({
  int: (min, max) => {
    const f = list.shift();
    if (f === undefined || f < min || f > max) throw new Error(`no face for d${max}`);
    return f;
  },
});

function round(
  mode: 'full' | 'simple' | 'very-simply',
  sheets: Array<Record<string, number>>,
  dice: number[],
  times = 1,
) {
  const k = compileTaraKernel(
    { roundMode: mode, explodingInitiative: 'once' },
    sheets.map((s) => ({ stats: taraStats().parse(s), canAct: true, actionsPerTurn: times })),
  );
  const out = new Int32Array(sheets.length * KERNEL_FIELDS);
  const entries = kernelRound(k, faces(...dice), out);
  const of = (i: number) => ({
    turns: out[i * KERNEL_FIELDS + KERNEL_TURNS],
    actions: out[i * KERNEL_FIELDS + KERNEL_ACTIONS],
    attacks: out[i * KERNEL_FIELDS + KERNEL_ATTACKS],
    forfeits: out[i * KERNEL_FIELDS + KERNEL_FORFEITS],
    first: out[i * KERNEL_FIELDS + KERNEL_FIRST],
  });
  return { entries, of };
}

describe('tara-corax compiled Round (simulations)', () => {
  it('Full Round attack spacing: Score 8 with 3 attacks lands at 8 and 3 and forfeits the one at −2 (Full Action exception)', () => {
    const r = round('full', [{ initiative: 0, meleeAttacks: 3 }], [8]);
    expect(r.of(0)).toEqual({ turns: 1, actions: 1, attacks: 2, forfeits: 1, first: 1 });
    expect(r.entries).toBe(2); // the turn and the attack at Mark 3
  });

  it('a Score above 15 acts again 15 Marks later with too few Marks for another Full Action; no attack is forfeited', () => {
    const r = round('full', [{ initiative: 15, meleeAttacks: 3 }], [5]);
    // Score 20: attacks at 20, 15, 10; a turn at Mark 5 with 5 Marks left, which go unspent (Marks, not
    // attacks: the forfeited-attacks count stays 0).
    expect(r.of(0)).toEqual({ turns: 2, actions: 1, attacks: 3, forfeits: 0, first: 1 });
  });

  it('Score 30 (the cap) attacks twice in a Full Round: at 30 and again at 15', () => {
    const r = round('full', [{ initiative: 25 }], [10, 9]);
    expect(r.of(0)).toEqual({ turns: 2, actions: 2, attacks: 2, forfeits: 0, first: 1 });
  });

  it('Initiative explodes once: a natural 10 adds one more d10 (10 + 10 = 20, no third die)', () => {
    const r = round('full', [{ initiative: 0 }], [10, 10]);
    expect(r.of(0).turns).toBe(2); // Score 20: turns at 20 and 5
  });

  it('Simple Round: every attack at the Mark, none forfeited; a second Full Action needs 15 Marks left', () => {
    const low = round('simple', [{ initiative: 0, meleeAttacks: 5 }], [8], 3);
    expect(low.of(0)).toEqual({ turns: 1, actions: 1, attacks: 5, forfeits: 0, first: 1 });
    const cap = round('simple', [{ initiative: 25, meleeAttacks: 2 }], [10, 9], 3);
    expect(cap.of(0)).toEqual({ turns: 1, actions: 2, attacks: 4, forfeits: 0, first: 1 });
  });

  it('Very Simply rolls no dice: the Score is the average of Agility and Intellect rounded up', () => {
    const r = round('very-simply', [{ agility: 8, intellect: 9 }], []);
    // (8 + 9) / 2 = 8.5 → 9: below 15, the Full Action exception, 9 Marks used.
    expect(r.of(0)).toEqual({ turns: 1, actions: 1, attacks: 1, forfeits: 0, first: 1 });
  });

  it('Ties: the higher raw Initiative acts first at the same Mark; all equal, the roster order', () => {
    const tie = round('full', [{ initiative: 5 }, { initiative: 6 }], [6, 5]);
    expect([tie.of(0).first, tie.of(1).first]).toEqual([0, 1]);
    const same = round('full', [{ initiative: 5 }, { initiative: 5 }], [6, 6]);
    expect([same.of(0).first, same.of(1).first]).toEqual([1, 0]);
  });
});
