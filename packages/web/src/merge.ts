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

/** Delay before reconnect attempt n (0-based): 0.3 s, 0.6 s, 1.2 s… capped at 5 s. */
export function backoff(attempt: number): number {
  return Math.min(5000, 300 * 2 ** attempt);
}
