import type { Command, EncounterView, LogEntry } from '@roundkeeper/engine';
import { useCallback, useDeferredValue, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { CombatantCard } from '../../cards/CombatantCard.js';
import { reorderCommand } from '../../cards/reorder.js';
import { CommandForm } from '../../commands/CommandForm.js';
import { PanelView, panelsOf } from '../../commands/PanelView.js';
import { AddCombatant } from '../../forms/AddCombatant.js';
import { OptionsForm } from '../../forms/OptionsForm.js';
import { GmQuick } from '../../gm-tools/GmQuick.js';
import { Share } from '../../gm-tools/Share.js';
import { DicePanel } from '../../log/DicePanel.js';
import { groupLine, LogView } from '../../log/LogView.js';
import { hpEdit, otherForms, roundOrder, rulesetOf } from '../../model.js';
import { Palette } from '../../palette/Palette.js';
import { describingState, namesOf } from '../../screen/names.js';
import { useEncounter, useLatest, useStore } from '../../store/react.js';
import { TimelineView } from '../../timeline/TimelineView.js';
import { ConnectionBadge, Headline, Status } from '../chrome.js';
import { HelpOverlay } from '../help.js';
import { EndFight } from './EndFight.js';
import { isTyping } from './keys.js';
import { useActorInView, useBarHeight } from './reach.js';

/** The selected combatant, and the turn it was selected in: a selection follows the turn unless pinned. */
export interface Selection {
  id: string;
  /** The turn it was chosen in (the store's count): a new turn selects whoever acts. */
  turn: number;
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
  const { run, tell: notify, send, getSnapshot } = useStore();
  const [sel, setSel] = useState<Selection | null>(null);
  const [help, setHelp] = useState(false);
  const order = useMemo(() => roundOrder(view, entries), [view, entries]);
  // Each turn (a new actor, or a new round) selects whoever acts, unless the GM pinned someone.
  const turnOnly = useEncounter((st) => st.turn);
  const kept = sel && view.combatants[sel.id] && (sel.pinned || sel.turn === turnOnly) ? sel : null;
  const actor = kept ? kept.id : (view.current ?? order[0] ?? null);
  const pinned = kept?.pinned === true;
  // Handlers read the fight as the store holds it now: they keep their identity from one change to the
  // next, and the cards whose combatant did not change are not drawn again.
  const latest = useLatest();
  const select = useCallback(
    (cid: string) => setSel({ id: cid, turn: getSnapshot().turn, pinned: false }),
    [getSnapshot],
  );

  const runType = (type: string, label: string) => run({ type }, label);
  const undoLabel = (which: 'undo' | 'redo') => {
    const group = which === 'undo' ? view.history.undoable.at(-1) : view.history.redoable.at(-1);
    const what = group === undefined ? null : describeGroup(view, entries, group);
    return what ? `${which} ${what}` : which;
  };

  const roster = useActorInView(view.current);
  const bar = useBarHeight();

  const forms = useMemo(() => (rs ? otherForms(rs) : []), [rs]);
  // Reads the latest view when called, so it keeps its identity from one change to the next and the cards
  // whose combatant did not change are not drawn again (a turn that passes changes two of them).
  const onHp = useCallback(
    async (cid: string, text: string) => {
      const edit = hpEdit(text);
      const name = latest().v.combatants[cid]?.name ?? cid;
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
    [run, notify, latest],
  );
  const onMove = useCallback(
    async (cid: string, direction: 'up' | 'down') => {
      const { v } = latest();
      const cmd = reorderCommand(v, cid, direction);
      const name = v.combatants[cid]?.name ?? cid;
      if (!cmd)
        return notify({ ok: false, error: `${name} cannot move ${direction} the order here.` }, 'move');
      run(cmd, `${name} moved ${direction} the order`);
    },
    [run, notify, latest],
  );
  // A card dropped on another's place: up past it when it stood above, down past it when below.
  const onDrop = useCallback(
    async (cid: string, onto: string) => {
      const { v, e } = latest();
      const shown = roundOrder(v, e);
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
    [run, notify, latest],
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
  // One listener for the page's lifetime; an effect event, so it reads this render's state.
  const onKey = useEffectEvent((e: KeyboardEvent) => {
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
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  return (
    <main className="tracker">
      <header className="topbar" ref={bar}>
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
          <EndFight running={view.status === 'running'} />
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
            <ul className="cards" data-testid="combatants" ref={roster}>
              {order.map((cid) => (
                <CombatantCard
                  key={cid}
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
          <OptionsForm view={optionsView.view} round={view.round} send={send} notify={notify} />
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
export function describeGroup(view: EncounterView, entries: LogEntry[], group: number): string | null {
  const rs = rulesetOf(view);
  const line = rs ? groupLine(group, entries, describingState(view, namesOf(view, entries)), rs) : null;
  return line ? `“${line.replace(/\.$/, '')}”` : null;
}
