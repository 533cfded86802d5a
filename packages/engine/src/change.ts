import { applyDelta, type ViewDelta } from './delta.js';
import type { EngineEvent, LogEntry } from './types.js';
import type { EncounterView } from './view.js';

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
  time?: string;
  events?: Array<EngineEvent | null>;
  entries?: LogEntry[];
  delta?: ViewDelta;
  state?: EncounterView;
}

/** The viewer's entries of a change in the compact form of `ChangeMessage`; null when they do not fit it. */
export function compactEntries(
  entries: readonly LogEntry[],
  from: number,
  seq: number,
): Pick<ChangeMessage, 'group' | 'time' | 'events'> | null {
  const first = entries[0];
  if (!first) return { events: [] };
  const events: Array<EngineEvent | null> = new Array(seq - from).fill(null);
  for (const e of entries) {
    const slot = e.seq - from - 1;
    if (slot < 0 || slot >= events.length || e.group !== first.group || e.time !== first.time) return null;
    events[slot] = e.event;
  }
  // Nothing after the last event the viewer sees: the slots it does not see at the end say nothing.
  const last = entries.at(-1)!.seq - from;
  events.length = last;
  return first.time === undefined
    ? { group: first.group, events }
    : { group: first.group, time: first.time, events };
}

/** The log entries a change carries, whichever form they came in. */
export function changeEntries(message: ChangeMessage): LogEntry[] {
  if (message.entries) return message.entries;
  const out: LogEntry[] = [];
  const { group = 0, time, events = [] } = message;
  events.forEach((event, i) => {
    if (!event) return;
    const entry: LogEntry = { seq: message.from + 1 + i, group, event };
    if (time !== undefined) entry.time = time;
    out.push(entry);
  });
  return out;
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
    const state = message.state ?? (message.delta ? applyDelta(held.state, message.delta) : undefined);
    if (!state) return { resync: 'a change with neither a view nor a delta' };
    return { held: { seq: message.seq, state }, entries: changeEntries(message) };
  } catch (error) {
    return { resync: error instanceof Error ? error.message : 'the change does not fit the view held' };
  }
}
