import { writeCs } from '@roundkeeper/engine';
import type { ClassicCombatant, State } from './types.js';

/** A combatant's state with `patch` applied: in place where only the running fold can hold it (`writeCs`). */
export function patchCs(state: State, id: string, patch: Partial<ClassicCombatant>): State {
  return writeCs(state, id, (cs) => Object.assign(cs, patch));
}

/** A new turn's action economy: the action, the bonus action and the reaction, all unused. */
export const fresh = (): ClassicCombatant['used'] => ({ action: false, bonus: false, reaction: false });
