import { type DiceCode, type DiceExpr, type DicePool, diceWork, overBudget } from './ast.js';
import { DiceLimitError } from './errors.js';
import { formatDice, parseDice } from './parse.js';
import { checkRefs, type DiceRefs, noRefs, resolveRef } from './refs.js';
import type { Rng } from './rng.js';

/**
 * What a 1 on the Wild Die's first roll does. `none`: nothing, the roll only reports the complication.
 * `gm`: the same total, reported as the GM's call (the text says so). `remove-highest`: the Wild Die and
 * the highest other die are removed from the total (the D6 System's optional rule).
 */
export type WildComplicationMode = 'none' | 'remove-highest' | 'gm';

export interface RollOptions {
  /** Wild Die complication rule for D6 codes; `none` by default. */
  complication?: WildComplicationMode;
}

/** One die as rolled: its first face, then every explosion face, in order. */
export type DieResult = {
  faces: number[];
  /** The sum of the faces. */
  value: number;
  /** Not counted: a keep left it out, or a complication removed it. */
  dropped?: true;
  /** The D6 System's Wild Die. */
  wild?: true;
};

/** A leaf of the expression as rolled, in left-to-right order. */
export type DiceRollTerm =
  | { type: 'dice'; notation: string; dice: DieResult[]; value: number }
  | { type: 'd6code'; notation: string; dice: DieResult[]; value: number; complication: boolean }
  | { type: 'constant'; value: number }
  | { type: 'ref'; name: string; value: number };

/** A rolled expression with everything a table needs to trust it; plain JSON. */
export type DiceRoll = {
  /** The canonical notation rolled, e.g. `4d6kh3`. */
  notation: string;
  total: number;
  terms: DiceRollTerm[];
  /** Every face rolled, in the order the dice were rolled (explosions right after their die). */
  faces: number[];
  /** Present when the expression has a D6 code with at least one die. */
  wild?: { faces: number[]; complication: boolean; mode: WildComplicationMode };
  /** A one-line breakdown, e.g. `3D+2: [4, 2, wild 6→3] + 2 = 17`. */
  text: string;
};

/*
 * Order of the dice, which scripted dice follow: left to right through the expression; within a pool,
 * die by die, each die's explosions right after it; within a D6 code, the ordinary dice first and the
 * Wild Die (with its explosions) last.
 */

/** Rolls an expression and keeps every face, for events and for showing the roll. */
export function rollDice(
  expr: DiceExpr | string,
  rng: Rng,
  refs: DiceRefs = noRefs(),
  options?: RollOptions,
): DiceRoll {
  const tree = typeof expr === 'string' ? parseDice(expr) : expr;
  // The parser refuses such notation; a tree built by hand is held to the same budget (checked once per
  // tree, with its notation written then).
  const notation = withinBudget(tree);
  checkRefs(tree, refs);
  // No default object for the options: a roll is made for most commands a simulation sends.
  const run = new Breakdown(rng, refs, options?.complication ?? 'none', tree, notation);
  const { value, text } = run.visit(tree);
  const total = normalizeZero(value);
  const roll: DiceRoll = { notation, total, terms: run.terms, faces: run.faces, text: '' };
  let suffix = '';
  if (run.wild) {
    roll.wild = run.wild;
    if (run.wild.complication) suffix = ` (${complicationNote(run.wild.mode)})`;
  }
  roll.text = `${notation}: ${text} = ${total}${suffix}`;
  return roll;
}

/**
 * Trees within the budget, each with its notation, checked and written once per tree (a tree is only
 * read, never changed; a ruleset rolls the same few trees over and over).
 */
const WITHIN_BUDGET = new WeakMap<DiceExpr, string>();

/** The tree's notation when it is within the budget (`overBudget(diceWork(tree))`); throws otherwise. */
function withinBudget(tree: DiceExpr): string {
  let notation = WITHIN_BUDGET.get(tree);
  if (notation !== undefined) return notation;
  notation = formatDice(tree);
  const over = overBudget(diceWork(tree));
  if (over) throw new DiceLimitError(`Too many dice in '${notation}': ${over}`);
  WITHIN_BUDGET.set(tree, notation);
  return notation;
}

/** A part's notation: the whole tree's when it is the tree (a single pool or code), else written. */
function notationIn(expr: DiceExpr, root: DiceExpr, rootNotation: string): string {
  return expr === root ? rootNotation : formatDice(expr);
}

