import { useEffect, useState } from 'react';
import { api, type EncounterMeta, errorMessage, type Role, type RulesetInfo } from '../../store/api.js';
import { loadRuleset } from '../../store/rulesets.js';
import { storedLinks } from '../../store/storage.js';
import { CreateEncounter } from './CreateEncounter.js';
import { EncounterList, type Fight } from './EncounterList.js';

/** The screen model, for the clock of each listed fight: after the page, with the fights' states. */
const loadModel = () => import('../../model.js');

/** The home page: this browser's encounters, and a new one. */
export function Home() {
  const [list, setList] = useState<{ encounter: EncounterMeta; role: Role; token: string }[]>([]);
  const [error, setError] = useState('');
  const [infos, setInfos] = useState<RulesetInfo[]>([]);

  const [fights, setFights] = useState<Record<string, Fight>>({});
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` changes when the list must be read again (after a duplicate, an archive, a forget).
  useEffect(() => {
    api
      .rulesets()
      .then((r) => {
        if (Array.isArray(r) && r.length) setInfos(r);
        else setError('The server lists no rulesets, so no encounter can be made here.');
      })
      // Without the catalog no encounter can be created: say so rather than leave the form waiting.
      .catch((e) =>
        setError(`The rulesets could not be loaded (${errorMessage(e)}). Reload the page to try again.`),
      );
    const links = storedLinks();
    if (!links.length) {
      setList([]);
      return;
    }
    api
      .lookup(links.map((l) => l.token))
      .then((r) => {
        const out: { encounter: EncounterMeta; role: Role; token: string }[] = [];
        for (const e of r.encounters) {
          const link =
            links.find((l) => l.id === e.encounter.id && (!l.role || l.role === e.role)) ??
            links.find((l) => l.id === e.encounter.id);
          if (link) out.push({ ...e, token: link.token });
        }
        out.sort((x, y) =>
          String(y.encounter.updatedAt ?? '').localeCompare(String(x.encounter.updatedAt ?? '')),
        );
        setList(out);
        // Where each fight stands (its round and status) comes from its state; the first 30 are enough.
        for (const e of out.slice(0, 30)) {
          api
            .get(e.encounter.id, e.token)
            .then(async (r) => {
              // The clock's words come with the ruleset and the screen model, after the page.
              const [, { headline, rulesetOf }] = await Promise.all([
                loadRuleset(r.state.ruleset),
                loadModel(),
              ]);
              return { r, headline, rulesetOf };
            })
            .then(({ r, headline, rulesetOf }) =>
              setFights((f) => ({
                ...f,
                [e.token]: {
                  status: String(r.state.status),
                  round: r.state.round,
                  // A clock without rounds, read in its own words.
                  ...(rulesetOf(r.state)?.clock.roundless ? { clock: headline(r.state).clock } : {}),
                },
              })),
            )
            .catch(() => {});
        }
      })
      .catch((e) => setError(errorMessage(e)));
  }, [version]);

  return (
    <main className="home">
      <header className="topbar">
        <h1>Roundkeeper</h1>
        <span className="muted">keeps the clock of tabletop combat</span>
      </header>
      {error ? <p role="alert">{error}</p> : null}
      <div className="home-grid">
        <section className="panel" aria-label="Your encounters">
          <h2>Your encounters</h2>
          {list.length ? (
            <>
              <EncounterList
                items={list.filter((e) => e.encounter.status !== 'archived')}
                infos={infos}
                fights={fights}
                setError={setError}
                reload={reload}
                testId="encounters"
              />
              {list.some((e) => e.encounter.status === 'archived') ? (
                <details className="archived">
                  <summary>Archived ({list.filter((e) => e.encounter.status === 'archived').length})</summary>
                  <EncounterList
                    items={list.filter((e) => e.encounter.status === 'archived')}
                    infos={infos}
                    fights={fights}
                    setError={setError}
                    reload={reload}
                    testId="archived-encounters"
                  />
                </details>
              ) : null}
            </>
          ) : (
            <p className="muted">
              No encounters yet on this browser. Create one, or open a link you were given.
            </p>
          )}
        </section>
        <CreateEncounter infos={infos} />
      </div>
    </main>
  );
}
