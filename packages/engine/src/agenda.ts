import { compareInstants, type Instant } from './clock.js';
import type { JsonObject } from './json.js';
import type { AgendaEntry, EncounterState, EngineEvent } from './types.js';

/**
 * Helpers for the agenda, the one mechanism behind every clock: a ruleset schedules entries (turns,
 * completions, delayed effects) and reaches them in clock order.
 */
export function schedule(entry: AgendaEntry): EngineEvent {
  return { type: 'agenda/scheduled', entry: entry as unknown as JsonObject };
}

export function unschedule(id: string, reason = 'cancelled'): EngineEvent {
  return { type: 'agenda/removed', entry: id, reason };
}

/** The earliest entry (optionally of one kind / matching a test) at or after `from`. */
export function nextEntry(
  state: EncounterState,
  test: (e: AgendaEntry) => boolean = () => true,
  from?: Instant,
): AgendaEntry | undefined {
  return state.agenda.find((e) => test(e) && (!from || compareInstants(e.at, from) >= 0));
}

/** Events that reach an entry: it leaves the agenda, the clock moves to it, and a turn entry starts that turn. */
export function reach(entry: AgendaEntry): EngineEvent[] {
  const out: EngineEvent[] = [
    { type: 'agenda/removed', entry: entry.id, reason: 'reached' },
    { type: 'clock/advanced', to: entry.at as unknown as JsonObject },
  ];
  if (entry.kind === 'turn' && entry.combatant)
    out.push({ type: 'turn/started', combatant: entry.combatant });
  return out;
}
