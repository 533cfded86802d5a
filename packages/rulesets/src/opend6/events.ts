import { type CoreEvent, type EventOf, lazySchemas, namedId } from '@roundkeeper/engine';
import { z } from 'zod';
import {
  atSchema as at,
  effectiveCodeSchema,
  happeningSchema,
  initiativeBonusSchema,
  roundSchema as round,
  slotSchema as slot,
  UNABLE_CONDITIONS,
} from './shapes.js';

/**
 * The facts OpenD6 records, one schema per event type, every combatant id marked with `namedId()`
 * (redaction drops an event that names someone the viewer may not see; `redactEvent` first takes hidden
 * combatants out of lists such as a group's members and a round's slots). Strict: a field the code adds
 * without declaring it here fails the event checks in `sdk.test.ts`.
 */

const actions = () => z.number().int().min(0);
/** Dice taken off every skill and attribute roll for the extra actions declared. */
const penalty = () => z.number().int().min(0);

export const opend6Events = lazySchemas({
  /**
   * A character's or NPC group's place in the order: a Perception roll (with Character Point Wild Dice and
   * the optional bonus), or a place the GM gave (no total).
   */
  'opend6/initiative': () =>
    z.strictObject({
      combatant: namedId(),
      members: z.array(namedId()),
      rolled: z.boolean(),
      perception: z.string().optional(),
      perceptionRoll: z.number().int().optional(),
      characterPoints: z.number().int().min(0).optional(),
      characterPointRolls: z.array(z.number().int()).optional(),
      bonus: initiativeBonusSchema().optional(),
      total: z.number().int().nullable(),
      key: at(),
    }),
  /** A round begins (its turns are scheduled once its initiative is known). */
  'opend6/round-begins': () => z.strictObject({ round: round() }),
  /** The new round wipes last round's declarations, actions used and waits. */
  'opend6/round-reset': () => z.strictObject({ round: round() }),
  /** The round's turns, in order, for the timeline. */
  'opend6/slots': () => z.strictObject({ round: round(), slots: z.array(slot()) }),
  /** A turn added to the round (a resumed wait, a late arrival). */
  'opend6/slot-added': () => z.strictObject({ slot: slot() }),
  /** A turn began: who acts in it (one character, or a group's members). */
  'opend6/turn': () => z.strictObject({ members: z.array(namedId()), at: at(), resumed: z.boolean() }),
  /** How many actions a character (or a group) declared this round, and what the penalty leaves of each code. */
  'opend6/declared': () =>
    z.strictObject({
      combatant: namedId(),
      combatants: z.array(namedId()),
      actions: actions(),
      allotment: z.number().int().min(1),
      penalty: penalty(),
      effective: z.record(z.string(), effectiveCodeSchema()),
    }),
  /** A character took an action (on her turn, as an interrupt, or moving her turn up). */
  'opend6/acted': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      mode: z.enum(['turn', 'interrupt', 'move-up', 'wait-again']),
      /** Which of her declared actions this is; null for a free action. */
      number: z.number().int().min(1).nullable(),
      declared: actions().nullable(),
      penalty: penalty(),
      wait: z.boolean(),
      target: namedId().optional(),
    }),
  /** A waiting character interrupted another's roll before its result. */
  'opend6/interrupted': () => z.strictObject({ combatant: namedId(), interrupted: namedId() }),
  /** A waiting character took her turn after waiting. */
  'opend6/resumed': () => z.strictObject({ combatant: namedId() }),
  /** Something happened on the clock (for the timeline). */
  'opend6/happened': () => z.strictObject({ happening: happeningSchema() }),
  /** A skill or attribute roll awaits the GM's result: the moment a waiting character may interrupt. */
  'opend6/roll-open': () => z.strictObject({ combatant: namedId(), purpose: z.string() }),
  /** The GM declared the result of the open roll. */
  'opend6/result-declared': () => z.strictObject({ combatant: namedId(), purpose: z.string() }),
  /** Declared actions a character did not take are lost (at the round's end, or made unable to act). */
  'opend6/actions-lost': () =>
    z.strictObject({
      combatant: namedId(),
      count: z.number().int().min(1),
      reason: z.enum(['round end', 'unable to act']),
    }),
  /** A character (or group) loses this round's turn: unable to act. */
  'opend6/turn-lost': () => z.strictObject({ combatant: namedId(), reason: z.string() }),
  /** A character was made unconscious, immobile or otherwise unable to act. */
  'opend6/incapacitated': () =>
    z.strictObject({ combatant: namedId(), condition: z.enum(UNABLE_CONDITIONS) }),
  /** A character can act again. */
  'opend6/recovered': () => z.strictObject({ combatant: namedId() }),
  /** A late arrival's place this round has passed; they act from the next one. */
  'opend6/joins-next-round': () =>
    z.strictObject({
      combatant: namedId(),
      /** Why, when it is a return to the fight (recovered, revived) rather than a late arrival. */
      reason: z.string().optional(),
    }),
});

/** One of OpenD6's own events, as its schema infers it. */
export type Opend6Event = EventOf<typeof opend6Events>;

export type AnyEvent = CoreEvent | Opend6Event;

/** One event of a type, for the functions that build it. */
export type Opend6EventOf<K extends Opend6Event['type']> = Extract<Opend6Event, { type: K }>;
