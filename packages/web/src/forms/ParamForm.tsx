import type { EncounterView, Param } from '@roundkeeper/engine';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { DurationField } from './DurationField.js';
import { addRow, keyLabel, nameKey, type RawForm, removeRow, rowIds, rowParam, rowsKey } from './form.js';
import { CheckOption, ChoiceOption, NumberOption } from './ParamChoices.js';

/** What a form's fields share: the values, how to change them, and what is wrong with which. */
interface FieldsProps {
  raw: RawForm;
  set: (key: string, value: string | boolean) => void;
  /**
   * Changes several values at once (a list's row added or removed). Without it a list or a map shows its
   * rows but cannot add or remove one.
   */
  edit?: (change: (raw: RawForm) => RawForm) => void;
  /** The encounter the form is for (a duration names its combatants); none before one exists (new options). */
  view?: EncounterView;
  /** Sentences by the input they are about (`FieldError.key`), shown beside it. */
  errors?: Readonly<Record<string, string>>;
  /** Inside a row of a list: a field's help is its label's tooltip, not a line repeated on every row. */
  inRow?: boolean;
}

/**
 * Form fields for the engine's `Param` descriptions: an action's parameters, a command's fields, a
 * combatant's stats. Labels, bounds, defaults and choices all come from the ruleset's declarations.
 */
export function ParamFields({
  params,
  prefix = '',
  ...shared
}: FieldsProps & {
  params: readonly Param[];
  prefix?: string;
}) {
  return (
    <>
      {params.map((p) => (
        <ParamField key={`${prefix}.${p.name}`} p={p} prefix={prefix} {...shared} />
      ))}
    </>
  );
}

/** A field's error under it, tied to the input by `aria-describedby`. */
function FieldError({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <small className="field-error" id={id}>
      {text}
    </small>
  );
}

function ParamField({ p, prefix, ...shared }: FieldsProps & { p: Param; prefix: string }) {
  const { raw, set, view, errors } = shared;
  const id = useId();
  const errorId = useId();
  const k = prefix ? `${prefix}.${p.name}` : p.name;
  const value = raw[k];
  const error = errors?.[k];
  const invalid = error
    ? ({ 'aria-invalid': true, 'aria-describedby': errorId } as const)
    : ({} as Record<string, never>);
  const label = (
    <label htmlFor={id} title={shared.inRow ? p.help : undefined}>
      {p.label}
      {p.unit ? ` (${p.unit})` : ''}
      {p.required ? <span aria-hidden="true"> *</span> : null}
    </label>
  );
  const problem = <FieldError id={errorId} text={error} />;
  const help = p.help && !shared.inRow ? <small className="muted">{p.help}</small> : null;
  switch (p.type) {
    case 'boolean':
      return (
        <div className="field check">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(e) => set(k, e.currentTarget.checked)}
            {...invalid}
          />
          {label}
          {help}
          {problem}
        </div>
      );
    case 'group':
      return (
        <fieldset className="field group">
          <legend>{p.label}</legend>
          <ParamFields params={p.fields ?? []} prefix={k} {...shared} />
          {help}
        </fieldset>
      );
    case 'list':
    case 'map':
      return <RowsField p={p} k={k} {...shared} />;
    case 'duration':
      return view ? (
        <DurationField label={p.label} k={k} raw={raw} set={set} view={view} optional={!p.required} />
      ) : null;
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
          <select
            id={id}
            value={String(value ?? '')}
            onChange={(e) => set(k, e.currentTarget.value)}
            {...invalid}
          >
            <option value="">{p.required ? 'Choose…' : '—'}</option>
            {(p.options ?? []).map((o) => (
              <option key={String(o.value)} value={String(o.value)}>
                {o.label}
              </option>
            ))}
            {/* A value from before the list knew it (a skill of an older sheet) stays, as it is written. */}
            {value && !(p.options ?? []).some((o) => String(o.value) === String(value)) ? (
              <option value={String(value)}>{String(value)}</option>
            ) : null}
          </select>
          {help}
          {problem}
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
            {...invalid}
          />
          {help}
          {problem}
        </div>
      );
  }
}

