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
};

/** The timed events due after an event: the clock passed their moment this round, or the round ended. */
export function timedDue(state: EncounterState, event: EngineEvent): CoreEvent[] {
  const timed = state.timed;
  if (!timed?.length) return [];
  const out: CoreEvent[] = [];
  if (event.type === 'clock/advanced' && state.now && state.status === 'running') {
    const now = state.now;
    for (const t of timed)
      if (t.fired < now.round && compareInstants({ round: now.round, at: t.at }, now) <= 0)
        out.push(fired(t, now.round));
  } else if (event.type === 'round/ended' && typeof event.round === 'number') {
    const round = event.round;
    for (const t of timed) if (t.fired < round) out.push(fired(t, round));
  }
  return out;
}

function fired(t: TimedEvent, round: number): CoreEvent {
  return {
    type: 'timed/fired',
    id: t.id,
    name: t.name,
    when: t.when,
    round,
    ...(t.note ? { note: t.note } : {}),
  };
}
