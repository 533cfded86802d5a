import { compareInstants, compareTuples } from './clock.js';
import type { CoreEvent } from './events.js';
import type { TimelineLane, TimelineMarker } from './timeline.js';
import type { EncounterState, EngineEvent } from './types.js';

/**
 * Timed events on the clock (issue 33: lair actions): an entry the GM puts at a moment of every round —
 * "initiative 20, losing ties" in classic, "Mark 10" in tara-corax, "tempo 5" in tempo — with a GM note.
 * It fires at its moment, once a round: a log line (and a row on the timeline), never a combatant, never a
 * turn. The ruleset says where a number falls on its clock (`Ruleset.timedAt`); the engine fires it when
 * the clock passes that moment, or at the round's end when nobody acted after it.
 */
export type TimedEvent = {
  id: string;
  name: string;
  /** Where in every round, as the ruleset's clock orders instants (`Instant.at`). */
  at: number[];
  /** The moment in the ruleset's words ("initiative 20, losing ties"). */
  when: string;
  /** The GM's note: what happens. Only the GM sees it. */
  note?: string;
  /** The last round it fired in (0: not yet). */
  fired: number;
  /**
   * On a clock without rounds (tick): it comes back every `every` units of the clock's first number; `at`
   * is then its next moment, moved on each time it fires.
   */
  every?: number;
  /** A periodic one that starts again each round (six-second's "second 3 of every turn"): its first moment. */
  restart?: number[];
};

/** The id of the timeline's row of timed events (drawn in their own colour, never as an NPC's). */
export const TIMED_LANE = '~timed';

/**
 * A timed event's moment in words, said once: "initiative 20, losing ties, every round", but "Mark 10 each
 * round" and "every 6 ticks" as they are (their words already say how often).
 */
export function timedWhen(timed: { when: string; every?: number }): string {
  return timed.every === undefined && !/\bround\b/i.test(timed.when)
    ? `${timed.when}, every round`
    : timed.when;
}

/** The timed events due after an event: the clock passed their moment this round, or the round ended. */
export function timedDue(state: EncounterState, event: EngineEvent): CoreEvent[] {
  const timed = state.timed;
  if (!timed?.length) return [];
  const out: CoreEvent[] = [];
  if (
    (event.type === 'clock/advanced' || event.type === 'timed/fired') &&
    state.now &&
    state.status === 'running'
  ) {
    const now = state.now;
    const due = (t: TimedEvent) => compareInstants({ round: now.round, at: t.at }, now) <= 0;
    if (event.type === 'clock/advanced')
      for (const t of timed)
        if (t.every === undefined && t.fired < now.round && due(t)) out.push(fired(t, now.round));
    // A periodic one at a time: its firing moves it on, and the next check (after that event) finds the
    // next due, or the same one again when the clock jumped two periods.
    const periodic = timed.find((t) => t.every !== undefined && due(t));
    if (periodic) out.push(fired(periodic, now.round));
  } else if (event.type === 'round/ended' && typeof event.round === 'number') {
    const round = event.round;
    for (const t of timed) if (t.every === undefined && t.fired < round) out.push(fired(t, round));
  }
  return out;
}

function fired(t: TimedEvent, round: number): CoreEvent {
  const event: Extract<CoreEvent, { type: 'timed/fired' }> = {
    type: 'timed/fired',
    id: t.id,
    name: t.name,
    when: t.when,
    round,
  };
  if (t.note) event.note = t.note;
  if (t.every !== undefined) event.next = [t.at[0]! + t.every, ...t.at.slice(1)];
  return event;
}

/**
 * The timeline row of the timed events: one marker per event at its place on the ruleset's axis, planned
 * until it has fired this round. `position` reads an event's `at` as an axis position (a Mark, a tempo, a
 * tick, the turn slot it comes before), or null where the axis has no place for it. Null when there are none.
 */
export function timedLane(
  state: EncounterState,
  position: (at: number[]) => number | null,
  round: number = Math.max(state.round, 1),
): TimelineLane | null {
  if (!state.timed?.length) return null;
  const markers: TimelineMarker[] = state.timed.flatMap((t) => {
    const at = position(t.at);
    if (at === null) return [];
    const done = t.every === undefined && t.fired >= round;
    return [{ round, at, kind: 'timed', label: `${t.name} (${t.when})`, ...(done ? {} : { planned: true }) }];
  });
  return { id: TIMED_LANE, label: 'Timed events', side: 'npc', spans: [], markers };
}

/** For an axis of turn slots ordered by key: the slot (1-based) a timed event comes before, else the last. */
export function slotBefore(keys: readonly (readonly number[])[], at: number[]): number {
  const before = keys.filter((k) => compareTuples(k, at) < 0).length;
  return Math.min(before + 1, Math.max(keys.length, 1));
}
