import { actorField, type CommandOf, combatantField, lazySchemas } from '@roundkeeper/engine';
import { z } from 'zod';
import { CONDITIONS } from './options.js';

/**
 * The stamina ruleset's commands, one schema per command type: the forms the apps draw, the words of their
 * refusals, and whom each command acts for (`actorField()`) come from these.
 */

const id = () => z.string().min(1).max(64);
const count = () => z.number().int().min(0).max(1000);
const initiativeValue = () => z.number().int().min(-1000).max(1000).meta({ label: 'Initiative' });
const initiativeMap = () => z.record(actorField(), initiativeValue());
const durationSchema = () =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('until-turn-start'),
      combatant: id(),
      turns: z.number().int().min(1).max(100).optional(),
    }),
    z.object({
      kind: z.literal('until-turn-end'),
      combatant: id(),
      turns: z.number().int().min(0).max(100).optional(),
    }),
    z.object({ kind: z.literal('until-round-end'), round: z.number().int().min(0).optional() }),
    z.object({ kind: z.literal('indefinite') }),
  ]);
const flag = (label: string, description: string) => z.boolean().optional().meta({ label, description });

/** The conditions as a GM reads them: "Prone", "Cover". */
const conditionLabels = Object.fromEntries(
  CONDITIONS.map((c) => [c, `${c.charAt(0).toUpperCase()}${c.slice(1)}`]),
);

