import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiceRefError } from './errors.js';
import { parseDice } from './parse.js';
import { DiceScriptError, StateRng, scriptedDice, seededDice } from './rng.js';
import { type RollOptions, rollDice, rollTotal } from './roll.js';

/** Rolls with exactly these faces; a missing or extra face fails the test. */
function scripted(...faces: number[]): StateRng {
  return new StateRng(scriptedDice(faces));
}

describe('rollDice with scripted dice', () => {
  it('sums a pool and keeps every face', () => {
    const roll = rollDice(parseDice('2d6+3'), scripted(4, 5));
    expect(roll.total).toBe(12);
    expect(roll.faces).toEqual([4, 5]);
    expect(roll.terms).toEqual([
      {
        type: 'dice',
        notation: '2d6',
        dice: [
          { faces: [4], value: 4 },
          { faces: [5], value: 5 },
        ],
        value: 9,
      },
      { type: 'constant', value: 3 },
    ]);
    expect(roll.text).toBe('2d6+3: [4, 5] + 3 = 12');
    expect(roll.wild).toBeUndefined();
  });

  it('explodes each die right after it, adding every face', () => {
    const rng = scripted(10, 10, 4, 7);
    const roll = rollDice('2d10!', rng);
    expect(roll.total).toBe(31);
    expect(roll.faces).toEqual([10, 10, 4, 7]);
    expect(roll.terms[0]).toMatchObject({
      dice: [
        { faces: [10, 10, 4], value: 24 },
        { faces: [7], value: 7 },
      ],
    });
    expect(roll.text).toBe('2d10!: [10→10→4, 7] = 31');
    expect(rng.count).toBe(4);
  });

  it('stops exploding at the cap: the last extra die counts even when highest', () => {
    // Exactly three faces are scripted: a fourth roll would throw.
    expect(rollDice('1d6!2', scripted(6, 6, 6)).total).toBe(18);
    expect(rollDice('1d6!o', scripted(6, 6)).total).toBe(12);
    expect(() => rollDice('1d6!2', scripted(6, 6))).toThrow(DiceScriptError);
  });

  it('marks dropped dice and keeps the earlier of equal dice', () => {
    const roll = rollDice('4d6kh3', scripted(3, 1, 6, 3));
    expect(roll.total).toBe(12);
    expect(roll.text).toBe('4d6kh3: [3, dropped 1, 6, 3] = 12');
    const ties = rollDice('4d6kh3', scripted(3, 3, 3, 3));
    expect(ties.terms[0]).toMatchObject({ dice: [{}, {}, {}, { dropped: true }] });
    expect(rollDice('2d20kl1', scripted(17, 4)).total).toBe(4);
    expect(rollDice('3d6!kh1', scripted(6, 2, 5, 4)).total).toBe(8);
  });

  it('rolls a D6 code: ordinary dice first, the Wild Die last, exploding on 6', () => {
    const roll = rollDice('3D+2', scripted(4, 2, 6, 3));
    expect(roll.total).toBe(17);
    expect(roll.text).toBe('3D+2: [4, 2, wild 6→3] + 2 = 17');
    expect(roll.wild).toEqual({ faces: [6, 3], complication: false, mode: 'none' });
    expect(roll.terms[0]).toMatchObject({ type: 'd6code', complication: false, value: 15 });
    expect(rollDice('1D', scripted(6, 6, 1)).total).toBe(13);
    expect(rollDice('0D+2', scripted()).total).toBe(2);
    expect(rollDice('0D+2', scripted()).wild).toBeUndefined();
  });

  it('handles a Wild Die complication in each mode', () => {
    const faces = [4, 2, 5, 1];
    const none = rollDice('4D+2', scripted(...faces));
    expect(none.total).toBe(14);
    expect(none.wild).toEqual({ faces: [1], complication: true, mode: 'none' });
    expect(none.text).toBe('4D+2: [4, 2, 5, wild 1] + 2 = 14 (complication: the Wild Die rolled 1)');

    const gm = rollDice('4D+2', scripted(...faces), {}, { complication: 'gm' });
    expect(gm.total).toBe(14);
    expect(gm.wild?.complication).toBe(true);
    expect(gm.text).toContain("the GM's call");

    const removed = rollDice('4D+2', scripted(...faces), {}, { complication: 'remove-highest' });
    expect(removed.total).toBe(8); // 4 + 2 + 2: the 5 and the Wild Die's 1 are gone
    expect(removed.text).toBe(
      '4D+2: [4, 2, dropped 5, dropped wild 1] + 2 = 8 (complication: the Wild Die and the highest die are removed)',
    );
    expect(rollDice('1D+1', scripted(1), {}, { complication: 'remove-highest' }).total).toBe(1);
    // A 1 after an explosion is not a complication.
    expect(rollDice('2D', scripted(3, 6, 1), {}, { complication: 'remove-highest' })).toMatchObject({
      total: 10,
      wild: { complication: false },
    });
  });

  it('shows arithmetic with the parentheses it needs', () => {
    expect(rollDice('2*(1d6+1)-1d4', scripted(5, 3)).text).toBe('2*(1d6+1)-1d4: 2 * ([5] + 1) - [3] = 9');
    expect(rollDice('-(1d4)', scripted(3)).total).toBe(-3);
    expect(rollDice('1d6*1d6', scripted(3, 4)).total).toBe(12);
  });

  it('is plain JSON', () => {
    const roll = rollDice('4d6kh3+3D+@dex', new StateRng(seededDice(7)), { dex: 2 });
    expect(JSON.parse(JSON.stringify(roll))).toStrictEqual(roll);
  });
});

