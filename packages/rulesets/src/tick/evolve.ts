import { updateCombatant } from '@roundkeeper/engine';
import type { TickEvent } from './events.js';
import type { State, TickCombatant } from './types.js';

function patchCs(state: State, id: string, patch: Partial<TickCombatant>): State {
  return updateCombatant(state, id, (c) => ({ ...c, cs: { ...c.cs, ...patch } }));
}

/** Applies one of the tick ruleset's own events (the engine applies its own). */
export function evolve(state: State, event: TickEvent): State | undefined {
  switch (event.type) {
    case 'tick/initiative':
      return patchCs(state, event.combatant, { initiative: event.tick });
    case 'tick/placed': {
      const s = patchCs(state, event.combatant, { tick: event.tick, arrival: event.arrival, waiting: false });
      return { ...s, rs: { ...s.rs, arrivals: Math.max(s.rs.arrivals, event.arrival + 1) } };
    }
    case 'tick/acted': {
      const spent = {
        action: event.action,
        name: event.name,
        kind: event.kind,
        from: event.from,
        to: event.to,
      };
      return patchCs(state, event.combatant, { last: spent, busy: event.continuous ? spent : null });
    }
    case 'tick/set':
      return state;
    case 'tick/completed':
    case 'tick/interrupted':
      return patchCs(state, event.combatant, { busy: null });
    case 'tick/waiting':
      return patchCs(state, event.combatant, { waiting: true, tick: null, arrival: null });
    case 'tick/stepped-in':
      return patchCs(state, event.combatant, { waiting: false, tick: event.tick });
    case 'tick/left':
      return patchCs(state, event.combatant, { tick: null, arrival: null, busy: null, waiting: false });
    default:
      return undefined;
  }
}
