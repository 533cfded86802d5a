/**
 * Reconnection back-off with jitter: the wait after `attempt` failures (0 for the first try) doubles
 * from `firstMs` up to `maxMs`, and is then drawn between half of it and all of it ("equal jitter"), so
 * the instances (or pages) a restart dropped together do not all come back in the same instant.
 */
export function backoffMs(
  attempt: number,
  { firstMs = 200, maxMs = 5_000 }: { firstMs?: number; maxMs?: number } = {},
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, firstMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
