import { type EventOf, lazySchemas, namedId } from '@roundkeeper/engine';
import { z } from 'zod';
import { EXERT_USES } from './options.js';

/**
 * The facts tempo records, one schema per event type, every combatant id marked with `namedId()`
 * (redaction drops an event that names someone the viewer may not see). These are the facts as the log
 * keeps them: `redactEvent` shows a viewer who does not control the planner only that a plan was made or
 * withdrawn (`secret: true`), and an Exert without the plan it moved. Strict: a field the code adds
 * without declaring it here fails the event checks in `sdk.test.ts`.
 */

const round = () => z.number().int();
const tempo = () => z.number().int().min(0).max(9);
/** Which of a round's actions a plan fills (003 "Tags": Extra and Free are additional actions). */
const slot = () => z.enum(['action', 'extra', 'free', 'exert']);
export type PlanSlot = z.output<ReturnType<typeof slot>>;
/** The encounter-wide turn number. */
const turn = () => z.number().int().min(0);
const exertion = () => z.number().int().min(0);

/** One planned action, as a combatant's state and the log keep it. Secret until `taken` (003: each player "picks two unique actions"). */
const planItem = () =>
  z.strictObject({
    /** The id of its agenda entry (the turn it becomes). */
    id: z.string(),
    slot: slot(),
    action: z.string(),
    tempo: tempo(),
    taken: z.boolean(),
    /** A spell's name for Magic. */
    spell: z.string().optional(),
    /** Inventory consuming a Strike consumable: "also counts as an Attack action". */
    strike: z.literal(true).optional(),
    /** Set when Exert moved it to "a different Tempo than usual". */
    exerted: z.boolean().optional(),
  });
export type PlanItem = z.output<ReturnType<typeof planItem>>;

export const tempoEvents = lazySchemas({
  /** A round's planning phase began: last round's plans, reactions, Guard and Rest are gone. */
  'tempo/planning': () => z.strictObject({ round: round() }),
  /** Planning is over; the GM counts tempo 0 to 9. */
  'tempo/counting': () => z.strictObject({ round: round() }),
  /** A character's action goes first among their side's at the tempo the count reaches next. */
  'tempo/acts-next': () => z.strictObject({ combatant: namedId(), tempo: z.number().int().min(0).max(9) }),
  /** A character planned an action (or changed one it `replaces`); secret until taken. */
  'tempo/planned': () =>
    z.strictObject({ combatant: namedId(), plan: planItem(), replaces: z.string().optional() }),
  /** A character withdrew a planned action not yet taken. */
  'tempo/unplanned': () => z.strictObject({ combatant: namedId(), plan: z.string() }),
  /** The count reached a planned action: its turn begins, with the Normal Move it grants. */
  'tempo/action-taken': () =>
    z.strictObject({
      combatant: namedId(),
      plan: z.string(),
      action: z.string(),
      slot: slot(),
      tempo: tempo(),
      turn: turn(),
      moveLeft: z.number().int().min(0),
      spell: z.string().optional(),
    }),
  /** A character performed the action of its turn (a Strike's weapon, a Guard, Rest, an Inventory swap…). */
  'tempo/acted': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      target: namedId().optional(),
      weapon: z.string().optional(),
      guarding: namedId().optional(),
      rested: z.literal(true).optional(),
      moveLeft: z.number().int().min(0).optional(),
      held: z.array(z.string()).optional(),
    }),
  /** A character moved on its turn, before or after its action. */
  'tempo/moved': () =>
    z.strictObject({
      combatant: namedId(),
      distance: z.number().int().min(1),
      left: z.number().int().min(0),
      when: z.enum(['before', 'after']),
    }),
  /** A Shift after Rest recovered Exertion. */
  'tempo/recovered': () => z.strictObject({ combatant: namedId(), from: exertion(), to: exertion() }),
  /** A character used a reaction on a turn, at a tempo. */
  'tempo/reacted': () =>
    z.strictObject({
      combatant: namedId(),
      reaction: z.string(),
      trigger: z.string(),
      turn: turn(),
      tempo: tempo(),
      target: namedId().optional(),
    }),
  /** A character Exerted for one of the text's uses (the plan it moved, the Momentum it rolled…). */
  'tempo/exerted': () =>
    z.strictObject({
      combatant: namedId(),
      use: z.enum(EXERT_USES),
      amount: z.number().int().min(1),
      exertion: exertion(),
      note: z.string().optional(),
      plan: z.string().optional(),
      tempo: tempo().optional(),
      momentum: z.number().int().min(1).optional(),
      /** The condition (effect id) an Exert cleared. */
      effect: z.string().optional(),
    }),
  /** The GM forced Exertion on a character. */
  'tempo/exertion-forced': () =>
    z.strictObject({
      combatant: namedId(),
      amount: z.number().int().min(1),
      exertion: exertion(),
      reason: z.string().optional(),
    }),
  /** A character died (forced beyond Maximum Exertion, or dying at it). */
  'tempo/died': () => z.strictObject({ combatant: namedId(), reason: z.string() }),
  /** The scene ended: the damage each PC who Exerted takes, by combatant. */
  'tempo/scene-ended': () =>
    z.strictObject({
      scene: z.number().int(),
      damage: z.record(namedId(), z.number().int().min(1)),
    }),
});

/** One of tempo's own events, as its schema infers it. */
export type TempoEvent = EventOf<typeof tempoEvents>;
/** A tempo event of one type. */
export type TempoEventOf<K extends TempoEvent['type']> = Extract<TempoEvent, { type: K }>;

/**
 * A plan event as a viewer who does not control the planner gets it (`redactEvent`): only that a plan
 * was made or withdrawn, and by whom.
 */
export type SecretPlanEvent = { type: 'tempo/planned' | 'tempo/unplanned'; combatant: string; secret: true };

export function isSecretPlan(event: { type: string }): event is SecretPlanEvent {
  return (
    (event.type === 'tempo/planned' || event.type === 'tempo/unplanned') &&
    'secret' in event &&
    event.secret === true
  );
}
