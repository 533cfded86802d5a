import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRejection, parseScenario } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { scenarioFromFile } from './scenario-file.js';

const repo = join(import.meta.dirname, '../../../..');
const ii = readFileSync(join(repo, 'examples/improved-initiative/improved-initiative.json'), 'utf8');

describe("the home page's scenario file", () => {
  it('reads an Improved Initiative export as a classic encounter: its saved encounter, with a GM note of what did not map', async () => {
    const r = await scenarioFromFile('improved-initiative.json', ii);
    expect(r.format).toBe('Improved Initiative');
    const s = r.scenario as {
      name: string;
      ruleset: string;
      combatants: Array<{ name: string }>;
      commands: unknown[];
    };
    expect(s.ruleset).toBe('classic');
    expect(s.name).toBe('Goblin ambush');
    expect(s.combatants.length).toBeGreaterThan(1);
    expect(r.notMapped.join('\n')).toContain('spell Fire Bolt: classic tracks no spells');
    expect(s.commands).toEqual([
      {
        type: 'note',
        text: expect.stringMatching(/^Imported from Improved Initiative\. Not mapped: .*Fire Bolt/),
      },
    ]);
    // It is a scenario the server takes.
    const parsed = parseScenario(s);
    expect(isRejection(parsed) ? parsed.message : 'a scenario').toBe('a scenario');
  });

  it('lists the saved encounters of an export with several, and reads the one picked', async () => {
    const data = JSON.parse(ii) as Record<string, unknown>;
    const ambush = data['SavedEncounters.ambush'] as { Combatants: unknown[] };
    data['SavedEncounters.camp'] = {
      ...ambush,
      Name: 'Ogre camp',
      Combatants: ambush.Combatants.slice(0, 1),
    };
    const text = JSON.stringify(data);
    const first = await scenarioFromFile('two.json', text);
    expect(first.choices).toEqual(['Goblin ambush', 'Ogre camp']);
    const camp = await scenarioFromFile('two.json', text, 'Ogre camp');
    expect(camp.scenario).toMatchObject({ name: 'Ogre camp', combatants: [expect.anything()] });
    await expect(scenarioFromFile('two.json', text, 'Nowhere')).rejects.toThrow(
      'The file has no encounter named "Nowhere"; it has "Goblin ambush", "Ogre camp".',
    );
    // One saved encounter: nothing to choose.
    expect((await scenarioFromFile('one.json', ii)).choices).toBeUndefined();
  });

  it('passes a scenario file through as it is, YAML or JSON', async () => {
    const yaml = 'schema: 1\nname: Y\nruleset: tick\ncombatants: []\n';
    expect((await scenarioFromFile('a.yaml', yaml)).scenario).toEqual({
      schema: 1,
      name: 'Y',
      ruleset: 'tick',
      combatants: [],
    });
    const json = { schema: 1, name: 'J', ruleset: 'classic', combatants: [] };
    expect(await scenarioFromFile('a.json', JSON.stringify(json))).toEqual({ scenario: json, notMapped: [] });
    expect((await scenarioFromFile('n.json', '{"nope": 1}')).scenario).toEqual({ nope: 1 });
    await expect(scenarioFromFile('broken.json', '{"nope":')).rejects.toThrow();
  });
});
