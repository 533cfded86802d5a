import type { DecideContext, EncounterState, JsonObject } from '@roundkeeper/engine';
import { z } from 'zod';

export const staminaOptions = z.object({
  initiativeDice: z
    .string()
    .min(1)
    .max(200)
    .default('1d10+@initiative')
    .describe('Dice for an initiative check (refs: any stat or rank, e.g. @initiative, @reflexes).'),
  recheckInitiative: z
    .boolean()
    .default(true)
    .describe('Recheck everyone\'s initiative before each new round ("recheck everyones initiative").'),
  allowNegative: z
    .boolean()
    .default(false)
    .describe('Let an action be taken without the stamina or defense to pay for it (resources go negative).'),
  successDice: z
    .string()
    .min(1)
    .max(200)
    .default('1d4-1')
    .describe('Dice for the successes of a skill check when the GM does not enter them.'),
  wind: z
    .number()
    .int()
    .min(0)
    .max(5)
    .default(0)
    .describe('Penalty dice wind adds to ranged attack checks (0–5).'),
});

/** One weapon on the sheet, by name ("Bow", "Dagger"): what the text's actions need to know of it. */
export const weaponSchema = z.object({
  kind: z
    .enum(['melee', 'ranged', 'throwing'])
    .default('melee')
    .describe('melee, ranged (loosed, needs loading) or throwing (thrown by Throw Weapon).'),
  offHand: z.boolean().default(false).describe('Wielded in the off hand (Off-hand attack).'),
  readied: z.boolean().default(false).describe('Readied when combat starts.'),
  loaded: z.boolean().default(false).describe('Loaded when combat starts (ranged weapons).'),
  loadStamina: z
    .number()
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe("Stamina to load it (the weapon's description); the sheet's loadStamina if left out."),
  loadTurnRequirement: z
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe("Turn requirement to load it; the sheet's loadTurnRequirement if left out."),
  parry: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(0)
    .describe('Parry bonus to melee defense while it is readied.'),
  block: z
    .number()
    .int()
    .min(0)
    .max(9)
    .default(0)
    .describe("A shield's block bonus while it is readied: it counts as a piece of cover."),
});
export type Weapon = z.output<typeof weaponSchema>;

const rankName = z.string().regex(/^[a-z][A-Za-z]*$/, 'use camelCase letters, e.g. regainComposure');

export const staminaStats = z.object({
  stamina: z.number().int().min(0).max(1000).default(10).describe('Stamina when rested (the maximum).'),
  defense: z.number().int().min(0).max(1000).default(10).describe('Defense when composed (the maximum).'),
  initiative: z.number().int().min(-50).max(100).default(0).describe('Added to the initiative check.'),
  reflexes: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .describe('Reflexes stat (a flat footed character loses this much defense).'),
  baseMovement: z.number().int().min(0).max(100).default(6).describe('Base movement in meters.'),
  reach: z.number().int().min(0).max(100).default(0).describe("Reach of the character's melee attack."),
  meleeDefenseBonus: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .describe('Melee defense bonus (doubled by Defensive Stance), over defense against melee attacks.'),
  rangedDefenseBonus: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .describe('Ranged defense bonus (doubled by Dodge), over defense against ranged attacks.'),
  arcane: z.boolean().default(false).describe('Has an arcane trait (needed for magic actions).'),
  loadStamina: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .describe("Stamina to load the readied weapon (the weapon's description)."),
  loadTurnRequirement: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(1)
    .describe("Turn requirement to load the readied weapon (the weapon's description)."),
  weapons: z
    .record(z.string().min(1).max(64), weaponSchema)
    .default({})
    .describe('Weapons by name, e.g. {"Bow": {"kind": "ranged", "readied": true, "loaded": true}}.'),
  ranks: z
    .record(rankName.meta({ label: 'Skill' }), z.number().int().min(0).max(20).meta({ label: 'Rank' }))
    .default({})
    .describe(
      'Skill ranks by camelCase name: arcaneAptitude, aim, recklessAttack, personalDefense, regainComposure…',
    ),
});

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
};

export interface StaminaTypes {
  options: z.output<typeof staminaOptions>;
  stats: z.output<typeof staminaStats>;
  rs: StaminaRound & JsonObject;
  cs: StaminaCombatant & JsonObject;
}

export type State = EncounterState<StaminaTypes>;
export type Ctx = DecideContext<StaminaTypes>;

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

/** The numbers dice expressions may refer to: stats and ranks. */
export function refsOf(stats: z.output<typeof staminaStats>): Record<string, number> {
  return {
    ...stats.ranks,
    stamina: stats.stamina,
    defense: stats.defense,
    initiative: stats.initiative,
    reflexes: stats.reflexes,
    baseMovement: stats.baseMovement,
    reach: stats.reach,
  };
}

export function rank(stats: z.output<typeof staminaStats>, name: string): number {
  return Object.hasOwn(stats.ranks, name) ? (stats.ranks[name] ?? 0) : 0;
}
