import type { EncounterView } from '@roundkeeper/engine';
import { useMemo } from 'react';
import { isolated, rulesetOf } from '../model.js';
import { nextRound } from '../screen/next-round.js';

/** "Next round: Bren, Orc, Ana" where the rules already fix it (`screen/next-round.ts`); else nothing. */
export function NextRound({ view }: { view: EncounterView }) {
  const names = useMemo(() => nextRound(view, rulesetOf(view)), [view]);
  if (!names) return null;
  const text = `Next round: ${names.map(isolated).join(', ')}`;
  return (
    <p className="next-round muted" data-testid="next-round" title={text}>
      {/* One text, each name isolated (as "Next: …" is): a change rewrites one text node. */}
      {text}
    </p>
  );
}
