import { DICE_LIMITS, KERNEL_METRICS, type Rng } from '@roundkeeper/engine';
import {
  armorModifier,
  attackOffsets,
  characteristic,
  FULL_ACTION,
  MARKS_PER_ROUND,
  tieKey,
  verySimplyCharacteristic,
} from './marks.js';
import type { TaraOptions, TaraStats } from './options.js';

/**
 * A compiled Tara-Corax Round for simulations: what the engine does with a fight in which every
 * combatant, on each of its turns, takes melee attacks (the first enabled `attack`-tagged action is
 * always `melee-attack`: ranged attacks and the Desperate Shot cost the same 15 Marks) as often as the
 * rules let it, and nobody moves, casts, delays or is defeated. Under those conditions everything a
 * combatant does in a Round follows from its Initiative Score alone, so the Round is a table lookup per
 * combatant after the Initiative Roll; the roll itself draws the same dice, in the same order, from the
 * same seeded generator as the engine (roster order, 1d10 exploding once or while 10s come up).
 *
 * Per Score (0–30) the table holds what the engine's log would show for that combatant in that Round:
 * - turns: its turn entries reach (the first at its Score; in a Full Round another one 15 Marks
 *   later while Marks are left and the Mark is 1 or more);
 * - actions: melee attacks taken (the Full Action exception for a Score below 15; a second attack
 *   only with 15 Marks left, i.e. Score 30; in a Simple Round, up to `actionsPerTurn` at the Mark);
 * - attacks: attacks that land (Full Round spacing 0 / 7 / 5,10 / 4,8,12 / 3,6,9,12 Marks);
 * - forfeits: attacks that would fall below Mark 1 (the engine's `tara/attack-forfeited`; Marks left
 *   unspent at the end of the Round are not attacks and do not count);
 * - entries: agenda entries reach (turns and attacks schedule after the first), which the caller
 *   needs to count the `next` commands the engine loop would send.
 * The equivalence with the engine is a property test in the CLI (`simulate-kernel.test.ts`).
 */
export interface TaraKernelCombatant {
  stats: TaraStats;
  /** Whether the combatant's policy has someone to attack (no target: it only passes its turns). */
  canAct: boolean;
  /** How many attack actions the policy allows in one turn (`times`); matters in a Simple Round only. */
  actionsPerTurn: number;
}

/** Per-Round figures of one combatant, in `out` at `index * KERNEL_FIELDS`. */
export const KERNEL_FIELDS = KERNEL_METRICS.length;
export const KERNEL_TURNS = KERNEL_METRICS.indexOf('turns');
export const KERNEL_ACTIONS = KERNEL_METRICS.indexOf('actions');
export const KERNEL_ATTACKS = KERNEL_METRICS.indexOf('attacks');
export const KERNEL_FORFEITS = KERNEL_METRICS.indexOf('forfeits');
export const KERNEL_FIRST = KERNEL_METRICS.indexOf('first');

export interface TaraKernel {
  readonly size: number;
  /** Whether the Initiative d10 is rolled (not in Very Simply). */
  readonly rolls: boolean;
  /** Extra d10s a natural 10 may add. */
  readonly explodeCap: number;
  /** Characteristic + modifiers, per combatant. */
  readonly base: Int32Array;
  /** The tie-break keys (lower first), per combatant, 3 numbers each. */
  readonly keys: Int32Array;
  /** Per combatant, per Score 0–30: turns, actions, attacks, forfeits, entries. */
  readonly table: Int32Array;
}

const SCORES = MARKS_PER_ROUND + 1;
const ROW = 5;

