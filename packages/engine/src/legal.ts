import { rulesetFor } from './engine.js';
import type { RulesetRegistry } from './ruleset.js';
import { type ActionDef, type EncounterState, isRejection, type LegalAction } from './types.js';

/** The ruleset's catalog plus the encounter's custom actions. */
export function fullCatalog(state: EncounterState, registry: RulesetRegistry): ActionDef[] {
  const ruleset = rulesetFor(state, registry);
  if (isRejection(ruleset)) return [];
  return [...ruleset.catalog(state), ...state.customActions];
}

/** Every action of the actor's catalog, enabled or with the reason it is not. */
export function legalActions(state: EncounterState, actor: string, registry: RulesetRegistry): LegalAction[] {
  const ruleset = rulesetFor(state, registry);
  if (isRejection(ruleset)) return [];
  return ruleset.legalActions(state, actor);
}
