import type { Instant } from './clock.js';

export type { Instant };

import type { DiceState } from './dice/rng.js';
import type { HpDisplay, HpWord } from './hp-display.js';
import type { Json, JsonObject } from './json.js';
import type { Param, ParamSource } from './params.js';
import type { TimedEvent } from './timed.js';

/** The current version of the encounter state's shape. Persisted states and scenario files carry it. */
export const STATE_SCHEMA = 1;

/** What a ruleset stores, named so the engine can be generic over it. */
export interface RulesetTypes {
  /** Encounter options (validated by the ruleset's options schema). */
  options: JsonObject;
  /** A combatant's sheet values the GM enters (validated by the stats schema). */
  stats: JsonObject;
  /** The ruleset's own encounter-wide state (the round's plans, the current Mark…). */
  rs: Json;
  /** The ruleset's own per-combatant state (Marks left, stamina, Exertion…). */
  cs: Json;
  /**
   * The ruleset's own commands, as `decide` receives them: `CommandOf<typeof commands>`, a union
   * discriminated by `type`. Left out, `decide` takes any `Command`.
   */
  command?: Command;
  /** The ruleset's own events, as `evolve` receives them: `EventOf<typeof events>`. */
  event?: EngineEvent;
}

/** The commands a ruleset typed with `T` decides. */
export type RulesetCommand<T extends RulesetTypes> = T extends { command: infer C extends Command }
  ? C
  : Command;
/** The events a ruleset typed with `T` records and applies. */
export type RulesetEvent<T extends RulesetTypes> = T extends { event: infer E extends EngineEvent }
  ? E
  : EngineEvent;

export type Side = 'pc' | 'npc';

export type HitPoints = {
  current: number;
  max: number;
  temp: number;
};

export type Combatant<T extends RulesetTypes = RulesetTypes> = {
  id: string;
  name: string;
  side: Side;
  /** The player who controls this combatant (a name or id the server maps to a link). */
  player?: string;
  /** Hidden combatants never reach a non-GM viewer. */
  hidden: boolean;
  /** NPCs in one group act together where the ruleset supports it. */
  group?: string;
  hp?: HitPoints;
  /** In a view only: the descriptor shown in place of `hp` when the GM shows HP as descriptors. */
  hpWord?: HpWord;
  stats: T['stats'];
  cs: T['cs'];
  /** GM-only notes. */
  notes?: string;
  /** How many turns this combatant has started and ended; effect durations count these. */
  turnsStarted: number;
  turnsEnded: number;
  /** Whether the combatant is still in the fight (false after `defeated`). */
  active: boolean;
};

/** When an effect ends, anchored explicitly to whose turn or which moment. */
export type Duration =
  /** At the start of the named combatant's Nth next turn (default 1). */
  | { kind: 'until-turn-start'; combatant: string; turns?: number }
  /** At the end of the named combatant's Nth next turn (default 1); 0 = the turn in progress. */
  | { kind: 'until-turn-end'; combatant: string; turns?: number }
  /** At the end of a round (default: the current one). */
  | { kind: 'until-round-end'; round?: number }
  /** After N units of the ruleset's clock (Marks, seconds, tempo steps…). */
  | { kind: 'for'; amount: number }
  /** At a clock instant. */
  | { kind: 'until'; at: Instant }
  /** Until removed by hand. */
  | { kind: 'indefinite' };

export type Effect = {
  id: string;
  name: string;
  /** Who the effect is on. */
  target: string;
  /** Who caused it, if anyone. */
  source?: string;
  duration: Duration;
  /** Resolved at creation so expiry never depends on "whose turn is it now" guesses. */
  expires: EffectExpiry;
  note?: string;
  data?: JsonObject;
};

export type EffectExpiry =
  | { on: 'turn-start'; combatant: string; turnsStarted: number }
  | { on: 'turn-end'; combatant: string; turnsStarted: number }
  | { on: 'round-end'; round: number }
  | { on: 'instant'; at: Instant }
  | { on: 'never' };

/** Something scheduled on the clock: a turn, an action completing, a delayed effect, an expiry. */
export type AgendaEntry = {
  id: string;
  at: Instant;
  kind: string;
  combatant?: string;
  label: string;
  /** Hidden from non-GM viewers (a hidden combatant's turn, a secret plan). */
  secret?: boolean;
  data?: JsonObject;
};

