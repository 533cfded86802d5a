import type { Combatant, EncounterView, LogEntry } from '@roundkeeper/engine';
import { memo, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { api, errorMessage, type PlayerLink } from './api.js';
import { type SendResult, useEncounter } from './live.js';
import { actorCommands, expandCombatants, rulesetOf, turnOrder } from './model.js';
import { Player } from './Player.js';
import {
  CombatantCard,
  CommandForm,
  ConnectionBadge,
  DicePanel,
  downloadText,
  Headline,
  HelpOverlay,
  LogView,
  Palette,
  type Send,
  Status,
  TimelineView,
  useNotifier,
} from './parts.js';
import { QrCode } from './QrCode.js';
import { type CombatantTemplate, library, rememberLink, removeTemplate, saveTemplate } from './storage.js';

/** Picks the screen for the link's role: GM tracker, table view or player controller. */
export function EncounterPage({ id, token }: { id: string; token: string }) {
  const { live, send } = useEncounter(id, token);
  useEffect(() => {
    if (live.meta && live.role) rememberLink({ id, token, name: live.meta.name, role: live.role });
  }, [live.meta, live.role, id, token]);
  if (live.status === 'loading') return <p className="center">Loading the encounter…</p>;
  if (live.status === 'deleted')
    return (
      <p className="center">
        This encounter was deleted. <a href="/">Home</a>
      </p>
    );
  if (live.status === 'error' || !live.state)
    return (
      <p className="center" role="alert">
        {live.error ?? 'The encounter could not be loaded.'} <a href="/">Home</a>
      </p>
    );
  const view = live.state;
  if (live.role === 'player')
    return (
      <Player view={view} mine={live.mine} entries={live.entries} send={send} connected={live.connected} />
    );
  if (live.role === 'table') return <TableView view={view} connected={live.connected} />;
  return (
    <GmTracker
      id={id}
      token={token}
      view={view}
      entries={live.entries}
      send={send}
      connected={live.connected}
    />
  );
}

export function TableView({ view, connected }: { view: EncounterView; connected: boolean }) {
  const order = turnOrder(view);
  return (
    <main className="table-view">
      <header className="topbar">
        <h1>{view.name}</h1>
        <ConnectionBadge connected={connected} />
      </header>
      <Headline view={view} />
      <section className="panel" aria-label="Order">
        <h2>Order</h2>
        <ol className="order big">
          {order.map((cid) => (
            <li
              key={cid}
              className={`${view.combatants[cid]!.side}${cid === view.current ? ' current' : ''}`}
            >
              {view.combatants[cid]!.name}
            </li>
          ))}
        </ol>
      </section>
      <TimelineView view={view} exportable={false} />
    </main>
  );
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}

export function GmTracker({
  id,
  token,
  view,
  entries,
  send,
  connected,
}: {
  id: string;
  token: string;
  view: EncounterView;
  entries: LogEntry[];
  send: Send;
  connected: boolean;
}) {
  const rs = rulesetOf(view);
  const { message, notify } = useNotifier();
  const [selected, setSelected] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const actor = selected && view.combatants[selected] ? selected : (view.current ?? view.roster[0] ?? null);
  const order = useMemo(() => turnOrder(view), [view]);

  const run = async (type: string, label: string) => notify(await send({ type }), label);

  // One listener for the page's lifetime; it calls the latest handler.
  const onKeyRef = useRef<(e: KeyboardEvent) => void>(() => {});
  onKeyRef.current = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      setHelp(false);
      return;
    }
    if (isTyping(e.target)) return;
    const ctrl = e.ctrlKey || e.metaKey;
    if (e.key === '?') {
      e.preventDefault();
      setHelp((h) => !h);
    } else if (ctrl && e.key.toLowerCase() === 'z') {
      e.preventDefault();
      void run(e.shiftKey ? 'redo' : 'undo', e.shiftKey ? 'redo' : 'undo');
    } else if (ctrl || e.altKey) {
      return;
    } else if (e.key === 'n') void run('next', 'next');
    else if (e.key === 'i') void run('start', 'roll initiative');
    else if (e.key === 'u') void run('undo', 'undo');
    else if (e.key === 'r') void run('redo', 'redo');
    else if (e.key === 'j' || e.key === 'k') {
      const i = actor ? order.indexOf(actor) : -1;
      const next = order[(i + (e.key === 'j' ? 1 : order.length - 1)) % Math.max(1, order.length)];
      if (next) setSelected(next);
    } else if (/^[1-9]$/.test(e.key)) {
      const pick = order[Number(e.key) - 1];
      if (pick) setSelected(pick);
    }
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => onKeyRef.current(e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const extra = rs ? actorCommands(rs) : [];
  // The dice and the log follow a change in a second, interruptible render: the headline, the cards, the
  // timeline and the palette are committed (and laid out) first.
  const laterView = useDeferredValue(view);
  const laterEntries = useDeferredValue(entries);
  return (
    <main className="tracker">
      <header className="topbar">
        <a href="/" className="home-link">
          Roundkeeper
        </a>
        <h1>{view.name}</h1>
        <span className="muted">{rs?.name ?? view.ruleset}</span>
        <ConnectionBadge connected={connected} />
        <div className="row grow-end">
          <button
            type="button"
            onClick={() => void run('start', 'roll initiative')}
            disabled={view.status !== 'setup'}
          >
            Roll initiative <kbd>i</kbd>
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => void run('next', 'next')}
            disabled={view.status !== 'running'}
          >
            Next <kbd>n</kbd>
          </button>
          <button
            type="button"
            onClick={() => void run('undo', 'undo')}
            disabled={!view.history.undoable.length}
          >
            Undo <kbd>u</kbd>
          </button>
          <button
            type="button"
            onClick={() => void run('redo', 'redo')}
            disabled={!view.history.redoable.length}
          >
            Redo <kbd>r</kbd>
          </button>
          <button type="button" onClick={() => setHelp(true)} aria-label="Keyboard shortcuts">
            ?
          </button>
        </div>
      </header>
      <Headline view={view} />
      <Status message={message} />
      <div className="tracker-grid">
        <div className="col">
          <section className="panel" aria-label="Combatants">
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
                  onSelect={setSelected}
                />
              ))}
            </ul>
          </section>
          {actor && view.combatants[actor] ? (
            <GmQuick c={view.combatants[actor]} actor={actor} send={send} notify={notify} />
          ) : null}
          <AddCombatant ruleset={view.ruleset} roster={view.roster} send={send} notify={notify} />
          <Share id={id} token={token} combatants={view.combatants} />
        </div>
        <div className="col wide">
          <TimelineView view={view} highlight={actor} />
          {actor ? <Palette view={view} actor={actor} send={send} notify={notify} /> : null}
          {actor && extra.length ? (
            <CommandForm
              key={`${actor}`}
              view={view}
              types={extra}
              actor={actor}
              send={send}
              notify={notify}
            />
          ) : null}
        </div>
        <div className="col">
          <DicePanel view={laterView} entries={laterEntries} />
          <LogView view={laterView} entries={laterEntries} />
        </div>
      </div>
      {help ? <HelpOverlay onClose={() => setHelp(false)} /> : null}
    </main>
  );
}

