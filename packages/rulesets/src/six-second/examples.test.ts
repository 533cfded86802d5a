import { fileURLToPath } from 'node:url';
import type { AnyRuleset } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { registryWith, runScenarioFile, scenarioFiles } from '../testing/harness.js';
import { sixSecond } from './index.js';

const root = fileURLToPath(new URL('../../../../examples/six-second', import.meta.url));
const registry = registryWith(sixSecond as unknown as AnyRuleset);

describe('six-second: every scenario under examples/six-second runs and meets its expectations', () => {
  const files = scenarioFiles(root);
  it('has the worked examples', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });
  for (const file of files) {
    it(file.slice(root.length + 1), () => {
      expect(runScenarioFile(file, registry)).toEqual([]);
    });
  }
});
