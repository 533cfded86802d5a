import type { DiceCode, DiceExpr, DicePool } from './ast.js';
import { DiceLimitError } from './errors.js';
import { formatDice, parseDice } from './parse.js';
import { checkRefs, type DiceRefs, noRefs, resolveRef } from './refs.js';
import type { RollOptions } from './roll.js';

/**
 * The exact probability of every total an expression can give, computed (not sampled) like AnyDice:
 * `outcomes` is sorted by value, holds only outcomes with a probability above zero, and sums to 1 up to
 * rounding (well within 1e-12). Outcomes of sums rarer than about 1e-150 may be left out (see TINY).
 * Plain JSON.
 */
export interface Distribution {
  outcomes: Array<[value: number, probability: number]>;
}

/*
 * How each part is computed:
 * - NdS: N convolutions with the die; a large pool of large dice uses a sliding window sum instead
 *   (same totals, slightly less relative precision in the far tails).
 * - Exploding dice follow the rolling rule exactly: a die showing its highest face adds another die, at
 *   most `cap` extra dice; the last extra die counts as rolled even if it is highest. So with d10!
 *   (cap 100), P(k) = 1/10 for k = 1..9, P(10+k) = 1/100, ..., and the whole all-tens chain, 10^-101,
 *   lands on 1010. Pools of exploding dice are summed by splitting each die into its number of
 *   explosions and its last face (see explodingSum) rather than by convolving the long tails.
 * - Keep highest/lowest: an order-statistics walk over the die's values from the highest down, tracking
 *   how many dice are at or above the current value and the sum of the kept ones; once enough dice are
 *   placed, the rest only need to be lower, so their probability is taken at once. Exact for any die,
 *   exploding ones included.
 * - D6 codes: the ordinary dice plus the exploding Wild Die; with `remove-highest`, the 1/6 of the time
 *   the Wild Die starts on 1 the total is the other dice minus their highest (keep lowest N−2 of N−1).
 * - `a*b` of two random terms enumerates every pair.
 * - Before multiplying probabilities together, those below 1e-150 are dropped (see TINY): far below
 *   anything a sum of doubles can show, and products of them would be subnormal numbers, which CPUs
 *   handle about a hundred times slower.
 */

export type DistributionOptions = RollOptions;

/** Guards that turn an hours-long or memory-hungry computation into a clear error. */
const MAX_SPAN = 1_000_001;
const MAX_WORK = 300_000_000;
/** Probabilities below this are dropped before being multiplied: products stay normal doubles. */
const TINY = 1e-150;
/** Above this many multiply-adds per die, a sum of uniform dice slides a window instead. */
const DIRECT_CONVOLUTION_WORK = 2_000_000;

/** Values `min .. min + p.length - 1`, `p[i]` the probability of `min + i`. */
interface Dense {
  min: number;
  p: Float64Array;
}

class Budget {
  private work = 0;

  constructor(private readonly source: string) {}

  spend(amount: number, what: string): void {
    this.work += amount;
    this.afford(0, what);
  }

  /** Throws now if `amount` more work would go over, rather than after doing most of it. */
  afford(amount: number, what: string): void {
    if (this.work + amount > MAX_WORK) {
      throw new DiceLimitError(
        `The exact distribution of '${this.source}' is too costly to compute (${what}); try fewer or smaller dice.`,
      );
    }
  }

  span(length: number, what: string): void {
    if (length > MAX_SPAN) {
      throw new DiceLimitError(
        `The exact distribution of '${this.source}' would have ${length.toLocaleString('en-US')} possible totals (${what}); at most ${(MAX_SPAN - 1).toLocaleString('en-US')} are supported.`,
      );
    }
  }
}

/** The exact distribution of an expression's total. `@refs` are fixed numbers. */
export function distribution(
  expr: DiceExpr | string,
  refs: DiceRefs = noRefs(),
  options: DistributionOptions = {},
): Distribution {
  const tree = typeof expr === 'string' ? parseDice(expr) : expr;
  checkRefs(tree, refs);
  const budget = new Budget(formatDice(tree));
  return fromDense(exprDense(tree, refs, options.complication ?? 'none', budget));
}

