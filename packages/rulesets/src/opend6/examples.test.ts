import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { registryWith, runScenarioFile, scenarioFiles } from '../testing/harness.js';
import { openD6 } from './index.js';

const root = fileURLToPath(new URL('../../../../examples/opend6', import.meta.url));
const registry = registryWith(openD6 as never);

describe('opend6: every scenario under examples/opend6 runs and meets its expectations', () => {
  for (const file of scenarioFiles(root)) {
    it(file.slice(root.length + 1), () => {
      expect(runScenarioFile(file, registry)).toEqual([]);
    });
  }
});
