import { namedId } from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * The shapes OpenD6 keeps in its state and carries in its events, as schemas: the state's types are
 * inferred from them (types.ts), so an event holds exactly what the state stores.
 */

/** 002 "Note that a character rendered unconscious, immobile, or otherwise unable to act…". */
export const UNABLE_CONDITIONS = ['unconscious', 'immobile', 'unable to act'] as const;
export type UnableCondition = (typeof UNABLE_CONDITIONS)[number];

export const roundSchema = () => z.number().int();
/** An instant's `at` tuple (an order key). */
export const atSchema = () => z.array(z.number());

/** One turn of a round as the timeline draws it. */
export const slotSchema = () =>
  z.strictObject({
    round: roundSchema(),
    at: atSchema(),
    members: z.array(namedId()),
    label: z.string(),
    /** A turn a character takes after waiting, right after the turn it came in (its own column). */
    resumed: z.literal(true).optional(),
  });

/** Something that happened on the clock, for the timeline. */
export const happeningSchema = () =>
  z.strictObject({
    round: roundSchema(),
    /** The instant's `at` tuple: an interrupt sits just after the roll it interrupts. */
    at: atSchema(),
    combatant: namedId(),
    kind: z.enum(['action', 'wait', 'interrupt', 'move-up', 'lost', 'free']),
    label: z.string(),
    /** The catalog or custom action taken (absent for a lost action). */
    action: z.string().optional(),
  });

/** A die code and what the multi-action penalty leaves of it. */
export const effectiveCodeSchema = () =>
  z.strictObject({
    code: z.string(),
    effective: z.string(),
    usable: z.boolean(),
  });

/** 002 "Optional Initiative Bonus", term by term (see `initiativeBonus`). */
export const initiativeBonusSchema = () =>
  z.strictObject({
    search: z.number().int(),
    reflexes: z.number().int(),
    ranks: z.number().int(),
  });

export type Slot = z.output<ReturnType<typeof slotSchema>>;
export type Happening = z.output<ReturnType<typeof happeningSchema>>;
export type EffectiveCode = z.output<ReturnType<typeof effectiveCodeSchema>>;
export type InitiativeBonus = z.output<ReturnType<typeof initiativeBonusSchema>>;
