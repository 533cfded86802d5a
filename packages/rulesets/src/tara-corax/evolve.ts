import { appendTo, writeCs } from '@roundkeeper/engine';
import type { TaraEvent } from './events.js';
import type { HistoryMarker, HistorySpan, TaraCombatant, TaraRound, TaraState } from './types.js';

function patchCs(state: TaraState, id: string, patch: Partial<TaraCombatant>): TaraState {
  return writeCs(state, id, (cs) => Object.assign(cs, patch));
}

function patchRs(state: TaraState, patch: Partial<TaraRound>): TaraState {
  return { ...state, rs: { ...state.rs, ...patch } };
}

function addHistory(state: TaraState, spans: HistorySpan[], markers: HistoryMarker[]): TaraState {
  const h = state.rs.history;
  // The history grows all fight long: appended in place within one command's fold (see `appendTo`).
  return patchRs(state, {
    history: { spans: appendTo(h.spans, spans), markers: appendTo(h.markers, markers) },
  });
}

/** A mark on the round's history, for the timeline. */
function marker(state: TaraState, m: HistoryMarker): TaraState {
  return addHistory(state, [], [m]);
}

/** Applies the ruleset's own events. Each is a fact decided earlier; nothing here rolls or checks. */
export function evolveTara(state: TaraState, event: TaraEvent): TaraState | undefined {
  switch (event.type) {
    case 'tara/round-mode':
      return patchRs(state, { phase: 'round', roundMode: event.mode, order: [] });
    case 'tara/initiative': {
      const { combatant: id, score } = event;
      // A new Initiative Roll: everything counted "this Round" starts over; Setting to shoot persists.
      const s = patchCs(state, id, {
        initiativeRoll: event.initiativeRoll,
        initiativeScore: score,
        marksLeft: score,
        carryOver: event.carryOverLeft ?? 0,
        delaying: event.delay ?? null,
        acted: false,
        fullActionException: false,
        landSpeedUsed: 0,
        movedThisRound: false,
        meleeSet: false,
        actedAt: null,
        channeling: 'no',
      });
      const at = Math.max(score, 1);
      return marker(s, {
        round: event.round,
        combatant: id,
        at,
        kind: 'turn',
        label: `Initiative Score ${score}`,
      });
    }
    case 'tara/round-order':
      return patchRs(state, { order: event.order });
    case 'tara/acted': {
      const s = patchCs(state, event.combatant, event.after);
      return addHistory(s, event.spans, []);
    }
    case 'tara/attack': {
      const id = event.combatant;
      const c = state.combatants[id];
      const s = c ? patchCs(state, id, { attacksMade: c.cs.attacksMade + 1 }) : state;
      const label = `attack ${event.number}/${event.of}${event.miss ? ' (miss)' : ''}`;
      return marker(s, { round: event.round, combatant: id, at: event.mark, kind: 'attack', label });
    }
    case 'tara/attack-forfeited':
      return marker(state, {
        round: event.round,
        combatant: event.combatant,
        at: 1,
        kind: 'forfeit',
        label: `attack ${event.number}/${event.of} forfeited (Mark ${event.mark})`,
      });
    case 'tara/spell-resolved': {
      const s = patchCs(state, event.combatant, { casting: null });
      return marker(s, {
        round: event.round,
        combatant: event.combatant,
        at: event.mark,
        kind: 'resolve',
        label: event.spell,
      });
    }
    case 'tara/action-completed': {
      const s = patchCs(state, event.combatant, { carrying: null });
      return marker(s, {
        round: event.round,
        combatant: event.combatant,
        at: event.mark,
        kind: 'resolve',
        label: `${event.name} done`,
      });
    }
    case 'tara/carry-dropped':
      return patchCs(state, event.combatant, { carrying: null, carryOver: 0 });
    case 'tara/spell-fizzled':
      return patchCs(state, event.combatant, { casting: null, carryOver: 0 });
    case 'tara/forfeited':
      return patchCs(state, event.combatant, { marksLeft: 0 });
    case 'tara/round-over':
      return patchRs(state, { phase: 'between' });
    case 'tara/simultaneous': {
      // Older logs carry no instant: the tie is then only a label.
      if (!event.at) return state;
      const ids = [event.combatant, ...event.with];
      return patchRs(state, {
        together: { at: event.at, ids: ids.filter((x, i) => ids.indexOf(x) === i) },
      });
    }
    case 'tara/joins-next-round':
      return state;
    default:
      return undefined;
  }
}
