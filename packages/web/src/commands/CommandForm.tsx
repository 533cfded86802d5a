import {
  type Command,
  type CommandForm as CommandFormSpec,
  type EncounterView,
  type Json,
  resolveParams,
} from '@roundkeeper/engine';
import { memo, useId, useMemo, useState } from 'react';
import { initialValues, payloadOf, type RawForm } from '../forms/form.js';
import { ParamFields } from '../forms/ParamForm.js';
import { asState, rulesetOf } from '../model.js';
import { useRun } from '../store/react.js';

/**
 * The ruleset's other commands by form (delay, ready, declare, exert…): labels, fields and choices from
 * their declarations. A command sent for a combatant says whom it acts for.
 */
export function CommandForm({
  view,
  forms,
  actor,
  title = 'Other commands',
  fixed,
  bare = false,
}: {
  view: EncounterView;
  forms: CommandFormSpec[];
  actor?: string;
  /** The form's heading (a ruleset panel's title). */
  title?: string;
  /** Fields already filled, not shown (a panel's command for its combatant). */
  fixed?: Record<string, Json>;
  /** Inside a ruleset's panel, which has the heading: no frame and no heading of its own. */
  bare?: boolean;
}) {
  const run = useRun();
  const [type, setType] = useState(forms[0]?.type ?? '');
  const [raw, setRaw] = useState<RawForm | null>(null);
  const [error, setError] = useState('');
  // The form stays mounted when the actor changes (a new turn): what was chosen and typed for the last one
  // starts over, as a fresh form would, without building the form again.
  const [shownFor, setShownFor] = useState(actor);
  if (shownFor !== actor) {
    setShownFor(actor);
    setType(forms[0]?.type ?? '');
    setRaw(null);
    setError('');
  }
  const typeId = useId();
  const spec = forms.find((f) => f.type === type) ?? forms[0];
  const params = useMemo(() => {
    if (!spec) return [];
    const rs = rulesetOf(view);
    const catalog = rs ? [...rs.catalog(asState(view)), ...view.customActions] : [];
    const shown = spec.params.filter((p) => !fixed || !Object.hasOwn(fixed, p.name));
    return resolveParams(asState(view), actor ?? '', shown, catalog, rs?.present);
  }, [spec, view, actor, fixed]);
  if (!spec) return null;
  const ctx = { round: view.round, ...(actor ? { actor } : {}) };
  const values = raw ?? initialValues(params, ctx);
  const who = actor ? view.combatants[actor]?.name : undefined;
  return (
    <form
      className={bare ? 'command-form bare' : 'panel command-form'}
      aria-label={title}
      onSubmit={async (e) => {
        e.preventDefault();
        const payload = payloadOf(params, values, ctx);
        if (typeof payload === 'string') {
          setError(payload);
          return;
        }
        setError('');
        const cmd: Command = { type: spec.type, ...payload, ...fixed };
        if (actor && spec.forActor) cmd.actor = actor;
        const r = await run(cmd, who && spec.forActor ? `${spec.label} for ${who}` : spec.label);
        if (r.ok) setRaw(null);
      }}
    >
      <h2 className={bare ? 'sr-only' : undefined}>{title}</h2>
      <div className={forms.length > 1 ? 'row' : 'sr-only'}>
        <label htmlFor={typeId}>Command</label>
        <select
          id={typeId}
          value={spec.type}
          data-testid="command-type"
          onChange={(e) => {
            setType(e.currentTarget.value);
            setRaw(null);
            setError('');
          }}
        >
          {forms.map((f) => (
            <option key={f.type} value={f.type}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      {spec.help ? <p className="muted">{spec.help}</p> : null}
      <ParamFields params={params} raw={values} set={(k, v) => setRaw({ ...values, [k]: v })} view={view} />
      {error ? (
        <p className="reason" role="alert">
          {error}
        </p>
      ) : null}
      {/* Whom it acts for is in its name, not its text: the page names the actor once, above the tools. */}
      <button
        type="submit"
        className="primary"
        aria-label={who && spec.forActor ? `${spec.label} for ${who}` : undefined}
      >
        {spec.label}
      </button>
    </form>
  );
}

/** The same form, drawn again only when its props changed (where it follows a change one render later). */
export const Commands = memo(CommandForm);
