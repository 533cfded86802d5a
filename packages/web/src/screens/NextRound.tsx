import { memo, useCallback } from 'react';
import { isolated, rulesetOf } from '../model.js';
import { nextRound } from '../screen/next-round.js';
import type { EncounterSnapshot, EncounterStore } from '../store/encounter-store.js';
import { type NoProps, useEncounter, useStore } from '../store/react.js';

/**
 * The next round's order of a change, worked out once per view and kept as the same list while it reads
 * the same (`derive`), so the line is drawn again only when its names change.
 */
export function nextRoundOf(
  store: Pick<EncounterStore, 'derive'>,
  s: Pick<EncounterSnapshot, 'view'>,
): string[] | null {
  return s.view ? store.derive('next-round', s.view, (v) => nextRound(v, rulesetOf(v))) : null;
}

/**
 * "Next round: Bren, Orc, Ana" where the rules already fix it (`screen/next-round.ts`); else nothing. It
 * reads its own slice of the store, so a change that leaves the next round's order does not draw it.
 */
export const NextRound = memo(function NextRound(_: NoProps) {
  const store = useStore();
  const names = useEncounter(useCallback((s: EncounterSnapshot) => nextRoundOf(store, s), [store]));
  if (!names) return null;
  const text = `Next round: ${names.map(isolated).join(', ')}`;
  return (
    <p className="next-round muted" data-testid="next-round" title={text}>
      {/* One text, each name isolated (as "Next: …" is): a change rewrites one text node. */}
      {text}
    </p>
  );
});
