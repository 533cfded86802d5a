import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRejection } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { runTrials } from './simulate.js';
import { loadPlan } from './simulate-command.js';

/**
 * The same seed gives the same figures, through the engine, for every designer's question in
 * examples/simulate/: the whole tally (every metric's sums, events, questions, resources, histograms,
 * the commands sent) of 30 trials is pinned in the snapshot beside this file. A change made for speed
 * in the engine's hot path, a ruleset's decide or evolve, or the simulator must leave it as it is; a
 * change of the rules or of what is counted updates it (`vitest -u`), and says so.
 */

const dir = fileURLToPath(new URL('../../../examples/simulate', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('the engine path gives the same figures for the same seed', () => {
  for (const file of files) {
    it(file, () => {
      const plan = loadPlan(join(dir, file), rulesets);
      const t = runTrials(plan, rulesets, 7, 0, 30, undefined, { engine: true });
      if (isRejection(t)) throw new Error(t.message);
      expect(t.path).toBe('engine');
      expect(t).toMatchSnapshot();
    });
  }
});
