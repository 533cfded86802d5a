import { type EncounterView, paramsOfSchema } from '@roundkeeper/engine';
import { memo, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { api, type Creature, errorMessage } from '../api.js';
import { fieldErrors, type RawForm, sayError } from '../form.js';
import { expandCombatants, rulesetOf } from '../model.js';
import { ParamFields } from '../ParamForm.js';
import { libraryKey } from '../storage.js';
import { useStore } from '../store/react.js';
import { statsOf } from './CombatantEditor.js';

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
  const [name, setName] = useState('');
  const [side, setSide] = useState<'pc' | 'npc'>('npc');
  const [hp, setHp] = useState('');
  const [count, setCount] = useState('1');
  const [group, setGroup] = useState('');
  const [hidden, setHidden] = useState(false);
  const [notes, setNotes] = useState('');
  const [stats, setStats] = useState<RawForm>({});
  const [statErrors, setStatErrors] = useState<Record<string, string>>({});
  const [lib, setLib] = useState<{ creatures: Creature[]; examples: Creature[] }>({
    creatures: [],
    examples: [],
  });
  const fileId = useId();
  const loadLibrary = useCallback(async () => {
    try {
      setLib(await api.library(ruleset, libraryKey()));
    } catch (e) {
      notify({ ok: false, error: `The library could not be read: ${errorMessage(e)}` }, 'library');
    }
  }, [ruleset, notify]);
  useEffect(() => {
    void loadLibrary();
  }, [loadLibrary]);
  const ids = {
    name: useId(),
    side: useId(),
    hp: useId(),
    count: useId(),
    group: useId(),
    hidden: useId(),
    notes: useId(),
  };
  const statParams = useMemo(() => (rs ? paramsOfSchema(rs.statsSchema) : []), [rs]);

  const template = (): Creature | string => {
    if (!name.trim()) return 'Give the combatant a name.';
    const checked = statsOf(rs, statParams, stats, {}, 0);
    if ('errors' in checked) {
      setStatErrors(fieldErrors(checked.errors));
      return sayError(checked.errors[0]!);
    }
    setStatErrors({});
    const t: Creature = { name: name.trim(), side, stats: checked.stats };
    if (hp) t.hp = Math.max(0, Math.floor(Number(hp)));
    if (group.trim()) t.group = group.trim();
    if (hidden) t.hidden = true;
    if (notes.trim()) t.notes = notes.trim();
    return t;
  };

  const add = async (t: Creature, n: number) => {
    const commands = expandCombatants(t, n, roster);
    for (const cmd of commands) {
      const r = await send(cmd);
      if (!r.ok) {
        notify(r, `add ${t.name}`);
        return;
      }
    }
    notify({ ok: true }, `added ${commands.length} × ${t.name}`);
  };

  return (
    <section className="panel" aria-label="Add combatants">
      <h2>Add combatants</h2>
      <form
        className="add-form"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const t = template();
          if (typeof t === 'string') return notify({ ok: false, error: t }, 'add');
          // A GM note, a group and hiding belong to this combatant: clear them with the name, so they are not
          // copied onto the next one without the GM seeing it.
          setName('');
          setNotes('');
          setGroup('');
          setHidden(false);
          await add(t, Number(count) || 1);
        }}
      >
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input id={ids.name} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor={ids.side}>Side</label>
            <select
              id={ids.side}
              value={side}
              onChange={(e) => setSide(e.currentTarget.value === 'pc' ? 'pc' : 'npc')}
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
              className="narrow"
              value={hp}
              onChange={(e) => setHp(e.currentTarget.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.count}>How many</label>
            <input
              id={ids.count}
              type="number"
              min={1}
              max={50}
              className="narrow"
              value={count}
              onChange={(e) => setCount(e.currentTarget.value)}
            />
          </div>
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor={ids.group}>NPC group</label>
            <input id={ids.group} value={group} onChange={(e) => setGroup(e.currentTarget.value)} />
          </div>
          <div className="field check">
            <input
              id={ids.hidden}
              type="checkbox"
              checked={hidden}
              onChange={(e) => setHidden(e.currentTarget.checked)}
            />
            <label htmlFor={ids.hidden}>Hidden from players</label>
          </div>
        </div>
        {statParams.length ? (
          <fieldset className="stats">
            <legend>Stats</legend>
            <ParamFields
              params={statParams}
              raw={stats}
              set={(k, v) => {
                setStats((r) => ({ ...r, [k]: v }));
                setStatErrors(({ [k]: _fixed, ...rest }) => rest);
              }}
              edit={setStats}
              errors={statErrors}
              view={view}
              prefix="stats"
            />
          </fieldset>
        ) : null}
        <div className="field">
          <label htmlFor={ids.notes}>GM notes</label>
          <input id={ids.notes} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} />
        </div>
        <div className="row">
          <button type="submit" className="primary">
            Add
          </button>
          <button
            type="button"
            onClick={async () => {
              const t = template();
              if (typeof t === 'string') return notify({ ok: false, error: t }, 'save');
              try {
                await api.saveCreature(ruleset, libraryKey(), t);
                notify({ ok: true }, `saved ${t.name} to the library`);
                await loadLibrary();
              } catch (e) {
                notify({ ok: false, error: errorMessage(e) }, 'save');
              }
            }}
          >
            Save to library
          </button>
          <label htmlFor={fileId} className="button-like">
            Import creatures (JSON)
          </label>
          <input
            id={fileId}
            type="file"
            accept=".json,application/json"
            className="sr-only"
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (!file) return;
              try {
                const data: unknown = JSON.parse(await file.text());
                // A file holds a list of creatures, or an object with one ({"creatures": [...]}, an export).
                const list = Array.isArray(data)
                  ? data
                  : data &&
                      typeof data === 'object' &&
                      Array.isArray((data as { creatures?: unknown }).creatures)
                    ? (data as { creatures: unknown[] }).creatures
                    : null;
                if (!list)
                  throw new Error('the file holds no list of creatures, e.g. [{"name": "Orc", "hp": 15}].');
                const r = await api.importCreatures(ruleset, libraryKey(), list);
                notify(
                  { ok: true },
                  `imported ${r.added} creature${r.added === 1 ? '' : 's'} into the library`,
                );
                await loadLibrary();
              } catch (err) {
                notify(
                  { ok: false, error: `The creatures could not be imported: ${errorMessage(err)}` },
                  'import',
                );
              }
            }}
          />
        </div>
      </form>
      <div className="library">
        {lib.creatures.length ? (
          <>
            <h3>Library</h3>
            <CreatureList
              items={lib.creatures}
              from="the library"
              onAdd={(t) => void add(t, Number(count) || 1)}
              onRemove={async (t) => {
                try {
                  await api.removeCreature(ruleset, libraryKey(), t.name);
                  await loadLibrary();
                } catch (e) {
                  notify({ ok: false, error: errorMessage(e) }, 'remove');
                }
              }}
            />
          </>
        ) : null}
        {lib.examples.length ? (
          <details>
            <summary>Examples ({lib.examples.length})</summary>
            <CreatureList
              items={lib.examples}
              from="the examples"
              onAdd={(t) => void add(t, Number(count) || 1)}
            />
          </details>
        ) : null}
      </div>
    </section>
  );
});

/** Creatures to add with one click: name, side, HP and the ruleset's stats in a line. */
export function CreatureList({
  items,
  from,
  onAdd,
  onRemove,
}: {
  items: Creature[];
  from: string;
  onAdd: (c: Creature) => void;
  onRemove?: (c: Creature) => void;
}) {
  return (
    <ul>
      {items.map((t) => (
        <li key={t.name} className="row">
          <span className={`side-tag ${t.side}`}>{t.side === 'pc' ? 'PC' : 'NPC'}</span>
          <span className="grow">
            <bdi>{t.name}</bdi>
            {t.hp !== undefined ? <span className="muted"> · {t.hp} HP</span> : null}
          </span>
          <button type="button" onClick={() => onAdd(t)} aria-label={`Add ${t.name} from ${from}`}>
            Add
          </button>
          {onRemove ? (
            <button type="button" onClick={() => onRemove(t)} aria-label={`Remove ${t.name} from ${from}`}>
              ×
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
