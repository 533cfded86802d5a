import { compareInstants, type Instant } from './clock.js';
import type { CoreEvent } from './events.js';
import type { JsonObject } from './json.js';
import type { AgendaEntry, Combatant, EncounterState } from './types.js';

/**
 * Helpers for the agenda, the one mechanism behind every clock: a ruleset schedules entries (turns,
 * completions, delayed effects) and reaches them in clock order.
 */
export function schedule(entry: AgendaEntry): CoreEvent {
  return { type: 'agenda/scheduled', entry };
}

/**
 * Several entries put on the agenda at once (a round's turns): one event whatever their number, so a round
 * that starts is a handful of log entries, not one per combatant.
 */
export function scheduleAll(entries: readonly AgendaEntry[]): CoreEvent[] {
  return entries.length === 0 ? [] : [{ type: 'agenda/scheduled-many', entries: [...entries] }];
}

export function unschedule(id: string, reason = 'cancelled'): CoreEvent {
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
export function reach(entry: AgendaEntry): CoreEvent[] {
  const out: CoreEvent[] = [
    { type: 'agenda/removed', entry: entry.id, reason: 'reached' },
    { type: 'clock/advanced', to: entry.at },
  ];
  if (entry.kind === 'turn' && entry.combatant)
    out.push({ type: 'turn/started', combatant: entry.combatant });
  return out;
}

/**
 * A combatant's turn on the agenda, as every ruleset schedules one: at `at`, labelled "Ana's turn" (or
 * `label`), secret while the combatant is hidden (the view drops it for everyone but the GM).
 */
export function turnEntry(
  ids: { newId(prefix: string): string },
  combatant: Pick<Combatant, 'id' | 'name' | 'hidden'>,
  at: Instant,
  more: { label?: string; data?: JsonObject } = {},
): AgendaEntry {
  const entry: AgendaEntry = {
    id: ids.newId('turn'),
    at,
    kind: 'turn',
    combatant: combatant.id,
    label: more.label ?? `${combatant.name}'s turn`,
  };
  if (combatant.hidden) entry.secret = true;
  if (more.data) entry.data = more.data;
  return entry;
}

/**
 * A combatant's place changed mid-round (a GM set its initiative): its turn still to come this round moves
 * to the new entry's place when that place is still ahead. A turn already taken, or a place the round has
 * passed, keeps this round's order; the new place counts from the next round.
 */
export function movedTurn(state: EncounterState, entry: AgendaEntry): CoreEvent[] {
  if (state.status !== 'running') return [];
  const pending = state.agenda.find(
    (e) => e.kind === 'turn' && e.combatant === entry.combatant && e.at.round === state.round,
  );
  if (!pending) return [];
  if (state.now && compareInstants(entry.at, state.now) <= 0) return [];
  return [unschedule(pending.id, 'moved'), schedule(entry)];
}

/** A round's turns put on the agenda in clock order, and the first of them reached (its turn starts). */
export function scheduleTurns(entries: readonly AgendaEntry[]): CoreEvent[] {
  const ordered = [...entries].sort((a, b) => compareInstants(a.at, b.at));
  const events = scheduleAll(ordered);
  const first = ordered[0];
  if (first) events.push(...reach(first));
  return events;
}
