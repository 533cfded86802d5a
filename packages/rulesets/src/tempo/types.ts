import type { Combatant, DecideContext, EncounterState, JsonObject } from '@roundkeeper/engine';
import type { TempoCommand } from './commands.js';
import type { PlanItem, PlanSlot, TempoEvent } from './events.js';
import type { TempoOptions, TempoStats } from './options.js';

export type { PlanItem, PlanSlot } from './events.js';

/** The turn in progress: the action taken and the Normal Move left. */
export type TurnState = {
  plan: string;
  action: string;
  slot: PlanSlot;
  /** The encounter-wide turn number (reactions are "1 Reaction per turn"). */
  number: number;
  moveLeft: number;
  acted: boolean;
  weapon?: string;
};

export type UsedReaction = {
  reaction: string;
  trigger: string;
  turn: number;
  /** The tempo of the turn it was used on. */
  tempo: number;
};

export type TempoCombatant = {
  exertion: number;
  /** "At the end of each Scene in which you Exerted yourself, take damage equal to your Exertion." */
  exertedThisScene: boolean;
  momentum: number;
  held: string[];
  plan: PlanItem[];
  /** Actions Exert granted this round ("Take another Action this round"), planned or not. */
  exertActions: number;
  turn: TurnState | null;
  reactions: UsedReaction[];
  /** Who this character Guarded this round (Guard grants Intercept "until the end of the round"). */
  guarding: string | null;
  /** Took Rest this round: a later Shift may Recover. */
  rested: boolean;
  dead: boolean;
};

export type Phase = 'setup' | 'planning' | 'tempo';

export type TempoRound = {
  phase: Phase;
  /** Turns started so far in the encounter; a reaction records the turn it was used on. */
  turnNumber: number;
  scene: number;
};

export interface TempoTypes {
  options: TempoOptions;
  stats: TempoStats & JsonObject;
  rs: TempoRound & JsonObject;
  cs: TempoCombatant & JsonObject;
  command: TempoCommand;
  event: TempoEvent;
}

export type State = EncounterState<TempoTypes>;
export type Ctx = DecideContext<TempoTypes>;
/** A combatant of a tempo encounter, sheet and state. */
export type C = Combatant<TempoTypes>;
