import { describe, expect, it } from 'vitest';
import { notationInWords, rollInWords } from './describe.js';
import { StateRng, scriptedDice } from './dice/rng.js';
import { rollDice } from './dice/roll.js';

describe('dice in words in the log', () => {
  it('says notation as a table reads it', () => {
    expect(notationInWords('1d20+@init')).toBe('d20 + initiative');
    expect(notationInWords('1d10!1')).toBe('d10 (a 10 rolls again, once)');
    expect(notationInWords('2d10!')).toBe('2d10 (a 10 rolls again)');
    expect(notationInWords('4d6kh3')).toBe('4d6, keeping the highest 3');
    expect(notationInWords('3D+2')).toBe('3D + 2');
    expect(notationInWords('1d6+@landSpeed')).toBe('d6 + land speed');
  });

  it('gives every face after what was rolled and what for, never "@init" or "!1"', () => {
    const text = { notation: '1d20+@init', text: '1d20+@init: [14] + @init(3) = 17' };
    expect(rollInWords(text, 'Initiative')).toBe('Initiative: d20 + initiative — [14] + initiative 3 = 17');
    const roll = rollDice('1d10!1', new StateRng(scriptedDice([10, 4])));
    expect(rollInWords(roll, 'Initiative')).toBe('Initiative: d10 (a 10 rolls again, once) — [10→4] = 14');
  });
});
