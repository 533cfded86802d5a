import type { Rng } from './dice/rng.js';
import type { Combatant, EncounterState, RulesetTypes } from './types.js';

/**
 * What a ruleset offers the CLI's `analyze` and `simulate`, beyond playing through the engine: its exact
 * initiative distribution, and a compiled Round for the fights where that is all that is random.
 */

/** A combatant's initiative as a dice expression over their sheet, and who wins a tied score. */
export interface InitiativeFormula {
  /** A dice expression; `@name` reads `refs`. */
  expression: string;
  refs: Record<string, number>;
  /** Tie-break priority: the higher wins a tie (the text's own tie-breaks, e.g. the modifier). */
  tie: number;
  /** The score is never below this (a tick timeline's first tick is at least 1). */
  atLeast?: number;
  /** The score is never above this (Tara-Corax: "The Maximum Initiative Score for any character is 30"). */
  atMost?: number;
}

/** The figures a compiled Round adds per combatant (roster order), in this order. */
export const KERNEL_METRICS = ['turns', 'actions', 'attacks', 'forfeits', 'first'] as const;

/** One rule of a simulation policy, as a kernel may read it. */
export interface KernelRule {
  action?: string;
  tag?: string;
  kind?: string;
  target?: string;
  /** How many times in one turn the rule may be used. */
  times: number;
  /** The rule has a condition, a choice of weapon or damage: only the engine plays it. */
  conditional: boolean;
}

export interface KernelRequest<T extends RulesetTypes = RulesetTypes> {
  /** A fresh encounter: set up, not started, every combatant in the fight, no custom actions. */
  state: EncounterState<T>;
  /** Each combatant's policy rules, by id. */
  rules: Record<string, KernelRule[]>;
  /** Whether the targets a rule names exist (the kernel has no one leave the fight). */
  canAct: Record<string, boolean>;
}

/**
 * A Round compiled for speed: the same dice as the engine, the same figures, faster. A round-based one
 * plays a Round at a time (`round`), each ended by the GM's `next`; one whose turns end by themselves and
 * whose "rounds" are stretches of a roundless clock (a tick timeline) plays a whole trial (`trial`).
 */
export type SimulationKernel = RoundKernel | TrialKernel;

export interface RoundKernel {
  /**
   * Plays one Round with the encounter's dice (`rng` advances exactly as the engine's would), adds each
   * combatant's `KERNEL_METRICS` to `out` (that many numbers per combatant), and returns the agenda
   * entries reached (each turn after the first ended by a `next`, and one more `next` ends the Round).
   */
  round(rng: Rng, out: Int32Array): number;
  trial?: undefined;
}

export interface TrialKernel {
  round?: undefined;
  /**
   * Plays one trial from the start of the fight with its dice, through at most `limit` rounds (periods
   * of a roundless clock): adds each combatant's `KERNEL_METRICS` for round r (from 1) at
   * `out[((r - 1) * combatants + i) * KERNEL_METRICS.length + k]`, and returns the rounds the engine's
   * trial counts (a round the clock jumps over after the last one it counts is not one) and the
   * commands it sends (the start, then each action; nobody sends `next`).
   */
  trial(rng: Rng, limit: number, out: Int32Array): { rounds: number; commands: number };
}

export interface Analysis<T extends RulesetTypes = RulesetTypes> {
  /** The lowest score acts first (a tick timeline's earliest tick); otherwise the highest. */
  lowestFirst?: boolean;
  /**
   * The combatant's initiative as the rules roll it; or, where no dice expression says it, the sentence
   * saying why (`analyze` shows it); null when the sheet does not say it.
   */
  initiative?(state: EncounterState<T>, combatant: Combatant<T>): InitiativeFormula | string | null;
  /** A compiled Round for this fight, or the sentence saying why it does not fit. */
  kernel?(request: KernelRequest<T>): SimulationKernel | string;
}
