import { type EncounterView, type Json, paramsOfSchema } from '@roundkeeper/engine';
import { memo, useMemo, useState } from 'react';
import { payloadOf, type RawForm } from './form.js';
import type { SendResult } from './live.js';
import { rulesetOf } from './model.js';
import { ParamFields } from './ParamForm.js';
import type { Send } from './parts.js';

/** The encounter's options as the form holds them: each as text, a yes/no as a check. */
function rawOf(options: Record<string, unknown>): RawForm {
  const out: RawForm = {};
  for (const [k, v] of Object.entries(options)) {
    if (typeof v === 'boolean') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'string') out[k] = String(v);
    else if (v !== null && v !== undefined) out[k] = JSON.stringify(v);
  }
  return out;
}

/**
 * The ruleset's options during the fight (a round mode, the wind…), labelled as it declares them: the
 * changed ones are sent, and the rules say when a change may not be made now.
 */
export const OptionsForm = memo(function OptionsForm({
  view,
  round,
  send,
  notify,
}: {
  /** May be older than the encounter's latest, as long as its options, ruleset and names are current. */
  view: EncounterView;
  /** The encounter's round now. */
  round: number;
  send: Send;
  notify: (r: SendResult, what: string) => void;
}) {
  const rs = rulesetOf(view);
  const params = useMemo(() => (rs ? paramsOfSchema(rs.optionsSchema) : []), [rs]);
  const [raw, setRaw] = useState<RawForm | null>(null);
  if (!params.length) return null;
  const values = raw ?? rawOf(view.options as Record<string, unknown>);
  return (
    <details className="panel options">
      <summary>Options</summary>
      <form
        aria-label="Options"
        onSubmit={async (e) => {
          e.preventDefault();
          const payload = payloadOf(params, values, { round });
          if (typeof payload === 'string') return notify({ ok: false, error: payload }, 'options');
          const now = view.options as Record<string, Json>;
          // An unticked box is "no", which an optional field of a form leaves out.
          for (const p of params)
            if (p.type === 'boolean' && values[p.name] !== true) payload[p.name] = false;
          const changed = Object.fromEntries(
            Object.entries(payload).filter(([k, v]) => JSON.stringify(now[k]) !== JSON.stringify(v)),
          );
          if (!Object.keys(changed).length)
            return notify({ ok: false, error: 'No option was changed.' }, 'options');
          const r = await send({ type: 'set-options', options: changed });
          notify(r, 'options changed');
          if (r.ok) setRaw(null);
        }}
      >
        <ParamFields params={params} raw={values} set={(k, v) => setRaw({ ...values, [k]: v })} view={view} />
        <button type="submit" className="primary">
          Change options
        </button>
      </form>
    </details>
  );
});
