import type { ActionDef } from '@roundkeeper/engine';

/**
 * Catalogs and a policy's candidate actions, made once instead of once per question. A state's list of
 * custom actions is never changed in place (a change makes a new list), and a candidate filter (the
 * `only` of `legalActions`) is a pure predicate: the same function gives the same answer for an action.
 */
const CATALOGS = new WeakMap<readonly ActionDef[], WeakMap<readonly ActionDef[], readonly ActionDef[]>>();

/** `[...base, ...custom]`, the same list each time for the same two lists (read only). */
export function catalogWith(base: readonly ActionDef[], custom: readonly ActionDef[]): readonly ActionDef[] {
  let byCustom = CATALOGS.get(base);
  if (byCustom === undefined) {
    byCustom = new WeakMap();
    CATALOGS.set(base, byCustom);
  }
  let catalog = byCustom.get(custom);
  if (catalog === undefined) {
    catalog = [...base, ...custom];
    byCustom.set(custom, catalog);
  }
  return catalog;
}

const FILTERED = new WeakMap<
  readonly ActionDef[],
  WeakMap<(a: ActionDef) => boolean, readonly ActionDef[]>
>();

/** `catalog.filter(only)`, remembered per catalog and filter (read only). */
export function candidates(
  catalog: readonly ActionDef[],
  only: (action: ActionDef) => boolean,
): readonly ActionDef[] {
  let byFilter = FILTERED.get(catalog);
  if (byFilter === undefined) {
    byFilter = new WeakMap();
    FILTERED.set(catalog, byFilter);
  }
  let list = byFilter.get(only);
  if (list === undefined) {
    list = catalog.filter(only);
    byFilter.set(only, list);
  }
  return list;
}
