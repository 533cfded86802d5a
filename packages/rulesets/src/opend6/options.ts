import { once } from '@roundkeeper/engine';
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

export const opend6Options = once(() =>
  z.object({
    initiativeMethod: z
      .enum(INITIATIVE_METHODS)
      .default('perception-per-scene')
      .describe('Method 1 (GM sets the order), 2 (Perception once per scene) or 3 (Perception every round).')
      .meta({
        choices: {
          'first-significant-action': 'Method 1: the GM sets the order',
          'perception-per-scene': 'Method 2: Perception once per scene',
          'perception-per-round': 'Method 3: Perception every round',
        },
      }),
    complication: z
      .enum(['none', 'remove-highest', 'gm'])
      .default('gm')
      .describe('What a 1 on the Wild Die does: nothing, remove it and the highest die, or the GM decides.')
      .meta({
        choices: {
          none: 'Nothing',
          'remove-highest': 'Remove it and the highest die',
          gm: 'The GM decides',
        },
      }),
    initiativeBonus: z
      .boolean()
      .default(false)
      .describe(
        'Optional Initiative Bonus: +1 per 2D of search over Perception, per 4D of Reflexes, per 6 ranks.',
      ),
  }),
);

export const opend6Stats = once(() =>
  z.object({
    perception: dieCodeSchema().default('2D').describe('Perception, the attribute rolled for initiative.'),
    reflexes: dieCodeSchema()
      .default('2D')
      .describe('Reflexes (tie-break step 4; optional initiative bonus).'),
    attributes: z
      .record(z.string(), dieCodeSchema().meta({ label: 'Die code' }))
      .default({})
      .describe('Other attributes by name (Agility, Strength…), each a die code.'),
    skills: z
      .record(z.string(), dieCodeSchema().meta({ label: 'Die code' }))
      .default({})
      .describe('Skills by name ("search", "dodge", "melee combat"…), each a die code.'),
    characterPoints: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(0)
      .describe('Character Points in the pool.')
      .meta({ label: 'Character Points' }),
    fatePoints: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(0)
      .describe('Fate Points (never spent on initiative).')
      .meta({ label: 'Fate Points' }),
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
  }),
);

export type Opend6Options = z.output<ReturnType<typeof opend6Options>>;
export type Opend6Stats = z.output<ReturnType<typeof opend6Stats>>;