/** An action as data: the catalog, and GM-defined custom actions. */
export type ActionDef = {
  id: string;
  name: string;
  /** The rules' category: 'move', 'attack', 'spell', 'reaction', 'free'… */
  kind: string;
  /** Costs in the ruleset's resources, e.g. { marks: 15 } or { stamina: 2, turnRequirement: 1 }. */
  cost: Record<string, number>;
  tags: string[];
  text: string;
  /** Ruleset-specific flags and numbers (free move units, attack count, casting time…). */
  data?: JsonObject;
  /** True for actions the GM defined in this encounter. */
  custom?: boolean;
  /**
   * What the action takes beyond its actor: fields of the ruleset's `act` command (their labels, bounds
   * and sources come from that schema), by name, or with what this action changes (required here, its
   * own label or default). `legalActions` turns them into form descriptions (`Param`).
   */
  params?: ActionParamRef[];
};

/** One field of the `act` command that an action takes (see `ActionDef.params`). */
export type ActionParamRef =
  | string
  | {
      name: string;
      required?: boolean;
      label?: string;
      default?: Json;
      min?: number;
      max?: number;
      /** Where this action's choices come from, when not the command's (an ally to help). */
      from?: ParamSource;
    };

export interface LegalAction {
  action: ActionDef;
  enabled: boolean;
  /** Why it is not legal now, and what would make it legal. */
  reason?: string;
  code?: string;
  /** The cost it would have now (after reductions). */
  cost: Record<string, number>;
  /** Where it would land on the clock, for previews. */
  preview?: { from: Instant; to: Instant; label: string };
  /** What the action takes beyond its actor, with its choices for this actor (see `ActionDef.params`). */
  params?: Param[];
}

export type History = {
  /** Command groups that can be undone, oldest first (at most UNDO_DEPTH). */
  undoable: number[];
  /** Undone groups that can be redone, most recently undone last. */
  redoable: number[];
  /** The highest group number seen. */
  lastGroup: number;
};

export type EncounterState<T extends RulesetTypes = RulesetTypes> = {
  schema: typeof STATE_SCHEMA;
  id: string;
  name: string;
  ruleset: string;
  rulesetVersion: number;
  options: T['options'];
  status: 'setup' | 'running' | 'ended';
  round: number;
  /** The clock's current position; null before the fight starts. */
  now: Instant | null;
  /** Whose turn it is, if anyone's. */
  current: string | null;
  combatants: Record<string, Combatant<T>>;
  /** Combatant ids in the order they were added. */
  roster: string[];
  /** Everything scheduled, in clock order. */
  agenda: AgendaEntry[];
  effects: Effect[];
  customActions: ActionDef[];
  dice: DiceState;
  gmNotes: string[];
  history: History;
  /** Number of log entries folded into this state: the state's version counter. */
  seq: number;
  rs: T['rs'];
  /** How the table and players see PC and NPC HP (`set-hp-display`); absent: numbers. */
  hpDisplay?: HpDisplay;
  /** Timed events on the clock (lair actions), fired once a round at their moment. */
  timed?: TimedEvent[];
};

export type Viewer = { role: 'gm' } | { role: 'table' } | { role: 'player'; combatants: string[] };

/** An intent. `type` names it; the rest is its payload, validated by the engine or the ruleset. */
export interface Command {
  type: string;
  actor?: string;
  [key: string]: unknown;
}

/** A fact. Events carry every die face rolled, so replaying the log never rolls again. */
export interface EngineEvent {
  type: string;
  [key: string]: Json | undefined;
}

export interface LogEntry {
  seq: number;
  /** The command this event belongs to: undo and redo work on whole groups. */
  group: number;
  /** Wall-clock time, injected by the adapter with the command (never read by the engine). */
  time?: string;
  event: EngineEvent;
}

/** A refusal, as data: a namespaced code, a sentence a GM understands, and details. */
export interface Rejection {
  code: string;
  message: string;
  details?: JsonObject;
}

export function isRejection(x: unknown): x is Rejection {
  // Arrays first: most answers checked are a decision's events (an array), and `in` on one is a miss.
  return typeof x === 'object' && x !== null && !Array.isArray(x) && 'code' in x && 'message' in x;
}

export function reject(code: string, message: string, details?: JsonObject): Rejection {
  return details ? { code, message, details } : { code, message };
}
