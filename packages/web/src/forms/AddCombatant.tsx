import type { EncounterView } from '@roundkeeper/engine';
import { memo, Suspense, useId, useMemo, useState } from 'react';
import { expandCombatants, rulesetOf } from '../model.js';
import { lazy } from '../screens/lazy-parts.js';
import type { Creature } from '../store/api.js';
import { useStore } from '../store/react.js';
import {
  type AddDraft,
  afterAdd,
  countOf,
  freshDraft,
  MOST_AT_ONCE,
  readDraft,
  statParamsOf,
} from './add.js';
import { type FieldError, fieldErrors, sayError } from './form.js';
import { ParamFields } from './ParamForm.js';
import { useLibrary } from './use-library.js';

// The library's search and import load after the page: the GM's first screen is the order.
const Library = lazy(() => import('./Library.js').then((m) => ({ default: m.Library })));

/**
 * Adding combatants: name, side, HP, how many (several become "Goblin 1…N" in one NPC group), hidden, notes
 * and the ruleset's stats; the library and the ruleset's examples. After an add the form is back at the
 * ruleset's defaults (unless the GM keeps side, HP and stats for the next); a refused add keeps all that was
 * typed, with what is wrong said beside its field.
 */
export const AddCombatant = memo(function AddCombatant({
  view,
  ruleset,
  roster,
}: {
  view: EncounterView;
  ruleset: string;
  roster: string[];
}) {
  const { send, tell: notify } = useStore();
  const rs = rulesetOf({ ruleset });
  const statParams = useMemo(() => statParamsOf(rs), [rs]);
  const [draft, setDraft] = useState<AddDraft>(() => freshDraft(statParams));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { lib, reload: loadLibrary, save } = useLibrary(ruleset);
  const ids = {
    name: useId(),
    side: useId(),
    hp: useId(),
    count: useId(),
    group: useId(),
    hidden: useId(),
    notes: useId(),
    keep: useId(),
    error: useId(),
  };
  const change = <K extends keyof AddDraft>(k: K, v: AddDraft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setErrors(({ [k]: _fixed, ...rest }) => rest);
  };
  /** What is wrong, beside its field and in the status line; the form keeps every value typed. */
  const refuse = (list: readonly FieldError[], what: string) => {
    setErrors(fieldErrors(list));
    notify({ ok: false, error: sayError(list[0]!) }, what);
  };
  /** The field's error under it, tied to the input. */
  const problem = (k: string) =>
    errors[k] ? (
      <small className="field-error" id={`${ids.error}-${k}`}>
        {errors[k]}
      </small>
    ) : null;
  const invalid = (k: string) =>
    errors[k] ? ({ 'aria-invalid': true, 'aria-describedby': `${ids.error}-${k}` } as const) : {};

  /** Adds `n` of a creature; whether every one of them was added. */
  const add = async (t: Creature, n: number): Promise<boolean> => {
    const commands = expandCombatants(t, n, roster);
    for (const cmd of commands) {
      const r = await send(cmd);
      if (!r.ok) {
        notify(r, `add ${t.name}`);
        return false;
      }
    }
    notify({ ok: true }, `added ${commands.length} × ${t.name}`);
    return true;
  };
  const addFromList = (t: Creature) => {
    const n = countOf(draft.count);
    if (typeof n === 'string') return refuse([{ key: 'count', message: n, where: '' }], 'add');
    void add(t, n);
  };

  return (
    <section className="panel" aria-label="Add combatants">
      <h2>Add combatants</h2>
      <form
        className="add-form"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const read = readDraft(draft, rs, statParams);
          if ('errors' in read) return refuse(read.errors, 'add');
          setErrors({});
          // Only an add that went through empties the form: a refused one keeps what was typed.
          if (await add(read.creature, read.count))
            setDraft((d) => (d === draft ? afterAdd(d, statParams) : d));
        }}
      >
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            value={draft.name}
            onChange={(e) => change('name', e.currentTarget.value)}
            {...invalid('name')}
          />
          {problem('name')}
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor={ids.side}>Side</label>
            <select
              id={ids.side}
              value={draft.side}
              onChange={(e) => change('side', e.currentTarget.value === 'pc' ? 'pc' : 'npc')}
            >
              <option value="npc">NPC</option>
              <option value="pc">PC</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.hp}>HP</label>
            <input
              id={ids.hp}
              type="number"
              min={0}
              step={1}
              className="narrow"
              value={draft.hp}
              onChange={(e) => change('hp', e.currentTarget.value)}
              {...invalid('hp')}
            />
            {problem('hp')}
          </div>
          <div className="field">
            <label htmlFor={ids.count}>How many</label>
            <input
              id={ids.count}
              type="number"
              min={1}
              max={MOST_AT_ONCE}
              step={1}
              className="narrow"
              value={draft.count}
              onChange={(e) => change('count', e.currentTarget.value)}
              {...invalid('count')}
            />
            {problem('count')}
          </div>
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor={ids.group}>NPC group</label>
            <input
              id={ids.group}
              value={draft.group}
              onChange={(e) => change('group', e.currentTarget.value)}
              {...invalid('group')}
            />
            {problem('group')}
          </div>
          <div className="field check">
            <input
              id={ids.hidden}
              type="checkbox"
              checked={draft.hidden}
              onChange={(e) => change('hidden', e.currentTarget.checked)}
            />
            <label htmlFor={ids.hidden}>Hidden from players</label>
          </div>
        </div>
        {statParams.length ? (
          <fieldset className="stats">
            <legend>Stats</legend>
            <ParamFields
              params={statParams}
              raw={draft.stats}
              set={(k, v) => {
                setDraft((d) => ({ ...d, stats: { ...d.stats, [k]: v } }));
                setErrors(({ [k]: _fixed, ...rest }) => rest);
              }}
              edit={(f) => setDraft((d) => ({ ...d, stats: f(d.stats) }))}
              errors={errors}
              view={view}
              prefix="stats"
            />
          </fieldset>
        ) : null}
        <div className="field">
          <label htmlFor={ids.notes}>GM notes</label>
          <input
            id={ids.notes}
            value={draft.notes}
            onChange={(e) => change('notes', e.currentTarget.value)}
            {...invalid('notes')}
          />
          {problem('notes')}
        </div>
        <div className="field check">
          <input
            id={ids.keep}
            type="checkbox"
            checked={draft.keep}
            onChange={(e) => change('keep', e.currentTarget.checked)}
          />
          <label htmlFor={ids.keep}>Keep values</label>
          <small className="muted">
            Side, HP, how many and stats stay for the next add; name, group, hiding and notes never do.
          </small>
        </div>
        <div className="row">
          <button type="submit" className="primary">
            Add
          </button>
          <button
            type="button"
            onClick={async () => {
              const read = readDraft({ ...draft, count: '1' }, rs, statParams);
              if ('errors' in read) return refuse(read.errors, 'save');
              await save(read.creature);
            }}
          >
            Save to library
          </button>
        </div>
      </form>
      <Suspense fallback={null}>
        <Library ruleset={ruleset} lib={lib} reload={loadLibrary} onAdd={addFromList} />
      </Suspense>
    </section>
  );
});
