import { type EventOf, lazySchemas, namedId } from '@roundkeeper/engine';
import { z } from 'zod';
import { ACTION_KINDS } from './flags.js';

/**
 * The facts the stamina ruleset records, one schema per event type, every combatant id marked with
 * `namedId()` (redaction drops an event that names someone the viewer may not see). Strict: a field the
 * code adds without declaring it here fails the event checks in `sdk.test.ts`.
 */

/** The order key: [−initiative, −modifier, roster position]. */
const orderKey = () => z.array(z.number());

/** The dice and defenses that bear on an action's check (see `CheckModifiers` in conditions.ts). */
const checkModifiers = () =>
  z.strictObject({
    penaltyDice: z.number().int(),
    bonusDice: z.number().int(),
    notes: z.array(z.string()),
  });

export const staminaEvents = lazySchemas({
  /** A combatant's initiative, checked or set by the GM. */
  'stamina/initiative': () =>
    z.strictObject({ combatant: namedId(), total: z.number(), rolled: z.boolean() }),
  /** A combatant's place in the order (their sort key). */
  'stamina/key': () => z.strictObject({ combatant: namedId(), key: orderKey() }),
  /** A combatant's turn began: their turn's actions and their reaction are fresh. */
  'stamina/turn-began': () => z.strictObject({ combatant: namedId() }),
  /** A round began: once-per-round limits are fresh. */
  'stamina/round-began': () => z.strictObject({ round: z.number().int() }),
  /** A late arrival's place this round has passed; they act from the next one. */
  'stamina/joins-next-round': () => z.strictObject({ combatant: namedId() }),
  /** A combatant took an action: what it cost, its turn requirement, the dice that bear on its check. */
  'stamina/acted': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      kind: z.enum([...ACTION_KINDS, 'custom']),
      stamina: z.number().int(),
      defense: z.number().int(),
      turnRequirement: z.number().int().min(0),
      /** Why the turn requirement was reduced to zero, if it was. */
      reduced: z.enum(['first-move', 'penalty-die', 'cantrip']).nullable(),
      reaction: z.boolean(),
      /** Whose turn it was (none between turns; left out for a viewer who may not see whose turn it was). */
      during: namedId().nullable().optional(),
      check: checkModifiers(),
      target: namedId().optional(),
      /** The action a free attack was made as. */
      as: z.string().optional(),
      /** A once-per-round action now taken this round. */
      limit: z.string().optional(),
      meters: z.number().int().min(0).optional(),
      /** The opponent of greater reach whose reach penalty is now paid. */
      reachPaid: namedId().optional(),
      /** A first move that kept its turn requirement because the character scrambled. */
      scrambled: z.literal(true).optional(),
      /** The weapons the action was made with or readied, stowed, loaded, loosed or thrown (by sheet name). */
      weapons: z.array(z.string()).optional(),
      weaponChange: z.enum(['ready', 'stow', 'load', 'loose', 'throw']).optional(),
      /** Ammunition readied or stowed. */
      ammo: z.enum(['ready', 'stow']).optional(),
      /**
       * In a view only: what an NPC spent is the GM's (its Stamina and Defense, unless the GM shows them),
       * so `stamina` and `defense` are 0 here and say nothing.
       */
      costsUnseen: z.literal(true).optional(),
    }),
  /** A combatant's readied weapon left their hand (disarmed, a failed weapon Trip). */
  'stamina/dropped': () => z.strictObject({ combatant: namedId(), weapon: z.string(), reason: z.string() }),
  /** An action of several turns takes another of the character's turns. */
  'stamina/continues': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      turn: z.number().int().min(1),
      turns: z.number().int().min(1),
    }),
  /** An action of several turns completed as its last turn ended (a loaded weapon is loaded). */
  'stamina/completed': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      turns: z.number().int().min(1),
      weapon: z.string().optional(),
    }),
  /** An action of several turns stopped before completing: abandoned, or its character defeated. */
  'stamina/stopped': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      taken: z.number().int().min(0),
      turns: z.number().int().min(1),
      reason: z.enum(['abandoned', 'defeated']),
      /** Whether it stopped during the character's own turn. */
      inTurn: z.boolean(),
      /** Whether the turn it had taken is free again for another action. */
      freesTurn: z.boolean(),
    }),
  /** Stamina and defense a combatant gained (or lost, when negative), and why. */
  'stamina/resources': () =>
    z.strictObject({
      combatant: namedId(),
      stamina: z.number().int(),
      defense: z.number().int(),
      reason: z.string(),
    }),
  /** Arcane energy gathered, shaped, released, cast or lost, with the successes and the arcane dues. */
  'stamina/arcane': () =>
    z.strictObject({
      combatant: namedId(),
      change: z.enum(['lost', 'gather', 'shape', 'release', 'gated', 'ungated']),
      successes: z.number().int(),
      dues: z.number().int().min(0),
      success: z.boolean().optional(),
      difficulty: z.number().int().optional(),
    }),
});

/** One of the stamina ruleset's own events, as its schema infers it. */
export type StaminaEvent = EventOf<typeof staminaEvents>;
/** A stamina event of one type. */
export type StaminaEventOf<K extends StaminaEvent['type']> = Extract<StaminaEvent, { type: K }>;
