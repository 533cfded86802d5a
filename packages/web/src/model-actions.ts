import {
  type AnyRuleset,
  type CommandForm,
  commandForms,
  type LegalAction,
  perObject,
} from '@roundkeeper/engine';

// What the palette and the other command forms read of the legal actions: the forms besides the
// palette's, the reason a list of actions shares, and the terms a group of actions has in common.

/**
 * The ruleset's commands besides the palette's actions, as forms: for the GM all of them; for a player only
 * those sent for their character, not the GM's. Start and next are the buttons (`i`, `n`); where they take
 * fields (initiative rolled at the table, who acts first, Character Points spent), their forms come last.
 */
export function otherForms(rs: AnyRuleset, player = false): CommandForm[] {
  const button = (f: CommandForm) => f.type === 'start' || f.type === 'next';
  const forms = commandForms(rs).filter(
    (f) => (!button(f) || f.params.length > 0) && (!player || (f.forActor && !f.gm)),
  );
  return [...forms.filter((f) => !button(f)), ...forms.filter(button)];
}

const NAME = '\u0000';

/** Whether `s[i]` is a letter or digit: a name matches only as a whole word. */
function wordChar(s: string, i: number): boolean {
  return i >= 0 && i < s.length && /[\p{L}\p{N}]/u.test(s[i]!);
}

/**
 * An unavailable action's reason with the action's own name taken out, so that reasons which differ only
 * by it ("It is Orc's turn; Dash is taken on Ana's own turn", "…; Dodge is taken…") compare equal. Read once per legal action: the palette asks twice per action and change (the shared
 * reason, then each button).
 */
export const reasonKey: (la: LegalAction) => string | null = perObject(readReasonKey);

function readReasonKey(la: LegalAction): string | null {
  if (la.enabled || !la.reason) return null;
  const name = la.action.name;
  const r = la.reason;
  if (!name) return r;
  let out = '';
  let i = 0;
  for (let at = r.indexOf(name); at >= 0; at = r.indexOf(name, at + 1)) {
    if (at < i || wordChar(r, at - 1) || wordChar(r, at + name.length)) continue;
    out += r.slice(i, at) + NAME;
    i = at + name.length;
  }
  return out + r.slice(i);
}

/**
 * The reason most unavailable actions share, when at least three do: the palette says it once above the
 * buttons instead of under each. Where the actions' own names stood, it says "each greyed-out action".
 */
export function sharedReason(shown: readonly LegalAction[]): { key: string; text: string } | null {
  const count = new Map<string, number>();
  let best: string | null = null;
  for (const l of shown) {
    const key = reasonKey(l);
    if (key === null) continue;
    const n = (count.get(key) ?? 0) + 1;
    count.set(key, n);
    if (best === null || n > count.get(best)!) best = key;
  }
  if (best === null || count.get(best)! < 3) return null;
  const text = best.split(NAME).reduce((acc, part) => {
    const start = acc === '' || /[.!?:]\s*$/.test(acc);
    return `${acc}${start ? 'Each' : 'each'} greyed-out action${part}`;
  });
  return { key: best, text };
}

/** Whether two costs are the same amounts of the same resources (so they read the same). */
export function sameCost(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

/** What a palette group's heading states once for all its buttons; `id` is null when it states nothing. */
export interface GroupTerms {
  id: string | null;
  /** The buttons all cost the same: the heading says how much. */
  cost: boolean;
  /** The buttons all land at the same place: the heading says where. */
  preview: boolean;
}

/**
 * What a group of two or more buttons has in common, to be said once in its heading: the same cost, and
 * the same preview. A turn passing then changes one heading instead of every button (a tara-corax actor's
 * Marks are in every preview).
 */
export function groupTerms(items: readonly LegalAction[], id: string): GroupTerms {
  const [first, ...rest] = items;
  if (!first || !rest.length) return { id: null, cost: false, preview: false };
  const cost = rest.every((l) => sameCost(l.cost, first.cost));
  const label = first.preview?.label;
  const preview = label !== undefined && rest.every((l) => l.preview?.label === label);
  return { id: cost || preview ? id : null, cost, preview };
}
