import type { EncounterView, LogEntry } from '@roundkeeper/engine';
import { memo, useState } from 'react';
import { npcNumbers } from '../../cards/hp-shown.js';
import { StatusList } from '../../cards/StatusList.js';
import { isolated, upNext } from '../../model.js';
import { ConnectionBadge, Headline } from '../chrome.js';
import { NextRound, TimelineView, TurnNow } from './lazy.js';

/**
 * The table link opened with `&hp=all` (the GM's choice in "Share & export") shows NPCs' HP as numbers,
 * until the GM chooses how the table sees HP ("HP for the table and players").
 */
export function showsNumbers(): boolean {
  return new URLSearchParams(location.search).get('hp') === 'all';
}

export const TableView = memo(function TableView({
  view,
  entries,
  connected,
}: {
  view: EncounterView;
  entries: LogEntry[];
  connected: boolean;
}) {
  const next = upNext(view);
  const [asked] = useState(showsNumbers);
  const numbers = npcNumbers(view, asked);
  return (
    <main className="table-view">
      <header className="topbar">
        <h1>
          <bdi>{view.name}</bdi>
        </h1>
        <ConnectionBadge connected={connected} />
      </header>
      <Headline />
      <TurnNow view={view} entries={entries} />
      {next.length ? (
        <p className="up-next" data-testid="up-next">
          {/* One text, each name isolated as a <bdi> would (`isolated`): a turn that passes changes one
              text instead of taking a name out and putting another in. */}
          {`Next: ${next.map((id) => isolated(view.combatants[id]!.name)).join(', ')}`}
        </p>
      ) : null}
      <NextRound />
      <section className="panel" aria-label="Order">
        <h2>Order</h2>
        <StatusList big numbers={numbers} />
      </section>
      <TimelineView view={view} exportable={false} fill maxRounds={1} numbers={numbers} />
    </main>
  );
});
