import { type CoreEvent, type EventOf, lazySchemas, namedId } from '@roundkeeper/engine';
import { z } from 'zod';
import { SLOTS } from './catalog.js';

/**
 * The facts `classic` records, one schema per event type, every combatant id marked with `namedId()`
 * (redaction drops an event that names someone the viewer may not see). Strict: a field the code adds
 * without declaring it here fails the worked-example check in `sdk.test.ts`.
 */

/** An order key: [−total, −modifier, −roll-off…], a delayed turn's instant for one who steps in. */
const orderKey = () => z.array(z.number());
const slot = () => z.enum(SLOTS);

export const classicEvents = lazySchemas({
  /** A combatant's initiative total, rolled or set by the GM. */
  'classic/initiative': () =>
    z.strictObject({ combatant: namedId(), total: z.number(), rolled: z.boolean() }),
  /** A combatant's place in the order (their sort key). */
  'classic/key': () => z.strictObject({ combatant: namedId(), key: orderKey() }),
  /** Combatants tied on total and modifier each rolled a d20 (in the same order). */
  'classic/roll-off': () =>
    z.strictObject({
      combatants: z.array(namedId()),
      rolls: z.array(z.number().int().min(1).max(20)),
    }),
  /** A combatant took an action from the catalog, using one part of their turn. */
  'classic/acted': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      slot: slot(),
      target: namedId().optional(),
    }),
  /** A combatant stepped out of the order to act later. */
  'classic/delayed': () => z.strictObject({ combatant: namedId() }),
  /** A delaying combatant stepped back in; their new place in the order. */
  'classic/resumed': () => z.strictObject({ combatant: namedId(), key: orderKey() }),
  /** A combatant readied an action for a trigger (it uses their action). */
  'classic/readied': () => z.strictObject({ combatant: namedId(), action: z.string(), trigger: z.string() }),
  /** A readied action went off (it uses the reaction). */
  'classic/triggered': () =>
    z.strictObject({ combatant: namedId(), action: z.string(), trigger: z.string() }),
  /** A new turn gave the combatant back their action, bonus action and reaction. */
  'classic/refreshed': () => z.strictObject({ combatant: namedId() }),
  /** A readied action that never went off lapsed at its owner's next turn. */
  'classic/ready-lapsed': () => z.strictObject({ combatant: namedId() }),
  /** A PC dropped to 0 HP: unconscious, making death saves on their turns. */
  'classic/fell': () => z.strictObject({ combatant: namedId() }),
  /**
   * A downed PC's death saves after a save (`roll`, the d20's face) or after damage taken at 0 HP (no
   * roll: one failure). Three successes: stable.
   */
  'classic/death-saves': () =>
    z.strictObject({
      combatant: namedId(),
      roll: z.number().int().min(1).max(20).optional(),
      successes: z.number().int().min(0),
      failures: z.number().int().min(0),
    }),
  /** A downed PC failed a third death save: dead (and out of the fight). */
  'classic/died': () => z.strictObject({ combatant: namedId() }),
  /** A downed PC has HP again: conscious, the death saves forgotten. */
  'classic/came-to': () => z.strictObject({ combatant: namedId() }),
  /** A late arrival's place in this round has passed; they act from the next round. */
  'classic/joins-next-round': () => z.strictObject({ combatant: namedId() }),
  /**
   * A concentrating combatant took damage: the GM's reminder of the Constitution save (DC 10 or half the
   * damage, whichever is higher) that keeps the concentration (`effect`, its name) up.
   */
  'classic/concentration-check': () =>
    z.strictObject({
      combatant: namedId(),
      effect: z.string(),
      damage: z.number().int().min(1),
      dc: z.number().int().min(10),
    }),
});

/** One of classic's own events, as its schema infers it. */
export type ClassicEvent = EventOf<typeof classicEvents>;

/** Any event classic emits or reads: its own and the engine's. */
export type AnyEvent = CoreEvent | ClassicEvent;
