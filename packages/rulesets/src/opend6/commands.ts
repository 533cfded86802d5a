import { actorField, type CommandOf, combatantField, lazySchemas } from '@roundkeeper/engine';
import { z } from 'zod';
import { UNABLE_CONDITIONS } from './shapes.js';

/** The `act` field for the GM's permission to move a turn up: the refusals out of turn name it too. */
export const MOVE_UP_LABEL = 'Move up the turn';

const actor = () => actorField();
const points = (label: string) =>
  z.record(actorField(), z.number().int().min(0).max(100).meta({ label: 'Points' })).meta({ label });
const skill = () =>
  z.string().trim().min(1).max(80).meta({
    label: 'Skill or attribute',
    description: 'As named on the sheet; left empty, the suggested one.',
  });
const code = () =>
  z
    .string()
    .trim()
    .max(20)
    .meta({ label: 'Die code', description: "Rolled instead of the sheet's, e.g. 3D+1." });
const actionId = () => z.string().min(1).max(64);
const rollFlag = () =>
  z.boolean().meta({
    label: 'Roll the skill',
    description: "On: roll even where the action needs no roll; off: don't roll.",
  });
const declareNow = () =>
  z
    .number()
    .int()
    .min(1)
    .max(50)
    .meta({ label: 'Actions this round', description: 'Declared with this action, when not declared yet.' });

/** The ruleset's commands (the engine's own — add-combatant, damage, undo… — work too). */
export const opend6Commands = lazySchemas({
  /** Begins the scene: Method 1 takes `first` or `order`; Methods 2 and 3 roll Perception. */
  start: () =>
    z
      .object({
        first: actorField('Who acts first').optional(),
        order: z
          .array(actor())
          .max(200)
          .optional()
          .meta({ label: 'Order', description: 'Method 1: the order the GM sets.' }),
        characterPoints: points('Character Points on initiative').optional(),
        fatePoints: points('Fate Points on initiative').optional(),
      })
      .meta({
        label: 'Start the scene',
        description: 'Set the order or roll initiative, and begin round 1.',
        gm: true,
      }),
  /** Ends the acting turn; at the round's end, starts the next round (Method 3 rolls again). */
  next: () =>
    z
      .object({
        characterPoints: points('Character Points on initiative').optional(),
        fatePoints: points('Fate Points on initiative').optional(),
      })
      .meta({
        label: 'Next turn',
        description: 'End the current turn; at the end of the round, begin the next.',
      }),
  /** 002: "her player must decide on the total number of actions … that round". */
  declare: () =>
    z.object({ actor: actor(), actions: declareNow().meta({ label: 'Actions this round' }) }).meta({
      label: 'Declare actions',
      description: 'How many actions this round; it sets the multi-action penalty.',
    }),
  act: () =>
    z
      .object({
        actor: actor(),
        action: actionId().meta({ label: 'Action', hidden: true }),
        target: combatantField('Target').optional(),
        skill: skill().optional(),
        code: code().optional(),
        /** false: take the action without rolling. */
        roll: rollFlag().optional(),
        /** Declare the round's actions in the same breath (for a move-up before the character's turn). */
        declare: declareNow().optional(),
        /** The GM permits moving up the character's turn (catch, resisting a mental attempt…). */
        moveUp: z.boolean().optional().meta({
          label: MOVE_UP_LABEL,
          description: "With the GM's permission: act before the turn comes.",
        }),
      })
      .meta({
        label: 'Take an action',
        description: "One of the catalog's actions: on the turn, or moved up with the GM's permission.",
      }),
  interrupt: () =>
    z
      .object({
        actor: actor(),
        action: actionId().meta({ label: 'Action', from: 'actions' }),
        target: combatantField('Target').optional(),
        skill: skill().optional(),
        code: code().optional(),
        roll: rollFlag().optional(),
      })
      .meta({
        label: 'Interrupt',
        description: "After waiting: act right after another character's roll, before its result.",
      }),
  /** A waiting character takes the rest of her actions right after the current turn. */
  resume: () =>
    z.object({ actor: actor() }).meta({
      label: 'Act after waiting',
      description: 'Take the rest of the declared actions right after this turn.',
    }),
  /** The GM declares the result of the open roll: interrupting it is no longer possible. */
  result: () =>
    z.object({}).meta({
      label: 'Declare the result',
      description: 'Of the roll just made: it can no longer be interrupted.',
      gm: true,
    }),
  /** A roll on request: skills and attributes take the multi-action penalty; damage and resistance don't. */
  roll: () =>
    z
      .object({
        actor: actor(),
        skill: skill().optional(),
        code: code().optional(),
        kind: z
          .enum(['skill', 'attribute', 'damage', 'damage-resistance'])
          .optional()
          .meta({
            label: 'Kind of roll',
            choices: {
              skill: 'Skill',
              attribute: 'Attribute',
              damage: 'Damage',
              'damage-resistance': 'Damage resistance',
            },
          }),
      })
      .meta({ label: 'Roll', description: 'A roll the GM calls for, outside an action.' }),
  incapacitate: () =>
    z
      .object({
        actor: actorField('Combatant'),
        condition: z
          .enum(UNABLE_CONDITIONS)
          .default('unconscious')
          .meta({
            label: 'Condition',
            choices: Object.fromEntries(
              UNABLE_CONDITIONS.map((u) => [u, `${u.charAt(0).toUpperCase()}${u.slice(1)}`]),
            ),
          }),
      })
      .meta({
        label: 'Incapacitate',
        description: 'Unconscious, immobile or otherwise unable to act.',
        gm: true,
      }),
  recover: () =>
    z
      .object({
        actor: actorField('Combatant'),
        /** Wild Dice added to the Perception roll he makes on recovering, when he had no place in the order. */
        characterPoints: z.number().int().min(0).max(100).optional().meta({
          label: 'Character Points on initiative',
          description: 'When recovering means rolling Perception.',
        }),
      })
      .meta({ label: 'Recover', description: 'Able to act again.', gm: true }),
});

/** One of OpenD6's own commands, validated by its schema. */
export type Opend6Command = CommandOf<typeof opend6Commands>;
/** One command of a type, for its handler. */
export type Opend6CommandOf<K extends Opend6Command['type']> = Extract<Opend6Command, { type: K }>;
