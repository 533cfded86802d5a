import type { DecideContext, EncounterState, JsonObject } from '@roundkeeper/engine';
import type { TickCommand } from './commands.js';
import type { TickEvent } from './events.js';
import type { TickOptions, TickStats } from './options.js';

export type { TickOptions, TickStats } from './options.js';

/** Ticks spent on one action: from the tick it was taken to the tick the marker moved to. */
export type SpentTicks = { action: string; name: string; kind: string; from: number; to: number };

export type TickCombatant = {
  /** The first roll (dice − Initiative, at least 1), or the GM's value; null until the fight starts. */
  initiative: number | null;
  /** The tick the marker is on: when this combatant acts next. Null while off the timeline. */
  tick: number | null;
  /** When the marker got to its tick (a counter shared by everyone): earlier arrivals act first. */
  arrival: number | null;
  /** Holding (rule 5): off the timeline until they step in at the current tick. */
  waiting: boolean;
  /** A continuous action in progress: it completes when the counter reaches `to`. */
  busy: SpentTicks | null;
  /** The last action taken, for the timeline. */
  last: SpentTicks | null;
};

/** What the whole fight keeps: the arrival counter (the tick counter is the clock, `state.now`). */
export type TickFight = { arrivals: number };

export interface TickTypes {
  options: TickOptions;
  stats: TickStats;
  rs: TickFight & JsonObject;
  cs: TickCombatant & JsonObject;
  command: TickCommand;
  event: TickEvent;
}

export type State = EncounterState<TickTypes>;
export type Ctx = DecideContext<TickTypes>;
