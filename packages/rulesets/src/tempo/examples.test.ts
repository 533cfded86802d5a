import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenarioFile, scenarioFiles } from '../testing/harness.js';
import { registry } from './fixtures.js';

const root = fileURLToPath(new URL('../../../../examples/tempo', import.meta.url));

describe('every scenario under examples/tempo runs and meets its expectations', () => {
  const files = scenarioFiles(root);
  it('has scenario files', () => expect(files.length).toBeGreaterThanOrEqual(3));
  for (const file of files) {
    it(file.slice(root.length + 1), () => {
      expect(runScenarioFile(file, registry)).toEqual([]);
    });
  }
});
