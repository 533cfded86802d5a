import {
  type Combatant,
  type Command,
  type EncounterView,
  type Json,
  type LogEntry,
  type Param,
  paramsOfSchema,
} from '@roundkeeper/engine';
import { memo, useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { api, type Creature, type EncounterLinks, errorMessage, type LinkName } from './api.js';
import {
  durationOf,
  type FieldError,
  fieldErrors,
  issueErrors,
  type RawForm,
  readForm,
  type SchemaIssue,
  sayError,
  valuesOf,
} from './form.js';
import {
  conditionsOf,
  expandCombatants,
  hpEdit,
  isolated,
  otherForms,
  roundOrder,
  rulesetOf,
  upNext,
} from './model.js';
import { OptionsForm } from './OptionsForm.js';
import { DurationField, ParamFields, StableInput } from './ParamForm.js';
import { Player } from './Player.js';
import {
  CombatantCard,
  CommandForm,
  ConnectionBadge,
  DicePanel,
  downloadText,
  groupLine,
  Headline,
  HelpOverlay,
  LogView,
  Palette,
  PanelView,
  panelsOf,
  reorderCommand,
  Status,
  StatusList,
  TimelineView,
} from './parts.js';
import { QrCode } from './QrCode.js';
import { describingState, namesOf } from './screen/names.js';
import { forgetLink, libraryKey, rememberLink } from './storage.js';
import { StoreProvider, useEncounter, useNewStore, useRun, useStore, useTell } from './store/react.js';

/** Picks the screen for the link's role: GM tracker, table view or player controller. */
export function EncounterPage({ id, token }: { id: string; token: string }) {
  const store = useNewStore(id, token);
  return (
    <StoreProvider store={store}>
      <EncounterScreen id={id} token={token} />
    </StoreProvider>
  );
}

function EncounterScreen({ id, token }: { id: string; token: string }) {
  const status = useEncounter((s) => s.status);
  const error = useEncounter((s) => s.error);
  const meta = useEncounter((s) => s.meta);
  const role = useEncounter((s) => s.role);
  const view = useEncounter((s) => s.view);
  const mine = useEncounter((s) => s.mine);
  const entries = useEncounter((s) => s.entries);
  const connected = useEncounter((s) => s.connected);
  useEffect(() => {
    if (meta && role) rememberLink({ id, token, name: meta.name, role });
  }, [meta, role, id, token]);
  if (status === 'loading') return <p className="center">Loading the encounter…</p>;
  if (status === 'deleted')
    return (
      <p className="center">
        This encounter was deleted. <a href="/">Home</a>
      </p>
    );
  if (status === 'error' || !view)
    return (
      <p className="center" role="alert">
        {error ?? 'The encounter could not be loaded.'} <a href="/">Home</a>
      </p>
    );
  if (role === 'player') return <Player view={view} mine={mine} entries={entries} connected={connected} />;
  if (role === 'table') return <TableView view={view} entries={entries} connected={connected} />;
  return <GmTracker id={id} token={token} view={view} entries={entries} connected={connected} />;
}

/** The table link opened with `&hp=all` (the GM's choice in "Share & export") shows NPCs' HP as numbers. */
function showsNumbers(): boolean {
  return new URLSearchParams(location.search).get('hp') === 'all';
}

export function TableView({
  view,
  entries,
  connected,
}: {
  view: EncounterView;
  entries: LogEntry[];
  connected: boolean;
}) {
  const next = upNext(view);
  const [numbers] = useState(showsNumbers);
  return (
    <main className="table-view">
      <header className="topbar">
        <h1>
          <bdi>{view.name}</bdi>
        </h1>
        <ConnectionBadge connected={connected} />
      </header>
      <Headline view={view} />
      {next.length ? (
        <p className="up-next" data-testid="up-next">
          {/* One text, each name isolated as a <bdi> would (`isolated`): a turn that passes changes one
              text instead of taking a name out and putting another in. */}
          {`Next: ${next.map((id) => isolated(view.combatants[id]!.name)).join(', ')}`}
        </p>
      ) : null}
      <section className="panel" aria-label="Order">
        <h2>Order</h2>
        <StatusList view={view} entries={entries} big numbers={numbers} />
      </section>
      <TimelineView view={view} exportable={false} fill maxRounds={1} />
    </main>
  );
}

const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color']);

/** Whether the key goes into a text field (where letters are text, not shortcuts): not a button or a list. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  if (el.tagName === 'TEXTAREA' || el.isContentEditable) return true;
  return el.tagName === 'INPUT' && !NOT_TEXT.has((el as HTMLInputElement).type);
}

/** The selected combatant, and the turn it was selected in: a selection follows the turn unless pinned. */
interface Selection {
  id: string;
  turn: string;
  pinned: boolean;
}

export function GmTracker({
  id,
  token,
  view,
  entries,
  connected,
}: {
  id: string;
  token: string;
  view: EncounterView;
  entries: LogEntry[];
  connected: boolean;
}) {
  const rs = rulesetOf(view);
  const store = useStore();
  const { run, tell: notify } = store;
  const [sel, setSel] = useState<Selection | null>(null);
  const [help, setHelp] = useState(false);
  const order = useMemo(() => roundOrder(view, entries), [view, entries]);
  // Each turn (a new actor, or a new round) selects whoever acts, unless the GM pinned someone.
  const turn = `${view.status}|${view.round}|${view.current ?? ''}|${view.history.lastGroup}`;
  const turnOnly = `${view.status}|${view.round}|${view.current ?? ''}`;
  const kept = sel && view.combatants[sel.id] && (sel.pinned || sel.turn === turnOnly) ? sel : null;
  const actor = kept ? kept.id : (view.current ?? order[0] ?? null);
  const pinned = kept?.pinned === true;
  const turnRef = useRef(turnOnly);
  turnRef.current = turnOnly;
  const select = useCallback((cid: string) => setSel({ id: cid, turn: turnRef.current, pinned: false }), []);
  void turn;

  const runType = (type: string, label: string) => run({ type }, label);
  const undoLabel = (which: 'undo' | 'redo') => {
    const group = which === 'undo' ? view.history.undoable.at(-1) : view.history.redoable.at(-1);
    const what = group === undefined ? null : describeGroup(view, entries, group);
    return what ? `${which} ${what}` : which;
  };

  // One listener for the page's lifetime; it calls the latest handler.
  const onKeyRef = useRef<(e: KeyboardEvent) => void>(() => {});
  onKeyRef.current = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      setHelp(false);
      return;
    }
    if (isTyping(e.target)) return;
    const ctrl = e.ctrlKey || e.metaKey;
    const shortcut = (f: () => void) => {
      // A focused list would take the letter as a search ("n" picks "none"): the shortcut wins.
      e.preventDefault();
      f();
    };
    if (e.key === '?') shortcut(() => setHelp((h) => !h));
    else if (ctrl && e.key.toLowerCase() === 'z')
      shortcut(() => void runType(e.shiftKey ? 'redo' : 'undo', undoLabel(e.shiftKey ? 'redo' : 'undo')));
    else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown') && actor)
      shortcut(() => void onMove(actor, e.key === 'ArrowUp' ? 'up' : 'down'));
    else if (ctrl || e.altKey) return;
    else if (e.key === 'n') shortcut(() => void runType('next', 'next turn'));
    else if (e.key === 'i') shortcut(() => void runType('start', 'roll initiative'));
    else if (e.key === 'u') shortcut(() => void runType('undo', undoLabel('undo')));
    else if (e.key === 'r') shortcut(() => void runType('redo', undoLabel('redo')));
    else if (e.key === 'p' && actor) shortcut(() => setSel({ id: actor, turn: turnOnly, pinned: !pinned }));
    else if (e.key === 'j' || e.key === 'k') {
      shortcut(() => {
        const i = actor ? order.indexOf(actor) : -1;
        const next = order[(i + (e.key === 'j' ? 1 : order.length - 1)) % Math.max(1, order.length)];
        if (next) select(next);
      });
    } else if (/^[1-9]$/.test(e.key)) {
      shortcut(() => {
        const pick = order[Number(e.key) - 1];
        if (pick) select(pick);
      });
    }
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => onKeyRef.current(e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const forms = useMemo(() => (rs ? otherForms(rs) : []), [rs]);
  const latestView = useRef(view);
  latestView.current = view;
  // Reads the latest view when called, so it keeps its identity from one change to the next and the cards
  // whose combatant did not change are not drawn again (a turn that passes changes two of them).
  const onHp = useCallback(
    async (cid: string, text: string) => {
      const edit = hpEdit(text);
      const name = latestView.current.combatants[cid]?.name ?? cid;
      if (!edit) {
        notify(
          {
            ok: false,
            error: `"${text}" is not an HP change: type -7 for damage, +5 to heal, 12 to set HP, t5 for temporary HP.`,
          },
          'hp',
        );
        return false;
      }
      const cmd: Command =
        edit.kind === 'set'
          ? { type: 'set-hp', combatant: cid, current: edit.current }
          : edit.kind === 'temp'
            ? { type: 'set-hp', combatant: cid, temp: edit.temp }
            : { type: edit.kind, combatant: cid, amount: edit.amount };
      const what = (() => {
        switch (edit.kind) {
          case 'damage':
            return `${edit.amount} damage to ${name}`;
          case 'heal':
            return `${name} healed ${edit.amount}`;
          case 'temp':
            return `${name} has ${edit.temp} temporary HP`;
          case 'set':
            return `${name}'s HP set to ${edit.current}`;
        }
      })();
      const r = await run(cmd, what);
      return r.ok;
    },
    [run, notify],
  );
  const latestEntries = useRef(entries);
  latestEntries.current = entries;
  const onMove = useCallback(
    async (cid: string, direction: 'up' | 'down') => {
      const v = latestView.current;
      const cmd = reorderCommand(v, cid, direction);
      const name = v.combatants[cid]?.name ?? cid;
      if (!cmd)
        return notify({ ok: false, error: `${name} cannot move ${direction} the order here.` }, 'move');
      run(cmd, `${name} moved ${direction} the order`);
    },
    [run, notify],
  );
  // A card dropped on another's place: up past it when it stood above, down past it when below.
  const onDrop = useCallback(
    async (cid: string, onto: string) => {
      const v = latestView.current;
      const shown = roundOrder(v, latestEntries.current);
      const direction = shown.indexOf(onto) < shown.indexOf(cid) ? 'up' : 'down';
      const cmd = reorderCommand(v, cid, direction, onto);
      const name = v.combatants[cid]?.name ?? cid;
      const other = v.combatants[onto]?.name ?? onto;
      const where = direction === 'up' ? 'before' : 'after';
      if (!cmd)
        return notify(
          { ok: false, error: `${name} cannot move ${where} ${other} in the order here.` },
          'move',
        );
      run(cmd, `${name} moved ${where} ${other}`);
    },
    [run, notify],
  );
  // The add form reads from the view only what a duration field offers (the ruleset's clock, the roster's
  // names): it keeps the view it has until one of those changes, so a turn that passes skips the form.
  const namesKey = `${view.ruleset}\n${view.roster.map((cid) => `${cid}=${view.combatants[cid]?.name ?? ''}`).join('\n')}`;
  const [addFormView, setAddFormView] = useState({ key: namesKey, view });
  if (addFormView.key !== namesKey) setAddFormView({ key: namesKey, view });
  // The options form reads the options, the ruleset and the roster's names (a field that names a
  // combatant): it too keeps its view until one of those changes, and is told the round apart.
  const [optionsView, setOptionsView] = useState({ key: namesKey, options: view.options, view });
  if (optionsView.key !== namesKey || optionsView.options !== view.options)
    setOptionsView({ key: namesKey, options: view.options, view });
  // The dice and the log follow a change in a second, interruptible render: the headline, the cards, the
  // timeline and the palette are committed (and laid out) first.
  const laterView = useDeferredValue(view);
  const laterEntries = useDeferredValue(entries);
  const c = actor ? view.combatants[actor] : undefined;
  return (
    <main className="tracker">
      <header className="topbar">
        <a href="/" className="home-link">
          Roundkeeper
        </a>
        {/* Both may be cut short on a narrow screen (the clock keeps its room): the title says them whole. */}
        <h1 title={view.name}>
          <bdi>{view.name}</bdi>
        </h1>
        <span className="muted ruleset-name" title={rs?.name ?? view.ruleset}>
          {rs?.name ?? view.ruleset}
        </span>
        <ConnectionBadge connected={connected} />
        <Headline view={view} compact />
        <div className="row grow-end">
          <button
            type="button"
            onClick={() => void runType('start', 'roll initiative')}
            disabled={view.status !== 'setup'}
          >
            Roll initiative <kbd>i</kbd>
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => void runType('next', 'next turn')}
            disabled={view.status !== 'running'}
          >
            Next <kbd>n</kbd>
          </button>
          <button
            type="button"
            onClick={() => void runType('undo', undoLabel('undo'))}
            disabled={!view.history.undoable.length}
          >
            Undo <kbd>u</kbd>
          </button>
          <button
            type="button"
            onClick={() => void runType('redo', undoLabel('redo'))}
            disabled={!view.history.redoable.length}
          >
            Redo <kbd>r</kbd>
          </button>
          <button
            type="button"
            onClick={() => void runType('end', 'end the fight')}
            disabled={view.status !== 'running'}
            title="The fight is over (Undo takes it back)"
          >
            End the fight
          </button>
          <button type="button" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts">
            ?
          </button>
        </div>
      </header>
      <Status />
      <div className="tracker-grid">
        <div className="col roster-col">
          <section className="panel roster" aria-label="Combatants">
            <h2>Combatants</h2>
            <ul className="cards" data-testid="combatants">
              {order.map((cid) => (
                <CombatantCard
                  key={cid}
                  view={view}
                  id={cid}
                  gm
                  selected={cid === actor}
                  current={cid === view.current}
                  onSelect={select}
                  onHp={onHp}
                  onMove={onMove}
                  onDrop={onDrop}
                />
              ))}
            </ul>
            {order.length ? null : (
              <p className="muted" data-testid="no-combatants">
                No one is in this fight yet. Add combatants with the form under{' '}
                <strong>Add combatants</strong> (How many adds several at once)
                {rs?.present?.creatures?.length ? ', pick ready ones under its Examples,' : ''} or import
                creatures from a JSON file.
              </p>
            )}
          </section>
        </div>
        <div className="col wide">
          {actor && c ? (
            <>
              <div className="acting-for" data-testid="acting-for">
                <span>
                  {actor === view.current ? 'Acting' : 'Selected'}: <bdi>{c.name}</bdi>
                </span>
                <button
                  type="button"
                  aria-pressed={pinned}
                  onClick={() => setSel({ id: actor, turn: turnOnly, pinned: !pinned })}
                  title="Keep this combatant selected when the turn changes"
                >
                  {pinned ? 'Pinned' : 'Pin'} <kbd>p</kbd>
                </button>
                {actor !== view.current && view.current ? (
                  <button type="button" onClick={() => setSel(null)}>
                    Back to the acting combatant
                  </button>
                ) : null}
              </div>
              <Palette view={view} actor={actor} />
              {/* The ruleset's panels for the selected combatant: a declaration, a plan, a planned action to take. */}
              {panelsOf(view, actor).map((p) => (
                <PanelView key={`panel-${actor}-${p.title}`} view={view} panel={p} actor={actor} />
              ))}
              <GmQuick view={view} c={c} actor={actor} />
              {forms.length ? <CommandForm view={view} forms={forms} actor={actor} /> : null}
            </>
          ) : null}
          <TimelineView view={view} highlight={actor} />
        </div>
        <div className="col">
          {/* Before the fight the roster is being built: adding comes first. Then the log does. */}
          {view.status === 'setup' ? (
            <AddCombatant view={addFormView.view} ruleset={view.ruleset} roster={view.roster} />
          ) : null}
          <Share id={id} token={token} combatants={view.combatants} />
          <OptionsForm view={optionsView.view} round={view.round} send={store.send} notify={notify} />
          <LogView view={laterView} entries={laterEntries} newestFirst />
          <DicePanel view={laterView} entries={laterEntries} />
          {view.status === 'setup' ? null : (
            <AddCombatant view={addFormView.view} ruleset={view.ruleset} roster={view.roster} />
          )}
        </div>
      </div>
      {help ? <HelpOverlay onClose={() => setHelp(false)} /> : null}
    </main>
  );
}

