import { actorField, type CommandOf, combatantField, diceField, lazySchemas } from '@roundkeeper/engine';
import { z } from 'zod';

/** The tick ruleset's commands (the engine's own — add-combatant, damage, add-effect, undo… — work too). */
export const tickCommands = lazySchemas({
  start: () =>
    z
      .object({
        initiative: z
          .record(actorField(), z.number().int().min(1).max(100).meta({ label: 'First tick' }))
          .optional()
          .meta({ label: 'First ticks set by the GM', description: 'The others are rolled.' }),
      })
      .meta({ label: 'Start the fight', description: 'Roll everyone onto the timeline; tick 0.', gm: true }),
  next: () =>
    z.object({}).meta({
      label: 'Next',
      description: 'The combatant whose turn it is holds (waits) and spends no ticks; the next marker acts.',
      own: {
        label: 'Hold (wait)',
        help: 'Leave the timeline without spending ticks; step in later with Act now.',
      },
    }),
  act: () =>
    z.object({
      actor: actorField(),
      action: z.string().min(1).max(64).meta({ label: 'Action', hidden: true }),
      ticks: z.number().int().min(1).max(100).optional().meta({
        label: 'Ticks',
        description: 'How long an action of a length you choose takes (a casting time, how long to aim).',
      }),
      target: combatantField('Target').optional(),
      roll: diceField('Roll (dice)').optional().describe('Roll the attack or check here, e.g. 3d10+7.'),
    }),
  wait: () =>
    z.object({ actor: actorField() }).meta({
      label: 'Wait',
      description: 'Hold: leave the timeline without spending ticks, and step in later at the current tick.',
    }),
  'step-in': () =>
    z.object({ actor: actorField() }).meta({
      label: 'Act now',
      description: 'A waiting combatant steps in at the current tick and acts before anyone else.',
    }),
  'set-tick': () =>
    z
      .object({
        actor: actorField(),
        tick: z.number().int().min(0).max(100_000).meta({
          label: 'Tick',
          description: 'The tick to put the marker on: the current tick or later.',
        }),
      })
      .meta({
        label: 'Move a marker',
        description: "Put a combatant's marker on a tick of the GM's choosing (a value rolled at the table).",
        gm: true,
      }),
  interrupt: () =>
    z.object({ actor: actorField() }).meta({
      label: 'Interrupt',
      description: 'Break off a continuous action (casting, aiming); the ticks spent on it are lost.',
      gm: true,
    }),
});

/** One of the tick ruleset's own commands, validated by its schema. */
export type TickCommand = CommandOf<typeof tickCommands>;
/** One command of a type, for its handler. */
export type TickCommandOf<K extends TickCommand['type']> = Extract<TickCommand, { type: K }>;
