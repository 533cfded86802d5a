/**
 * The dice notation's syntax tree. Every node is a plain JSON object so an expression can be stored in
 * an encounter, sent over the wire, and compared with deep equality. Optional fields are left out, never
 * set to undefined, so a stored expression survives JSON unchanged.
 */
export type DiceExpr = DiceConstant | DicePool | DiceCode | DiceRef | DiceNegate | DiceBinary;

/** A whole number written in the notation: `2` in `1d6+2`. */
export interface DiceConstant {
  type: 'constant';
  value: number;
}

/**
 * `NdS` with its modifiers: `count` dice of `sides` faces. With `explode`, a die showing its highest face
 * is rolled again and added, at most `cap` extra dice per die. With `keep`, only the `count` highest (or
 * lowest) dice count; explosions happen first, so a kept die is its whole exploded sum.
 */
export interface DicePool {
  type: 'dice';
  count: number;
  sides: number;
  explode?: { cap: number };
  keep?: { which: 'highest' | 'lowest'; count: number };
}

/**
 * A D6 System code, `3D` in `3D+2`: `count` six-sided dice, one of which (when count ≥ 1) is the Wild
 * Die. A 6 on the Wild Die is rolled again and added, at most `wildCap` extra dice; a 1 on its first roll
 * is a complication.
 */
export interface DiceCode {
  type: 'd6code';
  count: number;
  wildCap: number;
}

/** `@dex`: a number looked up by name when rolling (a character's stat, a modifier). */
export interface DiceRef {
  type: 'ref';
  name: string;
}

/** Unary minus: `-1d4`. */
export interface DiceNegate {
  type: 'negate';
  operand: DiceExpr;
}

export interface DiceBinary {
  type: 'binary';
  op: DiceOperator;
  left: DiceExpr;
  right: DiceExpr;
}

export type DiceOperator = '+' | '-' | '*';

/** Hard limits that keep a typo (`10000d6`) from freezing a table; the parser rejects anything beyond. */
export const DICE_LIMITS = {
  /** Dice in one term: `1000d6` is the largest pool. */
  maxDice: 1000,
  /** Dice in one roll, all its terms together, before explosions: `500d6+500d6` is the most. */
  maxDicePerRoll: 1000,
  /**
   * Dice one roll may roll at worst, every explosion counted (`10d6!` could roll 10 × 101 = 1,010): this
   * bounds the work of a roll and the size of its breakdown, whatever the dice show.
   */
  maxRolled: 5000,
  /** Faces on one die. */
  maxSides: 1_000_000,
  /** Extra dice one die may add by exploding; also the default when `!` has no number. */
  maxExplode: 100,
  /** Largest constant; keeps every total far inside safe integers. */
  maxConstant: 1_000_000_000,
  /** Longest notation accepted, in characters. */
  maxLength: 1000,
} as const;

/**
 * What rolling an expression costs at most: its dice before explosions, and every die it could roll
 * with all of them (a pool of N dice exploding at most C times each rolls at most N × (1 + C)).
 */
export function diceWork(expr: DiceExpr): { dice: number; rolled: number } {
  let dice = 0;
  let rolled = 0;
  const stack: DiceExpr[] = [expr];
  for (let e = stack.pop(); e !== undefined; e = stack.pop()) {
    if (e.type === 'dice') {
      dice += e.count;
      rolled += e.count * (1 + (e.explode ? e.explode.cap : 0));
    } else if (e.type === 'd6code') {
      dice += e.count;
      rolled += e.count >= 1 ? e.count + e.wildCap : 0;
    } else if (e.type === 'negate') stack.push(e.operand);
    else if (e.type === 'binary') stack.push(e.left, e.right);
  }
  return { dice, rolled };
}

/** Why a roll is beyond DICE_LIMITS' work budget, as the end of a sentence about it; undefined if within. */
export function overBudget(work: { dice: number; rolled: number }): string | undefined {
  const n = (x: number) => x.toLocaleString('en-US');
  if (work.dice > DICE_LIMITS.maxDicePerRoll) {
    return `it has ${n(work.dice)} dice in all, but one roll may have at most ${n(DICE_LIMITS.maxDicePerRoll)}; roll fewer dice.`;
  }
  if (work.rolled > DICE_LIMITS.maxRolled) {
    return `it could roll up to ${n(work.rolled)} dice once its explosions are counted, but one roll may roll at most ${n(DICE_LIMITS.maxRolled)}; roll fewer exploding dice or cap their explosions, like 10d6!3.`;
  }
  return undefined;
}
