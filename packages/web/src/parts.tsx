import {
  type Combatant,
  type Command,
  describeCost,
  describeEvent,
  type EncounterView,
  type LegalAction,
  type LogEntry,
  type Timeline,
} from '@roundkeeper/engine';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type FieldSpec, fieldsOf, parseFields } from './fields.js';
import type { SendResult } from './live.js';
import {
  actionCommand,
  asState,
  type ConditionLine,
  conditionsOf,
  headline,
  type Resource,
  reasonKey,
  resourcesOf,
  rulesetOf,
  sharedReason,
} from './model.js';
import { piecesSvg, SVG_FONT, timelinePieces } from './timeline-svg.js';

export type Send = (command: Command) => Promise<SendResult>;

/** The big "whose turn, which Mark" banner. */
export function Headline({ view }: { view: EncounterView }) {
  const h = headline(view);
  return (
    <section className="headline" aria-live="polite" aria-label="Whose turn">
      <div className="headline-clock" data-testid="clock">
        {h.clock}
      </div>
      <div className="headline-actor" data-testid="current-actor">
        {h.actor}
      </div>
    </section>
  );
}

export function timelineOf(view: EncounterView): Timeline | null {
  const rs = rulesetOf(view);
  if (!rs) return null;
  try {
    return rs.timeline(asState(view));
  } catch {
    return null;
  }
}

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