function complicationNote(mode: WildComplicationMode): string {
  if (mode === 'remove-highest') return 'complication: the Wild Die and the highest die are removed';
  if (mode === 'gm') return "complication: the Wild Die rolled 1, the GM's call";
  return 'complication: the Wild Die rolled 1';
}

/** -0 reads badly in a breakdown and in JSON; totals are whole numbers. */
function normalizeZero(n: number): number {
  return n === 0 ? 0 : n;
}

class Breakdown {
  readonly terms: DiceRollTerm[] = [];
  readonly faces: number[] = [];
  wild: DiceRoll['wild'];

  constructor(
    private readonly rng: Rng,
    private readonly refs: DiceRefs,
    private readonly mode: WildComplicationMode,
    private readonly root: DiceExpr,
    private readonly rootNotation: string,
  ) {}

  visit(expr: DiceExpr): { value: number; text: string } {
    switch (expr.type) {
      case 'constant':
        this.terms.push({ type: 'constant', value: expr.value });
        return { value: expr.value, text: expr.value < 0 ? `(${expr.value})` : String(expr.value) };
      case 'ref': {
        const value = resolveRef(this.refs, expr.name);
        this.terms.push({ type: 'ref', name: expr.name, value });
        return { value, text: `@${expr.name}(${value})` };
      }
      case 'dice':
        return this.pool(expr);
      case 'd6code':
        return this.code(expr);
      case 'negate': {
        const inner = this.visit(expr.operand);
        const bare = expr.operand.type !== 'binary';
        return { value: -inner.value, text: bare ? `-${inner.text}` : `-(${inner.text})` };
      }
      case 'binary': {
        const left = this.visit(expr.left);
        const right = this.visit(expr.right);
        const p = PRECEDENCE[expr.op];
        const l = expr.left.type === 'binary' && PRECEDENCE[expr.left.op] < p ? `(${left.text})` : left.text;
        const r =
          expr.right.type === 'binary' && PRECEDENCE[expr.right.op] <= p ? `(${right.text})` : right.text;
        const value =
          expr.op === '+'
            ? left.value + right.value
            : expr.op === '-'
              ? left.value - right.value
              : left.value * right.value;
        return { value, text: `${l} ${expr.op} ${r}` };
      }
    }
  }

  private die(sides: number, cap: number): DieResult {
    let face = this.rng.int(1, sides);
    this.faces.push(face);
    // Most dice do not explode: one face, no loop.
    if (face !== sides || cap === 0) return { faces: [face], value: face };
    const faces = [face];
    let value = face;
    for (let extra = 0; face === sides && extra < cap; extra++) {
      face = this.rng.int(1, sides);
      faces.push(face);
      this.faces.push(face);
      value += face;
    }
    return { faces, value };
  }

  private pool(expr: DicePool): { value: number; text: string } {
    const cap = expr.explode ? expr.explode.cap : 0;
    const dice: DieResult[] = [];
    for (let i = 0; i < expr.count; i++) dice.push(this.die(expr.sides, cap));
    if (expr.keep) {
      const sign = expr.keep.which === 'highest' ? -1 : 1;
      // Stable order: among equal dice, the earlier one is kept.
      const order = dice
        .map((die, i) => ({ die, i }))
        .sort((a, b) => sign * (a.die.value - b.die.value) || a.i - b.i);
      for (const { die } of order.slice(expr.keep.count)) die.dropped = true;
    }
    const value = countedSum(dice);
    this.terms.push({ type: 'dice', notation: notationIn(expr, this.root, this.rootNotation), dice, value });
    return { value, text: showDice(dice) };
  }

  private code(expr: DiceCode): { value: number; text: string } {
    const dice: DieResult[] = [];
    for (let i = 1; i < expr.count; i++) dice.push(this.die(6, 0));
    let complication = false;
    if (expr.count >= 1) {
      const wild = this.die(6, expr.wildCap);
      wild.wild = true;
      complication = wild.faces[0] === 1;
      if (complication && this.mode === 'remove-highest') {
        wild.dropped = true;
        let highest: DieResult | undefined;
        for (const d of dice) if (!highest || d.value > highest.value) highest = d;
        if (highest) highest.dropped = true;
      }
      dice.push(wild);
      this.wild = { faces: [...wild.faces], complication, mode: this.mode };
    }
    const value = countedSum(dice);
    this.terms.push({
      type: 'd6code',
      notation: notationIn(expr, this.root, this.rootNotation),
      dice,
      value,
      complication,
    });
    return { value, text: showDice(dice) };
  }
}

