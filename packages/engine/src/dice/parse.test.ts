import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiceExpr, type DiceOperator, diceWork, overBudget } from './ast.js';
import { DiceLimitError, DiceSyntaxError } from './errors.js';
import { formatDice, parseDice } from './parse.js';
import { seededRng } from './rng.js';
import { rollDice } from './roll.js';

const pool = (count: number, sides: number, more: object = {}): DiceExpr => ({
  type: 'dice',
  count,
  sides,
  ...more,
});
const num = (value: number): DiceExpr => ({ type: 'constant', value });

describe('parseDice', () => {
  it.each<[string, DiceExpr]>([
    ['2d6', pool(2, 6)],
    ['d20', pool(1, 20)],
    ['d%', pool(1, 100)],
    ['3D6', pool(3, 6)],
    ['1d10!', pool(1, 10, { explode: { cap: 100 } })],
    ['1d10!3', pool(1, 10, { explode: { cap: 3 } })],
    ['1d10!o', pool(1, 10, { explode: { cap: 1 } })],
    ['4d6kh3', pool(4, 6, { keep: { which: 'highest', count: 3 } })],
    ['2d20kl', pool(2, 20, { keep: { which: 'lowest', count: 1 } })],
    ['4d10kh2!', pool(4, 10, { explode: { cap: 100 }, keep: { which: 'highest', count: 2 } })],
    ['3D', { type: 'd6code', count: 3, wildCap: 100 }],
    ['@reflex', { type: 'ref', name: 'reflex' }],
    ['@str.mod', { type: 'ref', name: 'str.mod' }],
    ['@to-hit', { type: 'ref', name: 'to-hit' }],
    ['-1d4', { type: 'negate', operand: pool(1, 4) }],
  ])('reads %s', (source, expected) => {
    expect(parseDice(source)).toStrictEqual(expected);
  });

  it('gives * precedence over + and -, and reads left to right', () => {
    expect(parseDice('1 + 2 * 3 - 4')).toStrictEqual({
      type: 'binary',
      op: '-',
      left: {
        type: 'binary',
        op: '+',
        left: num(1),
        right: { type: 'binary', op: '*', left: num(2), right: num(3) },
      },
      right: num(4),
    });
    expect(formatDice(parseDice('(1 + 2) * 3'))).toBe('(1+2)*3');
  });

  it('reads a D6 code with pips as the code plus a constant', () => {
    expect(parseDice('3D+2')).toStrictEqual({
      type: 'binary',
      op: '+',
      left: { type: 'd6code', count: 3, wildCap: 100 },
      right: num(2),
    });
    expect(parseDice('0D+2')).toMatchObject({ left: { type: 'd6code', count: 0 } });
  });

  it('ends a stat name before a minus followed by a digit', () => {
    expect(parseDice('@dex-2')).toStrictEqual({
      type: 'binary',
      op: '-',
      left: { type: 'ref', name: 'dex' },
      right: num(2),
    });
    expect(parseDice('1d20+@dex')).toMatchObject({ right: { type: 'ref', name: 'dex' } });
  });

  it('writes canonical notation', () => {
    expect(formatDice(parseDice(' d% + D6! + 2d20kl '))).toBe('1d100+1d6!+2d20kl1');
    expect(formatDice(parseDice('1d10!o'))).toBe('1d10!1');
    expect(formatDice(parseDice('-(3D)'))).toBe('-(3D)');
    expect(formatDice(parseDice('1-(2-3)'))).toBe('1-(2-3)');
    expect(formatDice(parseDice('2*-(1d6+1)'))).toBe('2*-(1d6+1)');
  });
});

