import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isRejection, parseScenario } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runScenarioFile, scenarioFiles } from './testing/harness.js';

const root = fileURLToPath(new URL('../../../examples', import.meta.url));

describe('every scenario under examples/ runs and meets its expectations', () => {
  for (const file of scenarioFiles(root)) {
    it(file.slice(root.length + 1), () => {
      expect(runScenarioFile(file)).toEqual([]);
    });
  }

  it('no step has a field without a value (an unquoted comma in a `{ … }` note makes one)', () => {
    const empty: string[] = [];
    for (const file of scenarioFiles(root).filter((f) => /\.ya?ml$/.test(f))) {
      const scenario = parseScenario(parse(readFileSync(file, 'utf8')));
      if (isRejection(scenario)) continue;
      scenario.commands.forEach((step, i) => {
        for (const [key, value] of Object.entries(step.command))
          if (value === null) empty.push(`${file.slice(root.length + 1)} step ${i + 1}: "${key}"`);
      });
    }
    expect(empty).toEqual([]);
  });
});