/** What one combatant does in a Round with this Score (see TaraKernel). */
function outcome(
  score: number,
  full: boolean,
  c: TaraKernelCombatant,
): [turns: number, actions: number, attacks: number, forfeits: number, entries: number] {
  if (score < 1) return [0, 0, 0, 0, 0];
  const perAction = c.stats.meleeAttacks;
  if (!c.canAct) return [1, 0, 0, 0, 1];
  if (!full) {
    // Simple Round: everything at the Mark (no attack can fall below Mark 1); the exception once when
    // the Score is below 15.
    const actions = score < FULL_ACTION ? 1 : Math.min(c.actionsPerTurn, Math.floor(score / FULL_ACTION));
    return [1, actions, actions * perAction, 0, 1];
  }
  let turns = 0;
  let actions = 0;
  let attacks = 0;
  let forfeits = 0;
  let entries = 0;
  let mark = score;
  let left = score;
  let acted = false;
  for (;;) {
    turns++;
    entries++;
    if (!(left >= FULL_ACTION || !acted)) break;
    actions++;
    left -= Math.min(left, FULL_ACTION);
    acted = true;
    for (const offset of attackOffsets(perAction)) {
      if (mark - offset >= 1) {
        attacks++;
        if (offset > 0) entries++;
      } else forfeits++;
    }
    const again = mark - FULL_ACTION;
    if (left > 0 && again >= 1) mark = again;
    else break;
  }
  return [turns, actions, attacks, forfeits, entries];
}

export function compileTaraKernel(
  options: Pick<TaraOptions, 'roundMode' | 'explodingInitiative'>,
  combatants: readonly TaraKernelCombatant[],
): TaraKernel {
  const n = combatants.length;
  const full = options.roundMode === 'full';
  const verySimply = options.roundMode === 'very-simply';
  const base = new Int32Array(n);
  const keys = new Int32Array(n * 3);
  const table = new Int32Array(n * SCORES * ROW);
  combatants.forEach((c, i) => {
    const raw = verySimply ? verySimplyCharacteristic(c.stats) : characteristic(c.stats);
    base[i] = raw + armorModifier(c.stats) + c.stats.initiativeModifier;
    const key = tieKey(c.stats);
    for (let k = 0; k < 3; k++) keys[i * 3 + k] = key[k] ?? 0;
    for (let s = 0; s < SCORES; s++) table.set(outcome(s, full, c), (i * SCORES + s) * ROW);
  });
  return {
    size: n,
    rolls: !verySimply,
    explodeCap: options.explodingInitiative === 'keep' ? DICE_LIMITS.maxExplode : 1,
    base,
    keys,
    table,
  };
}

/**
 * Rolls one Round: adds each combatant's figures to `out` (KERNEL_FIELDS per combatant) and returns
 * the agenda entries reach. `rng` is the encounter's dice; it advances exactly as the engine's would.
 */
export function kernelRound(k: TaraKernel, rng: Rng, out: Int32Array): number {
  const { size, base, keys, table, rolls, explodeCap } = k;
  let entries = 0;
  let first = -1;
  let firstScore = 0;
  for (let i = 0; i < size; i++) {
    let dice = 0;
    if (rolls) {
      let face = rng.int(1, 10);
      dice = face;
      for (let extra = 0; face === 10 && extra < explodeCap; extra++) {
        face = rng.int(1, 10);
        dice += face;
      }
    }
    let score = dice + (base[i] ?? 0);
    if (score < 0) score = 0;
    else if (score > MARKS_PER_ROUND) score = MARKS_PER_ROUND;
    const row = (i * SCORES + score) * ROW;
    const o = i * KERNEL_FIELDS;
    add(out, o + KERNEL_TURNS, table[row]);
    add(out, o + KERNEL_ACTIONS, table[row + 1]);
    add(out, o + KERNEL_ATTACKS, table[row + 2]);
    add(out, o + KERNEL_FORFEITS, table[row + 3]);
    entries += table[row + 4] ?? 0;
    // 000 Ties: the higher Score first, then raw Initiative, Agility, Intellect; then roster order.
    if (score >= 1 && (first < 0 || score > firstScore || (score === firstScore && before(keys, i, first)))) {
      first = i;
      firstScore = score;
    }
  }
  if (first >= 0) add(out, first * KERNEL_FIELDS + KERNEL_FIRST, 1);
  return entries;
}

/** Adds to one figure of `out` (indices within it by construction). */
function add(out: Int32Array, index: number, amount: number | undefined): void {
  out[index] = (out[index] ?? 0) + (amount ?? 0);
}

function before(keys: Int32Array, a: number, b: number): boolean {
  for (let k = 0; k < 3; k++) {
    const x = keys[a * 3 + k] ?? 0;
    const y = keys[b * 3 + k] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}
