import type { EncounterView, Param, ParamOption } from '@roundkeeper/engine';
import { useId } from 'react';
import type { RawForm } from './form.js';
import { rulesetOf } from './model.js';

/**
 * Form fields for the engine's `Param` descriptions: an action's parameters, a command's fields, a
 * combatant's stats. Labels, bounds, defaults and choices all come from the ruleset's declarations.
 */
export function ParamFields({
  params,
  raw,
  set,
  view,
  prefix = '',
}: {
  params: readonly Param[];
  raw: RawForm;
  set: (key: string, value: string | boolean) => void;
  view: EncounterView;
  prefix?: string;
}) {
  return (
    <>
      {params.map((p) => (
        <ParamField key={`${prefix}.${p.name}`} p={p} raw={raw} set={set} view={view} prefix={prefix} />
      ))}
    </>
  );
}

function ParamField({
  p,
  raw,
  set,
  view,
  prefix,
}: {
  p: Param;
  raw: RawForm;
  set: (key: string, value: string | boolean) => void;
  view: EncounterView;
  prefix: string;
}) {
  const id = useId();
  const k = prefix ? `${prefix}.${p.name}` : p.name;
  const value = raw[k];
  const label = (
    <label htmlFor={id}>
      {p.label}
      {p.unit ? ` (${p.unit})` : ''}
      {p.required ? <span aria-hidden="true"> *</span> : null}
    </label>
  );
  const help = p.help ? <small className="muted">{p.help}</small> : null;
  switch (p.type) {
    case 'boolean':
      return (
        <div className="field check">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(e) => set(k, e.currentTarget.checked)}
          />
          {label}
          {help}
        </div>
      );
    case 'group':
      return (
        <fieldset className="field group">
          <legend>{p.label}</legend>
          <ParamFields params={p.fields ?? []} raw={raw} set={set} view={view} prefix={k} />
          {help}
        </fieldset>
      );
    case 'duration':
      return <DurationField label={p.label} k={k} raw={raw} set={set} view={view} optional={!p.required} />;
    case 'combatants':
      return (
        <fieldset className="field group">
          <legend>{p.label}</legend>
          {(p.options ?? []).map((o) => (
            <CheckOption
              key={String(o.value)}
              label={o.label}
              k={`${k}.${String(o.value)}`}
              raw={raw}
              set={set}
            />
          ))}
          {help}
        </fieldset>
      );
    case 'per-combatant':
      return (
        <fieldset className="field group">
          <legend>{p.label}</legend>
          {(p.options ?? []).map((o) =>
            // A value picked from a list (a delay rounded up or down) is a list per combatant, not a number.
            p.of?.type === 'choice' ? (
              <ChoiceOption
                key={String(o.value)}
                label={o.label}
                k={`${k}.${String(o.value)}`}
                raw={raw}
                set={set}
                options={p.of.options ?? []}
              />
            ) : (
              <NumberOption
                key={String(o.value)}
                label={o.label}
                k={`${k}.${String(o.value)}`}
                raw={raw}
                set={set}
                min={p.of?.min}
                max={p.of?.max}
              />
            ),
          )}
          {help}
        </fieldset>
      );
    case 'choice':
    case 'combatant':
      return (
        <div className="field">
          {label}
          <select id={id} value={String(value ?? '')} onChange={(e) => set(k, e.currentTarget.value)}>
            <option value="">{p.required ? 'Choose…' : '—'}</option>
            {(p.options ?? []).map((o) => (
              <option key={String(o.value)} value={String(o.value)}>
                {o.label}
              </option>
            ))}
          </select>
          {help}
        </div>
      );
    default:
      return (
        <div className="field">
          {label}
          <input
            id={id}
            type={p.type === 'integer' || p.type === 'number' ? 'number' : 'text'}
            min={p.min}
            max={p.max}
            step={p.type === 'integer' ? 1 : undefined}
            className={p.type === 'integer' || p.type === 'number' ? 'narrow' : undefined}
            placeholder={p.type === 'dice' ? 'e.g. 1d20+5' : undefined}
            value={String(value ?? '')}
            onChange={(e) => set(k, e.currentTarget.value)}
          />
          {help}
        </div>
      );
  }
}

