import type { EncounterView, LogEntry } from '@roundkeeper/engine';
import { memo, useCallback, useMemo } from 'react';
import { conditionsOf, hurtWords, roundOrder } from '../model.js';
import { hpText } from '../screen/screen.js';
import type { EncounterSnapshot } from '../store/encounter-store.js';
import { useEncounter, useStore } from '../store/react.js';

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
      {order.map((cid) => (
        <StatusRow key={cid} id={cid} current={cid === view.current} numbers={numbers} />
      ))}
    </ol>
  );
}

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
