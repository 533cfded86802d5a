import type { EncounterView } from '@roundkeeper/engine';
import { type InputHTMLAttributes, memo, useCallback, useId } from 'react';
import { rulesetOf } from '../model.js';
import type { RawForm } from './form.js';

/**
 * An input that renders again only when what it shows changes: React writes an input's `name` and `type`
 * on every render, so the fields of a form that follows each change (the GM tools) stay untouched while
 * nobody types in them. `onValue` must keep its identity (a state setter, a `useCallback`).
 */
export const StableInput = memo(function StableInput({
  onValue,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & { onValue: (value: string) => void }) {
  return <input {...props} onChange={(e) => onValue(e.currentTarget.value)} />;
});

/**
 * How long a condition lasts: until the start or end of a named combatant's Nth turn, N rounds (where the
 * clock has rounds), N of the ruleset's clock units (when its clock measures them), or until removed; an
 * optional one also "as the rules have it" (nothing sent: the ruleset's default).
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
  const setCount = useCallback((value: string) => set(`${k}.count`, value), [set, k]);
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
          {rs?.clock.roundless ? null : <option value="rounds">for a number of rounds</option>}
          {rs?.clock.after ? <option value="units">for a number of {unit}s</option> : null}
          <option value="indefinite">until removed</option>
        </select>
        {kind === 'indefinite' || kind === '' ? null : (
          <>
            <label htmlFor={countId}>{byTurn ? 'Turn' : kind === 'rounds' ? 'Rounds' : `${unit}s`}</label>
            <StableInput
              id={countId}
              type="number"
              min={1}
              className="narrow"
              value={String(raw[`${k}.count`] ?? '1')}
              onValue={setCount}
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