export const staminaCommands = lazySchemas({
  start: () =>
    z
      .object({
        initiative: initiativeMap().optional().meta({ label: 'Initiative rolled at the table' }),
        flatFooted: z.array(actorField()).max(100).optional().meta({
          label: 'Flat footed',
          description: 'Who starts the fight having lost defense equal to their reflexes.',
        }),
      })
      .meta({ label: 'Start the fight', description: 'Roll initiative and begin round 1.', gm: true }),
  next: () =>
    z
      .object({
        initiative: initiativeMap()
          .optional()
          .meta({ label: 'Initiative rolled at the table', description: 'For the round about to begin.' }),
      })
      .meta({ label: 'Next turn', description: 'End the current turn.' }),
  act: () =>
    z
      .object({
        actor: actorField(),
        action: id().meta({ label: 'Action', hidden: true }),
        target: combatantField('Target').optional(),
        /** Free attack: the action it is made as. */
        as: id().optional().meta({
          label: 'Made as',
          from: 'actions',
          description: 'A Basic attack, Off-hand attack, Loose/shoot/fire, Throw Weapon or Throw Spell.',
        }),
        /** Take the text's reduction of the turn requirement to zero (Ready/Stow, Cast Cantrip). */
        reduce: flag('Reduce the turn requirement to 0', 'For a penalty die until the next turn.'),
        /** The check's outcome as the GM reads it; rolled with `successDice` when left out. */
        check: z
          .object({
            successes: count().meta({ label: 'Successes' }),
            success: flag('Succeeded', 'Whether the check succeeded.'),
            critical: flag('Critical', 'A critical success, or a critical failure.'),
          })
          .optional()
          .meta({
            label: 'Check',
            description: 'As rolled at the table; left empty, the successes are rolled.',
          }),
        bonusDice: z.number().int().min(0).max(20).optional().meta({ label: 'Bonus dice' }),
        spell: z
          .object({
            difficulty: count().meta({ label: 'Difficulty' }),
            cost: z
              .number()
              .int()
              .min(-100)
              .max(100)
              .default(0)
              .meta({ label: 'Cost', description: "The spell's cost; its cost modifier when ungated." }),
          })
          .optional()
          .meta({ label: 'Spell' }),
        /** Dodge: meters moved this turn. */
        distance: count().optional().meta({
          label: 'Meters moved this turn',
          unit: 'm',
          description: 'Left empty, the meters walked and dashed this turn count.',
        }),
        /** Take cover: the cover bonus. */
        cover: z.number().int().min(1).max(9).optional().meta({ label: 'Cover bonus' }),
        /** Trip made with the body (a failure costs 3 defense). */
        body: flag('With the body', 'Rather than with a weapon.'),
        /** Bash made with a shield (no penalty dice). */
        shield: flag('With a shield', 'No penalty dice.'),
        /** Disarm against a weapon wielded two-handed (four penalty dice). */
        twoHanded: flag('Weapon wielded two-handed', 'Four penalty dice instead of two.'),
        /** Wind penalty dice for this shot instead of the encounter's (heavier or smaller projectiles get fewer). */
        wind: z.number().int().min(0).max(5).optional().meta({
          label: 'Wind penalty dice',
          description: "For this shot, instead of the encounter's wind.",
        }),
        /** Lunge with a Thrust weapon keeps its parry bonus. */
        thrust: flag('Thrust weapon', 'Keeps its parry bonus.'),
        /** Reach: take the penalty dice, or grant the opponent a free strike. */
        reachChoice: z
          .enum(['penalty', 'free-strike'])
          .optional()
          .meta({
            label: 'Against a longer reach',
            choices: { penalty: 'Take the penalty dice', 'free-strike': 'Grant a free strike' },
          }),
        /** The weapon the action is made with, by its name on the sheet (Ready/stow: one or more). */
        weapon: z
          .union([id(), z.array(id()).min(1).max(10)])
          .optional()
          .meta({ label: 'Weapon', from: 'stat:weapons' }),
        /** Disarm: the opponent's weapon it targets, by its name on their sheet. */
        targetWeapon: id()
          .optional()
          .meta({ label: "Opponent's weapon", description: 'As named on their sheet.' }),
        /** Ready/stow: stow the weapon instead of readying it. */
        stow: flag('Stow instead of ready', 'Put it away.'),
        /** Ready/stow weapon/ammo: ammunition rather than a weapon. */
        ammo: flag('Ammunition', 'Ammunition rather than a weapon.'),
        /** Load weapon: the weapon's cost. */
        load: z
          .object({
            stamina: count().meta({ label: 'Stamina' }),
            turnRequirement: z.number().int().min(0).max(10).meta({ label: 'Turn requirement' }),
          })
          .optional()
          .meta({ label: 'Loading cost', description: "Left empty, the weapon's or the sheet's." }),
      })
      .meta({
        label: 'Take an action',
        description: "One of the catalog's actions, on the character's turn or as a reaction.",
      }),
  /** Give up an action with a turn requirement of two or more before it completes. */
  abandon: () =>
    z
      .object({ actor: actorField() })
      .meta({ label: 'Abandon the action', description: 'Stop an action that takes several turns.' }),
  condition: () =>
    z
      .object({
        target: combatantField('Combatant', 'combatants'),
        condition: z.enum(CONDITIONS).meta({
          label: 'Condition',
          choices: conditionLabels,
        }),
        value: z
          .number()
          .int()
          .min(1)
          .max(20)
          .optional()
          .meta({ label: 'Value', description: 'The cover bonus, or how many flank.' }),
        duration: durationSchema().optional().meta({ label: 'Duration', duration: true }),
      })
      .meta({
        label: 'Add a condition',
        description: 'Put one of the rules’ conditions on a combatant.',
        gm: true,
      }),
  adjust: () =>
    z
      .object({
        combatant: actorField('Combatant'),
        stamina: z.number().int().min(-1000).max(1000).optional().meta({ label: 'Stamina change' }),
        defense: z.number().int().min(-1000).max(1000).optional().meta({ label: 'Defense change' }),
        reason: z.string().min(1).max(200).optional().meta({ label: 'Reason' }),
      })
      .meta({
        label: 'Adjust stamina or defense',
        description: 'Add or take away stamina or defense.',
        gm: true,
      }),
  'set-initiative': () =>
    z
      .object({ actor: actorField('Combatant'), value: initiativeValue() })
      .meta({ label: 'Set initiative', description: 'Move a combatant in the order.', gm: true }),
});

/** One of the stamina ruleset's own commands, as its schema infers it. */
export type StaminaCommand = CommandOf<typeof staminaCommands>;
/** An `act` command: the action, its actor and what it takes. */
export type ActCommand = Extract<StaminaCommand, { type: 'act' }>;
