import { type CoreEvent, type EventOf, instantSchema, lazySchemas, namedId } from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * The facts Tara-Corax records, one schema per event type, every combatant id marked with `namedId()`
 * (redaction drops an event that names someone the viewer may not see; `redactEvent` first takes hidden
 * partners out of a round's order and of a simultaneous action). Strict: a field the code adds without
 * declaring it here fails the event checks in `sdk.test.ts`.
 */

const mark = () => z.number().int();
const roundMode = () => z.enum(['full', 'simple', 'very-simply']);

/** A spell being cast: started at a Mark, resolving Casting Time Marks later (maybe next round). */
export const castingSchema = () =>
  z.strictObject({
    spell: z.string(),
    castingTime: z.number().int(),
    startedAt: instantSchema,
    resolvesAt: instantSchema,
    /** The agenda entry of the resolution. */
    entry: z.string(),
    combatCasting: z.boolean(),
    /** Units moved for free through Combat Casting during this cast. */
    combatCastingMoved: z.number().int(),
  });

/**
 * An action other than a spell that carries over into the next Round (000 Carry Over: "Initiative can
 * carry over into the following Round if there is a certain number of Initiative Marks it takes to
 * complete"): started with too few Marks left, done in the next Round.
 */
export const carriedSchema = () =>
  z.strictObject({
    action: z.string(),
    name: z.string(),
    completesAt: instantSchema,
    /** The agenda entry of its completion. */
    entry: z.string(),
  });

/**
 * A combatant's Tara-Corax state (`TaraCombatant` in types.ts is inferred from it). Everything marked
 * "this round" resets when a round's initiative is rolled.
 */
export const taraCombatantSchema = () =>
  z.strictObject({
    /** The Initiative Roll this round (1d10 + characteristic + modifiers, capped at 30); null before the first. */
    initiativeRoll: z.number().int().nullable(),
    /** The Initiative Score this round: the Mark of the first action and the budget. */
    initiativeScore: z.number().int().nullable(),
    marksLeft: z.number().int(),
    /** Marks a spell bled into the next round; subtracted from the next Initiative Roll. */
    carryOver: z.number().int(),
    /** Delaying this round (announced with the roll), and which way half the roll was rounded. */
    delaying: z.enum(['up', 'down']).nullable(),
    /** A non-Free Action (movement included) was taken this round. */
    acted: z.boolean(),
    /** The once-per-Round Full Action without enough Initiative Score was used. */
    fullActionException: z.boolean(),
    /** Units moved this round that count against Land Speed. */
    landSpeedUsed: z.number().int(),
    /** Moved at all this round (a melee attack is then single and needs a Set). */
    movedThisRound: z.boolean(),
    /** Set for melee this round (since the last move). */
    meleeSet: z.boolean(),
    /** Set to shoot: lost on moving or on any non-Free Action other than an attack; kept across rounds. */
    rangedSet: z.boolean(),
    /** The non-Free Action that lost the ranged Set (null: a move did, or nothing; absent in older states). */
    rangedUnsetBy: z.string().nullable().optional(),
    /** Set since the last move or non-Free Action (attacks included): Combat Casting may be used; kept across rounds. */
    castingSet: z.boolean(),
    /** The instant of the last non-Free Action in a Full Round (the character is busy until the next turn entry). */
    actedAt: instantSchema.nullable(),
    casting: castingSchema().nullable(),
    /** An action other than a spell carried over into the next Round (absent in older states). */
    carrying: carriedSchema().nullable().optional(),
    channeling: z.enum(['no', 'channeling', 'broken']),
    /** Totals over the fight, for the GM's summary. */
    unitsMoved: z.number().int(),
    attacksMade: z.number().int(),
  });

/** What an action changes on its actor: any fields of `TaraCombatant`. */
const combatantPatch = () => taraCombatantSchema().partial();

/** A stretch of the round's history the timeline draws (see `HistorySpan` in types.ts). */
export const historySpanSchema = () =>
  z.strictObject({
    round: z.number().int(),
    combatant: namedId(),
    from: mark(),
    to: mark(),
    kind: z.string(),
    label: z.string(),
  });

/** One attack of an action: which, of how many, at whom. */
const attackFields = () => ({
  combatant: namedId(),
  action: z.string(),
  number: z.number().int().min(1),
  of: z.number().int().min(1),
  round: z.number().int(),
  mark: mark(),
  target: namedId().optional(),
});

export const taraEvents = lazySchemas({
  /** How this round is played (the round mode in effect from this roll). */
  'tara/round-mode': () => z.strictObject({ round: z.number().int(), mode: roundMode() }),
  /** A combatant's Initiative Roll and Initiative Score for the round, and how they were reached. */
  'tara/initiative': () =>
    z.strictObject({
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
  'tara/round-order': () => z.strictObject({ round: z.number().int(), order: z.array(z.array(namedId())) }),
  /** A combatant took an action: the Marks it spent, what it changed on them, what the timeline draws. */
  'tara/acted': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      round: z.number().int(),
      mark: mark(),
      marks: z.number().int(),
      marksLeft: z.number().int(),
      after: combatantPatch(),
      spans: z.array(historySpanSchema()),
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
  'tara/attack': () =>
    z.strictObject({
      ...attackFields(),
      desperate: z.literal(true).optional(),
      faces: z.array(z.number().int()).optional(),
      miss: z.boolean().optional(),
    }),
  /** An attack that would fall below Mark 1 was forfeited. */
  'tara/attack-forfeited': () => z.strictObject(attackFields()),
  /** A spell went off at its Mark. */
  'tara/spell-resolved': () =>
    z.strictObject({
      combatant: namedId(),
      spell: z.string(),
      round: z.number().int(),
      mark: mark(),
    }),
  /** A spell being cast fizzled (its caster gave up, or fell). */
  'tara/spell-fizzled': () => z.strictObject({ combatant: namedId(), spell: z.string() }),
  /** A combatant acts at the same Mark as others (their ties are unbroken). */
  'tara/simultaneous': () =>
    z.strictObject({
      combatant: namedId(),
      with: z.array(namedId()),
      mark: mark(),
      /** The instant at which they may act in either order (absent in older logs). */
      at: instantSchema.optional(),
    }),
  /** An action carried over into the next Round was dropped (its character fell before it completed). */
  'tara/carry-dropped': () => z.strictObject({ combatant: namedId(), action: z.string(), name: z.string() }),
  /** An action carried over from the last Round completed at its Mark. */
  'tara/action-completed': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      round: z.number().int(),
      mark: mark(),
    }),
  /** Marks a combatant had left at the end of the round are lost. */
  'tara/forfeited': () => z.strictObject({ combatant: namedId(), marks: z.number().int() }),
  /** The round is over; the next is rolled with the next "next". */
  'tara/round-over': () => z.strictObject({ round: z.number().int() }),
  /** A late arrival's Mark has passed this round; they act from the next one. */
  'tara/joins-next-round': () => z.strictObject({ combatant: namedId() }),
});

/** One of Tara-Corax's own events, as its schema infers it. */
export type TaraEvent = EventOf<typeof taraEvents>;
/** The Tara-Corax event of one type. */
export type TaraEventOf<K extends TaraEvent['type']> = Extract<TaraEvent, { type: K }>;

/** What Tara-Corax decides, reacts to and describes: its own events and the engine's. */
export type TaraFact = CoreEvent | TaraEvent;
