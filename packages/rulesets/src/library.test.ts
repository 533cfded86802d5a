import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';

/**
 * The library a GM brings (issue 33): about a dozen ready creatures per ruleset, each a sheet its
 * ruleset's stats schema accepts as written — nothing it would drop (a misspelt stat), nothing it refuses.
 */
describe('ready creatures', () => {
  for (const [id, ruleset] of Object.entries(rulesets)) {
    const creatures = ruleset.present?.creatures ?? [];
    it(`${id}: a dozen or so, named once each, with HP`, () => {
      expect(creatures.length).toBeGreaterThanOrEqual(12);
      const names = creatures.map((c) => c.name);
      expect(new Set(names).size).toBe(names.length);
      for (const c of creatures) expect(c.hp ?? 1, c.name).toBeGreaterThan(0);
    });
    it(`${id}: each is valid against the stats schema, no stat dropped`, () => {
      for (const c of creatures) {
        const parsed = ruleset.statsSchema.safeParse(c.stats);
        expect(parsed.success ? [] : parsed.error.issues, c.name).toEqual([]);
        const kept = Object.keys((parsed.data ?? {}) as object);
        expect(
          Object.keys(c.stats).filter((k) => !kept.includes(k)),
          c.name,
        ).toEqual([]);
      }
    });
  }
});
