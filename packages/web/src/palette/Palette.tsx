import { type EncounterView, humanize, type Json, type LegalAction } from '@roundkeeper/engine';
import { type ComponentProps, useCallback, useId, useLayoutEffect, useRef, useState } from 'react';
import { initialValues, missingParams, type RawForm } from '../forms/form.js';
import { actionCommand, asState, groupTerms, reasonKey, rulesetOf, sharedReason } from '../model.js';
import { useLegal } from '../screen/react.js';
import { asker } from '../screen/screen.js';
import { ScreenErrors } from '../screens/chrome.js';
import { part } from '../screens/lazy-parts.js';
import { useRun } from '../store/react.js';
import type { ActionForm as ActionFormPart } from './ActionForm.js';
import { ActionItem, costWords, itemOf } from './ActionItem.js';

// An action's form opens on demand (an action with a required field, or ⋯): its code is a chunk of its
// own, not part of the page's first load.
const ActionForm = part<ComponentProps<typeof ActionFormPart>>(() =>
  import('./ActionForm.js').then((m) => m.ActionForm),
);

/** The values a click gives an action before any form: the palette's target, where the action takes one. */
export function givenFor(l: LegalAction, target: string): Record<string, Json> {
  if (!target) return {};
  const params = l.params ?? [];
  // An action that declares no parameters yet still gets the target (the rulesets read it when present).
  if (!params.length) return { target };
  const p = params.find((x) => x.name === 'target');
  if (!p) return {};
  if (p.options && !p.options.some((o) => String(o.value) === target)) return {};
  return { target };
}

/** The action whose form is open, for which actor, with what the form holds. */
export interface OpenForm {
  actor: string;
  la: LegalAction;
  raw: RawForm;
}

/** The latest of what the palette's handlers read, kept in a ref written after each commit. */
interface Latest {
  view: EncounterView;
  actor: string;
  target: string;
  legal: LegalAction[];
}

/**
 * The palette's handlers: they read the latest props through a ref written after each commit (never while
 * rendering), so they stay the same functions and the buttons can be skipped.
 */
function usePaletteActs(now: Latest, setForm: (f: OpenForm) => void) {
  const run = useRun();
  const latest = useRef(now);
  useLayoutEffect(() => {
    latest.current = now;
  });
  // An action as it is now, by id: a button skipped on a re-render holds the id it was drawn with, and its
  // reason, parameters (their choices, resolved for the actor) and preview are read as they are now.
  const legalNow = useCallback((id: string) => latest.current.legal.find((l) => l.action.id === id), []);
  const reasonOf = useCallback((id: string) => legalNow(id)?.reason ?? '', [legalNow]);
  const go = useCallback(
    async (l: LegalAction, params: Record<string, Json>) => {
      const { view: v, actor: who } = latest.current;
      const r = await run(
        actionCommand(v, who, l, params),
        `${v.combatants[who]?.name ?? who}: ${l.action.name}`,
      );
      return r.ok;
    },
    [run],
  );
  const onDetails = useCallback(
    (id: string) => {
      const { view: v, actor: who, target: on } = latest.current;
      const l = legalNow(id);
      if (!l) return;
      const raw = initialValues(l.params ?? [], { round: v.round, actor: who });
      const given = givenFor(l, on);
      if (typeof given.target === 'string') raw.target = given.target;
      setForm({ actor: who, la: l, raw });
    },
    [legalNow, setForm],
  );
  const onAct = useCallback(
    (id: string) => {
      const l = legalNow(id);
      if (!l) return;
      const given = givenFor(l, latest.current.target);
      // An action that is not available now is sent as it is: the answer is why, not a form to fill.
      if (l.enabled && missingParams(l.params ?? [], given).length) onDetails(id);
      else void go(l, given);
    },
    [go, onDetails, legalNow],
  );
  return { go, reasonOf, onAct, onDetails };
}

/** The actions of one list (available, or not), grouped by kind under headings. */
function ActionGroups({
  items,
  where,
  uid,
  compact,
  shared,
  sharedId,
  acts,
}: {
  items: LegalAction[];
  where: string;
  uid: string;
  compact: boolean;
  shared: { key: string } | null;
  sharedId: string;
  acts: Pick<ReturnType<typeof usePaletteActs>, 'reasonOf' | 'onAct' | 'onDetails'>;
}) {
  return [...new Set(items.map((l) => l.action.kind))].map((kind) => {
    const group = items.filter((l) => l.action.kind === kind);
    const terms = groupTerms(group, `${uid}-${where}-${kind.replace(/[^\w-]/g, '_')}`);
    const first = group[0]!;
    return (
      <div key={kind} className="palette-group">
        <h3>
          {kindWords(kind)}
          {terms.id ? (
            <span id={terms.id} className="group-terms">
              {terms.cost ? <span className="action-cost">{costWords(first)} each</span> : null}
              {terms.preview ? <span className="action-preview">→ {first.preview?.label}</span> : null}
            </span>
          ) : null}
        </h3>
        <ul className={compact ? 'actions compact' : 'actions'}>
          {group.map((l) => (
            <ActionItem
              key={l.action.id}
              {...itemOf(l, terms, shared !== null && reasonKey(l) === shared.key ? sharedId : null)}
              uid={uid}
              reasonOf={acts.reasonOf}
              onAct={acts.onAct}
              onDetails={acts.onDetails}
            />
          ))}
        </ul>
      </div>
    );
  });
}

