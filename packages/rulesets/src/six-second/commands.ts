import { actorField, type CommandOf, combatantField, lazySchemas } from '@roundkeeper/engine';
import { z } from 'zod';

/*
 * The six-second ruleset's commands, one schema per command type: their labels are the forms the apps
 * draw, their combatant fields say whom a command acts for.
 */

const actor = () => actorField();
export const sixSecondCommands = lazySchemas({
  start: () =>
    z
      .object({
        initiative: z
          .record(actorField(), z.number().int().min(-1000).max(1000).meta({ label: 'Initiative' }))
          .optional()
          .meta({ label: 'Initiative rolled at the table', description: 'The others are rolled.' }),
      })
      .meta({ label: 'Start the fight', description: 'Roll Initiative and begin round 1.', gm: true }),
  next: () => z.object({}).meta({ label: 'Next turn', description: 'End the current turn.' }),
  act: () =>
    z
      .object({
        actor: actor(),
        action: z.string().min(1).max(64).meta({ label: 'Action', hidden: true }),
        seconds: z
          .number()
          .int()
          .min(0)
          .max(600)
          .optional()
          .meta({ label: 'Seconds', description: 'A longer time, for actions marked "or longer".' }),
        delay: z.number().int().min(0).max(600).optional().meta({
          label: 'Delay (seconds)',
          description:
            'Seconds after the action completes before its effect happens (a spell "that has a 2-second delay").',
        }),
        effect: z
          .string()
          .trim()
          .min(1)
          .max(80)
          .optional()
          .meta({ label: 'Effect', description: 'What takes effect after the delay (e.g. "Fireball").' }),
        target: combatantField('Target').optional(),
      })
      .meta({ label: 'Take an action', description: "One of the catalog's actions, in the turn's seconds." }),
  delay: () =>
    z
      .object({ actor: actor() })
      .meta({ label: 'Delay', description: 'Skip the turn before acting, to take it later.' }),
  'take-turn': () =>
    z.object({ actor: actor() }).meta({
      label: 'Take the delayed turn',
      description: "Now, even between two of someone else's actions.",
    }),
  contest: () =>
    z
      .object({
        actors: z.array(actor()).min(2).max(20).meta({
          label: 'Who contests',
          description: 'The characters who contest who does something first (in or out of the fight).',
        }),
        about: z.string().trim().min(1).max(80).optional().meta({
          label: 'About',
          description: 'What they contest, e.g. "who grabs the cursed item first".',
        }),
      })
      .meta({ label: 'Contest', description: 'Reflex checks to see who does something first.' }),
});

/** One of the six-second ruleset's commands, as validated. */
export type SixSecondCommand = CommandOf<typeof sixSecondCommands>;
/** The six-second command of one type. */
export type SixSecondCommandOf<K extends SixSecondCommand['type']> = Extract<SixSecondCommand, { type: K }>;
