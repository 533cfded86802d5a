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
  /** Faces on one die. */
  maxSides: 1_000_000,
  /** Extra dice one die may add by exploding; also the default when `!` has no number. */
  maxExplode: 100,
  /** Largest constant; keeps every total far inside safe integers. */
  maxConstant: 1_000_000_000,
  /** Longest notation accepted, in characters. */
  maxLength: 1000,
} as const;