/** The palette's target: every active combatant has an option (the actor's hidden), so a turn that passes changes attributes only. */
function TargetPicker({
  view,
  actor,
  listed,
  target,
  choose,
}: {
  view: EncounterView;
  actor: string;
  listed: string[];
  target: string;
  choose: (target: string) => void;
}) {
  const targetId = useId();
  return (
    <div className="row">
      <label htmlFor={targetId}>Target</label>
      <select id={targetId} value={target} onChange={(e) => choose(e.currentTarget.value)}>
        <option value="">no target</option>
        {listed.map((id) => (
          <option key={id} value={id} hidden={id === actor} disabled={id === actor}>
            {view.combatants[id]!.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Every catalog action of the actor: the available ones first (by kind), the others folded below with the
 * rule's reason. A click sends the action; one that needs more (a required field) opens its form first.
 * The target is the actor's own: it starts empty for every actor and never offers the actor.
 */
export function Palette({
  view,
  actor,
  compact = false,
  named = false,
}: {
  view: EncounterView;
  actor: string;
  compact?: boolean;
  /**
   * The heading names the actor (a player's page, where it changes only when they pick another of their
   * characters). The GM's page names the actor once above its tools, so a turn that passes rewrites none.
   */
  named?: boolean;
}) {
  const rs = rulesetOf(view);
  const [chosen, setChosen] = useState<{ actor: string; target: string }>({ actor, target: '' });
  const [form, setForm] = useState<OpenForm | null>(null);
  const [unavailableOpen, setUnavailableOpen] = useState(false);
  // The palette stays mounted when the actor changes (a new turn): only what belonged to the last actor
  // starts over — the target, an open form, the folded list — and unchanged buttons are not redrawn.
  const [shownFor, setShownFor] = useState(actor);
  if (shownFor !== actor) {
    setShownFor(actor);
    setChosen({ actor, target: '' });
    setForm(null);
    setUnavailableOpen(false);
  }
  const uid = useId();
  const sharedId = `${uid}-shared`;
  const { legal, errors: legalErrors } = useLegal(view, actor);
  const listed = view.roster.filter((id) => view.combatants[id]?.active);
  // The target belongs to the actor it was chosen for: the next actor starts with none.
  const target =
    chosen.actor === actor && chosen.target !== actor && listed.includes(chosen.target) ? chosen.target : '';
  const open = form && form.actor === actor ? form : null;
  const acts = usePaletteActs({ view, actor, target, legal }, setForm);
  const c = view.combatants[actor];
  if (!c) return null;
  const enabled = legal.filter((l) => l.enabled);
  const disabled = legal.filter((l) => !l.enabled);
  const shared = sharedReason(legal);
  const asked = rs ? asker(rs) : null;
  const hint =
    asked?.ask('the palette hint', () => rs?.present?.paletteHint?.(asState(view)) ?? null, null) ?? null;
  const errors = [...legalErrors, ...(asked?.errors ?? [])];
  const groups = { uid, compact, shared, sharedId, acts };
  return (
    <section className="panel palette" aria-label={`Actions of ${c.name}`}>
      <ScreenErrors errors={errors} />
      <div className="panel-head">
        <h2>
          Actions
          {named ? (
            <>
              {' '}
              · <bdi>{c.name}</bdi>
            </>
          ) : null}
          {hint ? <span className="muted"> ({hint})</span> : null}
        </h2>
        <TargetPicker
          view={view}
          actor={actor}
          listed={listed}
          target={target}
          choose={(t) => setChosen({ actor, target: t })}
        />
      </div>
      {open ? (
        <ActionForm
          key={open.la.action.id}
          view={view}
          open={open}
          setRaw={(raw) => setForm({ ...open, raw })}
          close={() => setForm(null)}
          send={acts.go}
        />
      ) : null}
      {shared ? (
        <p id={sharedId} className="reason shared-reason" data-testid="palette-reason">
          {shared.text}
        </p>
      ) : null}
      {enabled.length ? (
        <ActionGroups items={enabled} where="on" {...groups} />
      ) : (
        <p className="muted">Nothing is available to {c.name} right now.</p>
      )}
      {disabled.length ? (
        <details
          className="unavailable-actions"
          data-testid="unavailable-actions"
          open={unavailableOpen}
          onToggle={(e) => setUnavailableOpen(e.currentTarget.open)}
        >
          <summary>Not available now ({disabled.length})</summary>
          <ActionGroups items={disabled} where="off" {...groups} />
        </details>
      ) : null}
    </section>
  );
}

/** The palette's kind headings: the rulesets' kinds as a person reads them (worded once per kind). */
export const kindHeadings = new Map<string, string>();
export function kindWords(kind: string): string {
  let words = kindHeadings.get(kind);
  if (words === undefined) {
    words = humanize(kind);
    kindHeadings.set(kind, words);
  }
  return words;
}
