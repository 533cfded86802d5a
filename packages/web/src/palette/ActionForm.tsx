import type { EncounterView, Json, LegalAction } from '@roundkeeper/engine';
import { useLayoutEffect, useRef, useState } from 'react';
import { payloadOf, type RawForm } from '../forms/form.js';
import { ParamFields } from '../forms/ParamForm.js';
import type { OpenForm } from './Palette.js';

/** The form of an action that needs more than a click: its parameters, Enter sends, Escape closes. */
export function ActionForm({
  view,
  open,
  setRaw,
  close,
  send,
}: {
  view: EncounterView;
  open: OpenForm;
  setRaw: (raw: RawForm) => void;
  close: () => void;
  send: (l: LegalAction, params: Record<string, Json>) => Promise<boolean>;
}) {
  const [error, setError] = useState('');
  const ref = useRef<HTMLFormElement | null>(null);
  useLayoutEffect(() => {
    ref.current?.querySelector<HTMLElement>('input, select')?.focus();
  }, []);
  const who = view.combatants[open.actor]?.name ?? open.actor;
  return (
    <form
      ref={ref}
      className="action-form"
      aria-label={`${open.la.action.name} for ${who}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          close();
        }
      }}
      onSubmit={async (e) => {
        e.preventDefault();
        const payload = payloadOf(open.la.params ?? [], open.raw, { round: view.round, actor: open.actor });
        if (typeof payload === 'string') {
          setError(payload);
          return;
        }
        if (await send(open.la, payload)) close();
      }}
    >
      <h3>
        {open.la.action.name} · <bdi>{who}</bdi>
      </h3>
      <ParamFields
        params={open.la.params ?? []}
        raw={open.raw}
        set={(k, v) => setRaw({ ...open.raw, [k]: v })}
        view={view}
      />
      {error ? (
        <p className="reason" role="alert">
          {error}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="primary">
          {open.la.action.name}
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
