import { DICE_LIMITS, type DiceExpr, type DiceOperator, type DicePool, diceWork, overBudget } from './ast.js';
import { DiceSyntaxError } from './errors.js';

/*
 * Grammar (whitespace allowed between tokens, not inside a die term):
 *
 *   expr    := term (('+' | '-') term)*
 *   term    := unary ('*' unary)*
 *   unary   := '-' unary | primary
 *   primary := INT | dice | code | '@' IDENT | '(' expr ')'
 *   dice    := INT? ('d' | 'D') (INT | '%') modifier*     d% is d100
 *   modifier:= '!' (INT | 'o')?                           explode; at most once
 *            | 'k' ('h' | 'l') INT?                       keep highest/lowest; at most once
 *   code    := INT 'D'                                    D6 System code (capital D, no sides)
 *   IDENT   := [A-Za-z_] ([A-Za-z0-9_] | '.' [A-Za-z0-9_] | '-' [A-Za-z_])*   (see below for '-')
 *
 * Explosion: `!` alone lets each die add at most 100 extra dice (DICE_LIMITS.maxExplode); `!N` caps it
 * at N extra dice (1 ≤ N ≤ 100); `!o` means "explodes once" and is the same as `!1`. When the cap is
 * reached, the last extra die counts as rolled even if it shows its highest face.
 *
 * A `-` inside a stat name only continues the name when a letter follows and what follows is not a die
 * (`@to-hit` is one name), so `@dex-2` is dex minus 2 and `@dex-d6` is dex minus a d6.
 *
 * `-3D` is rejected: a D6 code can't have a negative number of dice (`-(3D)` still negates a roll).
 * One roll has one Wild Die, so an expression may hold at most one D6 code.
 */

const EXPECTED_OPERAND = 'expected a number, a die like d6, or @stat.';
const EXPECTED_OPERATOR = "expected '+', '-', '*' or the end of the notation.";

/** Reads dice notation such as `4d6kh3`, `1d20+@dex`, `2d10!` or `3D+2` into a syntax tree. */
export function parseDice(source: string): DiceExpr {
  return new Parser(source).parseAll();
}

class Parser {
  private pos = 0;
  /** Where the D6 code was, once one is seen: a roll has only one Wild Die. */
  private codeAt = -1;
  /** The dice of the terms read so far, and how many they could roll at worst (see DICE_LIMITS). */
  private work = { dice: 0, rolled: 0 };

  constructor(private readonly src: string) {}

  parseAll(): DiceExpr {
    if (this.src.length > DICE_LIMITS.maxLength) {
      this.fail(
        DICE_LIMITS.maxLength,
        `The notation is ${this.src.length} characters long; at most ${DICE_LIMITS.maxLength} are allowed.`,
      );
    }
    this.skipSpace();
    if (this.pos >= this.src.length) {
      this.fail(
        this.pos,
        `Empty dice notation at position ${this.pos} in '${this.src}': ${EXPECTED_OPERAND}`,
      );
    }
    const expr = this.parseExpr();
    this.skipSpace();
    if (this.pos < this.src.length) {
      if (this.peek() === ')') this.unexpected("there is no '(' for this ')' to close.");
      this.unexpected(EXPECTED_OPERATOR);
    }
    return expr;
  }

  private parseExpr(): DiceExpr {
    let left = this.parseTerm();
    for (;;) {
      this.skipSpace();
      const c = this.peek();
      if (c !== '+' && c !== '-') return left;
      this.pos++;
      left = binary(c, left, this.parseTerm());
    }
  }

  private parseTerm(): DiceExpr {
    let left = this.parseUnary();
    for (;;) {
      this.skipSpace();
      if (this.peek() !== '*') return left;
      this.pos++;
      left = binary('*', left, this.parseUnary());
    }
  }

  private parseUnary(): DiceExpr {
    this.skipSpace();
    if (this.peek() !== '-') return this.parsePrimary();
    const minusAt = this.pos++;
    this.skipSpace();
    const operandAt = this.pos;
    const operand = this.parseUnary();
    if (operand.type === 'd6code' && isDigit(this.src[operandAt])) {
      this.fail(
        minusAt,
        `A D6 code can't have a negative number of dice at position ${minusAt} in '${this.src}': write 0D or more dice, and subtract pips after it, like 3D-1.`,
      );
    }
    return { type: 'negate', operand };
  }

  private parsePrimary(): DiceExpr {
    this.skipSpace();
    const start = this.pos;
    const c = this.peek();
    if (c === undefined) this.unexpected(EXPECTED_OPERAND);
    if (c === '(') {
      this.pos++;
      const inner = this.parseExpr();
      this.skipSpace();
      if (this.peek() !== ')') this.unexpected(`expected ')' to close the '(' at position ${start}.`);
      this.pos++;
      return inner;
    }
    if (c === '@') {
      this.pos++;
      const name = this.readIdentifier();
      if (name === '') this.unexpected("expected a stat name after '@', like @dex.");
      return { type: 'ref', name };
    }
    if (isDigit(c) || c === 'd' || c === 'D') return this.parseNumberOrDice(start);
    return this.unexpected(EXPECTED_OPERAND);
  }

