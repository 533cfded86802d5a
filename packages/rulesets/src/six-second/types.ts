import type { DecideContext, EncounterState } from '@roundkeeper/engine';
import type { z } from 'zod';
import type { SixSecondCommand } from './commands.js';
import type { pendingEffectSchema, SixSecondEvent } from './events.js';
import type { SixSecondOptions, SixSecondStats } from './options.js';

export type { SixSecondOptions, SixSecondStats } from './options.js';

/** A delayed effect waiting for its second: counted in the acting character's own turn seconds. */
export type PendingEffect = z.output<ReturnType<typeof pendingEffectSchema>>;

/** An action that did not fit in the turn and continues at the start of the character's next turn. */
export type CarriedAction = {
  action: string;
  name: string;
  kind: string;
  total: number;
  secondsLeft: number;
  delay: number | null;
  effect: string | null;
};

/** One record of how a character spent seconds of one of their turns, for the timeline. */
export type SpentSeconds = {
  round: number;
  turn: number;
  from: number;
  to: number;
  kind: string;
  label: string;
};

export type SixSecondCombatant = {
  /** Initiative = Reflex check + Dexterity; null until rolled. */
  initiative: number | null;
  /** Initiative checks rolled again to break ties, in order. */
  rollOffs: number[];
  /** How many of this character's turns have begun: the clock their delayed effects count in. */
  turnNo: number;
  /** The instant prefix of the turn in progress (or paused by an interruption); second s is [...base, s]. */
  base: number[] | null;
  /** Seconds spent in the current turn: the d6 countdown shows turnSeconds − secondsUsed. */
  secondsUsed: number;
  /** Zero-second actions taken this turn. */
  zeroUsed: number;
  /** Skipped this turn to take it later ("Delay Initiative"). */
  delaying: boolean;
  /** The turn (by `turnNo`) whose delayed turn lapsed, never taken, when the next one came. */
  lapsed?: number;
  carry: CarriedAction | null;
  pending: PendingEffect[];
  history: SpentSeconds[];
};

export type SixSecondRound = {
  /** Initiative order, highest first: a character's turn slot is its index + 1. */
  order: string[];
  /** Turns paused by a delayed turn, innermost last; each resumes when the turn that interrupted it ends. */
  interrupted: string[];
};

export interface SixSecondTypes {
  options: SixSecondOptions;
  stats: SixSecondStats;
  rs: SixSecondRound;
  cs: SixSecondCombatant;
  command: SixSecondCommand;
  event: SixSecondEvent;
}

export type State = EncounterState<SixSecondTypes>;
export type Ctx = DecideContext<SixSecondTypes>;
