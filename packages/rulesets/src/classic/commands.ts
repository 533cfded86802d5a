import { actorField, type CommandOf, combatantField, diceField, lazySchemas } from '@roundkeeper/engine';
import { z } from 'zod';

const actor = () => actorField();
const roll = () =>
  diceField('Roll (dice)').optional().describe('Roll the attack or check here, e.g. 1d20+5.');
const initiativeValue = () => z.number().int().min(-100).max(200).meta({ label: 'Initiative' });

/** Classic's commands (the engine's own — add-combatant, damage, undo… — work too). */
export const classicCommands = lazySchemas({
  start: () =>
    z
      .object({
        initiative: z
          .record(actorField(), initiativeValue())
          .optional()
          .meta({ label: 'Initiative rolled at the table' }),
      })
      .meta({ label: 'Start the fight', description: 'Roll initiative and begin round 1.', gm: true }),
  next: () => z.object({}).meta({ label: 'Next turn', description: 'End the current turn.' }),
  act: () =>
    z.object({
      actor: actor(),
      action: z.string().min(1).max(64).meta({ label: 'Action', hidden: true }),
      target: combatantField('Target').optional(),
      roll: roll(),
    }),
  delay: () =>
    z
      .object({ actor: actor() })
      .meta({ label: 'Delay', description: 'Step out of the order; come back later.' }),
  resume: () =>
    z.object({ actor: actor() }).meta({ label: 'Act now', description: 'Take the delayed turn now.' }),
  ready: () =>
    z
      .object({
        actor: actor(),
        action: z.string().min(1).max(64).meta({ label: 'Action to ready', from: 'actions' }),
        trigger: z.string().min(1).max(200).meta({ label: 'Trigger', description: 'What sets it off.' }),
      })
      .meta({ label: 'Ready an action', description: 'Hold an action for a trigger; it uses the reaction.' }),
  trigger: () =>
    z
      .object({ actor: actor(), roll: roll() })
      .meta({ label: 'Take the readied action', description: 'Its trigger happened.' }),
  'set-initiative': () =>
    z
      .object({ actor: actor(), value: initiativeValue() })
      .meta({ label: 'Set initiative', description: 'Move a combatant in the order.', gm: true }),
});

/** One of classic's own commands, validated by its schema. */
export type ClassicCommand = CommandOf<typeof classicCommands>;
/** One command of a type, for its handler. */
export type ClassicCommandOf<K extends ClassicCommand['type']> = Extract<ClassicCommand, { type: K }>;
