import { useCallback, useEffect, useState } from 'react';
import { api, type Creature, errorMessage } from '../store/api.js';
import { useStore } from '../store/react.js';
import { libraryKey } from '../store/storage.js';

export type Lib = { creatures: Creature[]; examples: Creature[] };

/**
 * This browser's creature library for the ruleset, and the ruleset's examples; `reload` reads them again,
 * `save` keeps a creature there.
 */
export function useLibrary(ruleset: string) {
  const { tell: notify } = useStore();
  const [lib, setLib] = useState<Lib>({ creatures: [], examples: [] });
  const reload = useCallback(async () => {
    try {
      setLib(await api.library(ruleset, libraryKey()));
    } catch (e) {
      notify({ ok: false, error: `The library could not be read: ${errorMessage(e)}` }, 'library');
    }
  }, [ruleset, notify]);
  useEffect(() => {
    void reload();
  }, [reload]);
  /** Saves a creature to the library, then reads the library again. */
  const save = async (t: Creature) => {
    try {
      await api.saveCreature(ruleset, libraryKey(), t);
      notify({ ok: true }, `saved ${t.name} to the library`);
      await reload();
    } catch (e) {
      notify({ ok: false, error: errorMessage(e) }, 'save');
    }
  };
  return { lib, reload, save };
}
