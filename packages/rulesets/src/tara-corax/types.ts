import type { EncounterState, instantSchema } from '@roundkeeper/engine';
import type { z } from 'zod';
import type { TaraCommand } from './commands.js';
import type {
  carriedSchema,
  castingSchema,
  historySpanSchema,
  TaraEvent,
  taraCombatantSchema,
} from './events.js';
import type { RoundMode, TaraOptions, TaraStats } from './options.js';

export type { RoundMode, TaraOptions, TaraStats } from './options.js';

/** An instant as the state stores it (the engine's `Instant`, as plain JSON). */
export type StoredInstant = z.output<typeof instantSchema>;

/** A spell being cast: started at a Mark, resolving Casting Time Marks later (maybe next round). */
export type Casting = z.output<ReturnType<typeof castingSchema>>;

/** An action other than a spell carried over into the next Round (see `carriedSchema`). */
export type Carried = z.output<ReturnType<typeof carriedSchema>>;

/** Per-combatant runtime state (each field is described on `taraCombatantSchema` in events.ts). */
export type TaraCombatant = z.output<ReturnType<typeof taraCombatantSchema>>;

export type HistorySpan = z.output<ReturnType<typeof historySpanSchema>>;

export type HistoryMarker = {
  round: number;
  combatant: string;
  at: number;
  kind: string;
  label: string;
};

/** Encounter-wide runtime state. */
export type TaraRound = {
  /** 'between' after a round ended and before the next is rolled (options and delays go here). */
  phase: 'setup' | 'round' | 'between';
  /** The round mode in effect this round (options.roundMode applies from the next roll). */
  roundMode: RoundMode;
  /** This round's order: groups of combatants that act at the same Mark simultaneously (ties unbroken). */
  order: string[][];
  /**
   * 000 Ties: "If they are all the same, then simultaneous actions". The combatants whose turns fall at
   * one instant with the same tie-break key: while the clock stands there, each of them may act
   * (absent in older states).
   */
  together?: { at: StoredInstant; ids: string[] } | null;
  history: { spans: HistorySpan[]; markers: HistoryMarker[] };
};

export interface TaraTypes {
  options: TaraOptions;
  stats: TaraStats;
  rs: TaraRound;
  cs: TaraCombatant;
  command: TaraCommand;
  event: TaraEvent;
}

export type TaraState = EncounterState<TaraTypes>;
