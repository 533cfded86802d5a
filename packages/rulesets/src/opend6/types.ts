import type { DecideContext, EncounterState, JsonObject } from '@roundkeeper/engine';
import { z } from 'zod';
import { dieCodeSchema } from './codes.js';

/** 002 "Initiative": the GM applies one of three methods. */
export const INITIATIVE_METHODS = [
  /** Method 1: whoever makes the first significant action acts first; the order holds until the scene ends. */
  'first-significant-action',
  /** Method 2: Perception rolls once for the entire scene ("the faster method"). */
  'perception-per-scene',
  /** Method 3: Perception rolls at the beginning of each round ("more realistic yet slower"). */
  'perception-per-round',
] as const;
export type InitiativeMethod = (typeof INITIATIVE_METHODS)[number];

export const opend6Options = z.object({
  initiativeMethod: z
    .enum(INITIATIVE_METHODS)
    .default('perception-per-scene')
    .describe('Method 1 (GM sets the order), 2 (Perception once per scene) or 3 (Perception every round).'),
  complication: z
    .enum(['none', 'remove-highest', 'gm'])
    .default('gm')
    .describe('What a 1 on the Wild Die does: nothing, remove it and the highest die, or the GM decides.'),
  initiativeBonus: z
    .boolean()
    .default(false)
    .describe(
      'Optional Initiative Bonus: +1 per 2D of search over Perception, per 4D of Reflexes, per 6 ranks.',
    ),
});

export const opend6Stats = z.object({
  perception: dieCodeSchema.default('2D').describe('Perception, the attribute rolled for initiative.'),
  reflexes: dieCodeSchema.default('2D').describe('Reflexes (tie-break step 4; optional initiative bonus).'),
  attributes: z
    .record(z.string(), dieCodeSchema.meta({ label: 'Die code' }))
    .default({})
    .describe('Other attributes by name (Agility, Strength…), each a die code.'),
  skills: z
    .record(z.string(), dieCodeSchema.meta({ label: 'Die code' }))
    .default({})
    .describe('Skills by name ("search", "dodge", "melee combat"…), each a die code.'),
  characterPoints: z.number().int().min(0).max(1000).default(0).describe('Character Points in the pool.'),
  fatePoints: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .describe('Fate Points (never spent on initiative).'),
  actionAllotment: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(1)
    .describe('Actions per round without penalty (1 unless an ability increases it).'),
  goFirst: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .describe('Rank of an ability or talent that lets the character go first (tie-break step 1).'),
  specialEquipment: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .describe('Special equipment or situation letting the character go before others (tie-break step 6).'),
  initiativeBonusRanks: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(0)
    .describe('Ranks of Skill Bonus / Increased Attribute affecting Reflexes or search.'),
});

export type Opend6Options = z.output<typeof opend6Options>;
export type Opend6Stats = z.output<typeof opend6Stats>;

/** 002 "Note that a character rendered unconscious, immobile, or otherwise unable to act…". */
export const UNABLE_CONDITIONS = ['unconscious', 'immobile', 'unable to act'] as const;
export type UnableCondition = (typeof UNABLE_CONDITIONS)[number];

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

export type Slot = {
  round: number;
  at: number[];
  members: string[];
  label: string;
};

export type Happening = {
  round: number;
  /** The instant's `at` tuple: an interrupt sits just after the roll it interrupts. */
  at: number[];
  combatant: string;
  kind: 'action' | 'wait' | 'interrupt' | 'move-up' | 'lost' | 'free';
  label: string;
  /** The catalog or custom action taken (absent for a lost action). */
  action?: string;
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
}

export type State = EncounterState<Opend6Types>;
export type Ctx = DecideContext<Opend6Types>;
