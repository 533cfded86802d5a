import { useEffect } from 'react';
import { rememberLink } from '../storage.js';
import { StoreProvider, useEncounter, useNewStore } from '../store/react.js';
import { GmTracker } from './gm/GmTracker.js';
import { Player } from './player/Player.js';
import { Reconnecting } from './Reconnecting.js';
import { TableView } from './table/TableView.js';

/** Picks the screen for the link's role: GM tracker, table view or player controller. */
export function EncounterPage({ id, token }: { id: string; token: string }) {
  const store = useNewStore(id, token);
  return (
    <StoreProvider store={store}>
      <Reconnecting />
      <EncounterScreen id={id} token={token} />
    </StoreProvider>
  );
}

export function EncounterScreen({ id, token }: { id: string; token: string }) {
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
