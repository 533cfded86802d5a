import type { AnyEvent } from './events.js';
import { catalog } from './legal.js';
import type { State } from './types.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

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
    case 'classic/fell':
      return `${name(event.combatant)} falls unconscious at 0 HP and makes death saves on their turns.`;
    case 'classic/death-saves': {
      const counts = `${plural(event.successes, 'success', 'successes')}, ${plural(event.failures, 'failure', 'failures')}`;
      const what =
        event.roll === undefined
          ? `${name(event.combatant)} is hurt while down: a failed death save`
          : `${name(event.combatant)}'s death save: ${event.roll}, ${event.roll === 1 ? 'two failures' : event.roll >= 10 ? 'a success' : 'a failure'}`;
      return `${what} (${counts})${event.successes >= 3 ? `; ${name(event.combatant)} is stable` : ''}.`;
    }
    case 'classic/died':
      return `${name(event.combatant)} dies: three failed death saves.`;
    case 'classic/came-to':
      return `${name(event.combatant)} has HP again and regains consciousness.`;
    case 'classic/joins-next-round':
      return `${name(event.combatant)}'s place in the order has passed; they act from next round.`;
    case 'classic/concentration-check':
      return `${name(event.combatant)} took ${event.damage} damage while concentrating (${event.effect}): Constitution save, DC ${event.dc}, or it ends.`;
    default:
      return null;
  }
}
