import type { LogEntry } from '@roundkeeper/engine';
import { undoneGroups } from '../log/undone.js';

/**
 * The turn timer's arithmetic, outside the engine (wall time enters the engine only with commands: each log
 * entry carries the server's time of the command that made it, `LogEntry.time`).
 *
 * A turn whose start the page saw arrive (one command's change, live) is counted from that moment on the
 * browser's own clock: its start as this viewer saw it, whatever the server's clock says. A turn already
 * under way when the page loaded (or came in a reconnect's backlog) is counted from the server's stamp,
 * moved by the clock offset between browser and server: an entry stamped `t` that arrives live when the
 * browser reads `local` says the browser is at most `local − t` ahead (the message took some time on the
 * way), so the smallest such sample is the best estimate (as NTP does with one leg). Until one has arrived
 * (a page opened in the middle of a turn) the browser's clock is taken as the server's.
 */
export interface ClockKnowledge {
  /** The browser's clock minus the server's, ms; null until a live change has said. */
  offset: number | null;
  /** When turn starts arrived live, on the browser's clock, by the entry's seq (the latest few). */
  arrived: ReadonlyMap<number, number>;
}

export const NOTHING_KNOWN: ClockKnowledge = { offset: null, arrived: new Map() };

/** The entry that began the turn under way: the latest `turn/started` of `current` not undone. */
export function turnStart(entries: readonly LogEntry[], current: string | null | undefined): LogEntry | null {
  if (!current) return null;
  const undone = undoneGroups(entries);
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.event.type === 'turn/started' && e.event.combatant === current && !undone.has(e.group)) return e;
  }
  return null;
}

/** When the turn began on the browser's clock (ms since 1970), or null when the log does not say. */
export function startedLocally(start: LogEntry, known: ClockKnowledge): number | null {
  const seen = known.arrived.get(start.seq);
  if (seen !== undefined) return seen;
  const t = start.time === undefined ? Number.NaN : Date.parse(start.time);
  return Number.isFinite(t) ? t + (known.offset ?? 0) : null;
}

/** The turn's elapsed time in ms at the browser's `localNow`; never less than nothing. */
export function elapsedMs(startedAt: number, localNow: number): number {
  return Math.max(0, localNow - startedAt);
}

const KEPT = 16;

/**
 * What the page knows of the clocks after entries arrived at `localNow`. Only one command's entries (a live
 * change) tell anything: a backlog of several (a reconnect) says nothing of when they were made.
 */
export function learn(known: ClockKnowledge, arrived: readonly LogEntry[], localNow: number): ClockKnowledge {
  const first = arrived[0];
  if (!first?.time || arrived.some((e) => e.group !== first.group)) return known;
  const t = Date.parse(first.time);
  if (!Number.isFinite(t)) return known;
  const sample = localNow - t;
  const offset = known.offset === null ? sample : Math.min(known.offset, sample);
  const starts = arrived.filter((e) => e.event.type === 'turn/started');
  if (!starts.length) return offset === known.offset ? known : { ...known, offset };
  const seen = [...known.arrived, ...starts.map((e) => [e.seq, localNow] as const)].slice(-KEPT);
  return { offset, arrived: new Map(seen) };
}

/** "0:07", "1:05", "1:02:03": whole seconds, the way a stopwatch reads. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
