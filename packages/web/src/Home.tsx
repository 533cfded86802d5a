import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import { api, type EncounterMeta, errorMessage, type Role, type RulesetInfo } from './api.js';
import { fieldErrors, type RawForm, sayError } from './form.js';
import { optionDefaults, optionParams, optionValues, readOptions } from './forms/options.js';
import { headline, rulesetOf } from './model.js';
import { forgetLink, rememberLink, storedLinks } from './storage.js';
import { loadRuleset, useRuleset } from './store/rulesets.js';

/** The options' fields come with the chosen ruleset, after the page: a chunk of their own (bundle.test.ts). */
const ParamFields = lazy(() => import('./ParamForm.js').then((m) => ({ default: m.ParamFields })));

/** Where a listed fight stands. */
interface Fight {
  status: string;
  round: number;
  /** Where a fight on a clock without rounds stands, in its clock's words ("Tick 7"). */
  clock?: string;
}

type Listed = { encounter: EncounterMeta; role: Role; token: string };

function when(iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function fightWords(f: Fight | undefined): string {
  if (!f) return '';
  if (f.status === 'setup') return 'not started';
  if (f.clock) return f.status === 'ended' ? f.clock.replace(/^Ended/, 'ended') : f.clock;
  if (f.status === 'ended') return `ended in round ${f.round}`;
  return `round ${f.round}`;
}

/** Opens a new encounter made from a scenario, remembered as the GM's. */
async function createFrom(scenario: unknown): Promise<{ id: string; token: string; name: string }> {
  const created = await api.create({ scenario });
  rememberLink({
    id: created.encounter.id,
    token: created.tokens.gm,
    name: created.encounter.name,
    role: 'gm',
  });
  return { id: created.encounter.id, token: created.tokens.gm, name: created.encounter.name };
}

/** The encounter as its scenario file, to copy it (whole, or up to before the fight). */
async function scenarioOf(e: Listed): Promise<Record<string, unknown>> {
  return JSON.parse(await api.exportScenario(e.encounter.id, e.token, 'json')) as Record<string, unknown>;
}

/**
 * The encounters this browser holds links for, newest change first: name, ruleset, role, where the fight
 * stands, when it was created and last changed. A GM can duplicate one, reset it (a copy from before the
 * fight: the roster and actions, no commands from the start on), archive it or restore it.
 */
function EncounterList({
  items,
  infos,
  fights,
  setError,
  reload,
  testId,
}: {
  items: Listed[];
  infos: RulesetInfo[];
  fights: Record<string, Fight>;
  setError: (s: string) => void;
  reload: () => void;
  testId: string;
}) {
  const act = async (f: () => Promise<void>) => {
    setError('');
    try {
      await f();
      reload();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <ul className="encounter-list" data-testid={testId}>
      {items.map((e) => {
        const name = e.encounter.name;
        const gm = e.role === 'gm';
        const archived = e.encounter.status === 'archived';
        return (
          <li key={`${e.encounter.id}-${e.role}`} className="encounter-item" data-encounter={e.encounter.id}>
            <div className="row">
              <a
                href={`/e/${encodeURIComponent(e.encounter.id)}?token=${encodeURIComponent(e.token)}`}
                className="grow"
              >
                <bdi>{name}</bdi>
              </a>
              <span className="muted">
                {infos.find((i) => i.id === e.encounter.ruleset)?.name ?? e.encounter.ruleset} ·{' '}
                {e.role === 'gm' ? 'GM' : e.role}
              </span>
            </div>
            <div className="row muted small">
              <span data-testid="fight">{fightWords(fights[e.token])}</span>
              <span>created {when(e.encounter.createdAt)}</span>
              <span>changed {when(e.encounter.updatedAt)}</span>
            </div>
            <div className="row">
              {gm ? (
                <>
                  <button
                    type="button"
                    aria-label={`Duplicate ${name}`}
                    onClick={() =>
                      void act(async () => {
                        const s = await scenarioOf(e);
                        await createFrom({ ...s, name: `${name} (copy)`.slice(0, 80) });
                      })
                    }
                  >
                    Duplicate
                  </button>
                  <button
                    type="button"
                    aria-label={`Reset ${name} to before the fight`}
                    title="A new copy from before the fight (new links for the players); this one is archived"
                    onClick={() =>
                      void act(async () => {
                        const s = await scenarioOf(e);
                        const steps = Array.isArray(s.commands)
                          ? (s.commands as { type?: unknown; command?: { type?: unknown } }[])
                          : [];
                        // A step holds its command under `command` (schema 2) or is the command (schema 1).
                        const start = steps.findIndex((c) => (c.command?.type ?? c.type) === 'start');
                        await createFrom({ ...s, commands: start < 0 ? steps : steps.slice(0, start) });
                        await api.patch(e.encounter.id, e.token, { status: 'archived' });
                      })
                    }
                  >
                    Reset
                  </button>
                  <button
                    type="button"
                    aria-label={`${archived ? 'Restore' : 'Archive'} ${name}`}
                    onClick={() =>
                      void act(() =>
                        api
                          .patch(e.encounter.id, e.token, { status: archived ? 'active' : 'archived' })
                          .then(() => undefined),
                      )
                    }
                  >
                    {archived ? 'Restore' : 'Archive'}
                  </button>
                </>
              ) : null}
              <button
                type="button"
                aria-label={`Forget ${name}`}
                onClick={() => {
                  forgetLink(e.token);
                  reload();
                }}
              >
                Forget
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function go(url: string): void {
  history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}

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
      })
      .catch(() => {});
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
              await loadRuleset(r.state.ruleset);
              return r;
            })
            .then((r) =>
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

function CreateEncounter({ infos }: { infos: RulesetInfo[] }) {
  const [name, setName] = useState('');
  // The catalog's first ruleset until another is chosen; its chunk loads for its options' form.
  const [chosen, setRuleset] = useState('');
  const ruleset = chosen || (infos[0]?.id ?? '');
  const rs = useRuleset(ruleset);
  const params = useMemo(() => optionParams(rs), [rs]);
  // The options start at the ruleset's defaults (once it is loaded), and again when another is chosen.
  const [edited, setEdited] = useState<{ id: string; raw: RawForm }>();
  const raw: RawForm =
    edited?.id === ruleset ? edited.raw : rs ? optionValues(params, optionDefaults(rs)) : {};
  const setRaw = (change: (raw: RawForm) => RawForm) =>
    setEdited((prev) => ({ id: ruleset, raw: change(prev?.id === ruleset ? prev.raw : raw) }));
  const [optionErrors, setOptionErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const ids = { name: useId(), ruleset: useId(), file: useId() };
  const info = useMemo(() => infos.find((i) => i.id === ruleset) ?? infos[0], [infos, ruleset]);

  const open = (created: { encounter: EncounterMeta; tokens: { gm: string } }) => {
    rememberLink({
      id: created.encounter.id,
      token: created.tokens.gm,
      name: created.encounter.name,
      role: 'gm',
    });
    go(`/e/${encodeURIComponent(created.encounter.id)}?token=${encodeURIComponent(created.tokens.gm)}`);
  };

  return (
    <section className="panel" aria-label="New encounter">
      <h2>New encounter</h2>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setError('');
          const read = rs ? readOptions(rs, params, raw) : { options: {} };
          if ('errors' in read) {
            setOptionErrors(fieldErrors(read.errors));
            return setError(sayError(read.errors[0]!));
          }
          try {
            open(await api.create({ name: name.trim() || 'Encounter', ruleset, options: read.options }));
          } catch (err) {
            setError(errorMessage(err));
          }
        }}
      >
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            value={name}
            placeholder="Ambush at the ford"
            onChange={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.ruleset}>Ruleset</label>
          <select
            id={ids.ruleset}
            value={ruleset}
            onChange={(e) => {
              setRuleset(e.currentTarget.value);
              setOptionErrors({});
            }}
          >
            {infos.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
          </select>
          {info ? <small className="muted">{info.summary}</small> : null}
        </div>
        {params.length ? (
          <fieldset className="options">
            <legend>Options</legend>
            <Suspense fallback={null}>
              <ParamFields
                key={ruleset}
                params={params}
                raw={raw}
                set={(k, v) => {
                  setRaw((r) => ({ ...r, [k]: v }));
                  setOptionErrors(({ [k]: _fixed, ...rest }) => rest);
                }}
                edit={setRaw}
                errors={optionErrors}
              />
            </Suspense>
          </fieldset>
        ) : null}
        {error ? (
          <p role="alert" className="refused-text">
            {error}
          </p>
        ) : null}
        <div className="row">
          <button type="submit" className="primary">
            Create encounter
          </button>
          <label htmlFor={ids.file} className="button-like">
            Import scenario (JSON or YAML)
          </label>
          <input
            id={ids.file}
            type="file"
            accept=".json,.yaml,.yml,application/json,application/yaml"
            className="sr-only"
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              if (!file) return;
              try {
                // A scenario file (JSON or YAML) or another tracker's export, read in a chunk of its own.
                const { scenarioFromFile } = await import('./forms/scenario-file.js');
                const { scenario } = await scenarioFromFile(file.name, await file.text());
                open(await api.create({ scenario }));
              } catch (err) {
                setError(`The scenario could not be imported: ${errorMessage(err)}`);
              }
            }}
          />
        </div>
      </form>
    </section>
  );
}
