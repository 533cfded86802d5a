import { instantSchema, namedId } from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * The facts Tara-Corax records, one schema per event type, every combatant id marked with `namedId()`
 * (redaction drops an event that names someone the viewer may not see; `redactEvent` first takes hidden
 * partners out of a round's order and of a simultaneous action). Strict: a field the code adds without
 * declaring it here fails the event checks in `sdk.test.ts`.
 */

const mark = z.number().int();
const roundMode = z.enum(['full', 'simple', 'very-simply']);

/** A spell being cast (see `Casting` in types.ts). */
const casting = z.strictObject({
  spell: z.string(),
  castingTime: z.number().int(),
  startedAt: instantSchema,
  resolvesAt: instantSchema,
  /** The agenda entry of the resolution. */
  entry: z.string(),
  combatCasting: z.boolean(),
  combatCastingMoved: z.number().int(),
});

/** What an action changes on its actor: any fields of `TaraCombatant`. */
const combatantPatch = z
  .strictObject({
    initiativeRoll: z.number().int().nullable(),
    initiativeScore: z.number().int().nullable(),
    marksLeft: z.number().int(),
    carryOver: z.number().int(),
    delaying: z.enum(['up', 'down']).nullable(),
    acted: z.boolean(),
    fullActionException: z.boolean(),
    landSpeedUsed: z.number().int(),
    movedThisRound: z.boolean(),
    meleeSet: z.boolean(),
    rangedSet: z.boolean(),
    castingSet: z.boolean(),
    actedAt: instantSchema.nullable(),
    casting: casting.nullable(),
    channeling: z.enum(['no', 'channeling', 'broken']),
    unitsMoved: z.number().int(),
    attacksMade: z.number().int(),
    /** The non-Free Action that lost the ranged Set. */
    rangedUnsetBy: z.string().nullable(),
    /** An action other than a spell carried over into the next Round. */
    carrying: z
      .strictObject({ action: z.string(), name: z.string(), completesAt: instantSchema, entry: z.string() })
      .nullable(),
  })
  .partial();

/** A stretch of the round's history the timeline draws (see `HistorySpan` in types.ts). */
const historySpan = z.strictObject({
  round: z.number().int(),
  combatant: namedId(),
  from: mark,
  to: mark,
  kind: z.string(),
  label: z.string(),
});

/** One attack of an action: which, of how many, at whom. */
const attackFields = {
  combatant: namedId(),
  action: z.string(),
  number: z.number().int().min(1),
  of: z.number().int().min(1),
  round: z.number().int(),
  mark,
  target: namedId().optional(),
};

export const taraEvents = {
  /** How this round is played (the round mode in effect from this roll). */
  'tara/round-mode': z.strictObject({ round: z.number().int(), mode: roundMode }),
  /** A combatant's Initiative Roll and Initiative Score for the round, and how they were reached. */
  'tara/initiative': z.strictObject({
    combatant: namedId(),
    round: z.number().int(),
    /** The d10s as rolled (null in a Very Simply round, which rolls nothing). */
    dice: z.number().int().nullable(),
    characteristic: z.number().int(),
    modifiers: z.number().int(),
    initiativeRoll: z.number().int(),
    delay: z.enum(['up', 'down']).nullable(),
    carryOver: z.number().int(),
    /** Marks of a spell longer than a Round still to come off later Rounds. */
    carryOverLeft: z.number().int().optional(),
    score: z.number().int(),
  }),
  /** The round's order: groups of combatants who act at the same Mark, simultaneously. */
  'tara/round-order': z.strictObject({ round: z.number().int(), order: z.array(z.array(namedId())) }),
  /** A combatant took an action: the Marks it spent, what it changed on them, what the timeline draws. */
  'tara/acted': z.strictObject({
    combatant: namedId(),
    action: z.string(),
    name: z.string(),
    round: z.number().int(),
    mark,
    marks: z.number().int(),
    marksLeft: z.number().int(),
    after: combatantPatch,
    spans: z.array(historySpan),
    units: z.number().int().optional(),
    exception: z.literal(true).optional(),
    outOfTurn: z.literal(true).optional(),
    target: namedId().optional(),
    defending: z.literal(true).optional(),
    castingTime: z.number().int().optional(),
    resolvesAt: instantSchema.optional(),
    /** A carried-over action: the instant it completes next Round. */
    completesAt: instantSchema.optional(),
    carryOver: z.number().int().optional(),
  }),
  /** One attack happened at its Mark (a Desperate Shot with its dice, and whether they made it miss). */
  'tara/attack': z.strictObject({
    ...attackFields,
    desperate: z.literal(true).optional(),
    faces: z.array(z.number().int()).optional(),
    miss: z.boolean().optional(),
  }),
  /** An attack that would fall below Mark 1 was forfeited. */
  'tara/attack-forfeited': z.strictObject(attackFields),
  /** A spell went off at its Mark. */
  'tara/spell-resolved': z.strictObject({
    combatant: namedId(),
    spell: z.string(),
    round: z.number().int(),
    mark,
  }),
  /** A spell being cast fizzled (its caster gave up, or fell). */
  'tara/spell-fizzled': z.strictObject({ combatant: namedId(), spell: z.string() }),
  /** A combatant acts at the same Mark as others (their ties are unbroken). */
  'tara/simultaneous': z.strictObject({
    combatant: namedId(),
    with: z.array(namedId()),
    mark,
    /** The instant at which they may act in either order (absent in older logs). */
    at: instantSchema.optional(),
  }),
  /** An action carried over into the next Round was dropped (its character fell before it completed). */
  'tara/carry-dropped': z.strictObject({ combatant: namedId(), action: z.string(), name: z.string() }),
  /** An action carried over from the last Round completed at its Mark. */
  'tara/action-completed': z.strictObject({
    combatant: namedId(),
    action: z.string(),
    name: z.string(),
    round: z.number().int(),
    mark,
  }),
  /** Marks a combatant had left at the end of the round are lost. */
  'tara/forfeited': z.strictObject({ combatant: namedId(), marks: z.number().int() }),
  /** The round is over; the next is rolled with the next "next". */
  'tara/round-over': z.strictObject({ round: z.number().int() }),
  /** A late arrival's Mark has passed this round; they act from the next one. */
  'tara/joins-next-round': z.strictObject({ combatant: namedId() }),
} as const;

type Events = typeof taraEvents;
/** One of Tara-Corax's own events, as its schema infers it. */
export type TaraEvent = { [K in keyof Events]: { type: K } & z.infer<Events[K]> }[keyof Events];