/**
 * The chance that a roll of the expression has a Wild Die complication (its Wild Die's first roll is
 * a 1): 1/6 with a D6 code of at least one die, 0 without.
 */
export function complicationProbability(expr: DiceExpr | string): number {
  const tree = typeof expr === 'string' ? parseDice(expr) : expr;
  let codes = 0;
  const visit = (e: DiceExpr): void => {
    if (e.type === 'd6code' && e.count >= 1) codes++;
    else if (e.type === 'negate') visit(e.operand);
    else if (e.type === 'binary') {
      visit(e.left);
      visit(e.right);
    }
  };
  visit(tree);
  // The parser allows one code; a hand-built tree with several has one chance per Wild Die.
  return 1 - (5 / 6) ** codes;
}

function exprDense(expr: DiceExpr, refs: DiceRefs, mode: RollOptions['complication'], budget: Budget): Dense {
  switch (expr.type) {
    case 'constant':
      return point(expr.value);
    case 'ref':
      return point(resolveRef(refs, expr.name));
    case 'dice':
      return poolDense(expr, budget);
    case 'd6code':
      return codeDense(expr, mode === 'remove-highest', budget);
    case 'negate':
      return negateDense(exprDense(expr.operand, refs, mode, budget));
    case 'binary': {
      const left = exprDense(expr.left, refs, mode, budget);
      const right = exprDense(expr.right, refs, mode, budget);
      const what = formatDice(expr);
      if (expr.op === '+') return convolveDense(left, right, budget, what);
      if (expr.op === '-') return convolveDense(left, negateDense(right), budget, what);
      if (right.p.length === 1) return scaleDense(left, right.min, budget, what);
      if (left.p.length === 1) return scaleDense(right, left.min, budget, what);
      return productDense(left, right, budget, what);
    }
  }
}

function point(value: number): Dense {
  return { min: value, p: Float64Array.of(1) };
}

function uniformDense(sides: number): Dense {
  return { min: 1, p: new Float64Array(sides).fill(1 / sides) };
}

/** One exploding die: see the rule at the top of this file. */
function explodingDense(sides: number, cap: number, budget: Budget, what: string): Dense {
  if (sides === 1) return point(cap + 1); // every roll is the highest face: it always explodes to the cap
  // Chains of explosions whose probability underflows to 0 are not worth the memory.
  const chains = Math.min(cap + 1, Math.floor(Math.log(Number.MIN_VALUE) / -Math.log(sides)));
  const length = chains * sides;
  budget.span(length, what);
  budget.spend(length, what);
  const p = new Float64Array(length);
  let chance = 1;
  for (let t = 0; t < chains; t++) {
    chance /= sides;
    p.fill(chance, t * sides, t * sides + sides - 1);
  }
  // The last possible die: only reached after `cap` explosions, and then every face counts as rolled.
  if (chains === cap + 1) p[length - 1] = chance;
  return { min: 1, p };
}

function poolDense(expr: DicePool, budget: Budget): Dense {
  const what = formatDice(expr);
  // Hand-built trees may keep nothing; the parser refuses that.
  if (expr.keep && expr.keep.count <= 0) return point(0);
  if (expr.keep && expr.keep.count < expr.count) {
    const die = expr.explode
      ? explodingDense(expr.sides, expr.explode.cap, budget, what)
      : uniformDense(expr.sides);
    return keepDense(die, expr.count, expr.keep.count, expr.keep.which === 'highest', budget, what);
  }
  if (expr.explode && expr.count === 1) return explodingDense(expr.sides, expr.explode.cap, budget, what);
  if (expr.explode) return explodingSum(expr.sides, expr.explode.cap, expr.count, budget, what);
  return sumOfDice(uniformDense(expr.sides), expr.count, true, budget, what);
}