  private parseNumberOrDice(start: number): DiceExpr {
    const count = isDigit(this.peek()) ? this.readInt() : undefined;
    const letter = this.peek();
    if (letter !== 'd' && letter !== 'D') {
      // A plain number: the caller checked that it starts with a digit.
      if (count === undefined) return this.unexpected(EXPECTED_OPERAND);
      if (count > DICE_LIMITS.maxConstant) {
        this.fail(
          start,
          `The number ${this.src.slice(start, this.pos)} at position ${start} in '${this.src}' is too large: at most ${DICE_LIMITS.maxConstant}.`,
        );
      }
      return { type: 'constant', value: count };
    }
    const letterAt = this.pos++;
    let sides: number;
    if (isDigit(this.peek())) {
      const sidesAt = this.pos;
      sides = this.readInt();
      if (sides < 1) {
        this.fail(sidesAt, `A die needs at least 1 side at position ${sidesAt} in '${this.src}'.`);
      }
      if (sides > DICE_LIMITS.maxSides) {
        this.fail(
          sidesAt,
          `A die with ${this.src.slice(sidesAt, this.pos)} sides at position ${sidesAt} in '${this.src}' is too large: at most ${DICE_LIMITS.maxSides.toLocaleString('en-US')} sides.`,
        );
      }
    } else if (this.peek() === '%') {
      this.pos++;
      sides = 100;
    } else if (letter === 'D') {
      return this.finishCode(start, letterAt, count);
    } else {
      return this.unexpected(
        "expected the number of sides after 'd', like d6 or d% (a capital D with no sides is a D6 code, like 3D).",
      );
    }
    this.checkCount(start, count ?? 1);
    const pool: DicePool = { type: 'dice', count: count ?? 1, sides };
    for (;;) {
      const m = this.peek();
      if (m === '!') {
        if (pool.explode) {
          this.fail(
            this.pos,
            `A die term explodes only once; remove the second '!' at position ${this.pos} in '${this.src}'.`,
          );
        }
        pool.explode = { cap: this.readExplodeCap() };
      } else if (m === 'k') {
        if (pool.keep) {
          this.fail(
            this.pos,
            `A die term has only one keep; remove the second one at position ${this.pos} in '${this.src}'.`,
          );
        }
        pool.keep = this.readKeep(pool.count);
      } else {
        return this.counted(start, pool);
      }
    }
  }

  private finishCode(start: number, letterAt: number, count: number | undefined): DiceExpr {
    if (count === undefined) {
      this.fail(
        letterAt,
        `A D6 code needs its number of dice, like 3D, at position ${letterAt} in '${this.src}'.`,
      );
    }
    this.checkCount(start, count);
    const next = this.peek();
    if (next === '!' || next === 'k') {
      this.fail(
        this.pos,
        `A D6 code takes no '${next}' at position ${this.pos} in '${this.src}': its Wild Die already explodes on a 6. For plain six-sided dice, write ${count}d6.`,
      );
    }
    if (this.codeAt >= 0) {
      this.fail(
        start,
        `A second D6 code at position ${start} in '${this.src}': a roll has one Wild Die, so write a single code like ${count}D (the first one is at position ${this.codeAt}).`,
      );
    }
    this.codeAt = start;
    return this.counted(start, { type: 'd6code', count, wildCap: DICE_LIMITS.maxExplode });
  }

  /** Adds a term's dice to the roll's work, refusing the term that takes it past DICE_LIMITS. */
  private counted<T extends DiceExpr>(start: number, term: T): T {
    const work = diceWork(term);
    this.work = { dice: this.work.dice + work.dice, rolled: this.work.rolled + work.rolled };
    const over = overBudget(this.work);
    if (over) this.fail(start, `Too many dice by position ${start} in '${this.src}': ${over}`);
    return term;
  }

  private checkCount(start: number, count: number): void {
    if (count > DICE_LIMITS.maxDice) {
      this.fail(
        start,
        `Too many dice at position ${start} in '${this.src}': ${count} dice in one term, but at most ${DICE_LIMITS.maxDice} are allowed.`,
      );
    }
  }

  private readExplodeCap(): number {
    this.pos++; // the '!'
    if (this.peek() === 'o') {
      this.pos++;
      return 1;
    }
    if (!isDigit(this.peek())) return DICE_LIMITS.maxExplode;
    const capAt = this.pos;
    const cap = this.readInt();
    if (cap < 1 || cap > DICE_LIMITS.maxExplode) {
      this.fail(
        capAt,
        `The explosion cap ${this.src.slice(capAt, this.pos)} at position ${capAt} in '${this.src}' must be 1 to ${DICE_LIMITS.maxExplode}: '!' explodes at most ${DICE_LIMITS.maxExplode} extra dice per die, '!N' at most N, '!o' once.`,
      );
    }
    return cap;
  }

