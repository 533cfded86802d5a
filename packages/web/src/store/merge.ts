import type { LogEntry } from '@roundkeeper/engine';

/** Appends entries not seen yet (by seq), keeping the log in order. */
export function mergeEntries(have: readonly LogEntry[], incoming: readonly LogEntry[]): LogEntry[] {
  if (incoming.length === 0) return have as LogEntry[];
  const last = have.length ? have[have.length - 1]!.seq : 0;
  const fresh = incoming.filter((e) => e.seq > last);
  if (fresh.length === incoming.length && fresh.length > 0) return [...have, ...fresh];
  const bySeq = new Map(have.map((e) => [e.seq, e]));
  for (const e of incoming) bySeq.set(e.seq, e);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * Delay before reconnect attempt n (0-based), as the server's instances wait (packages/server/src/backoff.ts):
 * a ceiling of 0.3 s, 0.6 s, 1.2 s… capped at 5 s, and a wait drawn between half of it and all of it
 * ("equal jitter"), so the pages a server restart dropped together do not all come back in the same instant.
 */
export function backoff(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(5000, 300 * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** How a part worked out again is shared with its last value: `share`, or a part's own way. */
export type Sharing<T> = (prev: unknown, next: T) => T;

/** A part that is never shared (its objects are someone else's, the engine's, not to be written to). */
export const fresh = <T>(_prev: unknown, next: T): T => next;

/**
 * Structural sharing between the state shown and the next one the server sends: every part of `next`
 * that is deep-equal to the same part of `prev` is replaced by `prev`'s object, so unchanged combatants,
 * effects or options keep their identity and the components that show them can skip re-rendering.
 * `next` is a freshly parsed message and is updated in place; returns `prev` itself when nothing changed.
 */
export function share<T>(prev: unknown, next: T): T {
  if (prev === next) return next;
  if (typeof prev !== 'object' || typeof next !== 'object' || prev === null || next === null) return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    let same = prev.length === next.length;
    for (let i = 0; i < next.length; i++) {
      const s = share(prev[i], next[i]);
      if (s !== prev[i]) same = false;
      next[i] = s;
    }
    return same ? (prev as T) : next;
  }
  if (Array.isArray(prev)) return next;
  const p = prev as Record<string, unknown>;
  const n = next as Record<string, unknown>;
  const keys = Object.keys(n);
  let same = keys.length === Object.keys(p).length;
  for (const k of keys) {
    if (!Object.hasOwn(p, k)) {
      same = false;
      continue;
    }
    const s = share(p[k], n[k]);
    if (s !== p[k]) same = false;
    // `__proto__` as an own key of parsed JSON: never assign through the setter.
    else if (k !== '__proto__') n[k] = s;
  }
  return same ? (prev as T) : next;
}
