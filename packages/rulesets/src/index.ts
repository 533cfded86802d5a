import type { AnyRuleset, RulesetRegistry } from '@roundkeeper/engine';
import { classic } from './classic/index.js';

export { classic } from './classic/index.js';

/** Every ruleset Roundkeeper ships, by id. */
export const rulesets: RulesetRegistry = {
  classic: classic as unknown as AnyRuleset,
};
