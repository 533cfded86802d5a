/** The notation in short, shown with every syntax error so the fix is one read away. */
export const DICE_NOTATION_HELP = [
  'Dice notation:',
  '  2d6, d20, d% (= d100)     N dice of S sides (N defaults to 1)',
  '  1d10!                     exploding: a die showing its highest face is rolled again and added,',
  '                            at most 100 extra dice per die',
  '  1d10!3, 1d10!o            exploding at most 3 extra dice per die; !o explodes once (= !1)',
  '  4d6kh3, 2d20kl1, 2d20kh   keep the 3 highest / the 1 lowest (no number keeps 1)',
  '  3D+2                      D6 System code: 3 six-sided dice, one of them the Wild Die',
  '  @dex, @str.mod            a stat given when rolling',
  '  + - * ( )                 arithmetic; -X negates',
  'One roll has at most 1,000 dice, and could roll at most 5,000 with every explosion (10d6! counts 1,010).',
].join('\n');

/** A notation that can't be read. `position` is the 0-based index of the offending character. */
export class DiceSyntaxError extends Error {
  readonly code = 'dice/syntax';
  /** The notation and a line with `^` under the offending character, for monospaced output. */
  readonly caret: string;
  readonly help = DICE_NOTATION_HELP;

  constructor(
    message: string,
    readonly source: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'DiceSyntaxError';
    this.caret = `${source}\n${' '.repeat(position)}^`;
  }
}

/** A roll or distribution needs `@name`, but no number (or no whole number) was given for it. */
export class DiceRefError extends Error {
  constructor(
    message: string,
    readonly ref: string,
    readonly code: 'dice/unknown-ref' | 'dice/bad-ref',
  ) {
    super(message);
    this.name = 'DiceRefError';
  }
}

/** An exact distribution would take too much memory or time to compute (e.g. `2d1000000*1d1000000`). */
export class DiceLimitError extends Error {
  readonly code = 'dice/too-large';

  constructor(message: string) {
    super(message);
    this.name = 'DiceLimitError';
  }
}
