import type { AnyRuleset } from '@roundkeeper/engine';
import type { Creature } from '../store/api.js';

/** A creature found by a search of the library, and where it is kept. */
export interface Found {
  creature: Creature;
  from: 'library' | 'examples';
}

/**
 * The library's creatures, then the ruleset's examples, whose name holds what was typed (any case, any
 * accents); names that start with it first. Nothing typed: nothing found (the lists show everything).
 */
export function searchCreatures(
  lib: { creatures: readonly Creature[]; examples: readonly Creature[] },
  query: string,
): Found[] {
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
  const q = fold(query);
  if (!q) return [];
  const all: Found[] = [
    ...lib.creatures.map((creature) => ({ creature, from: 'library' as const })),
    ...lib.examples.map((creature) => ({ creature, from: 'examples' as const })),
  ];
  const hits = all.filter((f) => fold(f.creature.name).includes(q));
  const starts = hits.filter((f) => fold(f.creature.name).startsWith(q));
  return [...starts, ...hits.filter((f) => !starts.includes(f))];
}

/** The creatures a file holds, as the library takes them, and what of it did not map. */
export interface FileCreatures {
  creatures: unknown[];
  /** The other tracker the file came from ("Improved Initiative"), when it did. */
  format?: string;
  notMapped: string[];
}

/**
 * The creatures of a file: another tracker's export the ruleset reads (`importers`, their `creatures`:
 * classic reads Improved Initiative's creatures and characters), else a list of
 * creatures or an object holding one (`{"creatures": [...]}`, a library export). A string says why not.
 */
export function creaturesFromFile(data: unknown, rs: AnyRuleset | undefined): FileCreatures | string {
  for (const importer of rs?.importers ?? []) {
    let read: { creatures: unknown[]; notMapped: string[] } | undefined;
    try {
      read = importer.creatures?.(data);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
    if (read) return { creatures: read.creatures, format: importer.format, notMapped: read.notMapped };
  }
  if (Array.isArray(data)) return { creatures: data, notMapped: [] };
  if (data && typeof data === 'object' && Array.isArray((data as { creatures?: unknown }).creatures))
    return { creatures: (data as { creatures: unknown[] }).creatures, notMapped: [] };
  return 'the file holds no list of creatures, e.g. [{"name": "Orc", "hp": 15}], nor an export another tracker made that these rules read.';
}
