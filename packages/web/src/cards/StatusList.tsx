import type { EncounterView } from '@roundkeeper/engine';
import { memo, useCallback } from 'react';
import { conditionsOf, hurtWords, roundOrder } from '../model.js';
import { hpText } from '../screen/screen.js';
import type { EncounterSnapshot, EncounterStore } from '../store/encounter-store.js';
import { useEncounter, useStore } from '../store/react.js';

/** The order the status list shows and whose turn it is, or null before the encounter has loaded. */
export interface StatusOrder {
  order: string[];
  current: string | null;
}

/**
 * The status list's own slice of the store: the round's order and whose turn it is, worked out once per
 * change and kept as the same object while neither changed (`derive`, then `share`), so a change that
 * moves no one in the order and passes no turn (damage, a condition) leaves the list, and only the rows
 * it changed are drawn.
 */
export function statusOrderOf(
  store: Pick<EncounterStore, 'derive'>,
  s: Pick<EncounterSnapshot, 'view' | 'entries'>,
): StatusOrder | null {
  return store.derive('status-order', s, ({ view, entries }) =>
    view ? { order: roundOrder(view, entries), current: view.current ?? null } : null,
  );
}

/**
 * Everyone's visible status, in the round's order: PCs' HP, NPCs as unhurt / hurt / bloodied / down,
 * conditions with their time left. The table screen and the player's phone. It reads its order from the
 * store, not from a view passed down, so the screen's render on every change skips it.
 */
export const StatusList = memo(function StatusList({
  big = false,
  numbers = false,
}: {
  big?: boolean;
  /** NPCs' HP as numbers too (the GM chose to show them), not only as words. */
  numbers?: boolean;
}) {
  const store = useStore();
  const part = useEncounter(useCallback((s: EncounterSnapshot) => statusOrderOf(store, s), [store]));
  if (!part) return null;
  return (
    <ol className={big ? 'order big' : 'order'} data-testid="status-list">
      {part.order.map((cid) => (
        <StatusRow key={cid} id={cid} current={cid === part.current} numbers={numbers} />
      ))}
    </ol>
  );
});

/** What a line of the status list shows: PCs' HP (and NPCs' where the GM shows numbers), words otherwise. */
function rowOf(view: EncounterView, id: string, numbers: boolean) {
  const c = view.combatants[id];
  if (!c) return null;
  const status = (c.side === 'pc' || numbers) && c.hp ? `${hpText(c.hp)} HP` : hurtWords(c);
  return { c, status, conds: conditionsOf(view, id) };
}

/**
 * One combatant's line in the status list, read from the store: its model is kept as the same object
 * while nothing it shows changed (`derive`), so a change redraws only the lines it changed.
 */
export const StatusRow = memo(function StatusRow({
  id,
  current,
  numbers,
}: {
  id: string;
  current: boolean;
  numbers: boolean;
}) {
  const store = useStore();
  const row = useEncounter(
    useCallback(
      (s: EncounterSnapshot) =>
        s.view ? store.derive(`row:${id}:${numbers}`, s.view, (v) => rowOf(v, id, numbers)) : null,
      [store, id, numbers],
    ),
  );
  if (!row) return null;
  const { c, status, conds } = row;
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
});