/**
 * The sum of `count` exploding dice, without convolving the dice's long tails directly.
 *
 * One die either stops before the cap, ending on a face 1..S−1 after t explosions (value t·S + f,
 * chance S^−(t+1)), or rolls the highest face every time and ends at (cap+1)·S (chance e = S^−(cap+1)).
 * In the first case t and f are independent: t has weight (S−1)·S^−(t+1) and f is uniform on 1..S−1.
 * So j such dice sum to S·(t₁+…+t_j) + (f₁+…+f_j), two small convolutions combined once, and the whole
 * pool is a binomial mixture over how many dice (k) reached the end: weight C(N,k)·e^k, which underflows
 * to zero after a few k. The result is the same distribution as convolving the dice, much faster.
 */
function explodingSum(sides: number, cap: number, count: number, budget: Budget, what: string): Dense {
  if (count === 0) return point(0);
  if (sides === 1) return point(count * (cap + 1));
  budget.span(count * (cap + 1) * sides - count + 1, what);
  // Explosion counts' weights, down to where they underflow.
  const weights: number[] = [];
  for (let t = 0, chance = 1 / sides; t <= cap && chance > 0; t++, chance /= sides) {
    weights.push((sides - 1) * chance);
  }
  const explosions: Dense = { min: 0, p: Float64Array.from(weights) };
  const face = sides === 2 ? point(1) : uniformDense(sides - 1);
  const end = sides ** -(cap + 1);

  // How many dice can reach the end before its weight C(N,k)·e^k underflows.
  // mixture[k] is the weight of k dice at the end; past its length, the weight is 0.
  const mixture: number[] = [];
  for (let k = 0, weight = 1; k <= count && weight > 0; k++) {
    mixture.push(weight);
    weight *= (end * (count - k)) / (k + 1);
  }
  // Estimated work: the explosion and face sums up to count dice, then one combination per mixture term.
  const tLength = (count * (weights.length - 1) + 1) * weights.length * count;
  const fLength = (count * (face.p.length - 1) + 1) * face.p.length * count;
  const combine = (count * (weights.length - 1) + 1) * (count * (face.p.length - 1) + 1) * mixture.length;
  budget.afford(tLength + fLength + combine, what);

  const out = new Float64Array(count * (cap + 1) * sides - count + 1);
  const outMin = count; // every die is at least 1
  let tSum = point(0);
  let fSum = point(0);
  for (let j = 1; j <= count; j++) {
    tSum = convolveDense(tSum, explosions, budget, what);
    fSum = sumStep(fSum, face, budget, what);
    const k = count - j;
    const weight = mixture[k];
    if (weight === undefined) continue; // so many dice at the end underflow to 0
    // k dice at the end, (cap+1)·S each; j = count − k dice stopped early.
    const shift = k * (cap + 1) * sides + tSum.min * sides + fSum.min - outMin;
    const tp = tSum.p;
    const fp = withoutTiny(fSum.p);
    budget.spend(tp.length * fp.length, what);
    for (let a = 0; a < tp.length; a++) {
      const w = weight * (tp[a] ?? 0);
      if (w < TINY) continue;
      const base = shift + a * sides;
      for (let b = 0; b < fp.length; b++) out[base + b] = (out[base + b] ?? 0) + w * (fp[b] ?? 0);
    }
  }
  // All dice at the end: no early dice to combine.
  const allEnd = mixture[count];
  if (allEnd !== undefined) out[out.length - 1] = (out[out.length - 1] ?? 0) + allEnd;
  return { min: outMin, p: out };
}

/** Adds one more uniform face die to a running sum, the cheaper of the two ways. */
function sumStep(sum: Dense, die: Dense, budget: Budget, what: string): Dense {
  return sum.p.length * die.p.length > DIRECT_CONVOLUTION_WORK && die.p.length > 1
    ? addUniformWindow(sum, die.p.length, budget, what)
    : convolveDense(sum, die, budget, what);
}

