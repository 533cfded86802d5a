import {
  type ClockSpec,
  type Instant,
  type Rejection,
  reject,
  type Timeline,
  type TimelineLane,
  type TimelineMarker,
  type TimelineSpan,
  timedLane,
} from '@roundkeeper/engine';
import { tickNow } from './initiative.js';
import type { State, TickTypes } from './types.js';

/** How many ticks the timeline shows at most, and how far back from the counter. */
const WIDTH = 40;
const BACK = 10;

const SPAN_KIND: Record<string, string> = { move: 'move', spell: 'spell', reaction: 'action' };

/**
 * The tick axis: one lane per combatant in the fight, its marker on the tick it acts next, the ticks its
 * last action took (a continuous action in progress as a span up to its end tick), the waiting held at
 * the counter. There are no rounds: everything is on one axis (`round` 0).
 */
export function timeline(state: State): Timeline {
  const now = tickNow(state);
  const people = state.roster.flatMap((id) => {
    const c = state.combatants[id];
    return c?.active ? [c] : [];
  });
  const ends = [
    ...people.flatMap((c) => [c.cs.tick ?? now, c.cs.busy?.to ?? now]),
    // A timed event's next tick is on the axis too.
    ...(state.timed ?? []).map((t) => t.at[0] ?? now),
  ];
  const starts = people.flatMap((c) => (c.cs.last ? [c.cs.last.from] : []));
  const from = Math.max(0, Math.min(now, ...starts), now - BACK);
  const to = Math.min(Math.max(now + 1, ...ends), from + WIDTH);
  const clip = (t: number) => Math.min(to, Math.max(from, t));
  const lanes: TimelineLane[] = people.map((c) => {
    const spans: TimelineSpan[] = [];
    const markers: TimelineMarker[] = [];
    const busy = c.cs.busy;
    const last = c.cs.last;
    if (busy) {
      spans.push({
        round: 0,
        from: clip(busy.from),
        to: clip(busy.to),
        kind: busy.kind === 'spell' ? 'spell' : 'busy',
        label: `${busy.name} until tick ${busy.to}`,
        planned: true,
      });
    } else if (last && last.to > from) {
      spans.push({
        round: 0,
        from: clip(last.from),
        to: clip(last.to - 1),
        kind: SPAN_KIND[last.kind] ?? 'action',
        label: `${last.name} (${last.to - last.from} ticks)`,
      });
    }
    if (c.cs.waiting) markers.push({ round: 0, at: clip(now), kind: 'wait', label: `${c.name} is waiting` });
    else if (c.cs.tick !== null) {
      const acting = state.current === c.id;
      markers.push({
        round: 0,
        at: clip(c.cs.tick),
        kind: 'turn',
        label: acting ? `${c.name} acts now (tick ${c.cs.tick})` : `${c.name} acts at tick ${c.cs.tick}`,
        ...(acting ? {} : { planned: true }),
      });
    }
    return { id: c.id, label: c.name, side: c.side, spans, markers };
  });
  // Timed events: a row of their own, at their next tick when it is on the axis.
  const timed = timedLane(state, (at) => ((at[0] ?? 0) >= from && (at[0] ?? 0) <= to ? at[0]! : null), 0);
  if (timed) lanes.push(timed);
  return {
    axis: { unit: 'tick', from, to },
    rounds: [0],
    roundLabels: { 0: `Ticks ${from}–${to}` },
    now: state.now ? { round: 0, at: now } : null,
    lanes,
  };
}

/** How many ticks a simulation counts together where other rulesets count a round (see `clock.periods`). */
export const TICKS_PER_PERIOD = 10;

/** Rule 1: one counter of ticks, no rounds; a duration of N ticks ends N ticks on. */
export const clock: ClockSpec<TickTypes> = {
  unit: 'tick',
  roundless: true,
  // Ticks 0–9 are the first stretch, 10–19 the second…: a simulation's "per round" figures.
  periods: {
    of: (at: Instant): number => Math.floor(Math.max(0, at.at[0] ?? 0) / TICKS_PER_PERIOD) + 1,
    name: `${TICKS_PER_PERIOD} ticks`,
  },
  describe: (_state: State, at: Instant): string => `Tick ${at.at[0] ?? 0}`,
  after: (_state: State, from: Instant, amount: number): Instant => ({
    round: from.round,
    at: [(from.at[0] ?? 0) + amount],
  }),
};

/**
 * A timed event "every N ticks": at ticks N, 2N, 3N… of the counter (the next of them from now when added
 * mid-fight), as the counter reaches the tick and before anyone acts on it — as effects end (rule 6).
 */
export function timedAt(
  state: State,
  every: number,
): { at: number[]; when: string; every: number } | Rejection {
  if (every < 1 || every > 1000)
    return reject('timed/out-of-range', `A timed event comes back every 1 to 1000 ticks, not ${every}.`);
  const now = state.now?.at[0] ?? 0;
  return { at: [(Math.floor(now / every) + 1) * every], when: `every ${every} ticks`, every };
}
