import type { Combatant, EncounterView, LogEntry } from '@roundkeeper/engine';
import { memo, useMemo } from 'react';
import { type ConditionLine, conditionsOf, hurtWords, roundOrder } from '../model.js';
import { hpText } from '../screen/screen.js';
import { sameList } from './CombatantCard.js';

/**
 * Everyone's visible status, in the round's order: PCs' HP, NPCs as unhurt / hurt / bloodied / down,
 * conditions with their time left. The table screen and the player's phone.
 */
export function StatusList({
  view,
  entries,
  exclude = [],
  big = false,
  numbers = false,
}: {
  view: EncounterView;
  entries: LogEntry[];
  exclude?: string[];
  big?: boolean;
  /** NPCs' HP as numbers too (the GM chose to show them), not only as words. */
  numbers?: boolean;
}) {
  const order = useMemo(() => roundOrder(view, entries), [view, entries]).filter(
    (id) => !exclude.includes(id),
  );
  return (
    <ol className={big ? 'order big' : 'order'}>
      {order.map((cid) => {
        const c = view.combatants[cid]!;
        const status = (c.side === 'pc' || numbers) && c.hp ? `${hpText(c.hp)} HP` : hurtWords(c);
        return (
          <StatusRow
            key={cid}
            id={cid}
            c={c}
            status={status}
            current={cid === view.current}
            conds={conditionsOf(view, cid)}
          />
        );
      })}
    </ol>
  );
}

/** One combatant's line in the status list; skipped when the combatant and what the line shows are the same. */
export const StatusRow = memo(
  function StatusRow({
    id,
    c,
    status,
    current,
    conds,
  }: {
    id: string;
    c: Combatant;
    status: string | null;
    current: boolean;
    conds: ConditionLine[];
  }) {
    return (
      <li data-combatant={id} className={`${c.side}${current ? ' current' : ''}${c.active ? '' : ' out'}`}>
        <span className="order-name">
          <bdi>{c.name}</bdi>
        </span>
        {status ? <span className="order-status">{status}</span> : null}
        {conds.length ? (
          <ul className="order-conditions" aria-label={`Conditions on ${c.name}`}>
            {conds.map((k) => (
              <li key={k.id}>
                <bdi>{k.name}</bdi> <span className="muted">{k.remaining}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </li>
    );
  },
  (a, b) =>
    a.id === b.id &&
    a.c === b.c &&
    a.status === b.status &&
    a.current === b.current &&
    sameList(a.conds, b.conds),
);
