import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { rulesetLoaders } from './lazy.js';

describe('the rulesets loaded one at a time', () => {
  it('are the registry, id for id', async () => {
    expect(Object.keys(rulesetLoaders).sort()).toEqual(Object.keys(rulesets).sort());
    for (const [id, load] of Object.entries(rulesetLoaders)) expect(await load()).toBe(rulesets[id]);
  });
});
