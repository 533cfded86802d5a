import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { provideRulesets } from './packages/web/src/store/rulesets.js';

// Property tests draw new random cases on every run at a desk, where a failure is news to act on. In CI
// (CI=true) they replay one fixed seed, so whether a submission passes does not depend on the draw;
// RK_FC_SEED sets another seed anywhere (a failure prints the seed and path that reproduce it).
const seed = process.env.RK_FC_SEED ?? (process.env.CI ? '20261123' : undefined);
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });

// The web page loads each ruleset's chunk when it needs it (packages/web/src/store/rulesets.ts); a test
// process has them all at hand.
provideRulesets(rulesets);
