import { once } from '@roundkeeper/engine';
import { z } from 'zod';

/** Classic's options: how initiative is rolled. */
export const classicOptions = once(() =>
  z.object({
    initiativeDice: z.string().default('1d20').describe('Dice rolled for initiative, before the modifier.'),
    rerollEachRound: z
      .boolean()
      .default(false)
      .describe('Roll initiative again at the start of every round.'),
    groupInitiative: z
      .enum(['each', 'group'])
      .default('each')
      .meta({
        label: 'Group initiative',
        choices: { each: 'Everyone rolls', group: 'A group rolls once and acts together' },
      })
      .describe(
        'Combatants with the same NPC group roll once (the first of them, with its modifier) and take their turns one after another in that place.',
      ),
  }),
);

/** A combatant's sheet: the initiative modifier, and the Armor Class the card shows. */
export const classicStats = once(() =>
  z.object({
    initiative: z
      .number()
      .int()
      .min(-20)
      .max(50)
      .default(0)
      .meta({ label: 'Initiative modifier' })
      .describe('Initiative modifier (Dexterity, feats…).'),
    armorClass: z
      .number()
      .int()
      .min(0)
      .max(50)
      .optional()
      .meta({ label: 'Armor Class (AC)' })
      .describe('What an attack roll must reach to hit; shown on the card for the GM to compare.'),
  }),
);

export type ClassicOptions = z.output<ReturnType<typeof classicOptions>>;
export type ClassicStats = z.output<ReturnType<typeof classicStats>>;
