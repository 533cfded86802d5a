export {
  DICE_LIMITS,
  type DiceBinary,
  type DiceCode,
  type DiceConstant,
  type DiceExpr,
  type DiceNegate,
  type DiceOperator,
  type DicePool,
  type DiceRef,
} from './ast.js';
export {
  complicationProbability,
  constantDistribution,
  convolve,
  type Distribution,
  type DistributionOptions,
  distribution,
  mean,
  negateDistribution,
  probAtLeast,
  probAtMost,
  probCompare,
  probExactly,
  productDistribution,
  scaleDistribution,
  shiftDistribution,
  stdev,
  variance,
} from './distribution.js';
export { DICE_NOTATION_HELP, DiceLimitError, DiceRefError, DiceSyntaxError } from './errors.js';
export { formatDice, parseDice } from './parse.js';
export { type DiceRefs, diceRefNames } from './refs.js';
export {
  DiceScriptError,
  type DiceState,
  type Rng,
  StateRng,
  scriptedDice,
  seededDice,
  seededRng,
} from './rng.js';
export {
  type DiceRoll,
  type DiceRollTerm,
  type DieResult,
  type RollOptions,
  rollDice,
  rollTotal,
  type WildComplicationMode,
} from './roll.js';
