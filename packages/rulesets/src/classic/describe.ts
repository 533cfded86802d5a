import type { AnyEvent } from './events.js';
import { catalog } from './legal.js';
import type { State } from './types.js';

/** A log line for one of classic's events, or null for the engine's default. */
export function describeEvent(event: AnyEvent, state: State): string | null {
  const name = (id: string) => state.combatants[id]?.name ?? id;
  switch (event.type) {
    case 'classic/initiative':
      return event.rolled ? null : `${name(event.combatant)}'s initiative is set to ${event.total}.`;
    case 'classic/roll-off':
      return `Tie: ${event.combatants.map(name).join(' and ')} roll off (${event.rolls.join(', ')}).`;
    case 'classic/acted': {
      const action = catalog(state).find((a) => a.id === event.action)?.name ?? event.action;
      return `${name(event.combatant)}: ${action}${event.target ? ` → ${name(event.target)}` : ''}.`;
    }
    case 'classic/delayed':
      return `${name(event.combatant)} delays.`;
    case 'classic/resumed':
      return `${name(event.combatant)} steps in and acts now.`;
    case 'classic/readied':
      return `${name(event.combatant)} readies ${event.action} (trigger: ${event.trigger}).`;
    case 'classic/triggered':
      return `${name(event.combatant)}'s readied ${event.action} goes off.`;
    case 'classic/joins-next-round':
      return `${name(event.combatant)}'s place in the order has passed; they act from next round.`;
    case 'classic/concentration-check':
      return `${name(event.combatant)} took ${event.damage} damage while concentrating (${event.effect}): Constitution save, DC ${event.dc}, or it ends.`;
    default:
      return null;
  }
}
