import {
  type Combatant,
  type Command,
  type EncounterView,
  type Json,
  type Param,
  paramsOfSchema,
} from '@roundkeeper/engine';
import { useId, useMemo, useState } from 'react';
import {
  type FieldError,
  fieldErrors,
  issueErrors,
  type RawForm,
  readForm,
  type SchemaIssue,
  sayError,
  valuesOf,
  withoutError,
} from '../forms/form.js';
import { ParamFields } from '../forms/ParamForm.js';
import { rulesetOf } from '../model.js';
import { useStore } from '../store/react.js';

/**
 * Rename, side, group, hidden, max HP, notes and the ruleset's stats (their labels, bounds and defaults
 * from the stats schema) of one combatant, sent as one change.
 */
export function CombatantEditor({ view, c }: { view: EncounterView; c: Combatant }) {
  const { run, send, tell: notify } = useStore();
  const rs = rulesetOf(view);
  const statParams = useMemo(() => (rs ? paramsOfSchema(rs.statsSchema) : []), [rs]);
  const start = (): RawForm => ({
    name: c.name,
    group: c.group ?? '',
    notes: c.notes ?? '',
    max: c.hp ? String(c.hp.max) : '',
    ...valuesOf(statParams, c.stats as Record<string, unknown>, 'stats'),
  });
  const [raw, setRaw] = useState<RawForm>(start);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { name: useId(), group: useId(), notes: useId(), max: useId() };
  const set = (k: string, v: string | boolean) => {
    setRaw((r) => ({ ...r, [k]: v }));
    setErrors((errors) => withoutError(errors, k));
  };
  return (
    <form
      className="combatant-editor"
      aria-label={`Edit ${c.name}`}
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const checked = statsOf(rs, statParams, raw, c.stats as Record<string, Json>, view.round);
        if ('errors' in checked) {
          setErrors(fieldErrors(checked.errors));
          return notify({ ok: false, error: sayError(checked.errors[0]!) }, 'edit');
        }
        setErrors({});
        const name = String(raw.name ?? '').trim();
        if (!name) return notify({ ok: false, error: 'A combatant needs a name.' }, 'edit');
        const update: Command = {
          type: 'update-combatant',
          combatant: c.id,
          name,
          group: String(raw.group ?? '').trim() || null,
          notes: String(raw.notes ?? ''),
          stats: checked.stats,
        };
        let r = await send(update);
        const max = String(raw.max ?? '').trim();
        if (r.ok && max && (!c.hp || Number(max) !== c.hp.max)) {
          r = await send({ type: 'set-hp', combatant: c.id, max: Math.max(0, Math.floor(Number(max))) });
        }
        notify(r, `${name} changed`);
      }}
    >
      <div className="row">
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            value={String(raw.name ?? '')}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.max}>Max HP</label>
          <input
            id={ids.max}
            type="number"
            min={0}
            className="narrow"
            value={String(raw.max ?? '')}
            onChange={(e) => set('max', e.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.group}>NPC group</label>
          <input
            id={ids.group}
            value={String(raw.group ?? '')}
            onChange={(e) => set('group', e.currentTarget.value)}
          />
        </div>
      </div>
      {statParams.length ? (
        <fieldset className="stats">
          <legend>Stats</legend>
          <ParamFields
            params={statParams}
            raw={raw}
            set={set}
            edit={setRaw}
            errors={errors}
            view={view}
            prefix="stats"
          />
        </fieldset>
      ) : null}
      <div className="field">
        <label htmlFor={ids.notes}>GM notes</label>
        <textarea
          id={ids.notes}
          rows={2}
          value={String(raw.notes ?? '')}
          onChange={(e) => set('notes', e.currentTarget.value)}
        />
      </div>
      <div className="row">
        <button type="submit" className="primary">
          Save changes
        </button>
        <button
          type="button"
          onClick={async () =>
            run(
              { type: 'update-combatant', combatant: c.id, hidden: !c.hidden },
              c.hidden ? `${c.name} revealed to the players` : `${c.name} hidden from the players`,
            )
          }
        >
          {c.hidden ? 'Reveal to players' : 'Hide from players'}
        </button>
      </div>
    </form>
  );
}

/**
 * The stats a form makes, over the sheet they change (`base`), checked against the ruleset's stats schema:
 * or what is wrong, field by field (a weapon's missing speed on that weapon's row).
 */
export function statsOf(
  rs: ReturnType<typeof rulesetOf>,
  params: readonly Param[],
  raw: RawForm,
  base: Record<string, Json>,
  round: number,
): { stats: Record<string, Json> } | { errors: FieldError[] } {
  const read = readForm(params, raw, { round }, 'stats');
  if (read.errors.length) return { errors: read.errors };
  const stats = { ...base, ...read.value };
  const parsed = rs?.statsSchema.safeParse(stats);
  if (parsed && !parsed.success) {
    const errors = issueErrors(params, raw, 'stats', parsed.error.issues as readonly SchemaIssue[]);
    if (errors.length) return { errors };
  }
  return { stats };
}
