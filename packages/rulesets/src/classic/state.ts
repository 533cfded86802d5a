import { updateCombatant } from '@roundkeeper/engine';
import type { ClassicCombatant, State } from './types.js';

export function patchCs(state: State, id: string, patch: Partial<ClassicCombatant>): State {
  return updateCombatant(state, id, (c) => ({ ...c, cs: { ...c.cs, ...patch } }));
}

/** A new turn's action economy: the action, the bonus action and the reaction, all unused. */
export const fresh = (): ClassicCombatant['used'] => ({ action: false, bonus: false, reaction: false });