/** What an undo or redo takes back, in words: the first log line of that command, quoted. */
function describeGroup(view: EncounterView, entries: LogEntry[], group: number): string | null {
  const rs = rulesetOf(view);
  const line = rs ? groupLine(group, entries, describingState(view, namesOf(view, entries)), rs) : null;
  return line ? `“${line.replace(/\.$/, '')}”` : null;
}

const GmQuick = memo(function GmQuick({
  view,
  c,
  actor,
}: {
  view: EncounterView;
  c: Combatant;
  actor: string;
}) {
  const { run, send, tell: notify } = useStore();
  const [amount, setAmount] = useState('');
  const [effect, setEffect] = useState('');
  const [source, setSource] = useState('');
  const [duration, setDuration] = useState<RawForm>({
    'd.kind': 'turn-start',
    'd.count': '1',
    'd.combatant': actor,
  });
  const [confirm, setConfirm] = useState(false);
  const [editorOpen, setEditorOpen] = useState(false);
  // The editor is built when first opened for this combatant and kept while it is folded again (what was
  // typed stays), so a turn that passes builds no hidden form.
  const [editorBuilt, setEditorBuilt] = useState(false);
  // The tools stay mounted when the turn passes to another combatant: what was typed for the last one
  // starts over, as a fresh form would, without building the section again.
  const [shownFor, setShownFor] = useState(actor);
  if (shownFor !== actor) {
    setShownFor(actor);
    setAmount('');
    setEffect('');
    setSource('');
    setDuration({ 'd.kind': 'turn-start', 'd.count': '1', 'd.combatant': actor });
    setConfirm(false);
    setEditorOpen(false);
    setEditorBuilt(false);
  }
  const setDurationPart = useCallback(
    (key: string, value: string | boolean) => setDuration((d) => ({ ...d, [key]: value })),
    [],
  );
  const amountId = useId();
  const effectId = useId();
  const sourceId = useId();
  const n = Math.floor(Number(amount));
  const valid = amount.trim() !== '' && Number.isFinite(n) && n > 0;
  const go = async (cmd: Command, what: string) => (await run(cmd, what)).ok;
  return (
    <section className="panel gm-tools" aria-label={`GM tools for ${c.name}`}>
      {/* The column's sticky line names whom the tools are for: a turn that passes rewrites no heading here. */}
      <h2>GM tools</h2>
      <div className="row">
        <label htmlFor={amountId}>Amount</label>
        <StableInput
          id={amountId}
          type="number"
          min={1}
          value={amount}
          onValue={setAmount}
          className="narrow"
        />
        <button
          type="button"
          disabled={!valid}
          onClick={() => void go({ type: 'damage', combatant: actor, amount: n }, `${n} damage to ${c.name}`)}
        >
          Damage
        </button>
        <button
          type="button"
          disabled={!valid}
          onClick={() => void go({ type: 'heal', combatant: actor, amount: n }, `${c.name} healed ${n}`)}
        >
          Heal
        </button>
        <button
          type="button"
          disabled={!valid}
          onClick={() =>
            void go({ type: 'set-hp', combatant: actor, temp: n }, `${c.name} has ${n} temporary HP`)
          }
        >
          Temp HP
        </button>
        <button
          type="button"
          onClick={() =>
            void go(
              { type: c.active ? 'defeat' : 'revive', combatant: actor },
              c.active ? `${c.name} defeated` : `${c.name} back in the fight`,
            )
          }
        >
          {c.active ? 'Defeat' : 'Revive'}
        </button>
      </div>
      <form
        className="condition-form"
        aria-label={`Add a condition to ${c.name}`}
        onSubmit={async (e) => {
          e.preventDefault();
          const d = durationOf(duration, 'd', { round: view.round, actor });
          if (typeof d === 'string') return notify({ ok: false, error: d }, 'condition');
          const cmd: Command = { type: 'add-effect', target: actor, name: effect.trim(), duration: d };
          if (source && view.combatants[source]) cmd.source = source;
          if (await go(cmd, `${effect.trim()} on ${c.name}`)) {
            setEffect('');
            setSource('');
          }
        }}
      >
        <div className="row">
          <label htmlFor={effectId}>Condition</label>
          <StableInput id={effectId} value={effect} placeholder="Frightened" onValue={setEffect} />
          <button type="submit" disabled={!effect.trim()}>
            Add condition
          </button>
        </div>
        <div className="row">
          <label htmlFor={sourceId}>Caused by</label>
          <select id={sourceId} value={source} onChange={(e) => setSource(e.currentTarget.value)}>
            <option value="">—</option>
            {view.roster
              .filter((id) => view.combatants[id])
              .map((id) => (
                <option key={id} value={id}>
                  {view.combatants[id]!.name}
                </option>
              ))}
          </select>
        </div>
        <DurationField label="Lasts" k="d" raw={duration} set={setDurationPart} view={view} />
      </form>
      <ConditionList view={view} id={actor} />
      <details
        className="editor"
        open={editorOpen}
        onToggle={(e) => {
          const open = e.currentTarget.open;
          setEditorOpen(open);
          if (open) setEditorBuilt(true);
        }}
      >
        <summary>Edit or remove</summary>
        {editorBuilt || editorOpen ? <CombatantEditor key={actor} view={view} c={c} /> : null}
        <div className="row">
          {confirm ? (
            <>
              <button
                type="button"
                className="danger"
                onClick={() => void go({ type: 'remove-combatant', combatant: actor }, `${c.name} removed`)}
              >
                Remove {c.name} for good
              </button>
              <button type="button" onClick={() => setConfirm(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirm(true)}>
              Remove from the fight…
            </button>
          )}
        </div>
      </details>
    </section>
  );
});

/** The conditions on a combatant with their time left, each with a button that ends it now. */
function ConditionList({ view, id }: { view: EncounterView; id: string }) {
  const { run, send, tell: notify } = useStore();
  const conds = conditionsOf(view, id);
  if (!conds.length) return null;
  return (
    <ul className="condition-list">
      {conds.map((k) => (
        <li key={k.id} className="row">
          <span className="grow">
            <strong>
              <bdi>{k.name}</bdi>
            </strong>{' '}
            <span className="muted">{k.remaining}</span>
          </span>
          <button
            type="button"
            aria-label={`End ${k.name}`}
            onClick={async () => run({ type: 'remove-effect', effect: k.id }, `${k.name} ended`)}
          >
            End
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * Rename, side, group, hidden, max HP, notes and the ruleset's stats (their labels, bounds and defaults
 * from the stats schema) of one combatant, sent as one change.
 */
function CombatantEditor({ view, c }: { view: EncounterView; c: Combatant }) {
  const { run, send, tell: notify } = useStore();
  const rs = rulesetOf(view);
  const statParams = useMemo(() => (rs ? paramsOfSchema(rs.statsSchema) : []), [rs]);
  const start = (): RawForm => ({
    name: c.name,
    group: c.group ?? '',
    notes: c.notes ?? '',
    max: c.hp ? String(c.hp.max) : '',
    ...valuesOf(statParams, c.stats as Record<string, unknown>, 'stats'),
  });
  const [raw, setRaw] = useState<RawForm>(start);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { name: useId(), group: useId(), notes: useId(), max: useId() };
  const set = (k: string, v: string | boolean) => {
    setRaw((r) => ({ ...r, [k]: v }));
    setErrors(({ [k]: _fixed, ...rest }) => rest);
  };
  return (
    <form
      className="combatant-editor"
      aria-label={`Edit ${c.name}`}
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const checked = statsOf(rs, statParams, raw, c.stats as Record<string, Json>, view.round);
        if ('errors' in checked) {
          setErrors(fieldErrors(checked.errors));
          return notify({ ok: false, error: sayError(checked.errors[0]!) }, 'edit');
        }
        setErrors({});
        const name = String(raw.name ?? '').trim();
        if (!name) return notify({ ok: false, error: 'A combatant needs a name.' }, 'edit');
        const update: Command = {
          type: 'update-combatant',
          combatant: c.id,
          name,
          group: String(raw.group ?? '').trim() || null,
          notes: String(raw.notes ?? ''),
          stats: checked.stats,
        };
        let r = await send(update);
        const max = String(raw.max ?? '').trim();
        if (r.ok && max && (!c.hp || Number(max) !== c.hp.max)) {
          r = await send({ type: 'set-hp', combatant: c.id, max: Math.max(0, Math.floor(Number(max))) });
        }
        notify(r, `${name} changed`);
      }}
    >
      <div className="row">
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            value={String(raw.name ?? '')}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.max}>Max HP</label>
          <input
            id={ids.max}
            type="number"
            min={0}
            className="narrow"
            value={String(raw.max ?? '')}
            onChange={(e) => set('max', e.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.group}>NPC group</label>
          <input
            id={ids.group}
            value={String(raw.group ?? '')}
            onChange={(e) => set('group', e.currentTarget.value)}
          />
        </div>
      </div>
      {statParams.length ? (
        <fieldset className="stats">
          <legend>Stats</legend>
          <ParamFields
            params={statParams}
            raw={raw}
            set={set}
            edit={setRaw}
            errors={errors}
            view={view}
            prefix="stats"
          />
        </fieldset>
      ) : null}
      <div className="field">
        <label htmlFor={ids.notes}>GM notes</label>
        <textarea
          id={ids.notes}
          rows={2}
          value={String(raw.notes ?? '')}
          onChange={(e) => set('notes', e.currentTarget.value)}
        />
      </div>
      <div className="row">
        <button type="submit" className="primary">
          Save changes
        </button>
        <button
          type="button"
          onClick={async () =>
            run(
              { type: 'update-combatant', combatant: c.id, hidden: !c.hidden },
              c.hidden ? `${c.name} revealed to the players` : `${c.name} hidden from the players`,
            )
          }
        >
          {c.hidden ? 'Reveal to players' : 'Hide from players'}
        </button>
      </div>
    </form>
  );
}

/**
 * The stats a form makes, over the sheet they change (`base`), checked against the ruleset's stats schema:
 * or what is wrong, field by field (a weapon's missing speed on that weapon's row).
 */
function statsOf(
  rs: ReturnType<typeof rulesetOf>,
  params: readonly Param[],
  raw: RawForm,
  base: Record<string, Json>,
  round: number,
): { stats: Record<string, Json> } | { errors: FieldError[] } {
  const read = readForm(params, raw, { round }, 'stats');
  if (read.errors.length) return { errors: read.errors };
  const stats = { ...base, ...read.value };
  const parsed = rs?.statsSchema.safeParse(stats);
  if (parsed && !parsed.success) {
    const errors = issueErrors(params, raw, 'stats', parsed.error.issues as readonly SchemaIssue[]);
    if (errors.length) return { errors };
  }
  return { stats };
}

const AddCombatant = memo(function AddCombatant({
  view,
  ruleset,
  roster,
}: {
  view: EncounterView;
  ruleset: string;
  roster: string[];
}) {
  const { run, send, tell: notify } = useStore();
  const rs = rulesetOf({ ruleset });
  const [name, setName] = useState('');
  const [side, setSide] = useState<'pc' | 'npc'>('npc');
  const [hp, setHp] = useState('');
  const [count, setCount] = useState('1');
  const [group, setGroup] = useState('');
  const [hidden, setHidden] = useState(false);
  const [notes, setNotes] = useState('');
  const [stats, setStats] = useState<RawForm>({});
  const [statErrors, setStatErrors] = useState<Record<string, string>>({});
  const [lib, setLib] = useState<{ creatures: Creature[]; examples: Creature[] }>({
    creatures: [],
    examples: [],
  });
  const fileId = useId();
  const loadLibrary = useCallback(async () => {
    try {
      setLib(await api.library(ruleset, libraryKey()));
    } catch (e) {
      notify({ ok: false, error: `The library could not be read: ${errorMessage(e)}` }, 'library');
    }
  }, [ruleset, notify]);
  useEffect(() => {
    void loadLibrary();
  }, [loadLibrary]);
  const ids = {
    name: useId(),
    side: useId(),
    hp: useId(),
    count: useId(),
    group: useId(),
    hidden: useId(),
    notes: useId(),
  };
  const statParams = useMemo(() => (rs ? paramsOfSchema(rs.statsSchema) : []), [rs]);

  const template = (): Creature | string => {
    if (!name.trim()) return 'Give the combatant a name.';
    const checked = statsOf(rs, statParams, stats, {}, 0);
    if ('errors' in checked) {
      setStatErrors(fieldErrors(checked.errors));
      return sayError(checked.errors[0]!);
    }
    setStatErrors({});
    const t: Creature = { name: name.trim(), side, stats: checked.stats };
    if (hp) t.hp = Math.max(0, Math.floor(Number(hp)));
    if (group.trim()) t.group = group.trim();
    if (hidden) t.hidden = true;
    if (notes.trim()) t.notes = notes.trim();
    return t;
  };

  const add = async (t: Creature, n: number) => {
    const commands = expandCombatants(t, n, roster);
    for (const cmd of commands) {
      const r = await send(cmd);
      if (!r.ok) {
        notify(r, `add ${t.name}`);
        return;
      }
    }
    notify({ ok: true }, `added ${commands.length} × ${t.name}`);
  };

  return (
    <section className="panel" aria-label="Add combatants">
      <h2>Add combatants</h2>
      <form
        className="add-form"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const t = template();
          if (typeof t === 'string') return notify({ ok: false, error: t }, 'add');
          // A GM note, a group and hiding belong to this combatant: clear them with the name, so they are not
          // copied onto the next one without the GM seeing it.
          setName('');
          setNotes('');
          setGroup('');
          setHidden(false);
          await add(t, Number(count) || 1);
        }}
      >
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input id={ids.name} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor={ids.side}>Side</label>
            <select
              id={ids.side}
              value={side}
              onChange={(e) => setSide(e.currentTarget.value === 'pc' ? 'pc' : 'npc')}
            >
              <option value="npc">NPC</option>
              <option value="pc">PC</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.hp}>HP</label>
            <input
              id={ids.hp}
              type="number"
              min={0}
              className="narrow"
              value={hp}
              onChange={(e) => setHp(e.currentTarget.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.count}>How many</label>
            <input
              id={ids.count}
              type="number"
              min={1}
              max={50}
              className="narrow"
              value={count}
              onChange={(e) => setCount(e.currentTarget.value)}
            />
          </div>
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor={ids.group}>NPC group</label>
            <input id={ids.group} value={group} onChange={(e) => setGroup(e.currentTarget.value)} />
          </div>
          <div className="field check">
            <input
              id={ids.hidden}
              type="checkbox"
              checked={hidden}
              onChange={(e) => setHidden(e.currentTarget.checked)}
            />
            <label htmlFor={ids.hidden}>Hidden from players</label>
          </div>
        </div>
        {statParams.length ? (
          <fieldset className="stats">
            <legend>Stats</legend>
            <ParamFields
              params={statParams}
              raw={stats}
              set={(k, v) => {
                setStats((r) => ({ ...r, [k]: v }));
                setStatErrors(({ [k]: _fixed, ...rest }) => rest);
              }}
              edit={setStats}
              errors={statErrors}
              view={view}
              prefix="stats"
            />
          </fieldset>
        ) : null}
        <div className="field">
          <label htmlFor={ids.notes}>GM notes</label>
          <input id={ids.notes} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} />
        </div>
        <div className="row">
          <button type="submit" className="primary">
            Add
          </button>
          <button
            type="button"
            onClick={async () => {
              const t = template();
              if (typeof t === 'string') return notify({ ok: false, error: t }, 'save');
              try {
                await api.saveCreature(ruleset, libraryKey(), t);
                notify({ ok: true }, `saved ${t.name} to the library`);
                await loadLibrary();
              } catch (e) {
                notify({ ok: false, error: errorMessage(e) }, 'save');
              }
            }}
          >
            Save to library
          </button>
          <label htmlFor={fileId} className="button-like">
            Import creatures (JSON)
          </label>
          <input
            id={fileId}
            type="file"
            accept=".json,application/json"
            className="sr-only"
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (!file) return;
              try {
                const data: unknown = JSON.parse(await file.text());
                // A file holds a list of creatures, or an object with one ({"creatures": [...]}, an export).
                const list = Array.isArray(data)
                  ? data
                  : data &&
                      typeof data === 'object' &&
                      Array.isArray((data as { creatures?: unknown }).creatures)
                    ? (data as { creatures: unknown[] }).creatures
                    : null;
                if (!list)
                  throw new Error('the file holds no list of creatures, e.g. [{"name": "Orc", "hp": 15}].');
                const r = await api.importCreatures(ruleset, libraryKey(), list);
                notify(
                  { ok: true },
                  `imported ${r.added} creature${r.added === 1 ? '' : 's'} into the library`,
                );
                await loadLibrary();
              } catch (err) {
                notify(
                  { ok: false, error: `The creatures could not be imported: ${errorMessage(err)}` },
                  'import',
                );
              }
            }}
          />
        </div>
      </form>
      <div className="library">
        {lib.creatures.length ? (
          <>
            <h3>Library</h3>
            <CreatureList
              items={lib.creatures}
              from="the library"
              onAdd={(t) => void add(t, Number(count) || 1)}
              onRemove={async (t) => {
                try {
                  await api.removeCreature(ruleset, libraryKey(), t.name);
                  await loadLibrary();
                } catch (e) {
                  notify({ ok: false, error: errorMessage(e) }, 'remove');
                }
              }}
            />
          </>
        ) : null}
        {lib.examples.length ? (
          <details>
            <summary>Examples ({lib.examples.length})</summary>
            <CreatureList
              items={lib.examples}
              from="the examples"
              onAdd={(t) => void add(t, Number(count) || 1)}
            />
          </details>
        ) : null}
      </div>
    </section>
  );
});

