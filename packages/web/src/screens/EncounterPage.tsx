import { lazy, Suspense, useDeferredValue, useEffect } from 'react';
import type { Role } from '../store/api.js';
import { loadJsonSchemaCode } from '../store/json-schema.js';
import { StoreProvider, useField, useNewStore } from '../store/react.js';
import { rememberLink } from '../store/storage.js';
import { Reconnecting } from './Reconnecting.js';

// Each role's screen is its own chunk: a table or a player never loads the GM's tools and forms. The
// store asks for it with the encounter's ruleset, as soon as the encounter says whose link this is. The
// GM's and a player's come with zod's JSON-Schema code (their actions and forms are read with it); the
// table view has no form and does without.
const screens = {
  gm: () => Promise.all([import('./gm/GmTracker.js'), loadJsonSchemaCode()]).then(([m]) => m),
  table: () => import('./table/TableView.js'),
  player: () => Promise.all([import('./player/Player.js'), loadJsonSchemaCode()]).then(([m]) => m),
};
const prepare = (role: Role) => screens[role]();
const GmTracker = lazy(() => screens.gm().then((m) => ({ default: m.GmTracker })));
const Player = lazy(() => screens.player().then((m) => ({ default: m.Player })));
const TableView = lazy(() => screens.table().then((m) => ({ default: m.TableView })));

/** Picks the screen for the link's role: GM tracker, table view or player controller. */
export function EncounterPage({ id, token }: { id: string; token: string }) {
  const store = useNewStore(id, token, prepare);
  return (
    <StoreProvider store={store}>
      <Reconnecting />
      <EncounterScreen id={id} token={token} />
    </StoreProvider>
  );
}

export function EncounterScreen({ id, token }: { id: string; token: string }) {
  const status = useField('status');
  const error = useField('error');
  const meta = useField('meta');
  const role = useField('role');
  const view = useField('view');
  const mine = useField('mine');
  const entries = useField('entries');
  const connected = useField('connected');
  // The last change the page has drawn whole: deferred as the log and the timeline's reading are, so it
  // is committed with them (tests wait for it rather than for a while).
  const drawn = useDeferredValue(useField('seq'));
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
  return (
    <div className="encounter-page" data-seq={drawn}>
      <Suspense fallback={<p className="center">Loading the encounter…</p>}>
        {role === 'player' ? (
          <Player view={view} mine={mine} entries={entries} connected={connected} />
        ) : role === 'table' ? (
          <TableView view={view} entries={entries} connected={connected} />
        ) : (
          <GmTracker id={id} token={token} view={view} entries={entries} connected={connected} />
        )}
      </Suspense>
    </div>
  );
}
