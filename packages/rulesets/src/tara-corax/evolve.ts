import type { EngineEvent, Instant, JsonObject } from '@roundkeeper/engine';
import type { HistoryMarker, HistorySpan, TaraCombatant, TaraRound, TaraState } from './types.js';

function patchCs(state: TaraState, id: string, patch: Partial<TaraCombatant>): TaraState {
  const c = state.combatants[id];
  if (!c) return state;
  return {
    ...state,
    combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...patch } as typeof c.cs } },
  };
}

function patchRs(state: TaraState, patch: Partial<TaraRound>): TaraState {
  return { ...state, rs: { ...state.rs, ...patch } as TaraState['rs'] };
}

function addHistory(state: TaraState, spans: HistorySpan[], markers: HistoryMarker[]): TaraState {
  const h = state.rs.history;
  return patchRs(state, { history: { spans: [...h.spans, ...spans], markers: [...h.markers, ...markers] } });
}

/** Applies the ruleset's own events. Each is a fact decided earlier; nothing here rolls or checks. */
export function evolveTara(state: TaraState, event: EngineEvent): TaraState | undefined {
  const id = event.combatant as string;
  switch (event.type) {
    case 'tara/round-mode':
      return patchRs(state, { phase: 'round', roundMode: event.mode as TaraRound['roundMode'], order: [] });
    case 'tara/initiative': {
      const score = event.score as number;
      const marker: HistoryMarker = {
        round: event.round as number,
        combatant: id,
        at: Math.max(score, 1),
        kind: 'turn',
        label: `Initiative Score ${score}`,
      };
      // A new Initiative Roll: everything counted "this Round" starts over; Setting to shoot persists.
      const s = patchCs(state, id, {
        initiativeRoll: event.initiativeRoll as number,
        initiativeScore: score,
        marksLeft: score,
        carryOver: (event.carryOverLeft as number | undefined) ?? 0,
        delaying: (event.delay as TaraCombatant['delaying']) ?? null,
        acted: false,
        fullActionException: false,
        landSpeedUsed: 0,
        movedThisRound: false,
        meleeSet: false,
        actedAt: null,
        channeling: 'no',
      });
      return addHistory(s, [], [marker]);
    }
    case 'tara/round-order':
      return patchRs(state, { order: event.order as string[][] });
    case 'tara/acted': {
      const s = patchCs(state, id, event.after as Partial<TaraCombatant>);
      return addHistory(s, (event.spans ?? []) as unknown as HistorySpan[], []);
    }
    case 'tara/attack': {
      const c = state.combatants[id];
      const s = c ? patchCs(state, id, { attacksMade: c.cs.attacksMade + 1 }) : state;
      const label = `attack ${String(event.number)}/${String(event.of)}${event.miss ? ' (miss)' : ''}`;
      return addHistory(
        s,
        [],
        [{ round: event.round as number, combatant: id, at: event.mark as number, kind: 'attack', label }],
      );
    }
    case 'tara/attack-forfeited':
      return addHistory(
        state,
        [],
        [
          {
            round: event.round as number,
            combatant: id,
            at: 1,
            kind: 'forfeit',
            label: `attack ${String(event.number)}/${String(event.of)} forfeited (Mark ${String(event.mark)})`,
          },
        ],
      );
    case 'tara/spell-resolved': {
      const s = patchCs(state, id, { casting: null });
      return addHistory(
        s,
        [],
        [
          {
            round: event.round as number,
            combatant: id,
            at: event.mark as number,
            kind: 'resolve',
            label: String(event.spell),
          },
        ],
      );
    }
    case 'tara/action-completed': {
      const s = patchCs(state, id, { carrying: null });
      return addHistory(
        s,
        [],
        [
          {
            round: event.round as number,
            combatant: id,
            at: event.mark as number,
            kind: 'resolve',
            label: `${String(event.name)} done`,
          },
        ],
      );
    }
    case 'tara/carry-dropped':
      return patchCs(state, id, { carrying: null, carryOver: 0 });
    case 'tara/spell-fizzled':
      return patchCs(state, id, { casting: null, carryOver: 0 });
    case 'tara/forfeited':
      return patchCs(state, id, { marksLeft: 0 });
    case 'tara/round-over':
      return patchRs(state, { phase: 'between' });
    case 'tara/simultaneous': {
      // Older logs carry no instant: the tie is then only a label.
      if (!event.at) return state;
      const ids = [id, ...(event.with as string[])];
      return patchRs(state, {
        together: { at: event.at as unknown as Instant, ids: ids.filter((x, i) => ids.indexOf(x) === i) },
      });
    }
    case 'tara/joins-next-round':
      return state;
    default:
      return undefined;
  }
}

export const EMPTY_HISTORY: JsonObject = { spans: [], markers: [] };
