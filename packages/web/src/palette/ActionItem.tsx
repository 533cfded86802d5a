import { describeCost, type LegalAction } from '@roundkeeper/engine';
import { memo, type ReactNode } from 'react';
import { type GroupTerms, sameCost } from '../model.js';

export interface ActionItemProps {
  la: LegalAction;
  /** Unique prefix for the reason's element id. */
  uid: string;
  /**
   * The palette states this action's reason once for all, in the element with this id: the button is
   * described by it and has no text of its own that changes when the turn passes. Null: it says its own.
   */
  sharedId: string | null;
  /** The action's own reason now (its title, read when the button is hovered or focused). */
  reasonOf: (id: string) => string;
  /**
   * What its group's heading states once for all its buttons (the same cost, the same preview), and the
   * id of that statement, which describes the button; the button shows only what the heading does not.
   */
  terms: GroupTerms;
  onAct: (la: LegalAction) => void;
  onDetails: (la: LegalAction) => void;
}

/**
 * A quiet button's title, set as the pointer or the focus reaches it: the sentence names whose turn it is,
 * so rendering it would redraw every such button on every turn.
 */
export function showReason(e: { currentTarget: HTMLElement }, text: string): void {
  const title = `Not now: ${text}`;
  if (e.currentTarget.title !== title) e.currentTarget.title = title;
}

/**
 * A name with a line break allowed after each slash ("Ready/stow weapon/ammo"): a narrow button wraps it
 * there rather than inside a word. `<wbr>` adds no text, so the name reads and matches as it is written.
 */
export function breakable(name: string): ReactNode {
  if (!name.includes('/')) return name;
  const out: ReactNode[] = [];
  let at = 0;
  for (const part of name.split('/')) {
    at += part.length + 1;
    out.push(part);
    if (at <= name.length) out.push('/', <wbr key={at} />);
  }
  return out;
}

/** One palette button; skipped on re-render when what it shows is the same. */
export const ActionItem = memo(
  function ActionItem({ la: l, uid, sharedId, reasonOf, terms, onAct, onDetails }: ActionItemProps) {
    const why = `${uid}-${l.action.id}-why`;
    const needs = (l.params ?? []).some((p) => p.required && p.default === undefined && p.name !== 'target');
    const quiet = !l.enabled && sharedId !== null;
    const lazyTitle = quiet
      ? (e: { currentTarget: HTMLElement }) => showReason(e, reasonOf(l.action.id))
      : undefined;
    return (
      <li>
        <button
          type="button"
          className={l.enabled ? 'action' : 'action unavailable'}
          data-action={l.action.id}
          title={l.enabled ? l.action.text : quiet ? undefined : `Not now: ${l.reason ?? ''}`}
          aria-describedby={[terms.id, quiet ? sharedId : why].filter(Boolean).join(' ')}
          onPointerEnter={lazyTitle}
          onFocus={lazyTitle}
          onClick={() => onAct(l)}
        >
          <span className="action-name">
            {breakable(l.action.name)}
            {needs ? '…' : null}
            {l.enabled ? null : <span className="sr-only"> (not available now; the server will refuse)</span>}
          </span>
          {terms.cost ? null : <span className="action-cost">{describeCost(l.cost)}</span>}
          {l.preview && !terms.preview ? <span className="action-preview">→ {l.preview.label}</span> : null}
        </button>
        {l.params?.length && !needs ? (
          <button
            type="button"
            className="action-more"
            aria-label={`${l.action.name} with details`}
            title="Fill in its details first (target, roll…)"
            onClick={() => onDetails(l)}
          >
            ⋯
          </button>
        ) : null}
        {quiet ? null : (
          <div id={why} className={l.enabled ? 'sr-only' : 'reason'}>
            {l.enabled ? l.action.text : l.reason}
          </div>
        )}
      </li>
    );
  },
  (a, b) =>
    a.uid === b.uid &&
    a.sharedId === b.sharedId &&
    a.reasonOf === b.reasonOf &&
    a.onAct === b.onAct &&
    a.onDetails === b.onDetails &&
    a.la.enabled === b.la.enabled &&
    // A quiet button does not show its reason: a new one (whose turn it is) leaves it as it is.
    (a.la.reason === b.la.reason || (!a.la.enabled && a.sharedId !== null)) &&
    a.la.action.id === b.la.action.id &&
    a.la.action.name === b.la.action.name &&
    a.la.action.text === b.la.action.text &&
    a.terms.id === b.terms.id &&
    a.terms.cost === b.terms.cost &&
    a.terms.preview === b.terms.preview &&
    // What the heading states for the group is not drawn on the button: a new value there leaves it as it is.
    (a.terms.preview || a.la.preview?.label === b.la.preview?.label) &&
    (a.terms.cost || sameCost(a.la.cost, b.la.cost)) &&
    (a.la.params?.length ?? 0) === (b.la.params?.length ?? 0),
);
