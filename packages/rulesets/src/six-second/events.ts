import { type CoreEvent, type EventOf, lazySchemas, namedId } from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * The facts the six-second ruleset records, one schema per event type, every combatant id marked with
 * `namedId()` (redaction drops an event that names someone the viewer may not see; `redactEvent` first
 * takes hidden combatants out of an order or a contest). Strict: a field the code adds without declaring
 * it here fails the event checks in `sdk.test.ts`.
 */

const seconds = () => z.number().int().min(0);
const turnNo = () => z.number().int().min(0);

/**
 * A delayed effect waiting for its second, counted in the acting character's own turn seconds
 * (`PendingEffect` in types.ts is inferred from it).
 */
export const pendingEffectSchema = () =>
  z.strictObject({
    id: z.string(),
    name: z.string(),
    action: z.string(),
    /** The delay in seconds, as declared. */
    delay: seconds(),
    /** The character's turn number (see `turnNo`) and the second of that turn right after which it happens. */
    due: z.strictObject({ turn: turnNo(), second: z.number().int() }),
  });

/** Tied characters' Reflex checks rolled again, in the same order. */
const rollOff = () => z.strictObject({ combatants: z.array(namedId()), totals: z.array(z.number().int()) });

export const sixSecondEvents = lazySchemas({
  /** A combatant's Initiative (Reflex check + Dexterity), rolled or given by the GM. */
  'six-second/initiative': () =>
    z.strictObject({
      combatant: namedId(),
      total: z.number().int(),
      rolled: z.boolean(),
    }),
  /** A roll-off between characters tied on Initiative. */
  'six-second/roll-off': () => rollOff(),
  /** A roll-off between characters tied in a contest of who goes first. */
  'six-second/contest-roll-off': () => rollOff(),
  /** Ties that would not break after many roll-offs: the roster order settles them. */
  'six-second/roll-off-abandoned': () => z.strictObject({ combatants: z.array(namedId()) }),
  /** The Initiative order, highest first; a late arrival's slot moves those from `shiftFrom` down one. */
  'six-second/order': () =>
    z.strictObject({
      order: z.array(namedId()),
      shiftFrom: z.number().int().min(1).optional(),
    }),
  /** Who goes first in a contest outside the turn order, with each one's Reflex check. */
  'six-second/contest': () =>
    z.strictObject({
      order: z.array(namedId()),
      totals: z.array(z.number().int()),
      about: z.string().nullable(),
    }),
  /** A combatant's turn began (or their delayed turn), with the instant its seconds count from. */
  'six-second/turn-began': () =>
    z.strictObject({
      combatant: namedId(),
      turn: turnNo(),
      base: z.array(z.number()),
      round: z.number().int(),
      delayed: z.boolean(),
      /** What is pending as the turn opens, and how many of the character's seconds away (older logs: absent). */
      pending: z.array(z.strictObject({ name: z.string(), seconds: z.number().int() })).optional(),
    }),
  /** A combatant took an action: the seconds of their turn it took, what runs on, what takes effect later. */
  'six-second/acted': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      kind: z.string(),
      seconds: seconds(),
      from: z.number().int(),
      to: z.number().int(),
      /** Seconds that run on into the next turns. */
      carry: seconds(),
      round: z.number().int(),
      turn: turnNo(),
      delay: seconds().nullable(),
      effect: z.string(),
      target: namedId().optional(),
    }),
  /** An action carried over took the first seconds of its actor's new turn. */
  'six-second/continued': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      from: z.number().int(),
      to: z.number().int(),
      completes: z.boolean(),
      round: z.number().int(),
      turn: turnNo(),
    }),
  /** An action's effect will happen after its delay. */
  'six-second/delay-started': () => z.strictObject({ combatant: namedId(), effect: pendingEffectSchema() }),
  /** A delayed effect happened (or lapsed with its turn). */
  'six-second/effect-occurred': () =>
    z.strictObject({
      combatant: namedId(),
      effect: z.string(),
      name: z.string(),
      action: z.string(),
      round: z.number().int(),
      turn: turnNo(),
      second: z.number().int(),
      lapsed: z.literal(true).optional(),
    }),
  /** A delayed effect was cancelled (its actor fell). */
  'six-second/effect-cancelled': () =>
    z.strictObject({
      combatant: namedId(),
      effect: z.string(),
      name: z.string(),
    }),
  /** A turn ended with seconds unspent; they passed anyway. */
  'six-second/turn-closed': () => z.strictObject({ combatant: namedId(), unused: seconds() }),
  /** A combatant delayed their turn. */
  'six-second/turn-delayed': () => z.strictObject({ combatant: namedId(), turn: turnNo() }),
  /** A delayed turn was never taken before the next one came. */
  'six-second/delay-lapsed': () => z.strictObject({ combatant: namedId(), turn: turnNo() }),
  /** A delayed turn interrupted a combatant's turn at a second. */
  'six-second/turn-interrupted': () =>
    z.strictObject({
      combatant: namedId(),
      by: namedId(),
      second: seconds(),
      /** The interrupted character's action that goes on at the start of their next turn. */
      runningOn: z.string().optional(),
    }),
  /** An interrupted turn resumed (null: none is left to resume). */
  'six-second/turn-resumed': () => z.strictObject({ combatant: namedId().nullable() }),
  /** A late arrival's slot has passed this round; they act from the next one. */
  'six-second/joins-next-round': () => z.strictObject({ combatant: namedId() }),
});

/** One of the six-second ruleset's own events, as its schema infers it. */
export type SixSecondEvent = EventOf<typeof sixSecondEvents>;
/** The six-second event of one type. */
export type SixSecondEventOf<K extends SixSecondEvent['type']> = Extract<SixSecondEvent, { type: K }>;

/** What the six-second ruleset decides, reacts to and describes: its own events and the engine's. */
export type SixSecondFact = CoreEvent | SixSecondEvent;
