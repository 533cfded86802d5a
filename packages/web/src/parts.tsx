import {
  type AnyRuleset,
  type Combatant,
  type Command,
  type CommandForm as CommandFormSpec,
  type CoreEvent,
  commandForms,
  commandLabel,
  describeCost,
  describeEvent,
  type EncounterState,
  type EncounterView,
  humanize,
  isCore,
  type Json,
  type LegalAction,
  type LogEntry,
  paramsOfSchema,
  perObject,
  type Panel as RulesetPanel,
  resolveParams,
  stateAt,
  type Timeline,
} from '@roundkeeper/engine';
import {
  createElement,
  type DragEvent,
  memo,
  type ReactNode,
  type RefObject,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { initialValues, missingParams, payloadOf, type RawForm } from './form.js';
import type { SendResult } from './live.js';
import {
  actionCommand,
  asState,
  type ConditionLine,
  conditionsOf,
  type GroupTerms,
  groupTerms,
  headline,
  hurtWords,
  type Resource,
  reasonKey,
  resourcesOf,
  roundOrder,
  rulesetOf,
  sameCost,
  sharedReason,
  splitNames,
} from './model.js';
import { ParamFields } from './ParamForm.js';
import { describingState, namesOf } from './screen/names.js';
import { useControls, useHeadline, useLegal, useNames } from './screen/react.js';
import { asker, roundsShown } from './screen/screen.js';
import { forViewer } from './screen/words.js';
import { useEncounter, useRun } from './store/react.js';
import {
  describeTimeline,
  piecesSvg,
  SVG_FONT,
  type SvgEl,
  sameEls,
  type TimelinePiece,
  timelinePieces,
} from './timeline-svg.js';

export type Send = (command: Command) => Promise<SendResult>;

/** What a ruleset threw while the page worked something out: shown as an error, never hidden. */
export function ScreenErrors({ errors }: { errors: readonly string[] }) {
  if (!errors.length) return null;
  return (
    <div className="screen-errors" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/**
 * The big "whose turn, which Mark" banner, from the screen model (`screen/`). When the clock already
 * names whose turn it is, the actor line is for screen readers only.
 */
export function Headline({ view, compact = false }: { view: EncounterView; compact?: boolean }) {
  const { headline: h, errors } = useHeadline(view);
  return (
    <section className={compact ? 'headline compact' : 'headline'} aria-live="polite" aria-label="Whose turn">
      <div className="headline-clock" data-testid="clock">
        {h.clock}
      </div>
      <div className={h.named ? 'headline-actor sr-only' : 'headline-actor'} data-testid="current-actor">
        {h.actor}
      </div>
      <ScreenErrors errors={errors} />
    </section>
  );
}

/**
 * The ruleset's timeline of a view (its display names), or what the ruleset threw drawing it; null without
 * one. Worked out once per view: a change makes a new one.
 */
const timelineRead = perObject((view: EncounterView): { t: Timeline | null; error?: string } => {
  const rs = rulesetOf(view);
  if (!rs) return { t: null };
  const { ask, errors } = asker(rs);
  const t = ask('the timeline', () => rs.timeline(describingState(view, namesOf(view, []))), null);
  return errors.length ? { t, error: errors[0]! } : { t };
});

export const timelineOf = (view: EncounterView): Timeline | null => timelineRead(view).t;

function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadText(name: string, text: string, type = 'application/json'): void {
  download(name, new Blob([text], { type }));
}

async function exportPng(svg: string, name: string): Promise<void> {
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('The timeline could not be drawn as an image.'));
    img.src = url;
  });
  const scale = 2;
  const canvas = document.createElement('canvas');
  canvas.width = img.width * scale;
  canvas.height = img.height * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.scale(scale, scale);
  ctx.drawImage(img, 0, 0);
  URL.revokeObjectURL(url);
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
  if (blob) download(name, blob);
}

/** React's name of an SVG attribute as the picture writes it: `stroke-width` → `strokeWidth`. */
const propNames = new Map<string, string>([['class', 'className']]);
function propName(attr: string): string {
  let name = propNames.get(attr);
  if (name === undefined) {
    name = attr.startsWith('data-') ? attr : attr.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    propNames.set(attr, name);
  }
  return name;
}

/**
 * An element of the picture as React's: a change then touches only the attributes and texts that differ.
 * Its children are keyed by their tag and class and their rank among the children of that kind, so an
 * element put in or taken out (a lane's highlight) leaves the others where they are, instead of each child
 * after it being replaced by the next one.
 */
