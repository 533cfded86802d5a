import { type Combatant, combatantOf } from '@roundkeeper/engine';
import type { Opend6Combatant, Opend6Round, Opend6Types, State } from './types.js';

/**
 * A combatant the state holds by construction (a roster id, a unit's leader, an agenda entry's
 * combatant). Missing, the state is broken: an Error says so rather than a refusal a GM cannot act on.
 */
export function member(state: State, id: string): Combatant<Opend6Types> {
  const c = combatantOf(state, id);
  if (!c) throw new Error(`OpenD6: the encounter names a combatant "${id}" it does not hold.`);
  return c;
}

export function patchCs(state: State, id: string, patch: Partial<Opend6Combatant>): State {
  const c = state.combatants[id];
  if (!c) return state;
  return { ...state, combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...patch } } } };
}

export function patchRs(state: State, patch: Partial<Opend6Round>): State {
  return { ...state, rs: { ...state.rs, ...patch } };
}
