import type { DecideContext, EncounterState, JsonObject } from '@roundkeeper/engine';
import type { Opend6Command } from './commands.js';
import type { Opend6Event } from './events.js';
import type { Opend6Options, Opend6Stats } from './options.js';
import type { Happening, Slot, UnableCondition } from './shapes.js';

export type { InitiativeMethod, Opend6Options, Opend6Stats } from './options.js';
export type { Happening, Slot, UnableCondition } from './shapes.js';

export type Opend6Combatant = {
  /** The initiative total (a Perception roll, bonus and Character Point dice), or null when not rolled. */
  initiative: number | null;
  /** Where the character's turn sits in every round: the agenda's `at` tuple. */
  orderKey: number[] | null;
  /** Character Points left in the pool. */
  characterPoints: number;
  /** Actions the player declared this round (null until declared). */
  declared: number | null;
  /** Actions taken this round, waits and move-ups included. */
  used: number;
  /** Has waited and not yet spent the wait on an interrupt or a resumed turn. */
  waiting: boolean;
  /** Unconscious, immobile or otherwise unable to act. */
  unable: UnableCondition | null;
};

export type OpenRoll = {
  combatant: string;
  purpose: string;
};

export type Opend6Round = {
  /** Who acts in the current turn: one character, or every member of a group. */
  acting: string[];
  /** The current round's turns, in order (for the timeline). */
  slots: Slot[];
  /** What happened in this round and the one before (for the timeline). */
  happened: Happening[];
  /** A skill or attribute roll whose result the GM has not yet declared: the moment for an interrupt. */
  openRoll: OpenRoll | null;
};

export interface Opend6Types {
  options: Opend6Options;
  stats: Opend6Stats;
  rs: Opend6Round & JsonObject;
  cs: Opend6Combatant & JsonObject;
  command: Opend6Command;
  event: Opend6Event;
}

export type State = EncounterState<Opend6Types>;
export type Ctx = DecideContext<Opend6Types>;