/** Creatures to add with one click: name, side, HP and the ruleset's stats in a line. */
function CreatureList({
  items,
  from,
  onAdd,
  onRemove,
}: {
  items: Creature[];
  from: string;
  onAdd: (c: Creature) => void;
  onRemove?: (c: Creature) => void;
}) {
  return (
    <ul>
      {items.map((t) => (
        <li key={t.name} className="row">
          <span className={`side-tag ${t.side}`}>{t.side === 'pc' ? 'PC' : 'NPC'}</span>
          <span className="grow">
            <bdi>{t.name}</bdi>
            {t.hp !== undefined ? <span className="muted"> · {t.hp} HP</span> : null}
          </span>
          <button type="button" onClick={() => onAdd(t)} aria-label={`Add ${t.name} from ${from}`}>
            Add
          </button>
          {onRemove ? (
            <button type="button" onClick={() => onRemove(t)} aria-label={`Remove ${t.name} from ${from}`}>
              ×
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

const Share = memo(function Share({
  id,
  token,
  combatants,
}: {
  id: string;
  token: string;
  combatants: EncounterView['combatants'];
}) {
  const [links, setLinks] = useState<EncounterLinks | null>(null);
  const [error, setError] = useState('');
  const run = async (work: () => Promise<EncounterLinks>) => {
    try {
      setLinks(await work());
      setError('');
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const abs = (u: string) => (u.startsWith('http') ? u : `${location.origin}${u}`);
  // Revoke: the link opens nothing from now on. New link: the old one is revoked and a new one replaces it.
  const controls = (name: LinkName, who: string, revoked: boolean) => (
    <span className="row">
      {revoked ? null : (
        <button
          type="button"
          onClick={() => {
            if (window.confirm(`Revoke ${who}? It will open nothing any more; a new link can replace it.`))
              void run(() => api.revokeLink(id, token, name));
          }}
        >
          Revoke
        </button>
      )}
      <button
        type="button"
        onClick={() => {
          if (revoked || window.confirm(`Replace ${who} with a new one? The old one stops working.`))
            void run(() => api.rotateLink(id, token, name));
        }}
      >
        New link
      </button>
    </span>
  );
  return (
    <section className="panel" aria-label="Share and export">
      <h2>Share &amp; export</h2>
      <div className="row">
        <button type="button" onClick={() => void run(() => api.links(id, token))}>
          Show links
        </button>
        <button
          type="button"
          onClick={async () => downloadText(`${id}.json`, await api.exportScenario(id, token, 'json'))}
        >
          Export JSON
        </button>
        <button
          type="button"
          onClick={async () =>
            downloadText(`${id}.yaml`, await api.exportScenario(id, token, 'yaml'), 'text/yaml')
          }
        >
          Export YAML
        </button>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {links ? (
        <ul className="links" data-testid="links">
          <li>
            {links.table ? (
              <>
                <a href={abs(links.table)} target="_blank" rel="noreferrer">
                  Table view
                </a>
                <QrCode url={abs(links.table)} label="QR code of the table view link" />
              </>
            ) : (
              <span className="muted">Table view: revoked</span>
            )}
            {controls({ link: 'table' }, 'the table view link', links.table === null)}
          </li>
          {links.players.map((p) => {
            const name = combatants[p.combatant]?.name ?? p.name;
            return (
              <li key={p.combatant}>
                {p.url ? (
                  <>
                    <a href={abs(p.url)} data-player={p.combatant} target="_blank" rel="noreferrer">
                      Player: {name}
                    </a>
                    <QrCode url={abs(p.url)} label={`QR code of ${name}'s link`} />
                  </>
                ) : (
                  <span className="muted">Player: {name} — revoked</span>
                )}
                {controls({ link: 'player', combatant: p.combatant }, `${name}'s link`, p.revoked === true)}
              </li>
            );
          })}
        </ul>
      ) : null}
      {links ? (
        <p>
          <button
            type="button"
            onClick={async () => {
              if (
                !window.confirm(
                  'Replace the GM link? This page moves to the new one, and every other link is replaced too (send the players their new links).',
                )
              )
                return;
              try {
                const rotated = await api.rotateLink(id, token, { link: 'gm' });
                forgetLink(token);
                location.assign(abs(rotated.gm));
              } catch (e) {
                setError(errorMessage(e));
              }
            }}
          >
            New GM link (replaces every link)
          </button>
        </p>
      ) : null}
      {links?.table ? (
        <p className="small">
          <a href={`${abs(links.table)}&hp=all`} target="_blank" rel="noreferrer">
            Table screen showing NPCs' HP as numbers
          </a>{' '}
          (otherwise they read unhurt, hurt, bloodied or down)
        </p>
      ) : null}
    </section>
  );
});