/** One piece of the timeline picture: redrawn only when its own markup changed. */
const SvgPiece = memo(function SvgPiece({ markup }: { markup: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: timeline-svg.ts escapes every text it puts in the SVG (tested with markup in names).
  return <g dangerouslySetInnerHTML={{ __html: markup }} />;
});

/** The timeline picture, with export buttons. */
export const TimelineView = memo(function TimelineView({
  view,
  highlight,
  exportable = true,
  maxRounds = 2,
}: {
  view: EncounterView;
  highlight?: string | null;
  exportable?: boolean;
  maxRounds?: number;
}) {
  const t = useMemo(() => timelineOf(view), [view]);
  const pic = useMemo(
    () =>
      t
        ? timelinePieces(t, { maxRounds, highlight: highlight ?? null, title: `${view.name} — timeline` })
        : null,
    [t, highlight, maxRounds, view.name],
  );
  const uid = useId();
  if (!t || !pic) return null;
  const base = view.name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase() || 'timeline';
  return (
    <section className="panel timeline-panel" aria-label="Timeline">
      <div className="panel-head">
        <h2>Timeline · {t.axis.unit}s</h2>
        {exportable ? (
          <div className="row">
            <button
              type="button"
              onClick={() => downloadText(`${base}-timeline.svg`, piecesSvg(pic), 'image/svg+xml')}
            >
              Export SVG
            </button>
            <button type="button" onClick={() => void exportPng(piecesSvg(pic), `${base}-timeline.png`)}>
              Export PNG
            </button>
          </div>
        ) : null}
      </div>
      <div className="timeline-scroll" data-testid="timeline">
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
          <desc id={`${uid}-desc`}>{pic.desc}</desc>
          {pic.pieces.map((p) => (
            <SvgPiece key={p.key} markup={p.markup} />
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
  /** The palette states this action's reason once for all: here it is for screen readers only. */
  quiet: boolean;
  onAct: (la: LegalAction) => void;
}

/** One palette button; skipped on re-render when what it shows is the same. */
const ActionItem = memo(
  function ActionItem({ la: l, uid, quiet, onAct }: ActionItemProps) {
    const why = `${uid}-${l.action.id}-why`;
    return (
      <li>
        <button
          type="button"
          className={l.enabled ? 'action' : 'action unavailable'}
          data-action={l.action.id}
          title={l.enabled ? l.action.text : `Not now: ${l.reason ?? ''}`}
          aria-describedby={why}
          onClick={() => onAct(l)}
        >
          <span className="action-name">
            {l.action.name}
            {l.enabled ? null : <span className="sr-only"> (not available now; the server will refuse)</span>}
          </span>
          <span className="action-cost">{describeCost(l.cost)}</span>
          {l.preview ? <span className="action-preview">→ {l.preview.label}</span> : null}
        </button>
        <div id={why} className={l.enabled || quiet ? 'sr-only' : 'reason'}>
          {l.enabled ? l.action.text : l.reason}
        </div>
      </li>
    );
  },
  (a, b) =>
    a.uid === b.uid &&
    a.quiet === b.quiet &&
    a.onAct === b.onAct &&
    a.la.enabled === b.la.enabled &&
    a.la.reason === b.la.reason &&
    a.la.action.id === b.la.action.id &&
    a.la.action.name === b.la.action.name &&
    a.la.action.text === b.la.action.text &&
    a.la.preview?.label === b.la.preview?.label &&
    describeCost(a.la.cost) === describeCost(b.la.cost),
);

/** Every catalog action of the actor: enabled ones to click, the others with their reason. */
export function Palette({
  view,
  actor,
  send,
  notify,
  compact = false,
}: {
  view: EncounterView;
  actor: string;
  send: Send;
  notify: (r: SendResult, what: string) => void;
  compact?: boolean;
}) {
  const rs = rulesetOf(view);
  const [target, setTarget] = useState('');
  const [filter, setFilter] = useState<'all' | 'legal'>('all');
  const targetId = useId();
  const uid = useId();
  const legal: LegalAction[] = useMemo(() => {
    if (!rs || !view.combatants[actor]) return [];
    try {
      return rs.legalActions(asState(view), actor);
    } catch {
      return [];
    }
  }, [rs, view, actor]);
  // The click handler reads the latest props, so it stays the same function and the buttons can be skipped.
  const latest = useRef({ view, actor, target, send, notify });
  latest.current = { view, actor, target, send, notify };
  const onAct = useCallback(async (l: LegalAction) => {
    const { view: v, actor: who, target: on, send: go, notify: tell } = latest.current;
    const r = await go(actionCommand(v, who, l, on || undefined));
    tell(r, `${v.combatants[who]?.name ?? who}: ${l.action.name}`);
  }, []);
  const c = view.combatants[actor];
  if (!c) return null;
  const shown = filter === 'legal' ? legal.filter((l) => l.enabled) : legal;
  const kinds = [...new Set(shown.map((l) => l.action.kind))];
  const shared = sharedReason(shown);
  return (
    <section className="panel palette" aria-label={`Actions of ${c.name}`}>
      <div className="panel-head">
        <h2>
          Actions · {c.name}
          {view.ruleset === 'tempo' ? <span className="muted"> (click to plan)</span> : null}
        </h2>
        <div className="row">
          <label htmlFor={targetId}>Target</label>
          <select id={targetId} value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
            <option value="">none</option>
            {view.roster
              .filter((id) => id !== actor && view.combatants[id])
              .map((id) => (
                <option key={id} value={id}>
                  {view.combatants[id]!.name}
                </option>
              ))}
          </select>
          <button
            type="button"
            aria-pressed={filter === 'legal'}
            onClick={() => setFilter(filter === 'all' ? 'legal' : 'all')}
          >
            {filter === 'all' ? 'Only legal' : 'Show all'}
          </button>
        </div>
      </div>
      {shared ? (
        <p className="reason shared-reason" data-testid="palette-reason">
          {shared.text}
        </p>
      ) : null}
      {kinds.map((kind) => (
        <div key={kind} className="palette-group">
          <h3>{kind}</h3>
          <ul className={compact ? 'actions compact' : 'actions'}>
            {shown
              .filter((l) => l.action.kind === kind)
              .map((l) => (
                <ActionItem
                  key={l.action.id}
                  la={l}
                  uid={uid}
                  quiet={shared !== null && reasonKey(l) === shared.key}
                  onAct={onAct}
                />
              ))}
          </ul>
        </div>
      ))}
    </section>
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
  gm: boolean;
}

/** The card's markup; skipped when the combatant (kept by identity, see `share`) and what it shows are the same. */
const CardBody = memo(
  function CardBody({ c, id, res, conds, selected, current, onSelect, gm }: CardProps) {
    return (
      <li
        className={`card ${c.side}${selected ? ' selected' : ''}${current ? ' current' : ''}${c.active ? '' : ' out'}`}
        data-combatant={id}
      >
        <button
          type="button"
          className="card-name"
          aria-pressed={selected}
          onClick={onSelect ? () => onSelect(id) : undefined}
        >
          <span className={`side-tag ${c.side}`}>{c.side === 'pc' ? 'PC' : 'NPC'}</span>
          {c.name}
          {current ? <span className="now-tag"> · acting</span> : null}
          {c.active ? null : <span className="muted"> · out</span>}
          {gm && c.hidden ? <span className="hidden-tag"> · hidden</span> : null}
          {c.group ? <span className="muted"> · {c.group}</span> : null}
        </button>
        <dl className="resources">
          {res.map((r) => (
            <div key={r.label} className="res">
              <dt>{r.label}</dt>
              <dd>
                {r.value}
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
                <strong>{k.name}</strong> <span className="muted">{k.remaining}</span>
              </li>
            ))}
          </ul>
        ) : null}
        {gm && c.notes ? <p className="notes">GM note: {c.notes}</p> : null}
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
    sameList(a.res, b.res) &&
    sameList(a.conds, b.conds),
);

/** A combatant's card: side, HP and the ruleset's resources, conditions with what ends them. */
export function CombatantCard({
  view,
  id,
  selected,
  current,
  onSelect,
  gm,
}: {
  view: EncounterView;
  id: string;
  selected: boolean;
  current: boolean;
  /** Called with the card's id; pass a stable function so unchanged cards are not redrawn. */
  onSelect?: (id: string) => void;
  gm: boolean;
}) {
  const c = view.combatants[id];
  if (!c) return null;
  return (
    <CardBody
      c={c}
      id={id}
      res={resourcesOf(view, c)}
      conds={conditionsOf(view, id)}
      selected={selected}
      current={current}
      onSelect={onSelect}
      gm={gm}
    />
  );
}

/** The log in the GM's words (or the player's, redacted by the server), newest last. */
export const LogView = memo(function LogView({
  view,
  entries,
  limit = 60,
}: {
  view: EncounterView;
  entries: LogEntry[];
  limit?: number;
}) {
  const rs = rulesetOf(view);
  // A past event's line depends on the names it mentions, not on the rest of the state: lines are kept
  // per entry and described again only when a name, the roster or the options change.
  const names = view.roster.map((id) => `${id}=${view.combatants[id]?.name ?? ''}`).join('\n');
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
    const out: { seq: number; text: string; kind: string }[] = [];
    for (let i = entries.length - 1; i >= 0 && out.length < limit; i--) {
      const e = entries[i]!;
      let line = text.get(e);
      if (line === undefined) {
        try {
          line = describeEvent(e.event, asState(view), rs);
        } catch {
          line = null;
        }
        text.set(e, line);
      }
      if (line) out.push({ seq: e.seq, text: line, kind: e.event.type });
    }
    return out.reverse();
  }, [entries, view, rs, limit, text]);
  return (
    <section className="panel log" aria-label="Log">
      <h2>Log</h2>
      <ol className="log-lines" data-testid="log">
        {lines.map((l) => (
          <li key={l.seq} className={l.kind.replace(/[^a-z]+/g, '-')}>
            {l.text}
          </li>
        ))}
      </ol>
    </section>
  );
});

interface RollLike {
  text?: string;
  total?: number;
  expression?: string;
}

/** Dice results with their breakdown (every face), newest first. */
export const DicePanel = memo(function DicePanel({
  view,
  entries,
}: {
  view: EncounterView;
  entries: LogEntry[];
}) {
  const rolls: LogEntry[] = [];
  for (let i = entries.length - 1; i >= 0 && rolls.length < 6; i--) {
    const e = entries[i]!;
    if (e.event.roll && typeof e.event.roll === 'object') rolls.push(e);
  }
  if (!rolls.length) return null;
  return (
    <section className="panel dice" aria-label="Dice">
      <h2>Dice</h2>
      <ul>
        {rolls.map((e) => {
          const roll = e.event.roll as RollLike;
          const who =
            typeof e.event.combatant === 'string' ? (view.combatants[e.event.combatant]?.name ?? '') : '';
          return (
            <li key={e.seq}>
              <span className="dice-total">{roll.total ?? '?'}</span>
              <span>
                {who} {String(e.event.purpose ?? '')}
                <br />
                <code>{roll.text ?? roll.expression ?? ''}</code>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
});

/** Any ruleset command by form: fields read from its schema (delay, resume, declare, exert…). */
export function CommandForm({
  view,
  types,
  actor,
  send,
  notify,
}: {
  view: EncounterView;
  types: string[];
  actor?: string;
  send: Send;
  notify: (r: SendResult, what: string) => void;
}) {
  const rs = rulesetOf(view);
  const [type, setType] = useState(types[0] ?? '');
  const [raw, setRaw] = useState<Record<string, string | boolean>>({});
  const typeId = useId();
  const fields: FieldSpec[] = useMemo(() => {
    const schema = rs?.commands[type];
    return schema ? fieldsOf(schema).filter((f) => !(actor && f.name === 'actor')) : [];
  }, [rs, type, actor]);
  if (!rs || !types.length) return null;
  return (
    <form
      className="panel command-form"
      aria-label="Other commands"
      onSubmit={async (e) => {
        e.preventDefault();
        const payload = parseFields(fields, raw);
        if (typeof payload === 'string') {
          notify({ ok: false, error: payload }, type);
          return;
        }
        const cmd: Command = { type, ...payload };
        if (actor) cmd.actor = actor;
        const r = await send(cmd);
        notify(r, type);
      }}
    >
      <h2>Other commands</h2>
      <div className="row">
        <label htmlFor={typeId}>Command</label>
        <select
          id={typeId}
          value={type}
          data-testid="command-type"
          onChange={(e) => {
            setType(e.currentTarget.value);
            setRaw({});
          }}
        >
          {types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      {fields.map((f) => (
        <Field
          key={`${type}.${f.name}`}
          f={f}
          view={view}
          value={raw[f.name]}
          set={(v) => setRaw({ ...raw, [f.name]: v })}
        />
      ))}
      <button type="submit" className="primary">
        Send {type}
      </button>
    </form>
  );
}

function Field({
  f,
  view,
  value,
  set,
}: {
  f: FieldSpec;
  view: EncounterView;
  value: string | boolean | undefined;
  set: (v: string | boolean) => void;
}) {
  const id = useId();
  const who = ['actor', 'target', 'combatant'].includes(f.name);
  return (
    <div className="field">
      <label htmlFor={id}>
        {f.name}
        {f.optional ? '' : ' *'}
      </label>
      {f.kind === 'boolean' ? (
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(e) => set(e.currentTarget.checked)}
        />
      ) : f.kind === 'enum' || who ? (
        <select id={id} value={String(value ?? '')} onChange={(e) => set(e.currentTarget.value)}>
          <option value="">—</option>
          {(f.kind === 'enum' ? (f.options ?? []) : view.roster.filter((r) => view.combatants[r])).map(
            (o) => (
              <option key={o} value={o}>
                {view.combatants[o]?.name ?? o}
              </option>
            ),
          )}
        </select>
      ) : (
        <input
          id={id}
          type={f.kind === 'number' ? 'number' : 'text'}
          value={String(value ?? '')}
          placeholder={f.kind === 'json' ? 'JSON' : ''}
          onChange={(e) => set(e.currentTarget.value)}
        />
      )}
      {f.description ? <small className="muted">{f.description}</small> : null}
    </div>
  );
}

export const SHORTCUTS: [string, string][] = [
  ['n', 'Next turn (the ruleset’s “next”)'],
  ['i', 'Roll initiative / start the fight'],
  ['u or Ctrl+Z', 'Undo'],
  ['r or Ctrl+Shift+Z', 'Redo'],
  ['j / k', 'Select the next / previous combatant'],
  ['1–9', 'Select combatant by position'],
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
export function Status({ message }: { message: { ok: boolean; text: string } | null }) {
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

export function useNotifier() {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const notify = useCallback(
    (r: SendResult, what: string) =>
      setMessage(
        r.ok
          ? { ok: true, text: `Done: ${what}.` }
          : { ok: false, text: `Refused: ${r.error ?? 'unknown error'}` },
      ),
    [],
  );
  return { message, notify };
}

export function ConnectionBadge({ connected }: { connected: boolean }) {
  return (
    <span className={`conn ${connected ? 'on' : 'off'}`} data-testid="connection">
      {connected ? 'live' : 'reconnecting…'}
    </span>
  );
}
