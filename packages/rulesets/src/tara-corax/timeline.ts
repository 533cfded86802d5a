import {
  combatantOf,
  type Rejection,
  reject,
  type Timeline,
  type TimelineLane,
  type TimelineMarker,
  timedLane,
} from '@roundkeeper/engine';
import { MARKS_PER_ROUND, markOf, sameMoment } from './marks.js';
import type { TaraState } from './types.js';

/**
 * Lanes across Marks 30 → 1: what each combatant did (action spans, attack ticks, spells going off,
 * carry-over into the next Round) and what is still on the agenda (planned).
 */
export function taraTimeline(state: TaraState): Timeline {
  const h = state.rs.history;
  const rounds = new Set<number>();
  for (const s of h.spans) rounds.add(s.round);
  for (const m of h.markers) rounds.add(m.round);
  for (const e of state.agenda) rounds.add(e.at.round);
  if (state.round > 0) rounds.add(state.round);
  // Each combatant's spans, markers and agenda in one pass over each list (a fight's history grows by
  // every turn, and the web app draws the timeline on every change), in their order.
  const spansOf = byCombatant(h.spans);
  const markersOf = byCombatant(h.markers);
  const agendaOf = byCombatant(state.agenda);
  const lanes: TimelineLane[] = state.roster.flatMap((id) => {
    const c = combatantOf(state, id);
    if (!c) return [];
    const spans = (spansOf.get(id) ?? []).map(({ combatant: _c, ...s }) => s);
    const markers: TimelineMarker[] = (markersOf.get(id) ?? []).map(({ combatant: _c, ...m }) => m);
    for (const e of agendaOf.get(id) ?? []) {
      const kind =
        e.kind === 'resolve' || e.kind === 'complete' ? 'resolve' : e.kind === 'attack' ? 'attack' : 'turn';
      // Partners acting at the same moment, among the entries this state holds (a viewer's state holds
      // only what that viewer may see).
      const partners =
        e.kind === 'turn'
          ? state.agenda
              .filter((o) => o !== e && o.kind === 'turn' && o.combatant && sameMoment(o.at, e.at))
              .map((o) => (o.combatant ? state.combatants[o.combatant]?.name : undefined))
              .filter((n): n is string => n !== undefined)
          : [];
      const label = partners.length ? `${e.label}, simultaneous with ${partners.join(' and ')}` : e.label;
      markers.push({ round: e.at.round, at: markOf(e.at), kind, label, planned: true });
    }
    return [{ id, label: c.name, side: c.side, spans, markers }];
  });
  // Timed events: a row of their own, at their Mark.
  const timed = timedLane(state, (at) => MARKS_PER_ROUND - (at[0] ?? 0));
  if (timed) lanes.push(timed);
  return {
    axis: { unit: 'Mark', from: MARKS_PER_ROUND, to: 1 },
    rounds: [...rounds].sort((a, b) => a - b),
    now: state.now ? { round: state.now.round, at: markOf(state.now) } : null,
    lanes,
  };
}

/** The items of a list by the combatant they belong to, each combatant's in the list's order. */
function byCombatant<T extends { combatant?: string | null }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    if (!item.combatant) continue;
    const own = out.get(item.combatant);
    if (own) own.push(item);
    else out.set(item.combatant, [item]);
  }
  return out;
}

/**
 * A timed event at a Mark of every Round ("Mark 10 each round"): after everything that happens at that
 * Mark (spells resolving, attacks, those who start there), before the next Mark down.
 */
export function taraTimedAt(_state: TaraState, at: number): { at: number[]; when: string } | Rejection {
  if (at < 1 || at > MARKS_PER_ROUND)
    return reject(
      'timed/out-of-range',
      `A timed event sits at a Mark from 1 to ${MARKS_PER_ROUND}, not ${at}.`,
    );
  return { at: [MARKS_PER_ROUND - at, 1_000_000], when: `Mark ${at} each round` };
}
