import type { EncounterState, Instant, JsonObject } from '@roundkeeper/engine';
import { z } from 'zod';

/** Encounter options. `parse({})` gives the defaults. */
export const taraOptions = z.object({
  roundMode: z
    .enum(['full', 'simple', 'very-simply'])
    .default('full')
    .describe(
      'Full Round (each action starts when the last one’s Marks have elapsed), Simple Round (all of a turn at the Initiative Mark) or Very Simply (Simple Round, no roll). Changes between rounds.',
    ),
  explodingInitiative: z
    .enum(['once', 'keep'])
    .default('once')
    .describe(
      'A natural 10 on the Initiative d10 rolls one more d10 (once), or keeps rolling while 10s come up.',
    ),
  attackDice: z
    .string()
    .min(1)
    .max(40)
    .default('2d10')
    .describe('The attack roll’s dice; a Desperate Shot misses when any of them shows a natural 5 or less.'),
});

/** A combatant's sheet values. */
export const taraStats = z.object({
  agility: z
    .number()
    .int()
    .min(0)
    .max(40)
    .default(0)
    .describe('Agility (Initiative characteristic and first tie-break).'),
  intellect: z
    .number()
    .int()
    .min(0)
    .max(40)
    .default(0)
    .describe('Intellect (Initiative characteristic and second tie-break).'),
  initiative: z
    .number()
    .int()
    .min(0)
    .max(30)
    .optional()
    .describe(
      'The Initiative characteristic as written on the sheet; when absent, the average of Agility and Intellect.',
    ),
  armorEvadeModifier: z
    .number()
    .int()
    .min(-30)
    .max(30)
    .default(0)
    .describe('The worn armor’s Evade Modifier; Initiative changes by half of it, rounded down.'),
  initiativeModifier: z
    .number()
    .int()
    .min(-30)
    .max(30)
    .default(0)
    .describe('Other Initiative modifiers (abilities, effects).'),
  landSpeed: z.number().int().min(0).max(100).default(10).describe('Units the character may move per Round.'),
  meleeAttacks: z.number().int().min(1).max(5).default(1).describe('Melee attacks per Round (1–5).'),
  rangedAttacks: z
    .number()
    .int()
    .min(1)
    .max(5)
    .default(1)
    .describe('Ranged attacks per Round, a full volley (1–5).'),
});

export type TaraOptions = z.output<typeof taraOptions>;
export type TaraStats = z.output<typeof taraStats>;
export type RoundMode = TaraOptions['roundMode'];

/** A spell being cast: started at a Mark, resolving Casting Time Marks later (maybe next round). */
export interface Casting {
  spell: string;
  castingTime: number;
  startedAt: Instant;
  resolvesAt: Instant;
  /** The agenda entry of the resolution. */
  entry: string;
  combatCasting: boolean;
  /** Units moved for free through Combat Casting during this cast. */
  combatCastingMoved: number;
}

/**
 * An action other than a spell that carries over into the next Round (000 Carry Over: "Initiative can
 * carry over into the following Round if there is a certain number of Initiative Marks it takes to
 * complete"): started with too few Marks left, done in the next Round.
 */
export interface Carried {
  action: string;
  name: string;
  completesAt: Instant;
  /** The agenda entry of its completion. */
  entry: string;
}

/** Per-combatant runtime state. Everything marked "this round" resets when a round's initiative is rolled. */
export interface TaraCombatant {
  /** The Initiative Roll this round (1d10 + characteristic + modifiers, capped at 30); null before the first. */
  initiativeRoll: number | null;
  /** The Initiative Score this round: the Mark of the first action and the budget. */
  initiativeScore: number | null;
  marksLeft: number;
  /** Marks a spell bled into the next round; subtracted from the next Initiative Roll. */
  carryOver: number;
  /** Delaying this round (announced with the roll), and which way half the roll was rounded. */
  delaying: 'up' | 'down' | null;
  /** A non-Free Action (movement included) was taken this round. */
  acted: boolean;
  /** The once-per-Round Full Action without enough Initiative Score was used. */
  fullActionException: boolean;
  /** Units moved this round that count against Land Speed. */
  landSpeedUsed: number;
  /** Moved at all this round (a melee attack is then single and needs a Set). */
  movedThisRound: boolean;
  /** Set for melee this round (since the last move). */
  meleeSet: boolean;
  /** Set to shoot: lost on moving or on any non-Free Action other than an attack; kept across rounds. */
  rangedSet: boolean;
  /** The non-Free Action that lost the ranged Set (null: a move did, or nothing; absent in older states). */
  rangedUnsetBy?: string | null;
  /** Set since the last move or non-Free Action (attacks included): Combat Casting may be used; kept across rounds. */
  castingSet: boolean;
  /** The instant of the last non-Free Action in a Full Round (the character is busy until the next turn entry). */
  actedAt: Instant | null;
  casting: Casting | null;
  /** An action other than a spell carried over into the next Round (absent in older states). */
  carrying?: Carried | null;
  channeling: 'no' | 'channeling' | 'broken';
  /** Totals over the fight, for the GM's summary. */
  unitsMoved: number;
  attacksMade: number;
}

export interface HistorySpan {
  round: number;
  combatant: string;
  from: number;
  to: number;
  kind: string;
  label: string;
}

export interface HistoryMarker {
  round: number;
  combatant: string;
  at: number;
  kind: string;
  label: string;
}

/** Encounter-wide runtime state. */
export interface TaraRound {
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
  together?: { at: Instant; ids: string[] } | null;
  history: { spans: HistorySpan[]; markers: HistoryMarker[] };
}

export interface TaraTypes {
  options: TaraOptions;
  stats: TaraStats;
  rs: TaraRound & JsonObject;
  cs: TaraCombatant & JsonObject;
}

export type TaraState = EncounterState<TaraTypes>;