function sumOfDice(die: Dense, count: number, uniform: boolean, budget: Budget, what: string): Dense {
  if (count === 0) return point(0);
  const sides = die.p.length;
  budget.span(count * (sides - 1) + 1, what);
  const direct = (length: number) => !uniform || length * sides <= DIRECT_CONVOLUTION_WORK;
  let estimate = 0;
  for (let i = 1, length = sides; i < count; i++, length += sides - 1) {
    estimate += direct(length) ? length * sides : 2 * (length + sides);
  }
  budget.afford(estimate, what);
  let sum = die;
  for (let i = 1; i < count; i++) {
    if (!direct(sum.p.length)) {
      sum = addUniformWindow(sum, die.p.length, budget, what);
    } else {
      sum = convolveDense(sum, die, budget, what);
    }
  }
  return sum;
}

/** Adds one uniform 1..sides die with a running window sum: linear instead of quadratic. */
function addUniformWindow(a: Dense, sides: number, budget: Budget, what: string): Dense {
  const length = a.p.length + sides - 1;
  budget.span(length, what);
  budget.spend(length * 2, what);
  const out = new Float64Array(length);
  let window = 0;
  for (let u = 0; u < length; u++) {
    if (u < a.p.length) window += a.p[u] ?? 0;
    if (u - sides >= 0) window -= a.p[u - sides] ?? 0;
    // Subtracting can leave a tiny negative remainder where the true value is 0.
    out[u] = window > 0 ? window / sides : 0;
  }
  return { min: a.min + 1, p: out };
}

function convolveDense(a: Dense, b: Dense, budget: Budget, what: string): Dense {
  const length = a.p.length + b.p.length - 1;
  budget.span(length, what);
  // Loop over the shorter one outside; skip zero entries (exploding dice have many).
  const [outer, inner] = a.p.length <= b.p.length ? [a, b] : [b, a];
  budget.spend(outer.p.length * inner.p.length, what);
  const out = new Float64Array(length);
  const ip = withoutTiny(inner.p);
  const n = ip.length;
  for (let i = 0; i < outer.p.length; i++) {
    const w = outer.p[i] ?? 0;
    if (w < TINY) continue;
    for (let j = 0; j < n; j++) out[i + j] = (out[i + j] ?? 0) + w * (ip[j] ?? 0);
  }
  return { min: a.min + b.min, p: out };
}

function negateDense(a: Dense): Dense {
  return { min: -(a.min + a.p.length - 1), p: a.p.slice().reverse() };
}

function scaleDense(a: Dense, factor: number, budget: Budget, what: string): Dense {
  if (factor === 0) return point(0);
  const step = Math.abs(factor);
  const length = (a.p.length - 1) * step + 1;
  budget.span(length, what);
  budget.spend(length, what);
  const out = new Float64Array(length);
  for (let i = 0; i < a.p.length; i++) out[i * step] = a.p[i] ?? 0;
  const scaled = { min: a.min * step, p: out };
  return factor < 0 ? negateDense(scaled) : scaled;
}

/** a×b for independent a and b, by enumerating every pair of outcomes. */
function productDense(a: Dense, b: Dense, budget: Budget, what: string): Dense {
  const aMax = a.min + a.p.length - 1;
  const bMax = b.min + b.p.length - 1;
  const corners = [a.min * b.min, a.min * bMax, aMax * b.min, aMax * bMax];
  const min = Math.min(...corners);
  const length = Math.max(...corners) - min + 1;
  budget.span(length, what);
  budget.spend(a.p.length * b.p.length + length, what);
  const out = new Float64Array(length);
  const bp = withoutTiny(b.p);
  for (let i = 0; i < a.p.length; i++) {
    const w = a.p[i] ?? 0;
    if (w < TINY) continue;
    const x = a.min + i;
    for (let j = 0; j < bp.length; j++) {
      const at = x * (b.min + j) - min;
      out[at] = (out[at] ?? 0) + w * (bp[j] ?? 0);
    }
  }
  return { min, p: out };
}

/** ln(n!) for n = 0..size-1, for binomial probabilities that neither overflow nor underflow. */
function logFactorials(size: number): Float64Array {
  const table = new Float64Array(size + 1);
  let ln = 0;
  for (let n = 2; n <= size; n++) {
    ln += Math.log(n);
    table[n] = ln;
  }
  return table;
}