/**
 * A list (a sheet's weapons) or a map (skills by name) as rows: a field per property of an entry (a map's
 * name first), with its label, bounds and default; a button to add a row and one to remove each. Keyboard:
 * a new row's first field takes the focus; after a removal the focus goes to the next row, or to Add.
 */
function RowsField({ p, k, ...shared }: FieldsProps & { p: Param; k: string }) {
  const { raw, edit, errors } = shared;
  const box = useRef<HTMLFieldSetElement | null>(null);
  const [focus, setFocus] = useState<string | null>(null);
  const ids = rowIds(raw, k);
  const helpId = useId();
  const errorId = useId();
  const full = p.max !== undefined && ids.length >= p.max;
  useLayoutEffect(() => {
    if (focus === null || !box.current) return;
    const row = box.current.querySelector(`[data-row="${CSS.escape(focus)}"]`);
    const target = row
      ? row.querySelector<HTMLElement>('input, select, textarea')
      : box.current.querySelector<HTMLElement>('button.add-row');
    target?.focus();
    setFocus(null);
  }, [focus]);
  // A name picked from a list is offered to one row only: the others have it already.
  const taken = (id: string) =>
    new Set(ids.filter((x) => x !== id).map((x) => String(raw[nameKey(k, x)] ?? '').trim()));
  const name = (id: string, i: number) => {
    const named = p.type === 'map' ? String(raw[nameKey(k, id)] ?? '').trim() : '';
    return named ? `${p.label} “${keyLabel(p, named)}”` : `${p.label} ${i + 1}`;
  };
  return (
    <fieldset className="field rows" ref={box} aria-describedby={p.help ? helpId : undefined}>
      <legend>{p.label}</legend>
      {p.help ? (
        <small className="muted" id={helpId}>
          {p.help}
        </small>
      ) : null}
      {ids.length ? (
        <ol className="row-list">
          {ids.map((id, i) => {
            const item = rowParam(p, id);
            return (
              <li key={id} data-row={id}>
                <fieldset className="row-entry">
                  <legend className="sr-only">{name(id, i)}</legend>
                  {p.type === 'map' && p.key ? (
                    <ParamField p={keyField(p.key, id, taken(id))} prefix={k} {...shared} inRow />
                  ) : null}
                  {item.type === 'group' ? (
                    <ParamFields params={item.fields ?? []} prefix={`${k}.${id}`} {...shared} inRow />
                  ) : (
                    <ParamField p={item} prefix={k} {...shared} inRow />
                  )}
                  {edit ? (
                    <button
                      type="button"
                      className="remove-row"
                      aria-label={`Remove ${name(id, i)}`}
                      onClick={() => {
                        edit((r) => removeRow(r, k, id));
                        setFocus(ids[i + 1] ?? '');
                      }}
                    >
                      Remove
                    </button>
                  ) : null}
                </fieldset>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted small">None yet.</p>
      )}
      {edit ? (
        <div className="row">
          <button
            type="button"
            className="add-row"
            disabled={full}
            aria-describedby={errors?.[rowsKey(k)] ? errorId : undefined}
            onClick={() => {
              setFocus(addRow(raw, k, p).id);
              edit((r) => addRow(r, k, p).raw);
            }}
          >
            Add to {p.label}
          </button>
          {full ? <small className="muted">At most {p.max}.</small> : null}
        </div>
      ) : null}
      <FieldError id={errorId} text={errors?.[rowsKey(k)]} />
    </fieldset>
  );
}

/** A map row's name field: its own key, and the names of the list not taken by another row. */
function keyField(key: Param, id: string, taken: ReadonlySet<string>): Param {
  const field = { ...key, name: `${id}:name` };
  if (key.options) field.options = key.options.filter((o) => !taken.has(String(o.value)));
  return field;
}