describe('refs', () => {
  it('resolves @stats from the refs', () => {
    const roll = rollDice('1d20+@dex', scripted(14), { dex: 3 });
    expect(roll.total).toBe(17);
    expect(roll.text).toBe('1d20+@dex: [14] + @dex(3) = 17');
    expect(roll.terms[1]).toEqual({ type: 'ref', name: 'dex', value: 3 });
    expect(rollDice('@reflex', scripted(), { reflex: -1 }).total).toBe(-1);
    expect(rollTotal('@a.b*2', scripted(), { 'a.b': 4 })).toBe(8);
  });

  it('names an unknown ref, before rolling any die', () => {
    const rng = new StateRng(seededDice(1));
    expect(() => rollDice('1d20+@dex', rng, { str: 1 })).toThrow(
      "Unknown stat '@dex': no number was given for it (known: @str).",
    );
    expect(rng.count).toBe(0);
    try {
      rollDice('@reflex', rng);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DiceRefError);
      expect((error as DiceRefError).ref).toBe('reflex');
      expect((error as DiceRefError).code).toBe('dice/unknown-ref');
    }
    expect(() => rollTotal('@dex', rng)).toThrow(DiceRefError);
    // Only own properties: nothing from Object.prototype leaks in.
    expect(() => rollDice('@constructor', rng, {})).toThrow(/Unknown stat '@constructor'/);
    expect(() => rollDice('@to-hit', rng, { to: 1 })).toThrow(/'@to - hit'/);
  });

  it('refuses a stat that is not a whole number', () => {
    expect(() => rollDice('@dex', scripted(), { dex: 1.5 })).toThrow(/whole number/);
    expect(() => rollTotal('@dex', scripted(), { dex: Number.NaN })).toThrow(DiceRefError);
  });
});

describe('rollTotal', () => {
  const notations = [
    '1d10!',
    '4d6kh3',
    '2d20kl1',
    '3d6!2kh2+@dex',
    '4D+2',
    '1D',
    '-(2D)*2',
    '1d4*1d6-3',
    '5d10!kl3',
    '0D+1d6',
  ];
  const modes: RollOptions['complication'][] = ['none', 'remove-highest', 'gm'];

  it('rolls the same dice and total as rollDice from the same dice state', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...notations),
        fc.integer(),
        fc.constantFrom(...modes),
        (notation, seed, complication) => {
          const expr = parseDice(notation);
          const fast = new StateRng(seededDice(seed));
          const full = new StateRng(seededDice(seed));
          const options = { complication };
          expect(rollTotal(expr, fast, { dex: 2 }, options)).toBe(
            rollDice(expr, full, { dex: 2 }, options).total,
          );
          expect(fast.snapshot()).toEqual(full.snapshot());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('takes notation as a string too', () => {
    expect(rollTotal('2d6+1', scripted(2, 3))).toBe(6);
  });

  it('keeps correctly in pools larger than its scratch space', () => {
    const faces = Array.from({ length: 100 }, (_, i) => (i % 6) + 1);
    const expected = rollDice('100d6kl40', scripted(...faces)).total;
    expect(rollTotal('100d6kl40', scripted(...faces))).toBe(expected);
    expect(expected).toBe(17 * 1 + 17 * 2 + 6 * 3); // the faces hold 17 ones and 17 twos
  });
});
