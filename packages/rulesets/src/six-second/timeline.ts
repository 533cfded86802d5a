import {
  combatantOf,
  type Rejection,
  reject,
  type Timeline,
  type TimelineLane,
  type TimelineMarker,
  type TimelineSpan,
  timedLane,
} from '@roundkeeper/engine';
import { nextNormalRound, projectDue, remainingSeconds } from './clock.js';
import type { State } from './types.js';

/** How many past rounds the timeline keeps showing. */
const PAST_ROUNDS = 4;

const SPAN_KIND: Record<string, string> = {
  spell: 'spell',
  combo: 'action',
  move: 'move',
  carry: 'carry',
  delay: 'delay',
};

/**
 * One lane per character, one column per second of that character's own turn (the d6 in front of the
 * player): what each second went to, pending delayed effects with their remaining seconds, and the
 * seconds a long action will take from the next turn.
 */
export function timeline(state: State): Timeline {
  const n = state.options.turnSeconds;
  const round = Math.max(state.round, 1);
  const ids = (state.rs.order.length > 0 ? state.rs.order : state.roster).filter(
    (id) => state.combatants[id],
  );
  let last = round;
  const lanes: TimelineLane[] = ids.flatMap((id) => {
    const c = combatantOf(state, id);
    if (!c) return [];
    const spans: TimelineSpan[] = [];
    const markers: TimelineMarker[] = [];
    // A delayed turn may be taken in the same round as the character's own turn (001: "At any time after
    // his skipped turn but before his next turn"): its seconds go on a row of their own, so neither turn
    // hides the other. What follows a turn's "delays" record in the history, with its number, is that
    // turn taken later.
    const delayedSpans: TimelineSpan[] = [];
    const delayedMarkers: TimelineMarker[] = [];
    const skipped = new Set<number>();
    for (const h of c.cs.history) {
      const later = h.kind !== 'delay' && skipped.has(h.turn);
      if (h.kind === 'delay') skipped.add(h.turn);
      const rowSpans = later ? delayedSpans : spans;
      const rowMarkers = later ? delayedMarkers : markers;
      if (h.kind === 'effect') {
        rowMarkers.push({ round: h.round, at: Math.max(1, h.to), kind: 'effect', label: h.label });
      } else if (h.to < h.from) {
        rowMarkers.push({ round: h.round, at: Math.max(1, h.to), kind: 'free', label: `${h.label} (0 s)` });
      } else {
        rowSpans.push({
          round: h.round,
          from: h.from,
          to: h.to,
          kind: SPAN_KIND[h.kind] ?? 'action',
          label: h.label,
        });
      }
    }
    for (const p of c.cs.pending) {
      const at = projectDue(state, c, p.due);
      last = Math.max(last, at.round);
      markers.push({
        round: at.round,
        at: p.due.second,
        kind: 'resolve',
        label: `${p.name}: ${remainingSeconds(state, c, p)} s left`,
        planned: true,
      });
    }
    if (c.cs.carry) {
      const r = nextNormalRound(state, id);
      last = Math.max(last, r);
      spans.push({
        round: r,
        from: 1,
        to: Math.min(n, c.cs.carry.secondsLeft),
        kind: 'carry',
        label: `${c.cs.carry.name} continues (${c.cs.carry.secondsLeft} s)`,
        planned: true,
      });
    }
    if (state.current === id) {
      // A delayed turn lives after its moment in someone else's turn: [slot, second, 1, second].
      const inDelayedTurn = (c.cs.base?.length ?? 0) > 2;
      (inDelayedTurn ? delayedMarkers : markers).push({
        round,
        at: Math.max(1, c.cs.secondsUsed),
        kind: 'turn',
        label: `${n - c.cs.secondsUsed} s left`,
      });
    }
    const lane: TimelineLane = { id, label: c.name, side: c.side, spans, markers };
    if (delayedSpans.length === 0 && delayedMarkers.length === 0) return [lane];
    return [
      lane,
      {
        id: `${id}/delayed`,
        label: `${c.name} (delayed turn)`,
        side: c.side,
        spans: delayedSpans,
        markers: delayedMarkers,
      },
    ];
  });
  const rounds: number[] = [];
  for (let r = Math.max(1, round - PAST_ROUNDS); r <= last; r++) rounds.push(r);
  const current = state.current ? state.combatants[state.current] : undefined;
  // Timed events: a row of their own, at their second of every turn.
  const timed = timedLane(state, (at) => at[1] ?? null, round);
  if (timed) lanes.push(timed);
  return {
    axis: { unit: 'second', from: 1, to: n },
    rounds,
    now: current ? { round, at: Math.max(1, current.cs.secondsUsed) } : null,
    lanes,
  };
}

/**
 * A timed event at a second of every turn ("second 3 of every turn"): each turn's seconds are its own, so
 * it comes back in every combatant's turn, as that turn's third second passes — turn slot after turn slot,
 * from the first slot again each round.
 */
export function timedAt(
  state: State,
  second: number,
): { at: number[]; when: string; every: number; eachRound: true } | Rejection {
  const n = state.options.turnSeconds;
  if (second < 1 || second > n)
    return reject(
      'timed/out-of-range',
      `A timed event sits at a second of the turn from 1 to ${n}, not ${second}.`,
    );
  return { at: [1, second], when: `second ${second} of every turn`, every: 1, eachRound: true };
}
