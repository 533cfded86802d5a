/**
 * A point in combat time. `round` first, then `at`: a tuple whose meaning the ruleset's clock gives
 * (tara-corax: [30 − Mark]; six-second: [turn slot, second]; tempo: [tempo, side]; classic: the
 * initiative order key). Instants compare lexicographically, so a longer tuple sorts just after its
 * prefix: [5] < [5, 1] < [6]. That is how "right after this moment" is expressed (a delayed turn, a
 * reaction) without renumbering anything.
 */
export type Instant = {
  round: number;
  at: number[];
};

export function compareTuples(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; ; i++) {
    const x = a[i];
    const y = b[i];
    // Where one ends, the shorter (a prefix of the other) sorts first.
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? -1 : 1;
    const d = x - y;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
}

export function compareInstants(a: Instant, b: Instant): number {
  if (a.round !== b.round) return a.round < b.round ? -1 : 1;
  return compareTuples(a.at, b.at);
}

export function instantKey(i: Instant): string {
  return `${i.round}:${i.at.join(',')}`;
}
