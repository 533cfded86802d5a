import { humanize, paramsOfSchema } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { useEffect, useId, useMemo, useState } from 'react';
import { api, type EncounterMeta, errorMessage, type Role, type RulesetInfo } from './api.js';
import { forgetLink, rememberLink, storedLinks } from './storage.js';

/** Rulesets as the server describes them, or from the bundled registry when it cannot be reached. */
function localRulesets(): RulesetInfo[] {
  return Object.values(rulesets).map((r) => {
    const defaults = r.optionsSchema.parse({}) as Record<string, unknown>;
    return {
      id: r.id,
      name: r.name,
      summary: r.summary,
      options: paramsOfSchema(r.optionsSchema).map((f) => ({
        name: f.name,
        default: defaults[f.name],
        ...(f.help ? { description: f.help } : {}),
      })),
    };
  });
}

export function go(url: string): void {
  history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function Home() {
  const [list, setList] = useState<{ encounter: EncounterMeta; role: Role; token: string }[]>([]);
  const [error, setError] = useState('');
  const [infos, setInfos] = useState<RulesetInfo[]>(() => localRulesets());

  useEffect(() => {
    api
      .rulesets()
      .then((r) => {
        if (Array.isArray(r) && r.length) setInfos(r);
      })
      .catch(() => {});
    const links = storedLinks();
    if (!links.length) return;
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
        setList(out);
      })
      .catch((e) => setError(errorMessage(e)));
  }, []);

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
            <ul className="encounter-list" data-testid="encounters">
              {list.map((e) => (
                <li key={`${e.encounter.id}-${e.role}`} className="row">
                  <a
                    href={`/e/${encodeURIComponent(e.encounter.id)}?token=${encodeURIComponent(e.token)}`}
                    className="grow"
                  >
                    {e.encounter.name}
                  </a>
                  <span className="muted">
                    {rulesets[e.encounter.ruleset]?.name ?? e.encounter.ruleset} · {e.role}
                  </span>
                  <button
                    type="button"
                    aria-label={`Forget ${e.encounter.name}`}
                    onClick={() => {
                      forgetLink(e.token);
                      setList(list.filter((x) => x.token !== e.token));
                    }}
                  >
                    Forget
                  </button>
                </li>
              ))}
            </ul>
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
  const [ruleset, setRuleset] = useState(infos[0]?.id ?? '');
  const [options, setOptions] = useState<Record<string, unknown>>({});
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
          try {
            open(await api.create({ name: name.trim() || 'Encounter', ruleset, options }));
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
              setOptions({});
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
        {info?.options.length ? (
          <fieldset>
            <legend>Options</legend>
            {info.options.map((o) => (
              <OptionField
                key={`${ruleset}.${o.name}`}
                label={optionLabel(ruleset, o.name)}
                dflt={o.default}
                description={o.description}
                value={options[o.name]}
                set={(v) => {
                  const next = { ...options };
                  if (v === undefined) delete next[o.name];
                  else next[o.name] = v;
                  setOptions(next);
                }}
              />
            ))}
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
                const text = await file.text();
                // A scenario file is JSON or YAML (the examples are YAML); the YAML parser loads only then.
                const scenario: unknown = /\.ya?ml$/i.test(file.name)
                  ? (await import('yaml')).parse(text)
                  : JSON.parse(text);
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

/** An option's label as the ruleset declares it ("Reroll each round"), never its field name. */
function optionLabel(ruleset: string, name: string): string {
  const rs = Object.hasOwn(rulesets, ruleset) ? rulesets[ruleset] : undefined;
  return (rs && paramsOfSchema(rs.optionsSchema).find((p) => p.name === name)?.label) || humanize(name);
}

function OptionField({
  label,
  dflt,
  description,
  value,
  set,
}: {
  label: string;
  dflt: unknown;
  description?: string | undefined;
  value: unknown;
  set: (v: unknown) => void;
}) {
  const id = useId();
  const current = value ?? dflt;
  return (
    <div className="field option">
      {typeof dflt === 'boolean' ? (
        <div className="check">
          <input
            id={id}
            type="checkbox"
            checked={Boolean(current)}
            onChange={(e) => set(e.currentTarget.checked)}
          />
          <label htmlFor={id}>{label}</label>
        </div>
      ) : (
        <>
          <label htmlFor={id}>{label}</label>
          <input
            id={id}
            type={typeof dflt === 'number' ? 'number' : 'text'}
            value={
              current === undefined || current === null
                ? ''
                : typeof current === 'object'
                  ? JSON.stringify(current)
                  : String(current)
            }
            onChange={(e) => {
              const raw = e.currentTarget.value;
              if (raw === '') return set(undefined);
              if (typeof dflt === 'number') return set(Number(raw));
              if (typeof dflt === 'object' && dflt !== null) {
                try {
                  return set(JSON.parse(raw));
                } catch {
                  return;
                }
              }
              set(raw);
            }}
          />
        </>
      )}
      {description ? <small className="muted">{description}</small> : null}
    </div>
  );
}
