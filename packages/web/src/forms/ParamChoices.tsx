import type { ParamOption } from '@roundkeeper/engine';
import { useId } from 'react';
import type { RawForm } from './form.js';

// The inputs of a parameter with a fixed set of values or a bounded number (ParamForm.tsx): a check, a
// choice among labelled options, a number with its bounds.

export function CheckOption({
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

export function ChoiceOption({
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

export function NumberOption({
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
