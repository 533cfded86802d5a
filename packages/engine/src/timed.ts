import { compareInstants } from './clock.js';
import type { CoreEvent } from './events.js';
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
};

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
