import type { Combatant } from '@roundkeeper/engine';
import { type ComponentProps, type DragEvent, memo, useCallback, useState } from 'react';
import type { ConditionLine, Resource } from '../model.js';
import { part } from '../screens/lazy-parts.js';
import type { EncounterSnapshot } from '../store/encounter-store.js';
import { useEncounter, useStore } from '../store/react.js';
import type { CardMenu as CardMenuPart } from './CardMenu.js';
import { CARD_DRAG, cardPart } from './card-model.js';
import { HpValue } from './HpValue.js';
import { Note } from './Note.js';

// The GM's ⋯ menu (rename, remove) is the GM's alone: its code is a chunk of its own, drawn right after the
// page's first paint, so a player's page never loads it.
const CardMenu = part<ComponentProps<typeof CardMenuPart>>(() =>
  import('./CardMenu.js').then((m) => m.CardMenu),
);

export interface CardProps {
  c: Combatant;
  id: string;
  res: Resource[];
  conds: ConditionLine[];
  selected: boolean;
  current: boolean;
  onSelect?: (id: string) => void;
  /** The GM's inline HP change: "-7", "+5", "12", "t5". Resolves to whether it was done. */
  onHp?: (id: string, text: string) => Promise<boolean>;
  /** Moves the combatant up or down the order, where the rules let the GM set it. */
  onMove?: (id: string, direction: 'up' | 'down') => void;
  /** A card (`dragged`) dropped on this one's place in the order. */
  onDrop?: (dragged: string, onto: string) => void;
  canMove?: { up: boolean; down: boolean };
  gm: boolean;
}

/** The card's markup; skipped when the combatant (kept by identity, see `share`) and what it shows are the same. */
export const CardBody = memo(function CardBody({
  c,
  id,
  res,
  conds,
  selected,
  current,
  onSelect,
  onHp,
  onMove,
  onDrop,
  canMove,
  gm,
}: CardProps) {
  const [over, setOver] = useState(false);
  const movable = onMove && canMove && (canMove.up || canMove.down);
  // Native drag and drop, mouse only: the ▲/▼ buttons and Alt+↑/↓ are the keyboard's way.
  const dropping = onDrop
    ? {
        onDragOver: (e: DragEvent<HTMLLIElement>) => {
          if (!e.dataTransfer.types.includes(CARD_DRAG)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
          setOver(true);
        },
        onDragLeave: (e: DragEvent<HTMLLIElement>) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
        },
        onDrop: (e: DragEvent<HTMLLIElement>) => {
          setOver(false);
          const dragged = e.dataTransfer.getData(CARD_DRAG);
          if (!dragged) return;
          e.preventDefault();
          if (dragged !== id) onDrop(dragged, id);
        },
      }
    : {};
  return (
    <li
      className={`card ${c.side}${selected ? ' selected' : ''}${current ? ' current' : ''}${c.active ? '' : ' out'}${over ? ' drop-here' : ''}${movable && onDrop ? ' movable' : ''}`}
      data-combatant={id}
      {...dropping}
    >
      {movable && onDrop ? (
        <span
          className="drag-handle"
          draggable
          aria-hidden="true"
          title="Drag onto another card to take its place in the order"
          onDragStart={(e) => {
            e.dataTransfer.setData(CARD_DRAG, id);
            e.dataTransfer.effectAllowed = 'move';
            const card = e.currentTarget.closest('li');
            if (card) e.dataTransfer.setDragImage(card, 16, 16);
          }}
        >
          ⠿
        </span>
      ) : null}
      <button
        type="button"
        className="card-name"
        aria-pressed={selected}
        onClick={onSelect ? () => onSelect(id) : undefined}
      >
        <span className={`side-tag ${c.side}`}>{c.side === 'pc' ? 'PC' : 'NPC'}</span>{' '}
        <bdi className="name">{c.name}</bdi>
        {/* " · acting" is the card's class's (styles.css): a turn that passes changes two classes, no text. */}
        <span className="now-tag" />
        {c.active ? null : <span className="muted"> · out</span>}
        {gm && c.hidden ? <span className="hidden-tag"> · hidden</span> : null}
        {c.group ? (
          <span className="muted">
            {' '}
            · <bdi>{c.group}</bdi>
          </span>
        ) : null}
      </button>
      {onMove && canMove && (canMove.up || canMove.down) ? (
        <span className="move">
          <button
            type="button"
            aria-label={`Move ${c.name} up the order`}
            title="Move up the order (Alt+↑)"
            disabled={!canMove.up}
            onClick={() => onMove(id, 'up')}
          >
            ▲
          </button>
          <button
            type="button"
            aria-label={`Move ${c.name} down the order`}
            title="Move down the order (Alt+↓)"
            disabled={!canMove.down}
            onClick={() => onMove(id, 'down')}
          >
            ▼
          </button>
        </span>
      ) : null}
      <dl className="resources">
        {res.map((r) => (
          <div key={r.label} className="res">
            <dt>{r.label}</dt>
            <dd>
              {r.label === 'HP' && onHp ? (
                <HpValue id={id} name={c.name} value={r.value} onHp={onHp} />
              ) : (
                r.value
              )}
              {r.fill !== undefined ? (
                <span className="bar" aria-hidden="true">
                  <span style={{ width: `${Math.round(r.fill * 100)}%` }} />
                </span>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
      {conds.length ? (
        <ul className="conditions" aria-label={`Conditions on ${c.name}`}>
          {conds.map((k) => (
            <li key={k.id}>
              <strong>
                <bdi>{k.name}</bdi>
              </strong>{' '}
              <span className="muted">{k.remaining}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {gm && c.notes ? <Note text={c.notes} /> : null}
      {gm && onSelect ? <CardMenu id={id} name={c.name} /> : null}
    </li>
  );
});

/**
 * A combatant's card: side, HP and the ruleset's gauges, conditions with what ends them. It reads its
 * combatant from the page's store: its model is kept as the same object while nothing it shows changed
 * (`derive`), and the card is memoized on its props (its handlers are stable), so a change redraws only
 * the cards it changed.
 */
export const CombatantCard = memo(function CombatantCard({
  id,
  selected,
  current,
  onSelect,
  onHp,
  onMove,
  onDrop,
  gm,
  own = false,
}: {
  id: string;
  selected: boolean;
  current: boolean;
  /** Called with the card's id; pass a stable function so unchanged cards are not redrawn. */
  onSelect?: (id: string) => void;
  onHp?: CardProps['onHp'];
  onMove?: CardProps['onMove'];
  onDrop?: CardProps['onDrop'];
  gm: boolean;
  /** The viewer plays this combatant: its private gauges show. */
  own?: boolean;
}) {
  const store = useStore();
  const privateToo = gm || own;
  const movable = onMove !== undefined;
  // Worked out once per view (`derive`), and kept as the same object while what it shows is the same.
  const card = useEncounter(
    useCallback(
      (s: EncounterSnapshot) => cardPart(store, s, id, privateToo, movable),
      [store, id, privateToo, movable],
    ),
  );
  if (!card) return null;
  return (
    <CardBody
      c={card.c}
      id={id}
      res={card.res}
      conds={card.conds}
      selected={selected}
      current={current}
      onSelect={onSelect}
      onHp={onHp}
      {...(onMove && card.canMove ? { onMove, canMove: card.canMove } : {})}
      {...(onDrop ? { onDrop } : {})}
      gm={gm}
    />
  );
});