const GmQuick = memo(function GmQuick({
  c,
  actor,
  send,
  notify,
}: {
  c: Combatant;
  actor: string;
  send: Send;
  notify: (r: SendResult, what: string) => void;
}) {
  const [amount, setAmount] = useState('');
  const [effect, setEffect] = useState('');
  const [until, setUntil] = useState('until-turn-start');
  const amountId = useId();
  const effectId = useId();
  const untilId = useId();
  const n = Math.max(0, Math.floor(Number(amount) || 0));
  return (
    <section className="panel" aria-label={`GM tools for ${c.name}`}>
      <h2>GM · {c.name}</h2>
      <div className="row">
        <label htmlFor={amountId}>Amount</label>
        <input
          id={amountId}
          type="number"
          min={0}
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
          className="narrow"
        />
        <button
          type="button"
          onClick={async () =>
            notify(await send({ type: 'damage', combatant: actor, amount: n }), `${n} damage to ${c.name}`)
          }
        >
          Damage
        </button>
        <button
          type="button"
          onClick={async () =>
            notify(await send({ type: 'heal', combatant: actor, amount: n }), `heal ${c.name}`)
          }
        >
          Heal
        </button>
        <button
          type="button"
          onClick={async () =>
            notify(
              await send({ type: c.active ? 'defeat' : 'revive', combatant: actor }),
              c.active ? 'defeat' : 'revive',
            )
          }
        >
          {c.active ? 'Defeat' : 'Revive'}
        </button>
      </div>
      <div className="row">
        <label htmlFor={effectId}>Condition</label>
        <input
          id={effectId}
          value={effect}
          placeholder="Frightened"
          onChange={(e) => setEffect(e.currentTarget.value)}
        />
        <label htmlFor={untilId} className="sr-only">
          Lasts
        </label>
        <select id={untilId} value={until} onChange={(e) => setUntil(e.currentTarget.value)}>
          <option value="until-turn-start">until start of their next turn</option>
          <option value="until-turn-end">until end of their next turn</option>
          <option value="until-round-end">until end of round</option>
          <option value="indefinite">until removed</option>
        </select>
        <button
          type="button"
          disabled={!effect.trim()}
          onClick={async () => {
            const duration =
              until === 'until-round-end' || until === 'indefinite'
                ? { kind: until }
                : { kind: until, combatant: actor };
            notify(
              await send({ type: 'add-effect', target: actor, name: effect.trim(), duration }),
              `${effect} on ${c.name}`,
            );
            setEffect('');
          }}
        >
          Add
        </button>
      </div>
    </section>
  );
});

