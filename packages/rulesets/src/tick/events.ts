import { type CoreEvent, type EventOf, lazySchemas, namedId } from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * The facts the tick ruleset records, one schema per event type, every combatant id marked with
 * `namedId()` (redaction drops an event that names someone the viewer may not see).
 */
const tick = () => z.number().int().min(0);

export const tickEvents = lazySchemas({
  /** A combatant's first tick: rolled (the dice less the Initiative stat, at least 1) or set by the GM. */
  'tick/initiative': () =>
    z.strictObject({
      combatant: namedId(),
      roll: z.number().int(),
      tick: tick(),
      rolled: z.boolean(),
    }),
  /** A combatant's marker was put on a tick (`arrival` orders those who share it). */
  'tick/placed': () => z.strictObject({ combatant: namedId(), tick: tick(), arrival: z.number().int() }),
  /** A combatant took an action costing ticks: its marker moves from `from` to `to`. */
  'tick/acted': () =>
    z.strictObject({
      combatant: namedId(),
      action: z.string(),
      name: z.string(),
      kind: z.string(),
      ticks: z.number().int().min(1),
      from: tick(),
      to: tick(),
      continuous: z.boolean(),
      target: namedId().optional(),
    }),
  /** A continuous action reached its end tick and is done. */
  'tick/completed': () => z.strictObject({ combatant: namedId(), action: z.string(), name: z.string() }),
  /** A continuous action was broken off before its end tick. */
  'tick/interrupted': () => z.strictObject({ combatant: namedId(), action: z.string(), name: z.string() }),
  /** A combatant holds: its marker leaves the timeline until it steps in. */
  'tick/waiting': () => z.strictObject({ combatant: namedId() }),
  /** A waiting combatant stepped in at the current tick. */
  'tick/stepped-in': () => z.strictObject({ combatant: namedId(), tick: tick() }),
  /** The GM put a combatant's marker on a tick (the placement follows). */
  'tick/set': () => z.strictObject({ combatant: namedId(), tick: tick() }),
  /** A combatant left the timeline (defeated). */
  'tick/left': () => z.strictObject({ combatant: namedId() }),
});

/** One of the tick ruleset's own events, as its schema infers it. */
export type TickEvent = EventOf<typeof tickEvents>;

/** Any event the tick ruleset emits or reads: its own and the engine's. */
export type AnyEvent = CoreEvent | TickEvent;
