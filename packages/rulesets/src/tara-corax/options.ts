import { once } from '@roundkeeper/engine';
import { z } from 'zod';

/*
 * What the GM sets: the encounter's options and a combatant's sheet values. `parse({})` gives the defaults.
 */

/** Encounter options. `parse({})` gives the defaults. */
export const taraOptions = once(() =>
  z.object({
    roundMode: z
      .enum(['full', 'simple', 'very-simply'])
      .default('full')
      .describe(
        'Full Round (each action starts when the last one’s Marks have elapsed), Simple Round (all of a turn at the Initiative Mark) or Very Simply (Simple Round, no roll). Changes between rounds.',
      )
      .meta({ choices: { full: 'Full Round', simple: 'Simple Round', 'very-simply': 'Very Simply' } }),
    explodingInitiative: z
      .enum(['once', 'keep'])
      .default('once')
      .describe(
        'A natural 10 on the Initiative d10 rolls one more d10 (once), or keeps rolling while 10s come up.',
      )
      .meta({ choices: { once: 'Once: one more d10', keep: 'Keep rolling while 10s come up' } }),
    attackDice: z
      .string()
      .min(1)
      .max(40)
      .default('2d10')
      .describe(
        'The attack roll’s dice; a Desperate Shot misses when any of them shows a natural 5 or less.',
      ),
  }),
);

/** A combatant's sheet values. */
export const taraStats = once(() =>
  z.object({
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
    landSpeed: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(10)
      .describe('Units the character may move per Round.'),
    meleeAttacks: z.number().int().min(1).max(5).default(1).describe('Melee attacks per Round (1–5).'),
    rangedAttacks: z
      .number()
      .int()
      .min(1)
      .max(5)
      .default(1)
      .describe('Ranged attacks per Round, a full volley (1–5).'),
  }),
);

export type TaraOptions = z.output<ReturnType<typeof taraOptions>>;
export type TaraStats = z.output<ReturnType<typeof taraStats>>;
export type RoundMode = TaraOptions['roundMode'];
