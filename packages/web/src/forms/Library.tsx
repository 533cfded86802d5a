import { useId, useState } from 'react';
import { rulesetOf } from '../model.js';
import { api, type Creature, errorMessage } from '../store/api.js';
import { useStore } from '../store/react.js';
import { libraryKey } from '../store/storage.js';
import { creaturesFromFile, searchCreatures } from './library.js';
import type { Lib } from './use-library.js';

/**
 * The creature library when adding: a search (type part of a name; the arrow keys move through what it
 * finds, Enter adds, as many as "How many" says), the library's creatures and the ruleset's examples with
 * one-click adds, and an import — a list of creatures, or another tracker's export the ruleset reads.
 */
export function Library({
  ruleset,
  lib,
  reload,
  onAdd,
}: {
  ruleset: string;
  lib: Lib;
  reload: () => Promise<void>;
  onAdd: (c: Creature) => void;
}) {
  const { tell: notify } = useStore();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const ids = { search: useId(), list: useId(), file: useId() };
  const found = searchCreatures(lib, query);
  const at = Math.min(active, Math.max(0, found.length - 1));
  const optionId = (i: number) => `${ids.list}-${i}`;
  const pick = (i: number) => {
    const f = found[i];
    if (f) onAdd(f.creature);
  };
  return (
    <div className="library">
      <div className="field">
        <label htmlFor={ids.search}>Search the library</label>
        <input
          id={ids.search}
          type="search"
          role="combobox"
          aria-expanded={found.length > 0}
          aria-controls={ids.list}
          aria-autocomplete="list"
          aria-activedescendant={found.length ? optionId(at) : undefined}
          placeholder="gob"
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              const step = e.key === 'ArrowDown' ? 1 : found.length - 1;
              setActive(found.length ? (at + step) % found.length : 0);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              pick(at);
            } else if (e.key === 'Escape') setQuery('');
          }}
        />
      </div>
      <div id={ids.list} role="listbox" aria-label="Creatures found" className="found" hidden={!found.length}>
        {found.map((f, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the search field moves through the options with the arrow keys and adds with Enter.
          <div
            key={`${f.from}:${f.creature.name}`}
            tabIndex={-1}
            id={optionId(i)}
            role="option"
            aria-selected={i === at}
            className={i === at ? 'row active' : 'row'}
            onClick={() => pick(i)}
          >
            <span className="grow">
              <bdi>{f.creature.name}</bdi>
              {f.creature.hp !== undefined ? <span className="muted"> · {f.creature.hp} HP</span> : null}
            </span>
            <span className="muted small">{f.from === 'library' ? 'library' : 'example'}</span>
          </div>
        ))}
      </div>
      {query.trim() && !found.length ? <p className="muted small">No creature is named so.</p> : null}
      {lib.creatures.length ? (
        <>
          <h3>Library</h3>
          <CreatureList
            items={lib.creatures}
            from="the library"
            onAdd={onAdd}
            onRemove={async (t) => {
              try {
                await api.removeCreature(ruleset, libraryKey(), t.name);
                await reload();
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
          <CreatureList items={lib.examples} from="the examples" onAdd={onAdd} />
        </details>
      ) : null}
      <ImportCreatures ruleset={ruleset} reload={reload} />
    </div>
  );
}

/** A file of creatures into the library: a list, `{"creatures": [...]}`, or an export the rules read. */
function ImportCreatures({ ruleset, reload }: { ruleset: string; reload: () => Promise<void> }) {
  const { tell: notify } = useStore();
  const fileId = useId();
  const formats = (rulesetOf({ ruleset })?.importers ?? []).map((i) => i.format);
  return (
    <p className="row">
      <label htmlFor={fileId} className="button-like">
        Import creatures (JSON{formats.length ? `, ${formats.join(', ')}` : ''})
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
          const r = await importFile(file, ruleset);
          notify(r.ok ? { ok: true } : { ok: false, error: r.said }, r.ok ? r.said : 'import');
          if (r.ok) await reload();
        }}
      />
    </p>
  );
}

/** A file read into the library: what the status line says of it. */
async function importFile(file: File, ruleset: string): Promise<{ ok: boolean; said: string }> {
  try {
    const read = creaturesFromFile(JSON.parse(await file.text()), rulesetOf({ ruleset }));
    if (typeof read === 'string') throw new Error(read);
    const r = await api.importCreatures(ruleset, libraryKey(), read.creatures);
    const from = read.format ? ` from ${read.format}` : '';
    const left = read.notMapped.length ? `; not mapped: ${read.notMapped.join('; ')}` : '';
    return {
      ok: true,
      said: `imported ${r.added} creature${r.added === 1 ? '' : 's'}${from} into the library${left}`,
    };
  } catch (err) {
    return { ok: false, said: `The creatures could not be imported: ${errorMessage(err)}` };
  }
}

/** Creatures to add with one click: name, side, HP and the ruleset's stats in a line. */
function CreatureList({
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
