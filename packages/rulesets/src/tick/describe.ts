import type { AnyEvent } from './events.js';
import type { State } from './types.js';

/** A log line for one of the tick ruleset's events, or null for the engine's default (or none). */
export function describeEvent(event: AnyEvent, state: State): string | null {
  const name = (id: string) => state.combatants[id]?.name ?? id;
  switch (event.type) {
    case 'tick/initiative':
      return event.rolled
        ? `${name(event.combatant)} rolls ${event.roll}: first marker on tick ${event.tick}.`
        : `${name(event.combatant)}'s marker is set on tick ${event.tick}.`;
    case 'tick/acted': {
      const target = event.target ? ` → ${name(event.target)}` : '';
      const what = event.continuous ? `completes at tick ${event.to}` : `next at tick ${event.to}`;
      return `${name(event.combatant)}: ${event.name}${target} (${event.ticks} ticks, ${what}).`;
    }
    case 'tick/completed':
      return `${name(event.combatant)} completes ${event.name}.`;
    case 'tick/interrupted':
      return `${name(event.combatant)}'s ${event.name} is interrupted; the ticks spent are lost.`;
    case 'tick/waiting':
      return `${name(event.combatant)} waits, off the timeline.`;
    case 'tick/stepped-in':
      return `${name(event.combatant)} steps in at tick ${event.tick}.`;
    case 'tick/set':
      return `The GM puts ${name(event.combatant)}'s marker on tick ${event.tick}.`;
    case 'tick/left':
      return `${name(event.combatant)} leaves the timeline.`;
    case 'effect/added': {
      // Rule 6: a duration in ticks, and the tick it ends on.
      const e = event.effect;
      if (e.duration.kind !== 'for' || e.expires.on !== 'instant') return null;
      return `${name(e.target)} gains ${e.name} for ${e.duration.amount} ticks (until tick ${e.expires.at.at[0] ?? 0}).`;
    }
    default:
      return null;
  }
}
