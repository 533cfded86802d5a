import type { AnyRuleset, RulesetRegistry } from '@roundkeeper/engine';
import { rulesetLoaders } from '@roundkeeper/rulesets/lazy';
import { useEffect, useSyncExternalStore } from 'react';
import { jsonSchemaReady, loadJsonSchemaCode } from './json-schema.js';

/**
 * The rulesets the page has loaded. Each ruleset is its own chunk of the build, imported by id when the
 * page learns which one it needs (an encounter's, a ruleset chosen in the new-encounter form): the entry
 * chunk holds none of them. `rulesetById` reads what is loaded; `loadRuleset` loads one.
 */
const loaded = new Map<string, AnyRuleset>();
const loading = new Map<string, Promise<AnyRuleset | undefined>>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

/** The ids of every ruleset the page can load. */
export const rulesetIds: readonly string[] = Object.keys(rulesetLoaders);

/** A loaded ruleset by id (undefined: not loaded yet, or no such ruleset). */
export function rulesetById(id: string): AnyRuleset | undefined {
  return loaded.get(id);
}

/** Loads a ruleset's chunk (once); undefined for an id the page does not know. */
export function loadRuleset(id: string): Promise<AnyRuleset | undefined> {
  const have = loaded.get(id);
  if (have) return Promise.resolve(have);
  const pending = loading.get(id);
  if (pending) return pending;
  const load = Object.hasOwn(rulesetLoaders, id) ? rulesetLoaders[id] : undefined;
  if (!load) return Promise.resolve(undefined);
  const promise = load().then(
    (ruleset) => {
      loaded.set(id, ruleset);
      loading.delete(id);
      changed();
      return ruleset;
    },
    (error: unknown) => {
      // A chunk that failed to load (the network dropped) is asked for again next time.
      loading.delete(id);
      throw error;
    },
  );
  loading.set(id, promise);
  return promise;
}

/** Rulesets already at hand (the whole registry, where a process has it: tests, a server-side render). */
export function provideRulesets(registry: RulesetRegistry): void {
  for (const [id, ruleset] of Object.entries(registry)) loaded.set(id, ruleset);
  changed();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A ruleset by id for a form (the home page's options): loads it and zod's JSON-Schema code the form is
 * read with, and draws the component again once both are there.
 */
export function useRuleset(id: string): AnyRuleset | undefined {
  // The snapshot is the ruleset itself (the same object once loaded), so a render reads nothing else.
  const ruleset = useSyncExternalStore(subscribe, () => (jsonSchemaReady() ? loaded.get(id) : undefined));
  useEffect(() => {
    if (!loaded.has(id)) loadRuleset(id).catch(() => undefined);
    if (!jsonSchemaReady()) loadJsonSchemaCode().then(changed, () => undefined);
  }, [id]);
  return ruleset;
}
