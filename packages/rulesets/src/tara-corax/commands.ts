import { actorField, type CommandOf, combatantField, lazySchemas } from '@roundkeeper/engine';
import { z } from 'zod';

/*
 * Tara-Corax's commands, one schema per command type: their labels are the forms the apps draw, their
 * combatant fields say whom a command acts for.
 */

const actor = () => actorField();
const rollRequest = () => ({
  delay: z
    .record(
      actorField(),
      z.enum(['up', 'down']).meta({
        label: 'Half the roll rounded',
        choices: { up: 'Up', down: 'Down' },
      }),
    )
    .optional()
    .meta({
      label: 'Delaying this Round',
      description: 'Announced with the roll; half the roll, rounded up or down.',
    }),
  rolls: z
    .record(actorField(), z.number().int().min(1).max(100).meta({ label: 'Rolled' }))
    .optional()
    .meta({
      label: 'Initiative rolled at the table',
      description: 'The d10 plus any extra d10s; the others are rolled.',
    }),
});

export const taraCommands = lazySchemas({
  start: () =>
    z
      .object(rollRequest())
      .meta({ label: 'Start the fight', description: 'Roll Initiative and begin round 1.', gm: true }),
  next: () =>
    z.object(rollRequest()).meta({
      label: 'Next',
      description: 'Go to the next Mark; at the end of the Round, roll Initiative for the next one.',
    }),
  act: () =>
    z
      .object({
        actor: actor(),
        action: z.string().min(1).max(64).meta({ label: 'Action', hidden: true }),
        units: z.number().int().min(0).max(100).optional().meta({ label: 'Units to move' }),
        castingTime: z.number().int().min(1).optional().meta({
          label: 'Casting Time (Marks)',
          description: 'Longer than the Marks left, the spell carries over into as many Rounds as it takes.',
        }),
        spell: z.string().min(1).max(80).optional().meta({ label: 'Spell' }),
        target: combatantField('Target').optional(),
        throwing: z
          .boolean()
          .optional()
          .meta({ label: 'Throwing weapon', description: 'No Set needed to attack at range.' }),
        defending: z.boolean().optional().meta({
          label: 'Defending',
          description:
            'Someone moved into melee with this character: no Set is needed and the full set of melee attacks applies.',
        }),
        combatCasting: z.boolean().optional().meta({
          label: 'With Combat Casting',
          description: 'Cast using the Combat Casting Skill (needs a Set first).',
        }),
        check: z.number().int().min(0).max(100).optional().meta({
          label: 'Combat Casting Check',
          description: 'The Skill Check total: 1 Unit per 3 over 2.',
        }),
        faces: z
          .array(z.number().int().min(1).max(100))
          .max(10)
          .optional()
          .meta({ label: 'Attack dice', description: 'Rolled at the table; left empty, they are rolled.' }),
      })
      .meta({ label: 'Take an action', description: "One of the catalog's actions, at the current Mark." }),
  fizzle: () =>
    z
      .object({ actor: actorField('Combatant') })
      .meta({ label: 'Fizzle the spell', description: 'The spell being cast does not go off.', gm: true }),
});

/** One of Tara-Corax's commands, as validated. */
export type TaraCommand = CommandOf<typeof taraCommands>;

/** How a round is rolled: delays announced with the roll, dice the GM rolled at the table. */
export type RollRequest = Omit<Extract<TaraCommand, { type: 'next' }>, 'type'>;

/** What the GM says with an action beyond its name (the units, the casting time, the target…). */
export type ActParams = Omit<Extract<TaraCommand, { type: 'act' }>, 'type' | 'actor' | 'action'>;
