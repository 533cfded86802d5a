import {
  type Analysis,
  combatantOf,
  type DiceExpr,
  KERNEL_METRICS,
  type KernelRule,
  parseDice,
  type Rng,
  rollTotal,
  type SimulationKernel,
} from '@roundkeeper/engine';
import type { ClassicTypes } from './types.js';

/**
 * A compiled classic round for `simulate`, for the fights where only initiative is random: every
 * combatant's policy is one rule taking the Attack action (`{tag: attack}` or `{action: attack}`, any
 * target and times, nothing conditional), so each turn is one attack (the action economy allows one;
 * the opportunity attack is a reaction) and nobody falls. It rolls what `initiative.ts` rolls, in its
 * order, on the same generator: each active combatant's `initiativeDice + modifier` in roster order, then
 * the roll-offs of those tied on total and modifier (a d20 each, again among those still tied, group by
 * group as the ties first appear) — at the start and, with `rerollEachRound`, for every round after.
 * The lowest key acts first. A property test (`packages/cli/src/simulate-kernel.test.ts`) holds it to the
 * engine's per-trial figures on the same dice.
 */

const FIELDS = KERNEL_METRICS.length;
const TURNS = KERNEL_METRICS.indexOf('turns');
const ACTIONS = KERNEL_METRICS.indexOf('actions');
const ATTACKS = KERNEL_METRICS.indexOf('attacks');
const FIRST = KERNEL_METRICS.indexOf('first');

function onlyAttacks(rule: KernelRule): boolean {
  const picks = rule.tag === 'attack' || rule.action === 'attack';
  const named =
    (rule.tag === undefined || rule.tag === 'attack') &&
    (rule.action === undefined || rule.action === 'attack');
  return picks && named && rule.kind === undefined && !rule.conditional;
}

/** Lexicographic order of two keys (shorter first when one begins the other). */
function compareKeys(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The roll-offs of `initiative.ts`: each tied place rolls a d20, and those still tied roll again. */
function rollOff(rng: Rng, tied: number[], keys: number[][]): void {
  if (tied.length < 2) return;
  const byValue = new Map<number, number[]>();
  for (const i of tied) {
    const roll = rng.int(1, 20);
    keys[i]!.push(-roll);
    const group = byValue.get(roll);
    if (group) group.push(i);
    else byValue.set(roll, [i]);
  }
  for (const again of byValue.values()) rollOff(rng, again, keys);
}

export const classicKernel: NonNullable<Analysis<ClassicTypes>['kernel']> = ({ state, rules, canAct }) => {
  const ids = state.roster;
  if (ids.length < 2) return 'a fight of one';
  const modifiers: number[] = [];
  const attacks: number[] = [];
  for (const id of ids) {
    const c = combatantOf(state, id);
    if (!c?.active) return `${id} is not in the fight`;
    if (c.cs.delaying || c.cs.key) return `${id} already has a place in the order`;
    const policy = rules[id] ?? [];
    const rule = policy[0];
    if (policy.length !== 1 || !rule) return `${id}'s policy is not a single attack rule`;
    if (!onlyAttacks(rule)) return `${id}'s policy does more than attack`;
    modifiers.push(c.stats.initiative);
    attacks.push(canAct[id] === false ? 0 : 1);
  }
  const n = ids.length;
  const dice: DiceExpr = parseDice(`${state.options.initiativeDice}+@init`);
  const reroll = state.options.rerollEachRound;
  let trialRng: Rng | undefined;
  let first = 0;

  /** Rolls everyone's initiative as `rollInitiative` does; returns who acts first. */
  const roll = (rng: Rng): number => {
    const keys: number[][] = [];
    const groups = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const total = rollTotal(dice, rng, { init: modifiers[i]! });
      keys.push([-total, -modifiers[i]!]);
      const k = `${total}:${modifiers[i]}`;
      const group = groups.get(k);
      if (group) group.push(i);
      else groups.set(k, [i]);
    }
    for (const tied of groups.values()) rollOff(rng, tied, keys);
    let best = 0;
    for (let i = 1; i < n; i++) if (compareKeys(keys[i]!, keys[best]!) < 0) best = i;
    return best;
  };

  const kernel: SimulationKernel = {
    round(rng, out) {
      // A new trial comes with a new generator: the fight starts, and everyone rolls.
      if (rng !== trialRng || reroll) {
        trialRng = rng;
        first = roll(rng);
      }
      for (let i = 0; i < n; i++) {
        const o = i * FIELDS;
        out[o + TURNS]! += 1;
        out[o + ACTIONS]! += attacks[i]!;
        out[o + ATTACKS]! += attacks[i]!;
      }
      out[first * FIELDS + FIRST]! += 1;
      // Turns reached after the first, each ended by a `next`.
      return n - 1;
    },
  };
  return kernel;
};
