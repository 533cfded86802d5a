import type { Json } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { scenarioYaml } from './export-yaml.js';

describe('a scenario exported as YAML piece by piece', () => {
  it('reads back as the same scenario as one stringify of it', async () => {
    const scenario: Record<string, Json> = {
      schema: 1,
      name: 'Ford: "the crossing"',
      ruleset: 'classic',
      options: { a: [1, { b: 'c' }] },
      seed: 3,
      commands: [
        { type: 'note', text: 'multi\nline: yes' },
        { type: 'add-combatant', combatant: { name: '- dash', stats: { x: null } } },
        { type: 'act', actor: 'ana', action: 'attack', roll: '1d20+2' },
      ],
    };
    const text = await scenarioYaml(scenario);
    expect(parse(text)).toEqual(scenario);
    expect(parse(text)).toEqual(parse(stringify(scenario)));
    expect(parse(await scenarioYaml({ ...scenario, commands: [] }))).toEqual({ ...scenario, commands: [] });
  });
});