const PRECEDENCE = { '+': 1, '-': 1, '*': 2 } as const;

function countedSum(dice: readonly DieResult[]): number {
  let sum = 0;
  for (const d of dice) if (!d.dropped) sum += d.value;
  return sum;
}

function showDice(dice: readonly DieResult[]): string {
  let out = '[';
  for (let i = 0; i < dice.length; i++) {
    const d = dice[i]!;
    if (i > 0) out += ', ';
    if (d.dropped) out += 'dropped ';
    if (d.wild) out += 'wild ';
    const faces = d.faces;
    out += faces.length === 1 ? String(faces[0]) : faces.join('→');
  }
  return `${out}]`;
}

/**
 * Only the total, rolling exactly the same dice in the same order as `rollDice` (so the same dice
 * state gives the same total), without building the breakdown. For simulations and benchmarks.
 */
export function rollTotal(expr: DiceExpr | string, rng: Rng, refs?: DiceRefs, options?: RollOptions): number {
  // No default parameters: they would build objects on every call of this hot path.
  const tree = typeof expr === 'string' ? parseDice(expr) : expr;
  // The common case, a single pool, skips the tree walk.
  if (tree.type === 'dice' && tree.keep === undefined) return fastPool(tree, rng);
  const removeHighest = options !== undefined && options.complication === 'remove-highest';
  const total = fastTotal(tree, rng, refs ?? noRefs(), removeHighest);
  return total === 0 ? 0 : total;
}

function fastTotal(expr: DiceExpr, rng: Rng, refs: DiceRefs, removeHighest: boolean): number {
  switch (expr.type) {
    case 'dice':
      return expr.keep ? fastKeep(expr, expr.keep, rng) : fastPool(expr, rng);
    case 'constant':
      return expr.value;
    case 'ref':
      return resolveRef(refs, expr.name);
    case 'd6code':
      return fastCode(expr, rng, removeHighest);
    case 'negate':
      return -fastTotal(expr.operand, rng, refs, removeHighest);
    case 'binary': {
      const left = fastTotal(expr.left, rng, refs, removeHighest);
      const right = fastTotal(expr.right, rng, refs, removeHighest);
      return expr.op === '+' ? left + right : expr.op === '-' ? left - right : left * right;
    }
  }
}

function fastPool(expr: DicePool, rng: Rng): number {
  const sides = expr.sides;
  const cap = expr.explode ? expr.explode.cap : 0;
  let sum = 0;
  for (let i = 0; i < expr.count; i++) {
    let face = rng.int(1, sides);
    sum += face;
    for (let extra = 0; face === sides && extra < cap; extra++) {
      face = rng.int(1, sides);
      sum += face;
    }
  }
  return sum;
}

/** Reused between calls: a keep needs every die's value, and a roll must not allocate. */
let scratch = new Float64Array(64);

function fastKeep(expr: DicePool, keep: NonNullable<DicePool['keep']>, rng: Rng): number {
  const { sides, count } = expr;
  const cap = expr.explode ? expr.explode.cap : 0;
  if (scratch.length < count) scratch = new Float64Array(count);
  const values = scratch;
  for (let i = 0; i < count; i++) {
    let face = rng.int(1, sides);
    let value = face;
    for (let extra = 0; face === sides && extra < cap; extra++) {
      face = rng.int(1, sides);
      value += face;
    }
    // Insertion sort, ascending: pools are small, and this allocates nothing.
    let j = i;
    for (; j > 0; j--) {
      const before = values[j - 1];
      if (before === undefined || before <= value) break;
      values[j] = before;
    }
    values[j] = value;
  }
  let sum = 0;
  const kept = keep.count;
  if (keep.which === 'highest') for (let i = count - kept; i < count; i++) sum += values[i] ?? 0;
  else for (let i = 0; i < kept; i++) sum += values[i] ?? 0;
  return sum;
}

function fastCode(expr: DiceCode, rng: Rng, removeHighest: boolean): number {
  if (expr.count < 1) return 0;
  let sum = 0;
  let highest = 0;
  for (let i = 1; i < expr.count; i++) {
    const face = rng.int(1, 6);
    sum += face;
    if (face > highest) highest = face;
  }
  let face = rng.int(1, 6);
  if (face === 1 && removeHighest) return sum - highest;
  let wild = face;
  for (let extra = 0; face === 6 && extra < expr.wildCap; extra++) {
    face = rng.int(1, 6);
    wild += face;
  }
  return sum + wild;
}
