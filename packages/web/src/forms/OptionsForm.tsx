import type { EncounterView } from '@roundkeeper/engine';
import { memo, useMemo, useState } from 'react';
import { rulesetOf } from '../model.js';
import type { Send } from '../screens/chrome.js';
import type { SendResult } from '../store/encounter-store.js';
import { fieldErrors, type RawForm, sayError, withoutError } from './form.js';
import { changedOptions, optionParams, optionValues, readOptions } from './options.js';
import { ParamFields } from './ParamForm.js';

/**
 * The ruleset's options during the fight (a round mode, the wind…), labelled as it declares them: fixed
 * choices by their labels, maps and lists as tables, yes/no as a check. The changed ones are sent, and the
 * rules say when a change may not be made now.
 */
export const OptionsForm = memo(function OptionsForm({
  view,
  send,
  notify,
}: {
  /** May be older than the encounter's latest, as long as its options, ruleset and names are current. */
  view: EncounterView;
  /** The encounter's round now (options take no duration: kept for the callers). */
  round?: number;
  send: Send;
  notify: (r: SendResult, what: string) => void;
}) {
  const rs = rulesetOf(view);
  const params = useMemo(() => optionParams(rs), [rs]);
  const [raw, setRaw] = useState<RawForm | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const now = view.options as Record<string, unknown>;
  const current = useMemo(() => optionValues(params, now), [params, now]);
  if (!rs || !params.length) return null;
  const values = raw ?? current;
  return (
    <details className="panel options">
      <summary>Options</summary>
      <form
        aria-label="Options"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const read = readOptions(rs, params, values);
          if ('errors' in read) {
            setErrors(fieldErrors(read.errors));
            return notify({ ok: false, error: sayError(read.errors[0]!) }, 'options');
          }
          setErrors({});
          const changed = changedOptions(read.options, now);
          if (!Object.keys(changed).length)
            return notify({ ok: false, error: 'No option was changed.' }, 'options');
          const r = await send({ type: 'set-options', options: changed });
          notify(r, 'options changed');
          if (r.ok) setRaw(null);
        }}
      >
        <ParamFields
          params={params}
          raw={values}
          set={(k, v) => {
            setRaw({ ...values, [k]: v });
            setErrors((errors) => withoutError(errors, k));
          }}
          edit={(change) => setRaw(change(values))}
          errors={errors}
          view={view}
        />
        <button type="submit" className="primary">
          Change options
        </button>
      </form>
    </details>
  );
});
