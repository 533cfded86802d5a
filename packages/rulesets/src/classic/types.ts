import type { DecideContext, EncounterState, JsonObject } from '@roundkeeper/engine';
import type { ClassicCommand } from './commands.js';
import type { ClassicEvent } from './events.js';
import type { ClassicOptions, ClassicStats } from './options.js';

export type { ClassicOptions, ClassicStats } from './options.js';

export interface ClassicCombatant {
  initiative: number | null;
  /** The order key: [−total, −modifier, −roll-off…]; a delayed turn appends to it. */
  key: number[] | null;
  delaying: boolean;
  readied: { action: string; trigger: string } | null;
  used: { action: boolean; bonus: boolean; reaction: boolean };
  /**
   * A PC at 0 HP: unconscious, making death saves on their turns (left out or null while conscious).
   * Three successes make them stable (still unconscious, no more saves); three failures, dead.
   */
  dying?: Dying | null;
}

/** A downed PC's death saves so far. */
export type Dying = {
  successes: number;
  failures: number;
  stable: boolean;
};

/** Classic keeps everything it needs on the combatants and the agenda. */
export type ClassicRound = Record<string, never>;

export interface ClassicTypes {
  options: ClassicOptions;
  stats: ClassicStats;
  rs: ClassicRound & JsonObject;
  cs: ClassicCombatant & JsonObject;
  command: ClassicCommand;
  event: ClassicEvent;
}

export type State = EncounterState<ClassicTypes>;
export type Ctx = DecideContext<ClassicTypes>;
