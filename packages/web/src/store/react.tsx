import type { Command, EncounterView, LogEntry } from '@roundkeeper/engine';
import {
  createContext,
  type ReactNode,
  use,
  useCallback,
  useEffect,
  useState,
  useSyncExternalStore,
} from 'react';
import { flushSync } from 'react-dom';
import { api, type Role } from './api.js';
import { type EncounterSnapshot, EncounterStore, type SendResult } from './encounter-store.js';

const StoreContext = createContext<EncounterStore | null>(null);

/** The page's store, made once per encounter page and started while the page is shown. */
export function useNewStore(
  id: string,
  token: string,
  prepare?: (role: Role) => Promise<unknown>,
): EncounterStore {
  const [store] = useState(
    () =>
      new EncounterStore(id, token, {
        socket: (url) => new WebSocket(url),
        api,
        commit: flushSync,
        timers: { set: (f, ms) => setTimeout(f, ms), clear: (h) => clearTimeout(h as number) },
        location,
        ...(prepare ? { prepare } : {}),
      }),
  );
  useEffect(() => {
    void store.start();
    return () => store.stop();
  }, [store]);
  return store;
}

export function StoreProvider({ store, children }: { store: EncounterStore; children: ReactNode }) {
  return <StoreContext value={store}>{children}</StoreContext>;
}

export function useStore(): EncounterStore {
  const store = use(StoreContext);
  if (!store) throw new Error('An encounter part is shown outside its page (no store).');
  return store;
}

/**
 * A part of the page's state, read with a selector. The selector returns what the store holds (a
 * combatant, the entries…), never a new object: a part that did not change is the same object, and the
 * component reading it is not drawn again. The selector must keep its identity from one render to the
 * next (a module's function, `useField`, or one made with `useCallback`): React asks a snapshot function
 * it has not seen before again after the commit, so a selector made anew on each render is run a third
 * time per change, in an effect of its own.
 */
export function useEncounter<T>(select: (s: EncounterSnapshot) => T): T {
  const store = useStore();
  const read = useCallback(() => select(store.getSnapshot()), [store, select]);
  return useSyncExternalStore(store.subscribe, read);
}

/** One selector per field of the snapshot, made once: `useField('view')` reads it with a stable selector. */
const fields = new Map<keyof EncounterSnapshot, (s: EncounterSnapshot) => unknown>();
export function fieldOf<K extends keyof EncounterSnapshot>(
  key: K,
): (s: EncounterSnapshot) => EncounterSnapshot[K] {
  let select = fields.get(key);
  if (!select) {
    select = (s) => s[key];
    fields.set(key, select);
  }
  return select as (s: EncounterSnapshot) => EncounterSnapshot[K];
}

/** A field of the page's state (the view, the entries, the notice…), drawn again only when it changed. */
export function useField<K extends keyof EncounterSnapshot>(key: K): EncounterSnapshot[K] {
  return useEncounter(fieldOf(key));
}

/** The one way a part of the page acts: `run(command, label)` sends it and says what it came to. */
export function useRun(): (command: Command, label: string) => Promise<SendResult> {
  return useStore().run;
}

/** Says what something came to in the status line without sending anything (a form refused before sending). */
export function useTell(): (r: SendResult, what: string) => void {
  return useStore().tell;
}

/**
 * For a handler: the fight as the store holds it now. A stable function, so a handler that reads through
 * it keeps its identity from one change to the next (and the parts it is given to are not drawn again),
 * with no ref written while rendering.
 */
export function useLatest(): () => { v: EncounterView; e: LogEntry[] } {
  const { getSnapshot } = useStore();
  return useCallback(() => {
    const { view, entries } = getSnapshot();
    if (!view) throw new Error('A part of the encounter acts before the encounter has loaded.');
    return { v: view, e: entries };
  }, [getSnapshot]);
}

/** The props of a part that reads everything it shows from the store: none (its memo then always skips it). */
export type NoProps = Record<string, never>;