function svgElement(e: SvgEl | string, key?: string): ReactNode {
  if (typeof e === 'string') return e;
  const props: Record<string, string | number> = key === undefined ? {} : { key };
  for (const k in e.attrs) props[propName(k)] = e.attrs[k]!;
  return e.children ? createElement(e.tag, props, ...svgChildren(e.children)) : createElement(e.tag, props);
}

function svgChildren(els: readonly (SvgEl | string)[]): ReactNode[] {
  const rank = new Map<string, number>();
  return els.map((c) => {
    if (typeof c === 'string') return c;
    const kind = c.attrs.class === undefined ? c.tag : `${c.tag}.${c.attrs.class}`;
    const n = rank.get(kind) ?? 0;
    rank.set(kind, n + 1);
    return svgElement(c, `${kind}${n}`);
  });
}

/** One piece of the timeline picture: drawn again only when its own elements changed. */
const SvgPiece = memo(
  function SvgPiece({ piece }: { piece: TimelinePiece }) {
    return createElement('g', null, ...svgChildren(piece.els));
  },
  (a, b) => sameEls(a.piece.els, b.piece.els),
);

/** The nearest ancestor that scrolls vertically (a GM column), or null for the page itself. */
function scrollingBox(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll') return p;
  }
  return null;
}

/**
 * How near the screen a picture is drawn: 200 px, two notches of a mouse wheel, so a picture scrolled to
 * is drawn a frame or two before it shows.
 */
const NEAR_PX = 200;

/**
 * Whether an element is on screen or within `NEAR_PX` of it, in the box it scrolls in: a picture that is
 * not is drawn again only when it comes near, so a change that lands while it is scrolled away costs
 * nothing there. True until the first observation, and wherever the browser cannot tell.
 */
function useNearScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((seen) => setNear(seen.at(-1)?.isIntersecting ?? true), {
      root: scrollingBox(el),
      rootMargin: `${NEAR_PX}px 0px`,
    });
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  return near;
}

/** The picture of a timeline as the panel draws it, on the page and exported. */
function drawTimeline(t: Timeline, highlight: string | null | undefined, maxRounds: number, title: string) {
  // The blocks shown start at the moment's round: a carry-over never leaves only the next round shown.
  const shown = roundsShown(t, maxRounds) ?? t;
  return timelinePieces(shown, { maxRounds: shown.rounds.length, highlight: highlight ?? null, title });
}

/** The timeline picture, with export buttons. */
export const TimelineView = memo(function TimelineView({
  view,
  highlight,
  exportable = true,
  maxRounds = 2,
  fill = false,
}: {
  view: EncounterView;
  highlight?: string | null;
  exportable?: boolean;
  maxRounds?: number;
  /** Stretch the picture to the panel's width (the table screen), not only shrink it. */
  fill?: boolean;
}) {
  const box = useRef<HTMLElement | null>(null);
  const near = useNearScreen(box);
  // Scrolled away, the picture keeps what it last drew and is drawn again as it comes near.
  const drawn = useRef({ view, highlight });
  if (near) drawn.current = { view, highlight };
  const shown = drawn.current;
  const title = `${view.name} — timeline`;
  const t = timelineOf(shown.view);
  const pic = useMemo(
    () => (t ? drawTimeline(t, shown.highlight, maxRounds, title) : null),
    [t, shown.highlight, maxRounds, title],
  );
  // What it is read as follows every change, drawn or not, one render later (as the log does); what it
  // exports is the fight as it is now.
  const later = useDeferredValue(view);
  const desc = useMemo(() => {
    const lt = timelineOf(later);
    return lt ? describeTimeline(lt) : '';
  }, [later]);
  const now = () => {
    const ct = timelineOf(view);
    return ct ? piecesSvg(drawTimeline(ct, highlight, maxRounds, title)) : '';
  };
  const uid = useId();
  const error = timelineRead(shown.view).error;
  if (error) return <ScreenErrors errors={[error]} />;
  if (!t || !pic) return null;
  const base = view.name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase() || 'timeline';
  return (
    <section ref={box} className="panel timeline-panel" aria-label="Timeline">
      <div className="panel-head">
        <h2>Timeline · {t.axis.unit}s</h2>
        {exportable ? (
          <div className="row">
            <button
              type="button"
              onClick={() => downloadText(`${base}-timeline.svg`, now(), 'image/svg+xml')}
            >
              Export SVG
            </button>
            <button type="button" onClick={() => void exportPng(now(), `${base}-timeline.png`)}>
              Export PNG
            </button>
          </div>
        ) : null}
      </div>
      <div className={fill ? 'timeline-scroll fill' : 'timeline-scroll'} data-testid="timeline">
        <svg
          xmlns="http://www.w3.org/2000/svg"
          viewBox={`0 0 ${pic.width} ${pic.height}`}
          width={pic.width}
          height={pic.height}
          role="img"
          aria-labelledby={`${uid}-title ${uid}-desc`}
          fontFamily={SVG_FONT}
        >
          <title id={`${uid}-title`}>{pic.title}</title>
          <desc id={`${uid}-desc`}>{desc}</desc>
          {pic.pieces.map((p) => (
            <SvgPiece key={p.key} piece={p} />
          ))}
        </svg>
      </div>
    </section>
  );
});

