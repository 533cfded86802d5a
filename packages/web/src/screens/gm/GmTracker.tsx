import type { EncounterView, LogEntry } from '@roundkeeper/engine';
import { memo, Suspense, useCallback, useMemo, useState } from 'react';
import { CombatantCard } from '../../cards/CombatantCard.js';
import { PanelView, panelsOf } from '../../commands/PanelView.js';
import { groupLine, LaterLog } from '../../log/LogView.js';
import { otherForms, roundOrder, rulesetOf } from '../../model.js';
import { Palette } from '../../palette/Palette.js';
import { describingState, namesOf } from '../../screen/names.js';
import { useField, useLatest, useStore } from '../../store/react.js';
import { TimelineView } from '../../timeline/TimelineView.js';
import { ConnectionBadge, Headline, Status } from '../chrome.js';
import { HelpOverlay } from '../help.js';
import { lazy } from '../lazy-parts.js';
import { useCardActions } from './card-actions.js';
import { EndFight } from './EndFight.js';
import type { Prompt } from './KeyPrompt.js';
import { LaterTools } from './LaterTools.js';
import { AddCombatant, HpShownForm, LaterDice, OptionsForm, Share, TimedEvents, TurnNow } from './lazy.js';
import { useActorInView, useBarHeight } from './reach.js';
import { useGmKeys } from './use-gm-keys.js';

// The prompt of a key (d, h, x) loads when a key first asks for it.
const KeyPrompt = lazy(() => import('./KeyPrompt.js').then((m) => ({ default: m.KeyPrompt })));

/** The selected combatant, and the turn it was selected in: a selection follows the turn unless pinned. */
export interface Selection {
  id: string;
  /** The turn it was chosen in (the store's count): a new turn selects whoever acts. */
  turn: number;
  pinned: boolean;
}

export const GmTracker = memo(function GmTracker({
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
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const order = useMemo(() => roundOrder(view, entries), [view, entries]);
  // Each turn (a new actor, or a new round) selects whoever acts, unless the GM pinned someone.
  const turnOnly = useField('turn');
  const kept = sel && view.combatants[sel.id] && (sel.pinned || sel.turn === turnOnly) ? sel : null;
  const actor = kept ? kept.id : (view.current ?? order[0] ?? null);
  const pinned = kept?.pinned === true;
  // Handlers read the fight as the store holds it now: stable, so unchanged cards are not drawn again.
  const _latest = useLatest();
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
  const { onHp, onMove, onDrop } = useCardActions();
  // The add form reads from the view only what a duration field offers (the ruleset's clock, the roster's
  // names): it keeps the view it has until one of those changes, so a turn that passes skips the form.
  const namesKey = `${view.ruleset}\n${view.roster.map((cid) => `${cid}=${view.combatants[cid]?.name ?? ''}`).join('\n')}`;
  const [addFormView, setAddFormView] = useState({ key: namesKey, view });
  if (addFormView.key !== namesKey) setAddFormView({ key: namesKey, view });
  // The options form too (a field may name a combatant), with the options; it is told the round apart.
  const [optionsView, setOptionsView] = useState({ key: namesKey, options: view.options, view });
  if (optionsView.key !== namesKey || optionsView.options !== view.options)
    setOptionsView({ key: namesKey, options: view.options, view });
  const c = actor ? view.combatants[actor] : undefined;
  // The keys read this render's state when they come (an effect event inside `useGmKeys`).
  const ask = (kind: Prompt['kind']) => () => {
    if (actor && c) setPrompt({ kind, id: actor, name: c.name });
  };
  useGmKeys({
    escape: () => {
      setHelp(false);
      setPrompt(null);
    },
    help: () => setHelp((h) => !h),
    undo: () => void runType('undo', undoLabel('undo')),
    redo: () => void runType('redo', undoLabel('redo')),
    next: () => void runType('next', 'next turn'),
    start: () => void runType('start', 'roll initiative'),
    pin: () => actor && setSel({ id: actor, turn: turnOnly, pinned: !pinned }),
    move: (direction) => actor && void onMove(actor, direction),
    step: (by) => {
      const i = actor ? order.indexOf(actor) : -1;
      const next = order[(i + (by === 1 ? 1 : order.length - 1)) % Math.max(1, order.length)];
      if (next) select(next);
    },
    pick: (index) => {
      const picked = order[index];
      if (picked) select(picked);
    },
    damage: ask('damage'),
    heal: ask('heal'),
    remove: ask('remove'),
    // The GM tools' Condition field, for the selected combatant: its duration is chosen there.
    condition: () => document.querySelector<HTMLInputElement>('.gm-tools .condition-form input')?.focus(),
  });

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
        <Headline compact />
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
          <TurnNow view={view} entries={entries} gm />
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
              {/* The GM tools and the other commands follow in a render of their own (`LaterTools`). */}
              <LaterTools view={view} actor={actor} forms={forms} />
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
          {/* The log and the dice follow a change in a second, interruptible render of their own: the
              headline, the cards, the timeline and the palette are committed (and laid out) first. */}
          <LaterLog view={view} entries={entries} newestFirst />
          <LaterDice view={view} entries={entries} />
          <HpShownForm display={view.hpDisplay} />
          <TimedEvents view={optionsView.view} {...(view.timed ? { timed: view.timed } : {})} />
          {view.status === 'setup' ? null : (
            <AddCombatant view={addFormView.view} ruleset={view.ruleset} roster={view.roster} />
          )}
        </div>
      </div>
      {help ? <HelpOverlay onClose={() => setHelp(false)} /> : null}
      {prompt ? (
        <Suspense fallback={null}>
          <KeyPrompt prompt={prompt} onClose={() => setPrompt(null)} />
        </Suspense>
      ) : null}
    </main>
  );
});

/** What an undo or redo takes back, in words: the first log line of that command, quoted. */
export function describeGroup(view: EncounterView, entries: LogEntry[], group: number): string | null {
  const rs = rulesetOf(view);
  const line = rs ? groupLine(group, entries, describingState(view, namesOf(view, entries)), rs) : null;
  return line ? `“${line.replace(/\.$/, '')}”` : null;
}
