import { applyDelta, diffViewButSeq, eventRefs, resolveIn, type ViewDelta } from './delta.js';
import { isCore } from './evolve.js';
import type { AnyRuleset } from './ruleset.js';
import type { EncounterState, EngineEvent, LogEntry } from './types.js';
import type { EncounterView } from './view.js';

/**
 * Whether the table and every player see `state` and a change's `entries` alike, so that one of them's
 * view and events are everyone's: no combatant is or ever was hidden (`everHidden`, as in `view`), no
 * scheduled entry is secret, the change does not create the encounter, and the ruleset redacts nothing
 * per viewer. (What sets a player apart in `view` and `viewLog` is a hidden combatant of their own or a
 * secret they control.) False says nothing: the views may still be the same.
 */
export function seenAlikeByAllButGm(
  state: EncounterState,
  entries: readonly LogEntry[],
  ruleset: AnyRuleset,
  everHidden: ReadonlySet<string>,
): boolean {
  if (ruleset.redact || ruleset.redactEvent || everHidden.size > 0) return false;
  for (const id in state.combatants) if (state.combatants[id]!.hidden) return false;
  for (const entry of state.agenda) if (entry.secret) return false;
  for (const { event } of entries) {
    if (!isCore(event)) continue;
    if (event.type === 'encounter/created') return false;
    if (event.type === 'agenda/scheduled' && event.entry.secret) return false;
    if (event.type === 'agenda/scheduled-many' && event.entries.some((e) => e.secret)) return false;
  }
  return true;
}

/**
 * A `change` message of the live socket (docs/api.md, "Live"): what one accepted command changed, as one
 * viewer sees it. `from` is the seq before the change, `seq` the seq after. The viewer's events come as
 * `events`, one slot per log entry of the change (seq `from + 1`, `from + 2`…), null where that viewer
 * does not see the entry, with the `group` and `time` they all share; or, when they do not share them,
 * as whole `entries`. The view comes as a `delta` from the view at `from`, or whole (`state`) when that is
 * smaller.
 */
export interface ChangeMessage {
  type: 'change';
  seq: number;
  from: number;
  group?: number;
  /** The entries' time: milliseconds since 1970 when that gives back the stored time exactly, else as stored. */
  time?: string | number;
  /** Each event as `[type]`, or `[type, its other fields]` (see `compactEvent`). */
  events?: Array<CompactEvent | null>;
  entries?: LogEntry[];
  delta?: ViewDelta;
  state?: EncounterView;
}

/** An event in a change's compact form: its type, then its other fields when it has any. */
export type CompactEvent = [string] | [string, Record<string, unknown>];

/** An event in the compact form: `{"type":"turn/ended","combatant":"n3"}` as `["turn/ended",{"combatant":"n3"}]`. */
export function compactEvent(event: EngineEvent): CompactEvent {
  const { type, ...rest } = event;
  for (const _ in rest) return [type, rest];
  return [type];
}

/** An event from its compact form (`compactEvent`). */
function eventOf(compact: CompactEvent): EngineEvent {
  const [type, rest] = compact;
  return rest ? { type, ...rest } : { type };
}

/** The viewer's entries of a change in the compact form of `ChangeMessage`; null when they do not fit it. */
export function compactEntries(
  entries: readonly LogEntry[],
  from: number,
  seq: number,
): Pick<ChangeMessage, 'group' | 'time' | 'events'> | null {
  const first = entries[0];
  if (!first) return { events: [] };
  const events: Array<CompactEvent | null> = new Array(seq - from).fill(null);
  for (const e of entries) {
    const slot = e.seq - from - 1;
    if (slot < 0 || slot >= events.length || e.group !== first.group || e.time !== first.time) return null;
    events[slot] = compactEvent(e.event);
  }
  // Nothing after the last event the viewer sees: the slots it does not see at the end say nothing.
  const last = entries.at(-1)!.seq - from;
  events.length = last;
  return first.time === undefined
    ? { group: first.group, events }
    : { group: first.group, time: compactTime(first.time), events };
}

/** An ISO time as its milliseconds, when they give it back exactly (13 characters instead of 26). */
function compactTime(time: string): string | number {
  const ms = Date.parse(time);
  return Number.isFinite(ms) && new Date(ms).toISOString() === time ? ms : time;
}

/** The log entries a change carries, whichever form they came in. */
export function changeEntries(message: ChangeMessage): LogEntry[] {
  if (message.entries) return message.entries;
  const out: LogEntry[] = [];
  const { group = 0, events = [] } = message;
  const time = typeof message.time === 'number' ? new Date(message.time).toISOString() : message.time;
  events.forEach((compact, i) => {
    if (!compact) return;
    const entry: LogEntry = { seq: message.from + 1 + i, group, event: eventOf(compact) };
    if (time !== undefined) entry.time = time;
    out.push(entry);
  });
  return out;
}

/**
 * A view at the change's seq. A delta leaves out the view's `seq`, which is always the message's
 * (`deltaOfView`).
 */
function atSeq(state: EncounterView, seq: number): EncounterView {
  return state.seq === seq ? state : { ...state, seq };
}

/**
 * The delta of a change from the view at `from` to `next`, as `receiveChange` applies it: the view's
 * `seq` is left out (it is the message's), and values the viewer's `events` carry are sent as references
 * to them (`eventRefs`).
 */
export function deltaOfView(
  base: EncounterView,
  next: EncounterView,
  events: readonly EngineEvent[],
): ViewDelta {
  return diffViewButSeq(base, next, eventRefs(events));
}

/** What a live client holds: the view at `seq`. */
export interface HeldView {
  seq: number;
  state: EncounterView;
}

/**
 * The view after a change, from the view the client holds; or, when the change does not follow that view
 * (a change missed, or a delta that does not fit it), the reason to ask for the whole view again.
 */
export function receiveChange(
  held: HeldView | undefined,
  message: ChangeMessage,
): { held: HeldView; entries: LogEntry[] } | { resync: string } {
  if (!held || held.seq !== message.from) {
    return { resync: `a change from ${message.from} came to a view at ${held?.seq ?? 'none'}` };
  }
  try {
    const entries = changeEntries(message);
    const state =
      message.state ??
      (message.delta
        ? atSeq(applyDelta(held.state, message.delta, resolveIn(entries.map((e) => e.event))), message.seq)
        : undefined);
    if (!state) return { resync: 'a change with neither a view nor a delta' };
    return { held: { seq: message.seq, state }, entries };
  } catch (error) {
    return { resync: error instanceof Error ? error.message : 'the change does not fit the view held' };
  }
}
