import { once } from '@roundkeeper/engine';
import { z } from 'zod';

/** The tick ruleset's options: how the first tick is rolled, who goes first on a shared tick, interruptions. */
export const tickOptions = once(() =>
  z.object({
    initiativeDice: z
      .string()
      .default('1d6')
      .describe('Dice rolled for the first tick; the Initiative stat is taken off (never below tick 1).'),
    ties: z
      .enum(['arrival', 'initiative'])
      .default('arrival')
      .describe(
        'Who acts first when markers share a tick: the one that got there first (arrival), or the higher Initiative stat (initiative).',
      )
      .meta({ choices: { arrival: 'Who got there first', initiative: 'Higher Initiative stat' } }),
    groupInitiative: z
      .enum(['each', 'group'])
      .default('each')
      .meta({
        label: 'Group initiative',
        choices: { each: 'Everyone rolls', group: 'A group rolls once and starts together' },
      })
      .describe(
        'Combatants with the same NPC group roll their first tick once (the first of them) and act on it one after another.',
      ),
    interruptible: z
      .boolean()
      .default(true)
      .describe('Whether the GM may break off a continuous action (casting, aiming) before it completes.'),
  }),
);

/** A combatant's sheet: the Initiative stat (taken off the first roll) and the weapon's speed in ticks. */
export const tickStats = once(() =>
  z.object({
    initiative: z
      .number()
      .int()
      .min(0)
      .max(30)
      .default(0)
      .meta({ label: 'Initiative' })
      .describe('Taken off the initiative roll (the first tick is never below 1); breaks ties too.'),
    weaponSpeed: z
      .number()
      .int()
      .min(1)
      .max(30)
      .default(6)
      .meta({ label: 'Weapon speed (ticks)' })
      .describe(
        'How many ticks an attack with the weapon in hand costs (a dagger 5, a sword 6, a greataxe 7).',
      ),
  }),
);

export type TickOptions = z.output<ReturnType<typeof tickOptions>>;
export type TickStats = z.output<ReturnType<typeof tickStats>>;
