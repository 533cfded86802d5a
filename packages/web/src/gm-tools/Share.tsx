import type { EncounterView } from '@roundkeeper/engine';
import { memo, Suspense, useState } from 'react';
import { lazy } from '../screens/lazy-parts.js';
import { api, type EncounterLinks, errorMessage, type LinkName } from '../store/api.js';
import { forgetLink } from '../store/storage.js';
import { downloadText } from '../timeline/export.js';
import { OwnConditionsSwitch } from './OwnConditionsSwitch.js';

// The QR code's encoder loads when the GM opens the links, not with the page.
const QrCode = lazy(() => import('./QrCode.js').then((m) => ({ default: m.QrCode })));

export const Share = memo(function Share({
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
                <Suspense fallback={null}>
                  <QrCode url={abs(links.table)} label="QR code of the table view link" />
                </Suspense>
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
                    <Suspense fallback={null}>
                      <QrCode url={abs(p.url)} label={`QR code of ${name}'s link`} />
                    </Suspense>
                  </>
                ) : (
                  <span className="muted">Player: {name} — revoked</span>
                )}
                {controls({ link: 'player', combatant: p.combatant }, `${name}'s link`, p.revoked === true)}
                {p.revoked ? null : (
                  <OwnConditionsSwitch id={id} token={token} player={p} name={name} run={run} />
                )}
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
          (otherwise they read unhurt, hurt, bloodied or down; once you choose under "HP for the table and
          players", that choice holds)
        </p>
      ) : null}
    </section>
  );
});