function CheckOption({
  label,
  k,
  raw,
  set,
}: {
  label: string;
  k: string;
  raw: RawForm;
  set: (key: string, value: string | boolean) => void;
}) {
  const id = useId();
  return (
    <div className="field check">
      <input
        id={id}
        type="checkbox"
        checked={raw[k] === true}
        onChange={(e) => set(k, e.currentTarget.checked)}
      />
      <label htmlFor={id}>
        <bdi>{label}</bdi>
      </label>
    </div>
  );
}

function ChoiceOption({
  label,
  k,
  raw,
  set,
  options,
}: {
  label: string;
  k: string;
  raw: RawForm;
  set: (key: string, value: string | boolean) => void;
  options: readonly ParamOption[];
}) {
  const id = useId();
  return (
    <div className="field inline">
      <label htmlFor={id}>
        <bdi>{label}</bdi>
      </label>
      <select id={id} value={String(raw[k] ?? '')} onChange={(e) => set(k, e.currentTarget.value)}>
        <option value="">—</option>
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function NumberOption({
  label,
  k,
  raw,
  set,
  min,
  max,
}: {
  label: string;
  k: string;
  raw: RawForm;
  set: (key: string, value: string | boolean) => void;
  min?: number;
  max?: number;
}) {
  const id = useId();
  return (
    <div className="field inline">
      <label htmlFor={id}>
        <bdi>{label}</bdi>
      </label>
      <input
        id={id}
        type="number"
        className="narrow"
        min={min}
        max={max}
        value={String(raw[k] ?? '')}
        onChange={(e) => set(k, e.currentTarget.value)}
      />
    </div>
  );
}

/**
 * How long a condition lasts: until the start or end of a named combatant's Nth turn, N rounds, N of the
 * ruleset's clock units (when its clock measures them), or until removed; an optional one also "as the
 * rules have it" (nothing sent: the ruleset's default).
 */
export function DurationField({
  label,
  k,
  raw,
  set,
  view,
  optional = false,
}: {
  label: string;
  k: string;
  raw: RawForm;
  set: (key: string, value: string | boolean) => void;
  view: EncounterView;
  optional?: boolean;
}) {
  const kindId = useId();
  const countId = useId();
  const whoId = useId();
  const rs = rulesetOf(view);
  const kind = String(raw[`${k}.kind`] ?? (optional ? '' : 'turn-start'));
  const unit = rs?.clock.unit ?? 'unit';
  const byTurn = kind === 'turn-start' || kind === 'turn-end';
  return (
    <fieldset className="field duration">
      <legend>{label}</legend>
      <div className="row">
        <label htmlFor={kindId} className="sr-only">
          Lasts
        </label>
        <select id={kindId} value={kind} onChange={(e) => set(`${k}.kind`, e.currentTarget.value)}>
          {optional ? <option value="">as the rules have it</option> : null}
          <option value="turn-start">until the start of a turn</option>
          <option value="turn-end">until the end of a turn</option>
          <option value="rounds">for a number of rounds</option>
          {rs?.clock.after ? <option value="units">for a number of {unit}s</option> : null}
          <option value="indefinite">until removed</option>
        </select>
        {kind === 'indefinite' || kind === '' ? null : (
          <>
            <label htmlFor={countId}>{byTurn ? 'Turn' : kind === 'rounds' ? 'Rounds' : `${unit}s`}</label>
            <input
              id={countId}
              type="number"
              min={1}
              className="narrow"
              value={String(raw[`${k}.count`] ?? '1')}
              onChange={(e) => set(`${k}.count`, e.currentTarget.value)}
            />
          </>
        )}
        {byTurn ? (
          <>
            <label htmlFor={whoId}>of</label>
            <select
              id={whoId}
              value={String(raw[`${k}.combatant`] ?? '')}
              onChange={(e) => set(`${k}.combatant`, e.currentTarget.value)}
            >
              <option value="">Choose…</option>
              {view.roster
                .filter((id) => view.combatants[id])
                .map((id) => (
                  <option key={id} value={id}>
                    {view.combatants[id]!.name}
                  </option>
                ))}
            </select>
          </>
        ) : null}
      </div>
      {byTurn ? (
        <small className="muted">Turn 1 is their next turn; 2 the one after.</small>
      ) : kind === 'rounds' ? (
        <small className="muted">This round counts as the first.</small>
      ) : null}
    </fieldset>
  );
}
