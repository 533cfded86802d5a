import { fileURLToPath } from 'node:url';
import type { AnyRuleset } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { registryWith, runScenarioFile, scenarioFiles } from '../testing/harness.js';
import { stamina } from './index.js';

const root = fileURLToPath(new URL('../../../../examples/stamina', import.meta.url));
const registry = registryWith(stamina as unknown as AnyRuleset);

describe('every scenario under examples/stamina runs and meets its expectations', () => {
  const files = scenarioFiles(root);
  it('has scenario files', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(file.slice(root.length + 1), () => {
      expect(runScenarioFile(file, registry)).toEqual([]);
    });
  }
});
