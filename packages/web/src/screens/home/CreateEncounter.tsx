import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { fieldErrors, type RawForm, sayError, withoutError } from '../../forms/form.js';
import { optionDefaults, optionParams, optionValues, readOptions } from '../../forms/options.js';
import { api, type EncounterMeta, errorMessage, type RulesetInfo } from '../../store/api.js';
import { useRuleset } from '../../store/rulesets.js';
import { rememberLink } from '../../store/storage.js';
import { go } from './go.js';
import { PickEncounter } from './PickEncounter.js';

/**
 * A picked file (a scenario, JSON or YAML, or another tracker's export, read in a chunk of its own) made a
 * new encounter: the encounter, the file's saved encounters when the GM must pick one, or why not.
 */
async function importScenario(
  file: string,
  text: string,
  pick?: string,
): Promise<{ created: Awaited<ReturnType<typeof api.create>> } | { choices: string[] } | { error: string }> {
  try {
    const { scenarioFromFile } = await import('../../forms/scenario-file.js');
    const read = await scenarioFromFile(file, text, pick);
    if (read.choices && pick === undefined) return { choices: read.choices };
    return { created: await api.create({ scenario: read.scenario }) };
  } catch (err) {
    return { error: `The scenario could not be imported: ${errorMessage(err)}` };
  }
}

/**
 * The options' fields come with the chosen ruleset, after the page: a chunk of their own (bundle.test.ts).
 * Until it arrives the Options box says so, instead of standing empty.
 */
const ParamFields = lazy(() => import('../../forms/ParamForm.js').then((m) => ({ default: m.ParamFields })));

/** The new-encounter form: a name, a ruleset from the server's catalog and its options, or a scenario file. */
export function CreateEncounter({ infos }: { infos: RulesetInfo[] }) {
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
  // A file with several saved encounters, until the GM picks one.
  const [choosing, setChoosing] = useState<{ file: string; text: string; choices: string[] }>();
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

  const importFile = async (file: string, text: string, pick?: string) => {
    setError('');
    const r = await importScenario(file, text, pick);
    if ('choices' in r) return setChoosing({ file, text, choices: r.choices });
    setChoosing(undefined);
    if ('error' in r) return setError(r.error);
    open(r.created);
  };

  return (
    <section className="panel" aria-label="New encounter">
      <h2>New encounter</h2>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (!ruleset) return;
          setError('');
          const read = rs ? readOptions(rs, params, raw) : { options: {} };
          if ('errors' in read) {
            setOptionErrors(fieldErrors(read.errors));
            return setError(sayError(read.errors[0]!));
          }
          const body = { name: name.trim() || 'Encounter', ruleset, options: read.options };
          try {
            open(await api.create(body));
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
            {infos.length ? (
              infos.map((i) => (
                <option key={i.id} value={i.id}>
                  {i.name}
                </option>
              ))
            ) : (
              <option value="">Loading rulesets…</option>
            )}
          </select>
          {info ? <small className="muted">{info.summary}</small> : null}
        </div>
        {params.length ? (
          <fieldset className="options">
            <legend>Options</legend>
            <Suspense fallback={<p className="muted">Loading the options…</p>}>
              <ParamFields
                key={ruleset}
                params={params}
                raw={raw}
                set={(k, v) => {
                  setRaw((r) => ({ ...r, [k]: v }));
                  setOptionErrors((errors) => withoutError(errors, k));
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
          {/* No ruleset to create with until the server's catalog arrives: the button waits for it. */}
          <button type="submit" className="primary" disabled={!infos.length}>
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
              const input = e.currentTarget;
              const file = input.files?.[0];
              if (!file) return;
              // The same file may be picked again (after Cancel).
              input.value = '';
              await importFile(file.name, await file.text());
            }}
          />
        </div>
        {choosing ? (
          <PickEncounter
            key={`${choosing.file}:${choosing.choices.join('\n')}`}
            file={choosing.file}
            choices={choosing.choices}
            pick={(name) => void importFile(choosing.file, choosing.text, name)}
            cancel={() => setChoosing(undefined)}
          />
        ) : null}
      </form>
    </section>
  );
}
