import { updateCombatant } from '@roundkeeper/engine';
import type { Opend6Combatant, Opend6Round, State } from './types.js';

export function patchCs(state: State, id: string, patch: Partial<Opend6Combatant>): State {
  return updateCombatant(state, id, (c) => ({ ...c, cs: { ...c.cs, ...patch } }));
}

export function patchRs(state: State, patch: Partial<Opend6Round>): State {
  return { ...state, rs: { ...state.rs, ...patch } };
}