/**
 * The sum of the `keep` highest (or lowest) of `count` dice, each distributed as `die`.
 *
 * Walks the die's values from the highest down. Before value v, every die not yet placed is known to
 * be ≤ v; each is exactly v with chance r = P(v)/P(X ≤ v), so how many land on v is binomial. A state is
 * (dice placed so far j < keep, sum of those j); once `keep` dice are placed, the kept sum is known and
 * the remaining dice only need to be lower, which they are by construction: that mass is final.
 */
function keepDense(
  die: Dense,
  count: number,
  keep: number,
  highest: boolean,
  budget: Budget,
  what: string,
): Dense {
  if (!highest) return negateDense(keepDense(negateDense(die), count, keep, true, budget, what));
  // The die's values with a chance above zero: how many, and the lowest and highest (as indices).
  let positive = 0;
  let lo = -1;
  let hi = -1;
  for (let i = 0; i < die.p.length; i++) {
    if ((die.p[i] ?? 0) > 0) {
      positive++;
      if (lo < 0) lo = i;
      hi = i;
    }
  }
  if (lo < 0) throw new Error('Dice distribution: a die with no possible value; this is a bug.');
  const vMin = die.min + lo;
  const width = hi - lo; // kept sums of j dice lie in j·vMin .. j·vMin + j·width
  budget.span(keep * width + 1, what);
  let perValue = 0;
  for (let j = 0; j < keep; j++) perValue += (keep - j) * (j * width + 1);
  budget.spend(positive * perValue, what);

  // at[j][s]: probability that j dice are placed so far with kept sum j·vMin + s.
  const at: Float64Array[] = [Float64Array.of(1)];
  for (let j = 1; j < keep; j++) at.push(new Float64Array(j * width + 1));
  const out = new Float64Array(keep * width + 1);
  const lnFact = logFactorials(count);
  const pmf = new Float64Array(keep);

  // P(X ≤ value) for each value, summed from the bottom so small tails keep their precision.
  const atMost = new Float64Array(die.p.length);
  let cumulative = 0;
  for (let i = lo; i <= hi; i++) {
    cumulative += die.p[i] ?? 0;
    atMost[i] = cumulative;
  }

  for (let i = hi; i >= lo; i--) {
    const chance = die.p[i] ?? 0;
    if (!(chance > 0)) continue;
    const v = i - lo; // offset value: kept sums are stored relative to j·vMin
    const r = i === lo ? 1 : Math.min(1, chance / entry(atMost, i));
    const lnR = Math.log(r);
    const lnNotR = Math.log1p(-r);
    // From the most placed down, so mass moved up this round is not moved again.
    for (let j = keep - 1; j >= 0; j--) {
      const n = count - j;
      const need = keep - j;
      // pmf[c] = P(exactly c of the n dice land on this value), for c < need; the rest is the tail.
      let below = 0;
      const lnFactN = entry(lnFact, n);
      for (let c = 0; c < need; c++) {
        const lnP =
          lnFactN - entry(lnFact, c) - entry(lnFact, n - c) + (c === 0 ? 0 : c * lnR) + (n - c) * lnNotR;
        const chance = Math.exp(lnP);
        below += chance;
        pmf[c] = chance < TINY ? 0 : chance;
      }
      const tail = Math.max(0, 1 - below);
      const from = row(at, j);
      // c ≥ 2 more dice on this value: to the state with j + c placed. Each cell gets at most one
      // addition per j, so the passes' order does not matter.
      for (let c = 2; c < need; c++) {
        const to = row(at, j + c);
        const chance = pmf[c] ?? 0;
        const shift = c * v;
        for (let s = 0; s < from.length; s++) {
          const w = from[s] ?? 0;
          if (w >= TINY) to[s + shift] = (to[s + shift] ?? 0) + w * chance;
        }
      }
      // One more die (when that does not complete the keep), `need` or more (the kept sum is final),
      // or none (the state stays, with its chance scaled).
      const next = need > 1 ? row(at, j + 1) : undefined;
      const one = pmf[1] ?? 0;
      const stay = pmf[0] ?? 0;
      const done = need * v;
      for (let s = 0; s < from.length; s++) {
        const w = from[s] ?? 0;
        if (w < TINY) {
          from[s] = 0;
          continue;
        }
        if (next !== undefined) next[s + v] = (next[s + v] ?? 0) + w * one;
        if (tail >= TINY) out[s + done] = (out[s + done] ?? 0) + w * tail;
        from[s] = stay < TINY ? 0 : w * stay;
      }
    }
  }
  return { min: keep * vMin, p: out };
}

