import { describeRulesets } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { MemoryStorage } from './storage/memory.js';

describe('describing a ruleset, once for every client', () => {
  it('GET /api/rulesets is describeRulesets, as the command line lists them', async () => {
    const { app } = await buildApp({ storage: new MemoryStorage(), registry: rulesets, logLevel: 'silent' });
    const r = await app.inject({ url: '/api/rulesets' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(JSON.parse(JSON.stringify(describeRulesets(rulesets))));
    await app.close();
  });

  it('each has its commands, options with defaults, and every catalog action with what it takes', () => {
    for (const d of describeRulesets(rulesets)) {
      const rs = rulesets[d.id]!;
      expect(d.commands).toEqual(Object.keys(rs.commands));
      expect(d.options.map((o) => o.name).sort()).toEqual(Object.keys(rs.optionsSchema.parse({})).sort());
      expect(d.catalog.length).toBeGreaterThan(0);
      for (const a of d.catalog) expect(Array.isArray(a.takes), `${d.id} ${a.id}`).toBe(true);
    }
  });
});
