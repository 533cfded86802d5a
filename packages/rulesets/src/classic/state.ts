import type { ClassicCombatant, State } from './types.js';

export function patchCs(state: State, id: string, patch: Partial<ClassicCombatant>): State {
  const c = state.combatants[id];
  if (!c) return state;
  return { ...state, combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...patch } } } };
}

/** A new turn's action economy: the action, the bonus action and the reaction, all unused. */
export const fresh = (): ClassicCombatant['used'] => ({ action: false, bonus: false, reaction: false });