const AddCombatant = memo(function AddCombatant({
  ruleset,
  roster,
  send,
  notify,
}: {
  ruleset: string;
  roster: string[];
  send: Send;
  notify: (r: SendResult, what: string) => void;
}) {
  const rs = rulesetOf({ ruleset });
  const [name, setName] = useState('');
  const [side, setSide] = useState<'pc' | 'npc'>('npc');
  const [hp, setHp] = useState('');
  const [count, setCount] = useState('1');
  const [group, setGroup] = useState('');
  const [hidden, setHidden] = useState(false);
  const [notes, setNotes] = useState('');
  const [stats, setStats] = useState('{}');
  const [lib, setLib] = useState<CombatantTemplate[]>(() => library());
  const ids = {
    name: useId(),
    side: useId(),
    hp: useId(),
    count: useId(),
    group: useId(),
    hidden: useId(),
    notes: useId(),
    stats: useId(),
  };
  const statFields = useMemo(() => {
    const shape = (rs?.statsSchema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
    return shape ? Object.keys(shape).join(', ') : '';
  }, [rs]);

  const template = (): CombatantTemplate | string => {
    if (!name.trim()) return 'Give the combatant a name.';
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(stats || '{}') as Record<string, unknown>;
    } catch {
      return 'Stats must be JSON, e.g. {"initiative": 2}.';
    }
    const t: CombatantTemplate = { name: name.trim(), side, stats: parsed, ruleset };
    if (hp) t.hp = Math.max(0, Math.floor(Number(hp)));
    if (group.trim()) t.group = group.trim();
    if (hidden) t.hidden = true;
    if (notes.trim()) t.notes = notes.trim();
    return t;
  };

  const add = async (t: CombatantTemplate, n: number) => {
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
        onSubmit={async (e) => {
          e.preventDefault();
          const t = template();
          if (typeof t === 'string') return notify({ ok: false, error: t }, 'add');
          // A GM note belongs to this combatant: clear it with the name so it is not copied onto the next one.
          setName('');
          setNotes('');
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
        <div className="field">
          <label htmlFor={ids.stats}>Stats (JSON)</label>
          <input id={ids.stats} value={stats} onChange={(e) => setStats(e.currentTarget.value)} />
          {statFields ? <small className="muted">Fields: {statFields}</small> : null}
        </div>
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
            onClick={() => {
              const t = template();
              if (typeof t === 'string') return notify({ ok: false, error: t }, 'save');
              setLib(saveTemplate(t));
              notify({ ok: true }, `saved ${t.name} to the library`);
            }}
          >
            Save to library
          </button>
        </div>
      </form>
      {lib.length ? (
        <div className="library">
          <h3>Library</h3>
          <ul>
            {lib.map((t) => (
              <li key={t.name} className="row">
                <span className={`side-tag ${t.side}`}>{t.side === 'pc' ? 'PC' : 'NPC'}</span>
                <span className="grow">{t.name}</span>
                <button
                  type="button"
                  onClick={() => void add(t, Number(count) || 1)}
                  aria-label={`Add ${t.name} from the library`}
                >
                  Add
                </button>
                <button
                  type="button"
                  onClick={() => setLib(removeTemplate(t.name))}
                  aria-label={`Remove ${t.name} from the library`}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
});

const Share = memo(function Share({
  id,
  token,
  combatants,
}: {
  id: string;
  token: string;
  combatants: EncounterView['combatants'];
}) {
  const [links, setLinks] = useState<{ table: string; players: PlayerLink[] } | null>(null);
  const [error, setError] = useState('');
  const load = async () => {
    try {
      setLinks(await api.links(id, token));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const abs = (u: string) => (u.startsWith('http') ? u : `${location.origin}${u}`);
  return (
    <section className="panel" aria-label="Share and export">
      <h2>Share &amp; export</h2>
      <div className="row">
        <button type="button" onClick={() => void load()}>
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
            <a href={abs(links.table)} target="_blank" rel="noreferrer">
              Table view
            </a>
            <QrCode url={abs(links.table)} label="QR code of the table view link" />
          </li>
          {links.players.map((p) => (
            <li key={p.combatant}>
              <a href={abs(p.url)} data-player={p.combatant} target="_blank" rel="noreferrer">
                Player: {combatants[p.combatant]?.name ?? p.name}
              </a>
              <QrCode
                url={abs(p.url)}
                label={`QR code of ${combatants[p.combatant]?.name ?? p.name}'s link`}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
});