function codeDense(expr: DiceCode, removeHighest: boolean, budget: Budget): Dense {
  if (expr.count < 1) return point(0);
  const what = formatDice(expr);
  const others = sumOfDice(uniformDense(6), expr.count - 1, true, budget, what);
  const wild = explodingDense(6, expr.wildCap, budget, what);
  if (!removeHighest) return convolveDense(others, wild, budget, what);
  // Without a complication the Wild Die's first roll is 2..6: drop its 1 (a 1 can't come later).
  const noComplication = { min: wild.min, p: wild.p.slice() };
  noComplication.p[0] = 0;
  const kept = convolveDense(others, noComplication, budget, what);
  // With one (1/6): the Wild Die and the highest other die are gone; the rest is the lowest count−2.
  const rest =
    expr.count <= 2
      ? point(0)
      : keepDense(uniformDense(6), expr.count - 1, expr.count - 2, false, budget, what);
  return mixDense([kept, 1], [rest, 1 / 6]);
}

/** A copy with the probabilities below TINY set to 0. */
function withoutTiny(p: Float64Array): Float64Array {
  const out = p.slice();
  for (let i = 0; i < out.length; i++) if ((out[i] ?? 0) < TINY) out[i] = 0;
  return out;
}

/** Σ weight·distribution, over the union of their values. */
function mixDense(...parts: Array<[Dense, number]>): Dense {
  const min = Math.min(...parts.map(([d]) => d.min));
  const max = Math.max(...parts.map(([d]) => d.min + d.p.length - 1));
  const out = new Float64Array(max - min + 1);
  for (const [d, weight] of parts) {
    for (let i = 0; i < d.p.length; i++) {
      const at = d.min - min + i;
      out[at] = (out[at] ?? 0) + weight * (d.p[i] ?? 0);
    }
  }
  return { min, p: out };
}

/**
 * `a[i]` where the code has already bounded `i`: a miss is a bug in this file, not a zero. (Only for
 * Float64Array, and `row` for the rows: one array kind per helper keeps the hot loops fast.)
 */
function entry(a: Float64Array, i: number): number {
  const v = a[i];
  if (v === undefined) throw new Error(`Dice distribution: no entry ${i} in ${a.length}; this is a bug.`);
  return v;
}

function row(rows: Float64Array[], j: number): Float64Array {
  const r = rows[j];
  if (r === undefined) throw new Error(`Dice distribution: no row ${j} in ${rows.length}; this is a bug.`);
  return r;
}

function fromDense(d: Dense): Distribution {
  const outcomes: Array<[number, number]> = [];
  for (let i = 0; i < d.p.length; i++) {
    const p = d.p[i] ?? 0;
    // `+ 0` turns -0 (from negating 0) into 0.
    if (p > 0) outcomes.push([d.min + i + 0, p]);
  }
  return { outcomes };
}

function toDense(d: Distribution, what: string): Dense {
  if (d.outcomes.length === 0) throw new RangeError(`The distribution '${what}' has no outcomes.`);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const [v] of d.outcomes) {
    if (!Number.isSafeInteger(v)) {
      throw new RangeError(
        `The distribution '${what}' has the outcome ${v}; only whole numbers are supported.`,
      );
    }
    if (v < min) min = v;
    if (v > max) max = v;
  }
  new Budget(what).span(max - min + 1, 'its outcomes');
  const p = new Float64Array(max - min + 1);
  for (const [v, chance] of d.outcomes) p[v - min] = (p[v - min] ?? 0) + chance;
  return { min, p };
}

