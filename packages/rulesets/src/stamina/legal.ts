import { type ActionDef, candidates, type LegalAction, type Rejection, reject } from '@roundkeeper/engine';
import { ACTION_KINDS, isActionKind } from './flags.js';
import { catalogOf, isRefusal, planUse } from './rules.js';
import type { State } from './types.js';

export function legalActions(
  state: State,
  actor: string,
  only?: (action: ActionDef) => boolean,
): LegalAction[] {
  const catalog = catalogOf(state);
  return (only ? candidates(catalog, only) : catalog).map((action) => {
    let use = planUse(state, actor, action);
    // A reducible action refused for its requirement is still open at requirement 0, for its price.
    if (
      isRefusal(use) &&
      (use.code === 'turn/requirement-taken' || use.code === 'turn/performing') &&
      action.data?.reducible
    ) {
      const reduced = planUse(state, actor, action, { reduce: true });
      if (!isRefusal(reduced)) use = reduced;
    }
    if (isRefusal(use)) {
      return {
        action,
        enabled: false,
        reason: use.reason,
        code: use.code,
        cost: { stamina: action.cost.stamina ?? 0, turnRequirement: action.cost.turnRequirement ?? 1 },
      };
    }
    const cost: Record<string, number> = { stamina: use.stamina, turnRequirement: use.turnRequirement };
    if (use.defense) cost.defense = use.defense;
    if (use.reduced === 'penalty-die' || use.reduced === 'cantrip') cost.penaltyDice = 1;
    return { action, enabled: true, cost };
  });
}

export function validateCustomAction(action: ActionDef): Rejection | undefined {
  if (!isActionKind(action.kind)) {
    return reject(
      'action/kind',
      `A custom action's kind is one of ${ACTION_KINDS.join(', ')} (it decides the turn rules); "${action.kind}" is not.`,
    );
  }
  for (const key of ['stamina', 'turnRequirement', 'defense'] as const) {
    const v = action.cost[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) {
      return reject('action/cost', `A custom action's ${key} cost is a whole number of 0 or more; got ${v}.`);
    }
  }
  for (const key of Object.keys(action.cost)) {
    if (!['stamina', 'turnRequirement', 'defense'].includes(key)) {
      return reject(
        'action/cost',
        `Costs here are stamina, defense and turnRequirement; "${key}" is not one of them.`,
      );
    }
  }
  return undefined;
}
