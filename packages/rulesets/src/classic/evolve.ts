import { writeCs } from '@roundkeeper/engine';
import type { ClassicEvent } from './events.js';
import { fresh, patchCs } from './state.js';
import type { State } from './types.js';

/** Applies one of classic's own events (the engine applies its own). */
export function evolve(state: State, event: ClassicEvent): State | undefined {
  switch (event.type) {
    case 'classic/initiative':
      return patchCs(state, event.combatant, { initiative: event.total });
    case 'classic/key':
      return patchCs(state, event.combatant, { key: event.key });
    case 'classic/roll-off':
      return state;
    case 'classic/acted': {
      const c = state.combatants[event.combatant];
      if (!c || event.slot === 'free') return state;
      const slot = event.slot;
      return writeCs(state, event.combatant, (cs) => {
        // A copy with one slot set (a computed key in the literal makes a slow, dictionary-mode object).
        const used = { ...cs.used };
        used[slot] = true;
        cs.used = used;
      });
    }
    case 'classic/delayed':
      return patchCs(state, event.combatant, { delaying: true });
    case 'classic/resumed':
      return patchCs(state, event.combatant, { delaying: false, key: event.key });
    case 'classic/readied': {
      const c = state.combatants[event.combatant];
      if (!c) return state;
      return patchCs(state, event.combatant, {
        readied: { action: event.action, trigger: event.trigger },
        used: { ...c.cs.used, action: true },
      });
    }
    case 'classic/triggered': {
      const c = state.combatants[event.combatant];
      if (!c) return state;
      return patchCs(state, event.combatant, { readied: null, used: { ...c.cs.used, reaction: true } });
    }
    case 'classic/refreshed':
      return patchCs(state, event.combatant, { used: fresh() });
    case 'classic/ready-lapsed':
      return patchCs(state, event.combatant, { readied: null });
    case 'classic/concentration-check':
    case 'classic/joins-next-round':
      return state;
    case 'classic/fell':
      return patchCs(state, event.combatant, { dying: { successes: 0, failures: 0, stable: false } });
    case 'classic/death-saves':
      return patchCs(state, event.combatant, {
        dying: { successes: event.successes, failures: event.failures, stable: event.successes >= 3 },
      });
    case 'classic/died':
      return state;
    case 'classic/came-to':
      return patchCs(state, event.combatant, { dying: null });
    default:
      return undefined;
  }
}
