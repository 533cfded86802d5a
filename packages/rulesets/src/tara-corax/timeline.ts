import type { Timeline, TimelineLane, TimelineMarker } from '@roundkeeper/engine';
import { MARKS_PER_ROUND, markOf } from './marks.js';
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
  const lanes: TimelineLane[] = state.roster.map((id) => {
    const c = state.combatants[id]!;
    const spans = h.spans.filter((s) => s.combatant === id).map(({ combatant: _c, ...s }) => s);
    const markers: TimelineMarker[] = h.markers
      .filter((m) => m.combatant === id)
      .map(({ combatant: _c, ...m }) => m);
    for (const e of state.agenda.filter((a) => a.combatant === id)) {
      const kind = e.kind === 'resolve' ? 'resolve' : e.kind === 'attack' ? 'attack' : 'turn';
      markers.push({ round: e.at.round, at: markOf(e.at), kind, label: e.label, planned: true });
    }
    return { id, label: c.name, side: c.side, spans, markers };
  });
  return {
    axis: { unit: 'Mark', from: MARKS_PER_ROUND, to: 1 },
    rounds: [...rounds].sort((a, b) => a - b),
    now: state.now ? { round: state.now.round, at: markOf(state.now) } : null,
    lanes,
  };
}
