import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { registryWith, runScenarioFile, scenarioFiles } from '../testing/harness.js';
import { taraCorax } from './index.js';

const root = fileURLToPath(new URL('../../../../examples/tara-corax', import.meta.url));
const registry = registryWith(taraCorax);

describe('tara-corax: the worked examples of 000 (examples/tara-corax/*.yaml)', () => {
  const files = scenarioFiles(root);
  it('has the worked examples', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });
  for (const file of files) {
    it(file.slice(root.length + 1), () => {
      expect(runScenarioFile(file, registry)).toEqual([]);
    });
  }
});