  private readKeep(poolCount: number): NonNullable<DicePool['keep']> {
    const keepAt = this.pos++; // the 'k'
    const which = this.peek();
    if (which !== 'h' && which !== 'l') {
      this.unexpected("expected 'kh' (keep highest) or 'kl' (keep lowest), like 4d6kh3.");
    }
    this.pos++;
    let count = 1;
    if (isDigit(this.peek())) {
      const countAt = this.pos;
      count = this.readInt();
      if (count < 1) {
        this.fail(
          countAt,
          `Keeping 0 dice at position ${countAt} in '${this.src}' keeps nothing; keep at least 1.`,
        );
      }
    }
    if (count > poolCount) {
      this.fail(
        keepAt,
        `Can't keep ${count} of ${poolCount} ${poolCount === 1 ? 'die' : 'dice'} at position ${keepAt} in '${this.src}'.`,
      );
    }
    return { which: which === 'h' ? 'highest' : 'lowest', count };
  }

  private readInt(): number {
    const from = this.pos;
    while (isDigit(this.peek())) this.pos++;
    // Very long digit strings become huge numbers, which the callers' limit checks reject.
    return Number(this.src.slice(from, this.pos));
  }

  private readIdentifier(): string {
    const from = this.pos;
    if (!isIdentStart(this.peek())) return '';
    this.pos++;
    for (;;) {
      const c = this.peek();
      const next = this.src[this.pos + 1];
      if (isIdentStart(c) || isDigit(c)) this.pos++;
      else if (c === '.' && (isIdentStart(next) || isDigit(next))) this.pos += 2;
      else if (c === '-' && isIdentStart(next) && !this.isDieAt(this.pos + 1)) this.pos += 2;
      else return this.src.slice(from, this.pos);
    }
  }

  /** `d6`, `D20`, `d%`: a die with no count starts here. */
  private isDieAt(at: number): boolean {
    const c = this.src[at];
    const next = this.src[at + 1];
    return (c === 'd' || c === 'D') && (isDigit(next) || next === '%');
  }

  private skipSpace(): void {
    while (isSpace(this.peek())) this.pos++;
  }

  private peek(): string | undefined {
    return this.src[this.pos];
  }

  private unexpected(expected: string): never {
    const c = this.peek();
    const what = c === undefined ? 'Unexpected end' : `Unexpected '${c}'`;
    return this.fail(this.pos, `${what} at position ${this.pos} in '${this.src}': ${expected}`);
  }

  private fail(position: number, message: string): never {
    throw new DiceSyntaxError(message, this.src, position);
  }
}

function binary(op: DiceOperator, left: DiceExpr, right: DiceExpr): DiceExpr {
  return { type: 'binary', op, left, right };
}

function isSpace(c: string | undefined): boolean {
  return c !== undefined && ' \t\r\n'.includes(c);
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
}

const PRECEDENCE = { '+': 1, '-': 1, '*': 2 } as const;

function precedence(expr: DiceExpr): number {
  if (expr.type === 'binary') return PRECEDENCE[expr.op];
  if (expr.type === 'negate') return 3;
  return 4;
}

/**
 * Writes an expression back as canonical notation: counts always written (`1d6`), `d%` as `1d100`, the
 * default explosion as `!`, keeps with their count (`kh1`), and only the parentheses the tree needs, so
 * that parsing the output gives back the same tree.
 */
export function formatDice(expr: DiceExpr): string {
  switch (expr.type) {
    case 'constant':
      // Only hand-built trees hold negative constants; the parser reads `-2` as a negation.
      return expr.value < 0 ? `(${expr.value})` : String(expr.value);
    case 'dice': {
      let out = `${expr.count}d${expr.sides}`;
      if (expr.explode) out += expr.explode.cap === DICE_LIMITS.maxExplode ? '!' : `!${expr.explode.cap}`;
      if (expr.keep) out += `k${expr.keep.which === 'highest' ? 'h' : 'l'}${expr.keep.count}`;
      return out;
    }
    case 'd6code':
      return `${expr.count}D`;
    case 'ref':
      return `@${expr.name}`;
    case 'negate': {
      const inner = formatDice(expr.operand);
      // `-3D` is not valid notation (a negative dice count), so a negated code keeps its parentheses.
      return expr.operand.type === 'd6code' || precedence(expr.operand) < 3 ? `-(${inner})` : `-${inner}`;
    }
    case 'binary': {
      const p = PRECEDENCE[expr.op];
      const left = formatDice(expr.left);
      const right = formatDice(expr.right);
      // Left-associative: an equal-precedence right operand needs parentheses to stay on the right.
      const l = precedence(expr.left) < p ? `(${left})` : left;
      const r = precedence(expr.right) <= p ? `(${right})` : right;
      return `${l}${expr.op}${r}`;
    }
  }
}
