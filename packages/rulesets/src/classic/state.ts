import { type Combatant, combatantOf } from '@roundkeeper/engine';
import type { ClassicCombatant, ClassicTypes, State } from './types.js';

/**
 * A combatant the state holds by construction (a roster id, the combatant whose turn it is). Missing,
 * the state is broken: an Error says so rather than a refusal a GM cannot act on.
 */
export function member(state: State, id: string): Combatant<ClassicTypes> {
  const c = combatantOf(state, id);
  if (!c) throw new Error(`Classic: the encounter names a combatant "${id}" it does not hold.`);
  return c;
}

export function patchCs(state: State, id: string, patch: Partial<ClassicCombatant>): State {
  const c = state.combatants[id];
  if (!c) return state;
  return { ...state, combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...patch } } } };
}

/** A new turn's action economy: the action, the bonus action and the reaction, all unused. */
export const fresh = (): ClassicCombatant['used'] => ({ action: false, bonus: false, reaction: false });
