import {
  type Analysis,
  combatantOf,
  type DiceExpr,
  KERNEL_METRICS,
  type KernelRule,
  parseDice,
  rollTotal,
  type TrialKernel,
} from '@roundkeeper/engine';
import { TICKS_PER_PERIOD } from './timeline.js';
import type { TickTypes } from './types.js';

/**
 * A compiled tick timeline for `simulate`, for the fights where only the first ticks are random: every
 * combatant's policy is one rule taking the Attack (`{tag: attack}` or `{action: attack}`, any target and
 * times, nothing conditional), so each turn is one attack costing the weapon's speed, and nobody falls.
 * It rolls what `start` rolls, in its order, on the same generator (each combatant's first tick: the
 * initiative dice less the Initiative stat, at least 1), then moves the markers as `act` does: the
 * lowest (tick, then arrival or Initiative as the `ties` option says, then roster order) acts, and its
 * marker goes on by its weapon speed as the next arrival. There are no rounds: figures are kept per
 * stretch of 10 ticks, as the engine's trial keeps them (`clock.periods`), and a turn ends by itself, so
 * the kernel plays whole trials (`TrialKernel`). A property test (`packages/cli/src/simulate-kernel.test.ts`)
 * holds it to the engine's per-trial figures on the same dice.
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

const periodOf = (tick: number): number => Math.floor(Math.max(0, tick) / TICKS_PER_PERIOD) + 1;

export const tickKernel: NonNullable<Analysis<TickTypes>['kernel']> = ({ state, rules, canAct }) => {
  const ids = state.roster;
  if (ids.length < 2) return 'a fight of one';
  if (state.options.groupInitiative === 'group' && ids.some((id) => state.combatants[id]?.group))
    return 'groups roll their first tick together';
  const init: number[] = [];
  const speed: number[] = [];
  for (const id of ids) {
    const c = combatantOf(state, id);
    if (!c?.active) return `${id} is not in the fight`;
    if (c.cs.tick !== null || c.cs.waiting || c.cs.busy) return `${id} is already on the timeline`;
    const policy = rules[id] ?? [];
    const rule = policy[0];
    if (policy.length !== 1 || !rule) return `${id}'s policy is not a single attack rule`;
    if (!onlyAttacks(rule)) return `${id}'s policy does more than attack`;
    // Someone who cannot attack (no target) holds, which the compiled timeline does not play.
    if (canAct[id] === false) return `${id}'s rule has no one to target`;
    init.push(c.stats.initiative);
    speed.push(c.stats.weaponSpeed);
  }
  const n = ids.length;
  const dice: DiceExpr = parseDice(state.options.initiativeDice);
  const byArrival = state.options.ties === 'arrival';
  const tick = new Float64Array(n);
  const arrival = new Float64Array(n);

  /** Whether marker a comes before marker b: `markerAt`'s instant, compared. */
  const before = (a: number, b: number): boolean => {
    if (tick[a] !== tick[b]) return tick[a]! < tick[b]!;
    const first = byArrival ? arrival[a]! - arrival[b]! : init[b]! - init[a]!;
    if (first !== 0) return first < 0;
    const second = byArrival ? init[b]! - init[a]! : arrival[a]! - arrival[b]!;
    if (second !== 0) return second < 0;
    return a < b;
  };

  const kernel: TrialKernel = {
    trial(rng, limit, out) {
      let arrivals = state.rs.arrivals;
      for (let i = 0; i < n; i++) {
        tick[i] = Math.max(1, rollTotal(dice, rng) - init[i]!);
        arrival[i] = arrivals;
      }
      arrivals++;
      let rounds = 0;
      let commands = 1;
      let firstIn = 0;
      for (;;) {
        let next = 0;
        for (let i = 1; i < n; i++) if (before(i, next)) next = i;
        const period = periodOf(tick[next]!);
        // The engine's trial stops once its clock is past the last stretch counted; stretches nobody acted
        // in before a turn still count (empty), and the first turn of each is its first.
        if (period > limit) break;
        if (period > rounds) {
          rounds = period;
          firstIn = -1;
        }
        const o = ((period - 1) * n + next) * FIELDS;
        out[o + TURNS]! += 1;
        if (firstIn === -1) {
          firstIn = next;
          out[o + FIRST]! += 1;
        }
        out[o + ACTIONS]! += 1;
        out[o + ATTACKS]! += 1;
        commands++;
        tick[next] = tick[next]! + speed[next]!;
        arrival[next] = arrivals++;
      }
      return { rounds, commands };
    },
  };
  return kernel;
};
