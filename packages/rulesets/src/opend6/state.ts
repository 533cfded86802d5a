import { writeCs, writeRs } from '@roundkeeper/engine';
import type { Opend6Combatant, Opend6Round, State } from './types.js';

/** A combatant's `cs` with `patch`'s fields: written in place once this fold copied it (see `writeCs`). */
export function patchCs(state: State, id: string, patch: Partial<Opend6Combatant>): State {
  return writeCs(state, id, (cs) => {
    Object.assign(cs, patch);
  });
}

/** The round's `rs` with `patch`'s fields: written in place once this fold copied it (see `writeRs`). */
export function patchRs(state: State, patch: Partial<Opend6Round>): State {
  return writeRs(state, (rs) => {
    Object.assign(rs, patch);
  });
}
