import { actorField, type CommandOf, combatantField, diceField, lazySchemas } from '@roundkeeper/engine';
import { z } from 'zod';
import { EXERT_USES, type ExertUse } from './options.js';

const id = () => z.string().min(1).max(64);
const actor = () => actorField();
const tempo = () => z.number().int().min(0).max(9);
/** A planned action, picked by what it is ("Help at tempo 3": `present.choices`), sent by its id. */
const planned = () => id().meta({ label: 'Planned action', from: 'rules:plans' });

/** What each use of Exert reads as in a form. */
const EXERT_WORDS: Record<ExertUse, string> = {
  'another-action': 'Take another action this round',
  'change-tempo': "Change a planned action's tempo",
  momentum: 'Momentum',
  'clear-condition': 'Clear a condition',
  'reclaim-mana': 'Reclaim Mana',
  retry: 'Retry a failed roll',
  prepared: 'Prepared',
};

/** The ruleset's commands, validated by the engine before `decide` sees them. */
export const tempoCommands = lazySchemas({
  /** Starts the fight: round 1 begins with its planning phase. */
  start: () =>
    z
      .object({})
      .meta({ label: 'Start the fight', description: 'Round 1 begins with its planning phase.', gm: true }),
  /** Plans (or, with `replace`, changes) one of the round's actions; secret until taken. */
  plan: () =>
    z
      .object({
        actor: actor(),
        action: id().meta({ label: 'Action', hidden: true }),
        slot: z
          .enum(['action', 'extra', 'free', 'exert'])
          .optional()
          .meta({
            label: 'Taken as',
            choices: {
              action: "One of the round's actions",
              extra: 'Extra action',
              free: 'Free action',
              exert: 'Exerted action',
            },
          }),
        replace: planned().optional().meta({ label: 'Instead of' }),
        tempo: tempo().optional().meta({ label: 'Tempo', description: "Magic: the spell's tempo (0–9)." }),
        spell: z.string().trim().min(1).max(80).optional().meta({ label: 'Spell' }),
        strike: z.boolean().optional().meta({
          label: 'Strike consumable',
          description: 'Drawn and consumed; it counts as an Attack action.',
        }),
      })
      .meta({
        label: 'Plan an action',
        description: 'In secret; it happens when the count reaches its tempo.',
      }),
  /**
   * 003 "players can inform the GM they are taking an action at that Tempo": this character takes the next
   * turn of the tempo the count comes to, before the others of their side planned there.
   */
  'act-next': () =>
    z
      .object({ actor: actor() })
      .meta({ label: 'Act next', description: 'Take the next turn at the tempo the count comes to.' }),
  /** Withdraws a planned action not yet taken. */
  unplan: () =>
    z
      .object({ actor: actor(), plan: planned() })
      .meta({ label: 'Withdraw', description: 'Take back a planned action not yet taken.' }),
  /** The GM's count: ends planning, or ends the current turn and goes to the next planned action. */
  next: () =>
    z
      .object({
        skipPlanning: z
          .boolean()
          .optional()
          .meta({ label: 'Count anyway', description: 'Even if not every PC has planned their actions.' }),
      })
      // A player's own turn: "End my turn", the default words (see decide's ownTurnOrGm).
      .meta({ label: 'Next', description: 'End planning, or end the turn and count on to the next action.' }),
  /** Performs the action of the current turn (Strike, Guard target, Recover, Inventory swap…). */
  act: () =>
    z
      .object({
        actor: actor(),
        target: combatantField('Target').optional(),
        weapon: z.string().min(1).max(60).optional().meta({ label: 'Weapon', from: 'stat:weapons' }),
        roll: diceField('Roll').optional(),
        recover: z
          .boolean()
          .optional()
          .meta({ label: 'Recover', description: 'Shift after a Rest this round: lower Exertion.' }),
        draw: z.string().min(1).max(60).optional().meta({ label: 'Draw', from: 'stat:weapons' }),
        stow: z.string().min(1).max(60).optional().meta({ label: 'Stow', description: 'A weapon in hand.' }),
      })
      .meta({ label: 'Take my action', description: 'Perform the planned action of this turn.' }),
  /** Normal Move (and the Move action's distance) on the current turn. */
  move: () =>
    z
      .object({ actor: actor(), distance: z.number().int().min(1).max(1000).meta({ label: 'Distance' }) })
      .meta({ label: 'Move', description: 'Normal Move, and the Move action’s Speed, on this turn.' }),
  /** Uses a reaction on any character's turn. */
  react: () =>
    z
      .object({
        actor: actor(),
        reaction: id().meta({ label: 'Reaction', hidden: true }),
        trigger: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .meta({ label: 'Trigger', description: 'What it answers.' }),
        target: combatantField('Target').optional(),
        roll: diceField('Roll').optional(),
      })
      .meta({ label: 'React', description: "On anyone's turn, when its trigger happens." }),
  /** Exert: gain Exertion for one of the text's uses. */
  exert: () =>
    z
      .object({
        actor: actor(),
        use: z.enum(EXERT_USES).meta({ label: 'Exert to', choices: EXERT_WORDS }),
        plan: planned().optional(),
        tempo: tempo().optional().meta({ label: 'New tempo' }),
        effect: id().optional().meta({ label: 'Condition to clear' }),
        amount: z.number().int().min(1).max(3).optional().meta({ label: 'Exertion (Prepared)' }),
        roll: diceField('Roll again')
          .optional()
          .meta({ label: 'Roll again', description: 'For a retry: the Skill roll rolled again.' }),
        note: z.string().max(500).optional().meta({ label: 'Note' }),
      })
      .meta({ label: 'Exert', description: 'Gain Exertion for one of its uses.' }),
  /** The GM forces Exertion on a character (beyond the maximum it kills). */
  'force-exertion': () =>
    z
      .object({
        actor: actorField('Combatant'),
        amount: z.number().int().min(1).max(20).meta({ label: 'Exertion' }),
        reason: z.string().max(200).optional().meta({ label: 'Reason' }),
      })
      .meta({ label: 'Force Exertion', description: 'Beyond the maximum, it kills.', gm: true }),
  /** Ends the scene: each PC who Exerted takes damage equal to their Exertion. */
  'end-scene': () =>
    z.object({}).meta({
      label: 'End the scene',
      description: 'Each PC who Exerted takes damage equal to their Exertion.',
      gm: true,
    }),
});

/** One of tempo's own commands, as its schema infers it. */
export type TempoCommand = CommandOf<typeof tempoCommands>;
/** A tempo command of one type. */
export type TempoCommandOf<K extends TempoCommand['type']> = Extract<TempoCommand, { type: K }>;