// ——— Working with distributions ———

/** The distribution that is always `value`. */
export function constantDistribution(value: number): Distribution {
  return { outcomes: [[value, 1]] };
}

/** The distribution of a + b, for independent a and b. */
export function convolve(a: Distribution, b: Distribution): Distribution {
  const budget = new Budget('a + b');
  return fromDense(convolveDense(toDense(a, 'a'), toDense(b, 'b'), budget, 'a + b'));
}

/** The distribution of a × b, for independent a and b. */
export function productDistribution(a: Distribution, b: Distribution): Distribution {
  const budget = new Budget('a * b');
  return fromDense(productDense(toDense(a, 'a'), toDense(b, 'b'), budget, 'a * b'));
}

/** The distribution of d + constant. */
export function shiftDistribution(d: Distribution, constant: number): Distribution {
  return { outcomes: d.outcomes.map(([v, p]) => [v + constant, p]) };
}

/** The distribution of d × constant. */
export function scaleDistribution(d: Distribution, factor: number): Distribution {
  if (factor === 0) return constantDistribution(0);
  const outcomes = d.outcomes.map(([v, p]): [number, number] => [v * factor, p]);
  return { outcomes: factor < 0 ? outcomes.reverse() : outcomes };
}

/** The distribution of −d. */
export function negateDistribution(d: Distribution): Distribution {
  return scaleDistribution(d, -1);
}

export function mean(d: Distribution): number {
  let sum = 0;
  for (const [v, p] of d.outcomes) sum += v * p;
  return sum;
}

export function variance(d: Distribution): number {
  const m = mean(d);
  let sum = 0;
  for (const [v, p] of d.outcomes) sum += (v - m) * (v - m) * p;
  return sum;
}

/** The standard deviation. */
export function stdev(d: Distribution): number {
  return Math.sqrt(variance(d));
}

/** P(total ≥ n): "what are the odds to hit difficulty n". Summed from the small side for precision. */
export function probAtLeast(d: Distribution, n: number): number {
  let sum = 0;
  for (let i = d.outcomes.length - 1; i >= 0; i--) {
    const outcome = d.outcomes[i];
    if (outcome === undefined || outcome[0] < n) break;
    sum += outcome[1];
  }
  return sum;
}

/** P(total ≤ n). */
export function probAtMost(d: Distribution, n: number): number {
  let sum = 0;
  for (const [v, p] of d.outcomes) {
    if (v > n) break;
    sum += p;
  }
  return sum;
}

/** P(total = n). */
export function probExactly(d: Distribution, n: number): number {
  for (const [v, p] of d.outcomes) if (v === n) return p;
  return 0;
}

/** For independent a and b (an attack roll against a defense roll): P(a > b), P(a = b), P(a < b). */
export function probCompare(
  a: Distribution,
  b: Distribution,
): { greater: number; equal: number; less: number } {
  // One pass over both sorted lists. What lies above each outcome of a is summed from b's top, not
  // taken as 1 − (below + at), so small probabilities keep their precision.
  const bs = b.outcomes;
  const above = new Float64Array(bs.length + 1);
  for (let i = bs.length - 1; i >= 0; i--) above[i] = (above[i + 1] ?? 0) + (bs[i]?.[1] ?? 0);
  let greater = 0;
  let equal = 0;
  let less = 0;
  // bs[j]: b's lowest outcome not below the current outcome of a, if any.
  let j = 0;
  let next = bs[0];
  let bBelow = 0;
  for (const [v, p] of a.outcomes) {
    while (next !== undefined && next[0] < v) {
      bBelow += next[1];
      next = bs[++j];
    }
    greater += p * bBelow;
    if (next !== undefined && next[0] === v) {
      equal += p * next[1];
      less += p * (above[j + 1] ?? 0);
    } else less += p * (above[j] ?? 0);
  }
  return { greater, equal, less };
}
