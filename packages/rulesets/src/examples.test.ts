import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenarioFile, scenarioFiles } from './testing/harness.js';

const root = fileURLToPath(new URL('../../../examples', import.meta.url));

describe('every scenario under examples/ runs and meets its expectations', () => {
  for (const file of scenarioFiles(root)) {
    it(file.slice(root.length + 1), () => {
      expect(runScenarioFile(file)).toEqual([]);
    });
  }
});
