import { appendTo, writeCs, writeRs } from '@roundkeeper/engine';
import type { Opend6Event } from './events.js';
import { patchCs, patchRs } from './state.js';
import type { State } from './types.js';

/** Applies one of OpenD6's own events (the engine applies its own). */
export function evolve(state: State, event: Opend6Event): State | undefined {
  switch (event.type) {
    // The hot events first (a simulation folds the first five several times a round); they write `cs`
    // and `rs` directly (copied once per fold, see `writeCs`, `writeRs`).
    case 'opend6/roll-open': {
      // The same roll open again (a character's next swing of the same skill): nothing to write.
      const open = state.rs.openRoll;
      if (open && open.combatant === event.combatant && open.purpose === event.purpose) return state;
      return writeRs(state, (rs) => {
        rs.openRoll = { combatant: event.combatant, purpose: event.purpose };
      });
    }
    case 'opend6/happened':
      // Appended in place within a command's fold (see `appendTo` in the engine).
      return writeRs(state, (rs) => {
        rs.happened = appendTo(rs.happened, [event.happening]);
      });
    case 'opend6/acted': {
      const c = state.combatants[event.combatant];
      // A free action (a shouted warning as an interrupt included) takes no action and keeps the watch.
      if (!c || event.number === null) return state;
      // Waiting sets the watch; any other action taken afterwards ends it (as an interrupt too): to
      // interrupt again, the character waits again.
      const used = event.number;
      return writeCs(state, event.combatant, (cs) => {
        cs.used = used;
        cs.waiting = event.wait;
      });
    }
    case 'opend6/declared': {
      let s = state;
      for (const m of event.combatants)
        s = writeCs(s, m, (cs) => {
          cs.declared = event.actions;
        });
      return s;
    }
    case 'opend6/turn':
      return writeRs(state, (rs) => {
        rs.acting = event.members;
        rs.openRoll = null;
      });
    case 'opend6/initiative': {
      // One write per member: the spender's Character Points go with her own place (a state object per write).
      const spent = event.characterPoints ?? 0;
      let s = state;
      let paid = spent <= 0;
      for (const m of event.members) {
        const pays = !paid && m === event.combatant;
        if (pays) paid = true;
        s = writeCs(s, m, (cs) => {
          cs.initiative = event.total;
          cs.orderKey = event.key;
          if (pays) cs.characterPoints -= spent;
        });
      }
      if (!paid)
        s = writeCs(s, event.combatant, (cs) => {
          cs.characterPoints -= spent;
        });
      return s;
    }
    case 'opend6/slots':
      return writeRs(state, (rs) => {
        rs.slots = appendTo(rs.slots, event.slots);
      });
    case 'opend6/round-reset': {
      let s = state;
      // Only a combatant with something to wipe is written (a state object per write).
      for (const m of s.roster) {
        const cs = s.combatants[m]?.cs;
        if (!cs || (cs.declared === null && cs.used === 0 && !cs.waiting)) continue;
        s = writeCs(s, m, (w) => {
          w.declared = null;
          w.used = 0;
          w.waiting = false;
        });
      }
      const keep = event.round - 1;
      return writeRs(s, (rs) => {
        rs.acting = [];
        rs.openRoll = null;
        rs.slots = rs.slots.filter((x) => x.round >= keep);
        rs.happened = rs.happened.filter((x) => x.round >= keep);
      });
    }
    case 'opend6/round-begins':
      return state;
    case 'opend6/slot-added':
      return patchRs(state, { slots: appendTo(state.rs.slots, [event.slot]) });
    case 'opend6/interrupted':
      return state;
    case 'opend6/resumed':
      return patchCs(state, event.combatant, { waiting: false });
    case 'opend6/result-declared':
      return writeRs(state, (rs) => {
        rs.openRoll = null;
      });
    case 'opend6/actions-lost': {
      const c = state.combatants[event.combatant];
      if (!c) return state;
      return patchCs(state, event.combatant, { used: c.cs.declared ?? c.cs.used });
    }
    case 'opend6/turn-lost':
      return state;
    case 'opend6/incapacitated':
      return patchCs(state, event.combatant, { unable: event.condition, waiting: false });
    case 'opend6/recovered':
      return patchCs(state, event.combatant, { unable: null });
    case 'opend6/joins-next-round':
      return state;
    default:
      return undefined;
  }
}