describe('parse errors', () => {
  it('points at the offending character', () => {
    const error = catchSyntax('2d6+x');
    expect(error.position).toBe(4);
    expect(error.message).toBe(
      "Unexpected 'x' at position 4 in '2d6+x': expected a number, a die like d6, or @stat.",
    );
    expect(error.caret).toBe('2d6+x\n    ^');
    expect(error.code).toBe('dice/syntax');
    expect(error.help).toContain('!o');
  });

  it.each<[string, number, string]>([
    ['2d6+', 4, 'Unexpected end at position 4'],
    ['', 0, 'Empty dice notation'],
    ['3d', 2, "number of sides after 'd'"],
    ['(1d6', 4, "expected ')' to close the '(' at position 0"],
    ['1d6)', 3, "no '(' for this ')'"],
    ['2d6 3', 4, "expected '+', '-', '*'"],
    ['4d6kx', 4, "'kh' (keep highest) or 'kl'"],
    ['4d6kh5', 3, "Can't keep 5 of 4 dice"],
    ['4d6kh0', 5, 'keeps nothing'],
    ['1d6!0', 4, 'must be 1 to 100'],
    ['1d6!101', 4, 'must be 1 to 100'],
    ['1d6!!', 4, 'explodes only once'],
    ['4d6kh1kl1', 6, 'only one keep'],
    ['1001d6', 0, 'at most 1000'],
    ['2d1000001', 2, 'at most 1,000,000 sides'],
    ['2d0', 2, 'at least 1 side'],
    ['1+2000000000', 2, 'too large'],
    ['-3D', 0, 'negative number of dice'],
    ['2-  -4D', 4, 'negative number of dice'],
    ['3D+2D', 3, 'one Wild Die'],
    ['3D!', 2, 'Wild Die already explodes'],
    ['D+1', 0, 'needs its number of dice'],
    ['@', 1, 'stat name'],
    ['1d20+@', 6, 'stat name'],
    ['2x3', 1, "Unexpected 'x'"],
  ])('rejects %j at position %i', (source, position, fragment) => {
    const error = catchSyntax(source);
    expect(error.position).toBe(position);
    expect(error.message).toContain(fragment);
    expect(error.message).toContain(`'${source}'`);
    expect(error.caret.split('\n')[1]).toBe(`${' '.repeat(position)}^`);
  });

  it('rejects absurdly long notation', () => {
    expect(() => parseDice('1+'.repeat(600))).toThrow(/at most 1000 are allowed/);
  });

  it('throws only DiceSyntaxError, with a position inside the notation, on any input', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789dDkhlo!%+-*() @xa_.'), maxLength: 20 }),
        (s) => {
          try {
            parseDice(s);
          } catch (error) {
            expect(error).toBeInstanceOf(DiceSyntaxError);
            const position = (error as DiceSyntaxError).position;
            expect(position).toBeGreaterThanOrEqual(0);
            expect(position).toBeLessThanOrEqual(s.length);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

/** Trees the parser can produce: no negative constants, at most one D6 code. */
const exprArb: fc.Arbitrary<DiceExpr> = fc
  .letrec<{ expr: DiceExpr }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.integer({ min: 0, max: 1_000_000_000 }).map(num),
      fc
        .record({
          count: fc.integer({ min: 0, max: 1000 }),
          sides: fc.integer({ min: 1, max: 1_000_000 }),
          cap: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
          keep: fc.option(
            fc.record({
              which: fc.constantFrom<'highest' | 'lowest'>('highest', 'lowest'),
              frac: fc.double({ min: 0, max: 1, noNaN: true }),
            }),
            {
              nil: undefined,
            },
          ),
        })
        .map(({ count, sides, cap, keep }): DiceExpr => {
          const p: DiceExpr = { type: 'dice', count, sides };
          if (cap !== undefined) p.explode = { cap };
          if (keep !== undefined && count > 0) {
            p.keep = { which: keep.which, count: Math.max(1, Math.ceil(keep.frac * count)) };
          }
          return p;
        }),
      fc.integer({ min: 0, max: 1000 }).map((count): DiceExpr => ({ type: 'd6code', count, wildCap: 100 })),
      fc
        .stringMatching(/^[A-Za-z_]([A-Za-z0-9_]|\.[A-Za-z0-9_]|-[A-Za-z_])*$/)
        .filter((name) => !/-[dD][0-9%]/.test(name))
        .map((name): DiceExpr => ({ type: 'ref', name })),
      tie('expr').map((operand): DiceExpr => ({ type: 'negate', operand })),
      fc
        .record({ op: fc.constantFrom<DiceOperator>('+', '-', '*'), left: tie('expr'), right: tie('expr') })
        .map(({ op, left, right }): DiceExpr => ({ type: 'binary', op, left, right })),
    ),
  }))
  .expr.filter((e) => countCodes(e) <= 1);

function countCodes(e: DiceExpr): number {
  if (e.type === 'd6code') return 1;
  if (e.type === 'negate') return countCodes(e.operand);
  if (e.type === 'binary') return countCodes(e.left) + countCodes(e.right);
  return 0;
}

describe('formatDice', () => {
  it('round-trips every tree the parser can produce', () => {
    fc.assert(
      fc.property(exprArb, (expr) => {
        const text = formatDice(expr);
        if (text.length > 1000) return; // beyond the notation length limit
        if (overBudget(diceWork(expr))) return; // beyond the work one roll may take
        expect(parseDice(text)).toStrictEqual(expr);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips written notation: parse(format(parse(s))) equals parse(s)', () => {
    const die = fc
      .tuple(
        fc.constantFrom('', '1', '3', '12'),
        fc.constantFrom('d', 'D'),
        fc.constantFrom('6', '10', '%', '20'),
        fc.constantFrom('', '!', '!o', '!4'),
        fc.constantFrom('', 'kh', 'kl', 'kh1'),
      )
      .map((parts) => parts.join(''));
    const atom = fc.oneof(die, fc.constantFrom('7', '0', '@dex', '@to-hit', '@a.b', '3D', '(2d4+1)', '-1d4'));
    const notation = fc
      .tuple(
        atom,
        fc.array(fc.tuple(fc.constantFrom('+', '-', '*', ' + ', ' - ', '*-'), atom), { maxLength: 4 }),
      )
      .map(([first, rest]) => first + rest.map(([op, a]) => op + a).join(''))
      .filter((s) => s.split('3D').length <= 2 && !s.includes('-3D'));
    fc.assert(
      fc.property(notation, (source) => {
        const parsed = parseDice(source);
        expect(parseDice(formatDice(parsed))).toStrictEqual(parsed);
      }),
      { numRuns: 500 },
    );
  });
});

function catchSyntax(source: string): DiceSyntaxError {
  try {
    parseDice(source);
  } catch (error) {
    if (error instanceof DiceSyntaxError) return error;
    throw error;
  }
  throw new Error(`'${source}' parsed without an error`);
}

describe('the work one roll may take', () => {
  it.each([
    ['1000d1!+1000d1!', 0],
    ['600d6+500d6', 6],
    ['50d6!', 0],
    ['1d6+1000d1!', 4],
    [Array.from({ length: 25 }, () => '40d1!').join('+'), 6],
  ])('refuses %j at the term that takes it past the limit', (source, position) => {
    const error = catchSyntax(source);
    expect(error.position).toBe(position);
    expect(error.message).toMatch(/at most (1,000|5,000)/);
  });

  it('accepts rolls within it', () => {
    for (const source of ['1000d6', '500d6+500d6', '49d6!', '10d10!+10d6!', '1000D', '4d6kh3+1d20!']) {
      expect(() => parseDice(source)).not.toThrow();
    }
  });

  it('holds a tree built by hand to the same budget when rolling it', () => {
    const pool = { type: 'dice', count: 1000, sides: 1, explode: { cap: 100 } } as const;
    expect(() => rollDice(pool, seededRng(1))).toThrow(DiceLimitError);
    expect(() => rollDice(pool, seededRng(1))).toThrow(/at most 5,000/);
  });

  it('keeps the breakdown of the costliest roll small', () => {
    const roll = rollDice(`${'1d1!+'.repeat(48)}1d1!`, seededRng(1));
    expect(roll.faces.length).toBeLessThanOrEqual(5000);
    expect(JSON.stringify(roll).length).toBeLessThan(100_000);
  });
});