interface ActionItemProps {
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
function showReason(e: { currentTarget: HTMLElement }, text: string): void {
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
const ActionItem = memo(
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

/** The values a click gives an action before any form: the palette's target, where the action takes one. */
function givenFor(l: LegalAction, target: string): Record<string, Json> {
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
interface OpenForm {
  actor: string;
  la: LegalAction;
  raw: RawForm;
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
  const targetId = useId();
  const uid = useId();
  const sharedId = `${uid}-shared`;
  const { legal, errors: legalErrors } = useLegal(view, actor);
  // Every active combatant has an option (the actor's hidden), so a turn that passes changes attributes only.
  const listed = view.roster.filter((id) => view.combatants[id]?.active);
  const others = listed.filter((id) => id !== actor);
  // The target belongs to the actor it was chosen for: the next actor starts with none.
  const target = chosen.actor === actor && others.includes(chosen.target) ? chosen.target : '';
  const open = form && form.actor === actor ? form : null;
  // The click handlers read the latest props, so they stay the same functions and the buttons can be skipped.
  const run = useRun();
  const latest = useRef({ view, actor, target, legal });
  latest.current = { view, actor, target, legal };
  // An action as it is now, by id: a button skipped on a re-render holds the action as it was drawn, and its
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
  const current = useCallback((l: LegalAction) => legalNow(l.action.id) ?? l, [legalNow]);
  const openForm = useCallback(
    (drawn: LegalAction) => {
      const { view: v, actor: who, target: on } = latest.current;
      const l = current(drawn);
      const raw = initialValues(l.params ?? [], { round: v.round, actor: who });
      const given = givenFor(l, on);
      if (typeof given.target === 'string') raw.target = given.target;
      setForm({ actor: who, la: l, raw });
    },
    [current],
  );
  const onAct = useCallback(
    (drawn: LegalAction) => {
      const l = current(drawn);
      const given = givenFor(l, latest.current.target);
      // An action that is not available now is sent as it is: the answer is why, not a form to fill.
      if (l.enabled && missingParams(l.params ?? [], given).length) openForm(l);
      else void go(l, given);
    },
    [go, openForm, current],
  );
  const c = view.combatants[actor];
  if (!c) return null;
  const enabled = legal.filter((l) => l.enabled);
  const disabled = legal.filter((l) => !l.enabled);
  const shared = sharedReason(legal);
  const asked = rs ? asker(rs) : null;
  const hint =
    asked?.ask('the palette hint', () => rs?.present?.paletteHint?.(asState(view)) ?? null, null) ?? null;
  const errors = [...legalErrors, ...(asked?.errors ?? [])];
  const list = (items: LegalAction[], where: string) =>
    [...new Set(items.map((l) => l.action.kind))].map((kind) => {
      const group = items.filter((l) => l.action.kind === kind);
      const terms = groupTerms(group, `${uid}-${where}-${kind.replace(/[^\w-]/g, '_')}`);
      const first = group[0]!;
      return (
        <div key={kind} className="palette-group">
          <h3>
            {kindWords(kind)}
            {terms.id ? (
              <span id={terms.id} className="group-terms">
                {terms.cost ? <span className="action-cost">{describeCost(first.cost)} each</span> : null}
                {terms.preview ? <span className="action-preview">→ {first.preview?.label}</span> : null}
              </span>
            ) : null}
          </h3>
          <ul className={compact ? 'actions compact' : 'actions'}>
            {group.map((l) => (
              <ActionItem
                key={l.action.id}
                la={l}
                uid={uid}
                sharedId={shared !== null && reasonKey(l) === shared.key ? sharedId : null}
                reasonOf={reasonOf}
                terms={terms}
                onAct={onAct}
                onDetails={openForm}
              />
            ))}
          </ul>
        </div>
      );
    });
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
        <div className="row">
          <label htmlFor={targetId}>Target</label>
          <select
            id={targetId}
            value={target}
            onChange={(e) => setChosen({ actor, target: e.currentTarget.value })}
          >
            <option value="">no target</option>
            {listed.map((id) => (
              <option key={id} value={id} hidden={id === actor} disabled={id === actor}>
                {view.combatants[id]!.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {open ? (
        <ActionForm
          key={open.la.action.id}
          view={view}
          open={open}
          setRaw={(raw) => setForm({ ...open, raw })}
          close={() => setForm(null)}
          send={go}
        />
      ) : null}
      {shared ? (
        <p id={sharedId} className="reason shared-reason" data-testid="palette-reason">
          {shared.text}
        </p>
      ) : null}
      {enabled.length ? (
        list(enabled, 'on')
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
          {list(disabled, 'off')}
        </details>
      ) : null}
    </section>
  );
}

/** The palette's kind headings: the rulesets' kinds as a person reads them (worded once per kind). */
const kindHeadings = new Map<string, string>();
function kindWords(kind: string): string {
  let words = kindHeadings.get(kind);
  if (words === undefined) {
    words = humanize(kind);
    kindHeadings.set(kind, words);
  }
  return words;
}

/** The form of an action that needs more than a click: its parameters, Enter sends, Escape closes. */
function ActionForm({
  view,
  open,
  setRaw,
  close,
  send,
}: {
  view: EncounterView;
  open: OpenForm;
  setRaw: (raw: RawForm) => void;
  close: () => void;
  send: (l: LegalAction, params: Record<string, Json>) => Promise<boolean>;
}) {
  const [error, setError] = useState('');
  const ref = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('input, select')?.focus();
  }, []);
  const who = view.combatants[open.actor]?.name ?? open.actor;
  return (
    <form
      ref={ref}
      className="action-form"
      aria-label={`${open.la.action.name} for ${who}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          close();
        }
      }}
      onSubmit={async (e) => {
        e.preventDefault();
        const payload = payloadOf(open.la.params ?? [], open.raw, { round: view.round, actor: open.actor });
        if (typeof payload === 'string') {
          setError(payload);
          return;
        }
        if (await send(open.la, payload)) close();
      }}
    >
      <h3>
        {open.la.action.name} · <bdi>{who}</bdi>
      </h3>
      <ParamFields
        params={open.la.params ?? []}
        raw={open.raw}
        set={(k, v) => setRaw({ ...open.raw, [k]: v })}
        view={view}
      />
      {error ? (
        <p className="reason" role="alert">
          {error}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="primary">
          {open.la.action.name}
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function sameList<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    for (const k of Object.keys(x)) if (x[k] !== y[k]) return false;
    if (Object.keys(x).length !== Object.keys(y).length) return false;
  }
  return true;
}

interface CardProps {
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

/** Notes longer than this are folded: a 10,000-character note must not grow the page. */
export const NOTE_FOLD = 160;

/** A GM note: shown whole when short, folded behind its first words when long. */
export function Note({ text }: { text: string }) {
  if (text.length <= NOTE_FOLD && !text.includes('\n'))
    return (
      <p className="notes">
        GM note: <bdi>{text}</bdi>
      </p>
    );
  return (
    <details className="notes">
      <summary>
        GM note: <bdi>{text.slice(0, 80).split('\n')[0]}</bdi>…
      </summary>
      <div className="note-body">
        <bdi>{text}</bdi>
      </div>
    </details>
  );
}

/** The HP value, which a GM clicks to type a change: "-7" damage, "+5" heal, "12" set, "t5" temporary. */
function HpValue({
  id,
  name,
  value,
  onHp,
}: {
  id: string;
  name: string;
  value: string;
  onHp: CardProps['onHp'];
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  if (!onHp) return <>{value}</>;
  if (!editing)
    return (
      <button
        type="button"
        className="hp-value"
        aria-label={`HP of ${name}: ${value}. Change it`}
        title="Type -7 for damage, +5 to heal, 12 to set, t5 for temporary HP"
        onClick={() => {
          setText('');
          setEditing(true);
        }}
      >
        {value}
      </button>
    );
  return (
    <form
      className="hp-edit"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await onHp(id, text)) setEditing(false);
      }}
    >
      <input
        // biome-ignore lint/a11y/noAutofocus: the field opens on the GM's click to be typed in at once.
        autoFocus
        aria-label={`Change ${name}'s HP: -7 damage, +5 heal, 12 set, t5 temporary`}
        className="narrow"
        value={text}
        placeholder="-7 / +5"
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setEditing(false);
        }}
        onBlur={() => {
          if (!text.trim()) setEditing(false);
        }}
      />
    </form>
  );
}

/** The card's markup; skipped when the combatant (kept by identity, see `share`) and what it shows are the same. */
const CardBody = memo(
  function CardBody({
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
        className={`card ${c.side}${selected ? ' selected' : ''}${current ? ' current' : ''}${c.active ? '' : ' out'}${over ? ' drop-here' : ''}`}
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
      </li>
    );
  },
  (a, b) =>
    a.c === b.c &&
    a.id === b.id &&
    a.selected === b.selected &&
    a.current === b.current &&
    a.gm === b.gm &&
    a.onSelect === b.onSelect &&
    a.onHp === b.onHp &&
    a.onMove === b.onMove &&
    a.onDrop === b.onDrop &&
    a.canMove?.up === b.canMove?.up &&
    a.canMove?.down === b.canMove?.down &&
    sameList(a.res, b.res) &&
    sameList(a.conds, b.conds),
);

/** A combatant's card: side, HP and the ruleset's gauges, conditions with what ends them. */
export function CombatantCard({
  view,
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
  view: EncounterView;
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
  const c = view.combatants[id];
  if (!c) return null;
  return (
    <CardBody
      c={c}
      id={id}
      res={resourcesOf(view, c, gm || own)}
      conds={conditionsOf(view, id)}
      selected={selected}
      current={current}
      onSelect={onSelect}
      onHp={onHp}
      {...(onMove ? { onMove, canMove: movesOf(view, id) } : {})}
      {...(onDrop ? { onDrop } : {})}
      gm={gm}
    />
  );
}

/**
 * The order moves the rules allow a GM for this combatant (`present.reorder`), as commands or null: one
 * place up or down, or past another combatant (`past`: a card dropped on that one's place).
 */
export function reorderCommand(
  view: EncounterView,
  id: string,
  direction: 'up' | 'down',
  past?: string,
): Command | null {
  const c = view.combatants[id];
  const other = past === undefined ? undefined : view.combatants[past];
  if (!c || (past !== undefined && !other)) return null;
  try {
    return rulesetOf(view)?.present?.reorder?.(asState(view), c, direction, other) ?? null;
  } catch {
    return null;
  }
}

/** The type a dragged card carries: only a card dropped on another card moves in the order. */
const CARD_DRAG = 'application/x-roundkeeper-combatant';

function movesOf(view: EncounterView, id: string): { up: boolean; down: boolean } {
  return { up: reorderCommand(view, id, 'up') !== null, down: reorderCommand(view, id, 'down') !== null };
}

/**
 * An entry in the ruleset's words, at its own round and instant (a turn's Mark), the rest as the fight is
 * now; `state` is the screen model's (display names, departed combatants still named). What the ruleset
 * throws describing it is the line, as an error.
 */
function entryLine(
  i: number,
  entries: readonly LogEntry[],
  state: EncounterState,
  rs: AnyRuleset,
): string | null {
  const { ask, errors } = asker(rs);
  const line = ask(
    'a log line',
    () => describeEvent(entries[i]!.event, stateAt(state, entries, i, rs), rs),
    null,
  );
  return errors.length ? `⚠ ${errors[0]}` : line;
}

/** The first line a command says: what an undo takes back or a redo brings back. */
export function groupLine(
  group: number,
  entries: readonly LogEntry[],
  state: EncounterState,
  rs: AnyRuleset,
): string | null {
  for (const [i, x] of entries.entries()) {
    if (x.group !== group || x.event.type === 'undo' || x.event.type === 'redo') continue;
    const line = entryLine(i, entries, state, rs);
    if (line) return line;
  }
  return null;
}

/**
 * A log line: the ruleset's words for the event; an undo or redo says what it took back or brought back
 * (the first line of that command), never a command number.
 */
function lineOf(at: number, entries: LogEntry[], state: EncounterState, rs: AnyRuleset): string | null {
  const e = entries[at]!;
  if ((e.event.type === 'undo' || e.event.type === 'redo') && typeof e.event.group === 'number') {
    const what = groupLine(e.event.group, entries, state, rs);
    const verb = e.event.type === 'undo' ? 'Undone' : 'Redone';
    return what ? `${verb}: ${what}` : `${verb}: the GM's last change.`;
  }
  return entryLine(at, entries, state, rs);
}

/** The log in the GM's words (or the player's, redacted by the server), newest last. */
export const LogView = memo(function LogView({
  view,
  entries,
  limit = 60,
  newestFirst = false,
}: {
  view: EncounterView;
  entries: LogEntry[];
  limit?: number;
  /** The GM's log reads from the newest line down, beside the palette. */
  newestFirst?: boolean;
}) {
  const rs = rulesetOf(view);
  // The screen model's names: every combatant's display name, those that left the fight too.
  const known = useNames(view);
  const controls = useControls(view);
  // A past event's line depends on the names it mentions and on its own round and instant, not on the rest
  // of the state: lines are kept per entry and described again only when a name, the roster or the
  // options change.
  const names = [...known.byId].map(([id, name]) => `${id}=${name}`).join('\n');
  // Names are isolated inside each line (a right-to-left override stays inside its name).
  const roster = [...known.byId.values()].join('\n');
  const cache = useRef<{ key: unknown[]; text: WeakMap<LogEntry, string | null> }>({
    key: [],
    text: new WeakMap(),
  });
  const key = [rs, names, view.options];
  if (key.some((k, i) => k !== cache.current.key[i])) cache.current = { key, text: new WeakMap() };
  const text = cache.current.text;
  const lines = useMemo(() => {
    if (!rs) return [];
    // Only the last `limit` lines are shown: describe from the newest back, not the whole history.
    const state = describingState(view, known);
    const out: { seq: number; text: string; kind: string }[] = [];
    for (let i = entries.length - 1; i >= 0 && out.length < limit; i--) {
      const e = entries[i]!;
      let line = text.get(e);
      if (line === undefined) {
        const said = lineOf(i, entries, state, rs);
        line = said === null ? null : forViewer(said, controls);
        text.set(e, line);
      }
      if (line) out.push({ seq: e.seq, text: line, kind: e.event.type });
    }
    return newestFirst ? out : out.reverse();
  }, [entries, view, rs, limit, text, newestFirst, known, controls]);
  return (
    <section className="panel log" aria-label="Log">
      <h2>Log</h2>
      <ol className="log-lines" data-testid="log">
        {lines.map((l) => (
          <LogLine key={l.seq} text={l.text} kind={l.kind} names={roster} />
        ))}
      </ol>
    </section>
  );
});

/** One log line; skipped when its text and the names in the roster are the same (a new line leaves the others). */
const LogLine = memo(function LogLine({
  text,
  kind,
  names,
}: {
  text: string;
  kind: string;
  /** The roster's names, newline-joined (a string, so an unchanged roster compares equal). */
  names: string;
}) {
  return (
    <li className={kind.replace(/[^a-z]+/g, '-')}>
      <bdi>
        {splitNames(text, names.split('\n')).map((part, i) =>
          // The words between names are plain text: a new line makes only its names' elements.
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed line, in order.
          part.name ? <bdi key={i}>{part.text}</bdi> : part.text,
        )}
      </bdi>
    </li>
  );
});

/** Dice results with their breakdown (every face), newest first. */
export const DicePanel = memo(function DicePanel({
  view,
  entries,
}: {
  view: EncounterView;
  entries: LogEntry[];
}) {
  const rolls: Array<{ seq: number; event: Extract<CoreEvent, { type: 'dice/rolled' }> }> = [];
  for (let i = entries.length - 1; i >= 0 && rolls.length < 6; i--) {
    const e = entries[i];
    if (e && isCore(e.event) && e.event.type === 'dice/rolled') rolls.push({ seq: e.seq, event: e.event });
  }
  if (!rolls.length) return null;
  return (
    <section className="panel dice" aria-label="Dice">
      <h2>Dice</h2>
      <ul>
        {rolls.map((e) => {
          const roll = e.event.roll;
          const who = e.event.combatant ? (view.combatants[e.event.combatant]?.name ?? '') : '';
          return (
            <li key={e.seq}>
              <span className="dice-total">{roll.total}</span>
              <span>
                {who} {e.event.purpose ?? ''}
                <br />
                <code>{roll.text}</code>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
});

/**
 * The ruleset's other commands by form (delay, ready, declare, exert…): labels, fields and choices from
 * their declarations. A command sent for a combatant says whom it acts for.
 */
export function CommandForm({
  view,
  forms,
  actor,
  title = 'Other commands',
  fixed,
  bare = false,
}: {
  view: EncounterView;
  forms: CommandFormSpec[];
  actor?: string;
  /** The form's heading (a ruleset panel's title). */
  title?: string;
  /** Fields already filled, not shown (a panel's command for its combatant). */
  fixed?: Record<string, Json>;
  /** Inside a ruleset's panel, which has the heading: no frame and no heading of its own. */
  bare?: boolean;
}) {
  const run = useRun();
  const [type, setType] = useState(forms[0]?.type ?? '');
  const [raw, setRaw] = useState<RawForm | null>(null);
  const [error, setError] = useState('');
  // The form stays mounted when the actor changes (a new turn): what was chosen and typed for the last one
  // starts over, as a fresh form would, without building the form again.
  const [shownFor, setShownFor] = useState(actor);
  if (shownFor !== actor) {
    setShownFor(actor);
    setType(forms[0]?.type ?? '');
    setRaw(null);
    setError('');
  }
  const typeId = useId();
  const spec = forms.find((f) => f.type === type) ?? forms[0];
  const params = useMemo(() => {
    if (!spec) return [];
    const rs = rulesetOf(view);
    const catalog = rs ? [...rs.catalog(asState(view)), ...view.customActions] : [];
    const shown = spec.params.filter((p) => !fixed || !Object.hasOwn(fixed, p.name));
    return resolveParams(asState(view), actor ?? '', shown, catalog, rs?.present);
  }, [spec, view, actor, fixed]);
  if (!spec) return null;
  const ctx = { round: view.round, ...(actor ? { actor } : {}) };
  const values = raw ?? initialValues(params, ctx);
  const who = actor ? view.combatants[actor]?.name : undefined;
  return (
    <form
      className={bare ? 'command-form bare' : 'panel command-form'}
      aria-label={title}
      onSubmit={async (e) => {
        e.preventDefault();
        const payload = payloadOf(params, values, ctx);
        if (typeof payload === 'string') {
          setError(payload);
          return;
        }
        setError('');
        const cmd: Command = { type: spec.type, ...payload, ...fixed };
        if (actor && spec.forActor) cmd.actor = actor;
        const r = await run(cmd, who && spec.forActor ? `${spec.label} for ${who}` : spec.label);
        if (r.ok) setRaw(null);
      }}
    >
      <h2 className={bare ? 'sr-only' : undefined}>{title}</h2>
      <div className={forms.length > 1 ? 'row' : 'sr-only'}>
        <label htmlFor={typeId}>Command</label>
        <select
          id={typeId}
          value={spec.type}
          data-testid="command-type"
          onChange={(e) => {
            setType(e.currentTarget.value);
            setRaw(null);
            setError('');
          }}
        >
          {forms.map((f) => (
            <option key={f.type} value={f.type}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      {spec.help ? <p className="muted">{spec.help}</p> : null}
      <ParamFields params={params} raw={values} set={(k, v) => setRaw({ ...values, [k]: v })} view={view} />
      {error ? (
        <p className="reason" role="alert">
          {error}
        </p>
      ) : null}
      {/* Whom it acts for is in its name, not its text: the page names the actor once, above the tools. */}
      <button
        type="submit"
        className="primary"
        aria-label={who && spec.forActor ? `${spec.label} for ${who}` : undefined}
      >
        {spec.label}
      </button>
    </form>
  );
}

export const SHORTCUTS: [string, string][] = [
  ['n', 'Next turn'],
  ['i', 'Roll initiative / start the fight'],
  ['u or Ctrl+Z', 'Undo'],
  ['r or Ctrl+Shift+Z', 'Redo'],
  ['j / k', 'Select the next / previous combatant'],
  ['1–9', 'Select combatant by position'],
  ['p', 'Pin the selection (keep it when the turn changes)'],
  ['Alt+↑ / Alt+↓', 'Move the selected combatant up / down the order (where the rules let the GM set it)'],
  ['?', 'Show or hide this help'],
  ['Esc', 'Close dialogs'],
];

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement | null>(null);
  // A modal dialog takes the focus when it opens, and gives it back when it closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus?.();
  }, []);
  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="help-title"
      onKeyDown={(e) => {
        // Tab and Shift+Tab cycle inside the dialog: the page behind it is not reachable while it is open.
        if (e.key !== 'Tab') return;
        const inside = [...e.currentTarget.querySelectorAll<HTMLElement>('button, [href], input, select')];
        const i = inside.indexOf(document.activeElement as HTMLElement);
        const next = inside[(i + (e.shiftKey ? inside.length - 1 : 1)) % inside.length];
        e.preventDefault();
        next?.focus();
      }}
    >
      <div className="dialog">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <dl className="shortcuts">
          {SHORTCUTS.map(([k, what]) => (
            <div key={k}>
              <dt>
                <kbd>{k}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <p className="muted">Tab moves between controls; Enter or Space activates the focused one.</p>
        <button type="button" className="primary" onClick={onClose} ref={close}>
          Close
        </button>
      </div>
    </div>
  );
}

/** The latest outcome: a refusal with the rule's reason, or what was done. */
/** What the last command came to, from the page's store. */
export function Status() {
  const message = useEncounter((s) => s.notice);
  return (
    <div
      className={`status ${message ? (message.ok ? 'ok' : 'refused') : ''}`}
      role="status"
      aria-live="assertive"
      data-testid="status"
    >
      {message ? message.text : ''}
    </div>
  );
}

export function ConnectionBadge({ connected }: { connected: boolean }) {
  return (
    <span className={`conn ${connected ? 'on' : 'off'}`} data-testid="connection">
      {connected ? 'live' : 'reconnecting…'}
    </span>
  );
}

/** A ruleset's panel for one combatant (a declaration, a secret plan): what stands, and its form. */
export function PanelView({
  view,
  panel,
  actor,
}: {
  view: EncounterView;
  panel: RulesetPanel;
  actor: string;
}) {
  const run = useRun();
  const rs = rulesetOf(view);
  const type = panel.act ? 'act' : panel.command;
  const form = type && rs ? panelForm(rs, type) : undefined;
  return (
    <section className="panel ruleset-panel" aria-label={panel.title}>
      <h2>{panel.title}</h2>
      {panel.help ? <p className="muted">{panel.help}</p> : null}
      {panel.items?.length ? (
        <ol className="plan">
          {panel.items.map((item) => (
            <li
              key={`${item.badge ?? ''}-${item.label}-${JSON.stringify(item.remove?.command ?? null)}`}
              className="row"
            >
              {item.badge ? <span className="tempo-badge">{item.badge}</span> : null}
              <span className="grow">
                <bdi>{item.label}</bdi>
                {item.done ? ' (done)' : ''}
              </span>
              {item.remove ? (
                <button
                  type="button"
                  onClick={async () => run(item.remove!.command, `${item.remove!.label}: ${item.label}`)}
                >
                  {item.remove.label}
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
      {form ? (
        <CommandForm
          view={view}
          forms={[form]}
          actor={actor}
          title={form.label}
          bare
          {...(panel.fixed ? { fixed: panel.fixed } : {})}
        />
      ) : null}
    </section>
  );
}

/** A panel's command as a form: one of the ruleset's command forms, or its `act` (taken outside the palette). */
function panelForm(rs: AnyRuleset, type: string): CommandFormSpec | undefined {
  const known = commandForms(rs).find((f) => f.type === type);
  if (known || !Object.hasOwn(rs.commands, type)) return known;
  const schema = rs.commands[type]!;
  const all = paramsOfSchema(schema);
  return {
    type,
    ...commandLabel(type, schema),
    forActor: all.some((p) => p.name === 'actor'),
    gm: false,
    params: all.filter((p) => p.name !== 'actor'),
  };
}

/** A ruleset's panels for a combatant, or none. */
export function panelsOf(view: EncounterView, id: string): RulesetPanel[] {
  const c = view.combatants[id];
  if (!c) return [];
  try {
    return rulesetOf(view)?.present?.panels?.(asState(view), c) ?? [];
  } catch {
    return [];
  }
}

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
        const status = (c.side === 'pc' || numbers) && c.hp ? `${c.hp.current}/${c.hp.max} HP` : hurtWords(c);
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
const StatusRow = memo(
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
