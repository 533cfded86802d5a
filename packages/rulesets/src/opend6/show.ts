import {
  compareTuples,
  type EngineEvent,
  type Timeline,
  type TimelineLane,
  type TimelineMarker,
} from '@roundkeeper/engine';
import { catalog } from './actions.js';
import { type EffectiveCode, showEffective } from './penalty.js';
import type { Happening, Slot, State } from './types.js';

const MARKER: Record<Happening['kind'], string> = {
  action: 'attack',
  wait: 'wait',
  interrupt: 'reaction',
  'move-up': 'reaction',
  lost: 'forfeit',
  free: 'effect',
};

/** The slot (1-based, in the round's turn order) an instant falls in: an interrupt sits in the turn it interrupts. */
function position(slots: Slot[], at: number[]): number {
  let p = 0;
  for (const s of slots) if (compareTuples(s.at, at) <= 0) p++;
  return Math.max(p, 1);
}

/**
 * The round in turn order: one column per turn (a resumed turn after waiting gets its own column), a
 * lane per character with its turn, its actions, waits, interrupts and lost actions.
 */
export function timeline(state: State): Timeline {
  const round = Math.max(state.round, 1);
  const rounds = [round - 1, round].filter((r) => r >= 1 && state.rs.slots.some((s) => s.round === r));
  if (rounds.length === 0) rounds.push(round);
  const slotsOf = (r: number) =>
    state.rs.slots.filter((s) => s.round === r).sort((a, b) => compareTuples(a.at, b.at));
  const width = Math.max(1, ...rounds.map((r) => slotsOf(r).length));
  const labels: Record<number, string> = {};
  slotsOf(round).forEach((s, i) => {
    labels[i + 1] = s.label;
  });
  const lanes: TimelineLane[] = [];
  for (const id of state.roster) {
    const c = state.combatants[id]!;
    const lane: TimelineLane = { id, label: c.name, side: c.side, spans: [], markers: [] };
    for (const r of rounds) {
      const slots = slotsOf(r);
      slots.forEach((s, i) => {
        if (!s.members.includes(id)) return;
        const planned = state.agenda.some(
          (e) => e.kind === 'turn' && e.at.round === r && compareTuples(e.at.at, s.at) === 0,
        );
        lane.spans.push({
          round: r,
          from: i + 1,
          to: i + 1,
          kind: 'turn',
          label: s.label,
          ...(planned ? { planned: true } : {}),
        });
      });
      for (const h of state.rs.happened) {
        if (h.round !== r || h.combatant !== id) continue;
        const m: TimelineMarker = {
          round: r,
          at: position(slots, h.at),
          kind: MARKER[h.kind],
          label: h.label,
        };
        lane.markers.push(m);
      }
    }
    if (state.rs.acting.includes(id) && state.now) {
      lane.markers.push({
        round: state.now.round,
        at: position(slotsOf(state.now.round), state.now.at),
        kind: 'turn',
        label: 'acting',
      });
    }
    if (lane.spans.length > 0 || lane.markers.length > 0) lanes.push(lane);
  }
  const now = state.now
    ? { round: state.now.round, at: position(slotsOf(state.now.round), state.now.at) }
    : null;
  return { axis: { unit: 'turn', from: 1, to: width, labels }, rounds, now, lanes };
}

export function describeEvent(event: EngineEvent, state: State): string | null {
  const name = (id: unknown) => (typeof id === 'string' ? (state.combatants[id]?.name ?? id) : '?');
  switch (event.type) {
    case 'opend6/initiative': {
      const members = (event.members as string[]).map(name).join(', ');
      if (!event.rolled) return null;
      const cp = event.characterPoints as number;
      const extra =
        cp > 0
          ? ` + ${cp} Character Point Wild Di${cp === 1 ? 'e' : 'ce'} (${(event.characterPointRolls as number[]).join(', ')})`
          : '';
      const b = event.bonus as { search: number; reflexes: number; ranks: number } | undefined;
      const bonus = b ? ` incl. bonus +${b.search} search, +${b.reflexes} Reflexes, +${b.ranks} ranks` : '';
      return `Initiative ${members}: Perception ${String(event.perception)} = ${String(event.perceptionRoll)}${bonus}${extra} → ${String(event.total)}.`;
    }
    case 'opend6/turn': {
      const members = (event.members as string[]).map(name);
      // A single character's turn already reads "Ana's turn." from the engine.
      if (members.length < 2 && !event.resumed) return null;
      return `${members.join(', ')} ${members.length > 1 ? 'act together' : 'acts'}${event.resumed ? ' (after waiting)' : ''}.`;
    }
    case 'opend6/declared': {
      const codes = event.effective as unknown as Record<string, EffectiveCode>;
      const penalty = event.penalty as number;
      return `${(event.combatants as string[]).map(name).join(', ')} declare${(event.combatants as string[]).length > 1 ? '' : 's'} ${String(event.actions)} action${event.actions === 1 ? '' : 's'}: ${penalty > 0 ? `−${penalty}D on every skill and attribute roll this round (${showEffective(codes)})` : 'no penalty'}.`;
    }
    case 'opend6/acted': {
      const action = catalog(state).find((a) => a.id === event.action)?.name ?? String(event.name);
      const n =
        event.number === null ? 'free action' : `action ${String(event.number)} of ${String(event.declared)}`;
      const how =
        event.mode === 'interrupt'
          ? ' (interrupting)'
          : event.mode === 'wait-again'
            ? ' (waiting again after interrupting)'
            : event.mode === 'move-up'
              ? ' (moved up)'
              : '';
      return `${name(event.combatant)}: ${action}${event.target ? ` → ${name(event.target)}` : ''}${how}, ${n}.`;
    }
    case 'opend6/interrupted':
      return `${name(event.combatant)} interrupts ${name(event.interrupted)} before the result.`;
    case 'opend6/resumed':
      return `${name(event.combatant)} stops waiting and acts after this turn.`;
    case 'opend6/result-declared':
      return `The GM declares the result of ${name(event.combatant)}'s ${String(event.purpose)}.`;
    case 'opend6/actions-lost':
      return `${name(event.combatant)} loses ${String(event.count)} unused action${event.count === 1 ? '' : 's'} (${String(event.reason)}).`;
    case 'opend6/turn-lost':
      return `${name(event.combatant)} loses the action this round (${String(event.reason)}).`;
    case 'opend6/incapacitated':
      return `${name(event.combatant)} is ${String(event.condition)}.`;
    case 'opend6/recovered':
      return `${name(event.combatant)} can act again.`;
    case 'opend6/joins-next-round':
      if (event.reason === 'recovered') {
        const how =
          state.options.initiativeMethod === 'first-significant-action'
            ? 'set; placed after everyone'
            : 'rolled; rolled on recovering';
        return `${name(event.combatant)} was unable to act when initiative was ${how}, this place holds from round ${state.round + 1}.`;
      }
      return `${name(event.combatant)}'s place in the order has passed; they act from next round.`;
    default:
      return null;
  }
}
