import { describeCost, type LegalAction } from '@roundkeeper/engine';
import { memo, type ReactNode } from 'react';
import { type GroupTerms, sameCost } from '../model.js';

/**
 * What one palette button shows, as plain values: a button whose values are the same is skipped on a
 * re-render (React's own comparison; nothing listed by hand to forget).
 */
export interface ActionItemProps {
  id: string;
  name: string;
  /** The rule's text (its title while available). */
  text: string;
  enabled: boolean;
  /**
   * Why it is not available, said on the button; null when the palette says it once for all (in the
   * element `sharedId` names) or when it is available.
   */
  reason: string | null;
  /** The element stating the shared reason (a quiet button); null when the button says its own. */
  sharedId: string | null;
  /** It needs a field filled first: its click opens the form ("…" after the name). */
  needs: boolean;
  /** It takes fields, none required: a "⋯" opens the form. */
  details: boolean;
  /** Its cost, unless its group's heading says it for all. */
  cost: string | null;
  /** Where it lands, unless its group's heading says it for all. */
  preview: string | null;
  /** The group heading's statement of what the buttons share, which describes the button. */
  termsId: string | null;
  /** Unique prefix for the reason's element id. */
  uid: string;
  /** The action's own reason now (its title, read when the button is hovered or focused). */
  reasonOf: (id: string) => string;
  onAct: (id: string) => void;
  onDetails: (id: string) => void;
}

/** The last cost worded for each action (its catalog definition), and its words. */
const worded = new WeakMap<object, { cost: Readonly<Record<string, number>>; words: string }>();

/**
 * An action's cost in words (`describeCost`), worded again only when its amounts changed: the palette asks
 * for every button's on every change, and an action's cost rarely moves.
 */
export function costWords(l: Pick<LegalAction, 'action' | 'cost'>): string {
  const last = worded.get(l.action);
  if (last && sameCost(last.cost, l.cost)) return last.words;
  const words = describeCost(l.cost);
  worded.set(l.action, { cost: l.cost, words });
  return words;
}

/** The values a palette button is drawn from: the action, its group's terms and the shared reason. */
export function itemOf(
  l: LegalAction,
  terms: GroupTerms,
  sharedId: string | null,
): Pick<
  ActionItemProps,
  | 'id'
  | 'name'
  | 'text'
  | 'enabled'
  | 'reason'
  | 'sharedId'
  | 'needs'
  | 'details'
  | 'cost'
  | 'preview'
  | 'termsId'
> {
  const needs = (l.params ?? []).some((p) => p.required && p.default === undefined && p.name !== 'target');
  const quiet = !l.enabled && sharedId !== null;
  return {
    id: l.action.id,
    name: l.action.name,
    text: l.action.text,
    enabled: l.enabled,
    // A quiet button does not show its reason: a new one (whose turn it is) leaves it as it is.
    reason: l.enabled || quiet ? null : (l.reason ?? ''),
    sharedId: quiet ? sharedId : null,
    needs,
    details: Boolean(l.params?.length) && !needs,
    cost: terms.cost ? null : costWords(l),
    preview: terms.preview ? null : (l.preview?.label ?? null),
    termsId: terms.id,
  };
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
export const ActionItem = memo(function ActionItem(p: ActionItemProps) {
  const why = `${p.uid}-${p.id}-why`;
  const quiet = p.sharedId !== null;
  const lazyTitle = quiet
    ? (e: { currentTarget: HTMLElement }) => showReason(e, p.reasonOf(p.id))
    : undefined;
  return (
    <li className={p.details ? 'has-more' : undefined}>
      <button
        type="button"
        className={p.enabled ? 'action' : 'action unavailable'}
        data-action={p.id}
        title={p.enabled ? p.text : quiet ? undefined : `Not now: ${p.reason ?? ''}`}
        aria-describedby={[p.termsId, quiet ? p.sharedId : why].filter(Boolean).join(' ')}
        onPointerEnter={lazyTitle}
        onFocus={lazyTitle}
        onClick={() => p.onAct(p.id)}
      >
        <span className="action-name">
          {breakable(p.name)}
          {p.needs ? '…' : null}
          {p.enabled ? null : <span className="sr-only"> (not available now; the server will refuse)</span>}
        </span>
        {p.cost === null ? null : <span className="action-cost">{p.cost}</span>}
        {p.preview === null ? null : <span className="action-preview">→ {p.preview}</span>}
      </button>
      {p.details ? (
        <button
          type="button"
          className="action-more"
          aria-label={`${p.name} with details`}
          title="Fill in its details first (target, roll…)"
          onClick={() => p.onDetails(p.id)}
        >
          ⋯
        </button>
      ) : null}
      {quiet ? null : (
        <div id={why} className={p.enabled ? 'sr-only' : 'reason'}>
          {p.enabled ? p.text : p.reason}
        </div>
      )}
    </li>
  );
});
