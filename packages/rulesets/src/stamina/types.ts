import type { Combatant, DecideContext, EncounterState, JsonObject } from '@roundkeeper/engine';
import type { StaminaCommand } from './commands.js';
import type { StaminaEvent } from './events.js';
import type { StaminaOptions, StaminaStats } from './options.js';

/** What the character has done this turn. */
export type TurnUse = {
  /** The action with a turn requirement of one or more taken this turn, if any. */
  requirementTaken: string | null;
  /** Actions taken at turn requirement zero this turn (each at most once). */
  zeroTaken: string[];
  /** A move action was taken this turn (later moves keep their requirement). */
  moved: boolean;
  /** This turn's actions in the order taken (Jump after a Dash or Sprint, Power attack first after a Dash). */
  actions: string[];
  /** Meters moved this turn by Walk and Dash (Dodge's situational bonus). */
  meters: number;
};

export type ArcaneStore = {
  /** Successes stored by Gather arcane energy. */
  stored: number;
  /** Stored successes shaped into the crafted effect. */
  shaped: number;
  /** Gather and shape actions taken for the crafted effect (each adds one to the dues). */
  actions: number;
  /** Turns in a row with a gather; with `lastGatherTurn` (the turn number) it limits gathering. */
  gatherStreak: number;
  lastGatherTurn: number;
  /** Arcane dues suffered in this encounter. */
  dues: number;
};

/**
 * An action with a turn requirement of two or more, under way: "how many turns a character must take in order to
 * perform that action". It takes the turn it was declared in and the character's next turns until `taken`
 * reaches `turns`, and completes as the last of them ends.
 */
export type Performing = {
  action: string;
  name: string;
  /** The action's turn requirement: the turns it takes. */
  turns: number;
  /** The character's turns it has taken so far, the current one included. */
  taken: number;
  /** The character's turn count (turnsStarted) when it was declared. */
  declaredTurn: number;
  /** The weapon it is done with (Load weapon: the weapon loaded when it completes). */
  weapon?: string;
};

export type StaminaCombatant = {
  stamina: number;
  defense: number;
  initiative: number | null;
  /** The order key: [−initiative, −modifier, roster position]. */
  key: number[] | null;
  turn: TurnUse;
  /** Once-per-round actions taken this round. */
  roundTaken: string[];
  /** The reaction taken since this character's last turn began. */
  reactionTaken: string | null;
  arcane: ArcaneStore;
  /** Opponents with greater reach this character has already paid the reach penalty against. */
  reachPaid: string[];
  /** The action with a turn requirement of two or more the character is in the middle of. */
  performing: Performing | null;
  /** The sheet's weapons now readied, and the ranged ones now loaded. */
  readied: string[];
  loaded: string[];
};

/** One action as the timeline shows it: who, what, what it cost, on whose turn. */
export type SpentEntry = {
  round: number;
  combatant: string;
  action: string;
  name: string;
  stamina: number;
  defense: number;
  turnRequirement: number;
  reaction: boolean;
  /** Whose turn it was. */
  during: string | null;
};

export type StaminaRound = {
  /** This round's actions, in order. */
  spent: SpentEntry[];
  /**
   * Only in a view for the table or a player: the NPCs whose Stamina and Defense are the GM's (their numbers
   * there are blanked to 0 and are not to be shown). Never in the encounter's own state.
   */
  unseenNumbers?: string[];
};

export interface StaminaTypes {
  options: StaminaOptions;
  stats: StaminaStats;
  rs: StaminaRound & JsonObject;
  cs: StaminaCombatant & JsonObject;
  command: StaminaCommand;
  event: StaminaEvent;
}

export type State = EncounterState<StaminaTypes>;
export type Ctx = DecideContext<StaminaTypes>;
/** A combatant of a stamina encounter, sheet and state. */
export type Member = Combatant<StaminaTypes>;

export const freshTurn = (): TurnUse => ({
  requirementTaken: null,
  zeroTaken: [],
  moved: false,
  actions: [],
  meters: 0,
});
export const freshArcane = (dues = 0): ArcaneStore => ({
  stored: 0,
  shaped: 0,
  actions: 0,
  gatherStreak: 0,
  lastGatherTurn: -1,
  dues,
});
