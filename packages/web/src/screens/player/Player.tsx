import { type EncounterView, type LogEntry, paramsOfSchema } from '@roundkeeper/engine';
import { memo, useCallback, useMemo, useState } from 'react';
import { CombatantCard } from '../../cards/CombatantCard.js';
import { npcNumbers } from '../../cards/hp-shown.js';
import { StatusList } from '../../cards/StatusList.js';
import { PanelView, panelsOf } from '../../commands/PanelView.js';
import { LaterLog } from '../../log/LogView.js';
import { rulesetOf } from '../../model.js';
import { Palette } from '../../palette/Palette.js';
import { useEndTurn } from '../../screen/react.js';
import type { EncounterSnapshot } from '../../store/encounter-store.js';
import { useEncounter, useField, useRun } from '../../store/react.js';
import { ConnectionBadge, Headline, ScreenErrors, Status } from '../chrome.js';
import { formsBesides, LaterForms } from './LaterForms.js';
import { FiredLine, TimelineView, TurnTimer } from './lazy.js';

/**
 * The player's controller: phone-sized, only their own characters, live. What they can do comes first
 * (end the turn, the available actions, the ruleset's panels), then their sheet, everyone's visible
 * status, the timeline and the log.
 */
export const Player = memo(function Player({
  view,
  mine,
  entries,
  connected,
}: {
  view: EncounterView;
  mine: string[];
  entries: LogEntry[];
  connected: boolean;
}) {
  const rs = rulesetOf(view);
  const own = mine.filter((id) => view.combatants[id]);
  const [picked, setPicked] = useState<string | null>(null);
  const actor =
    picked && own.includes(picked) ? picked : (own.find((id) => id === view.current) ?? own[0] ?? null);
  const run = useRun();
  // What the GM allows this link beyond its actions: its own conditions (read when the page loads).
  const allowed = useField('allowed');
  const c = actor ? view.combatants[actor] : undefined;
  const panels = actor ? panelsOf(view, actor) : [];
  // The forms not already in a panel: the same list while the panels' commands are (a memoized part takes it).
  const forms = rs ? formsBesides(rs, panels.map((p) => p.command ?? '').join('\n')) : [];
  // Next, as the rules word it for a player's own turn ("End my turn" unless they mean something else),
  // while the turn is theirs and the rules let them end it (the screen model's).
  const { end: endTurn, errors } = useEndTurn(view);
  return (
    <main className="player">
      <header className="topbar">
        <h1>
          <bdi>{view.name}</bdi>
        </h1>
        <ConnectionBadge connected={connected} />
      </header>
      <Headline />
      <FiredLine />
      <TurnTimer view={view} entries={entries} mine={own} />
      <ScreenErrors errors={errors} />
      <Status />
      {own.length > 1 ? (
        <fieldset className="row">
          <legend>Your characters</legend>
          {own.map((id) => (
            <button key={id} type="button" aria-pressed={id === actor} onClick={() => setPicked(id)}>
              <bdi>{view.combatants[id]!.name}</bdi>
            </button>
          ))}
        </fieldset>
      ) : null}
      {actor && c ? (
        <>
          {endTurn && view.current === actor ? (
            <button
              type="button"
              className="primary wide-button"
              title={endTurn.help}
              onClick={async () => run({ type: 'next' }, `${endTurn.label} for ${c.name}`)}
            >
              {endTurn.label}
            </button>
          ) : null}
          {panels.map((p) => (
            <PanelView key={p.title} view={view} panel={p} actor={actor} />
          ))}
          <Palette view={view} actor={actor} compact named />
          <ul className="cards">
            <CombatantCard id={actor} gm={false} own selected current={actor === view.current} />
          </ul>
          <Sheet id={actor} />
          {/* Below the fold of a phone: own conditions and the other commands follow one render later. */}
          <LaterForms view={view} actor={actor} forms={forms} allowed={allowed} />
        </>
      ) : (
        <p className="muted">No character of yours is in this encounter.</p>
      )}
      <section className="panel" aria-label="Everyone">
        <h2>Everyone</h2>
        <StatusList numbers={npcNumbers(view, false)} />
      </section>
      <TimelineView view={view} highlight={actor} exportable={false} maxRounds={1} />
      {/* The log follows a change in a second, interruptible render of its own, as on the GM's page: what
          the player can do and whose turn it is are committed (and laid out) first. */}
      <LaterLog view={view} entries={entries} limit={15} newestFirst />
    </main>
  );
});

/**
 * The character's sheet: every stat with the ruleset's label. Drawn again only when the character changed
 * (an unchanged one keeps its identity from one change to the next, see `share`).
 */
export const Sheet = memo(function Sheet({ id }: { id: string }) {
  // Read from the store: the character (the same object while it did not change) and the ruleset's id.
  const c = useEncounter(useCallback((st: EncounterSnapshot) => st.view?.combatants[id], [id]));
  const ruleset = useEncounter(rulesetIdOf);
  const rs = ruleset === undefined ? undefined : rulesetOf({ ruleset });
  const params = useMemo(() => (rs ? paramsOfSchema(rs.statsSchema) : []), [rs]);
  if (!c) return null;
  const stats = (c.stats ?? {}) as Record<string, unknown>;
  const rows = params
    .filter((p) => stats[p.name] !== undefined)
    .map((p) => ({ label: p.label, value: show(stats[p.name]) }));
  if (!rows.length) return null;
  return (
    <details className="panel sheet">
      <summary>
        Sheet of <bdi>{c.name}</bdi>
      </summary>
      <dl className="resources">
        {rows.map((r) => (
          <div key={r.label} className="res">
            <dt>{r.label}</dt>
            <dd>
              <bdi>{r.value}</bdi>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
});

const rulesetIdOf = (st: EncounterSnapshot) => st.view?.ruleset;

/** A stat as a person reads it: numbers and words as they are, lists by their names. */
export function show(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number' || typeof v === 'string') return String(v);
  if (Array.isArray(v))
    return v
      .map((x) =>
        typeof x === 'object' && x && 'name' in x ? String((x as { name: unknown }).name) : show(x),
      )
      .join(', ');
  if (v && typeof v === 'object')
    return Object.entries(v)
      .map(([k, x]) => `${k} ${show(x)}`)
      .join(', ');
  return '';
}
