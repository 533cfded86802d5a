import type { ActionDef, Instant, LegalAction } from '@roundkeeper/engine';
import { candidates } from '@roundkeeper/engine';
import { actionsFor, isReaction } from './catalog.js';
import { planLegality, reactionLegality } from './rules.js';
import type { State } from './types.js';

/** Every catalog action with whether it can be planned (or, for reactions, used) now, and why not. */
export function legalActions(
  state: State,
  actor: string,
  only?: (action: ActionDef) => boolean,
): LegalAction[] {
  const c = state.combatants[actor];
  const actions = actionsFor(state, c);
  return (only ? candidates(actions, only) : actions).map((action): LegalAction => {
    if (!c)
      return {
        action,
        enabled: false,
        code: 'combatant/unknown',
        reason: `There is no combatant "${actor}".`,
        cost: action.cost,
      };
    if (isReaction(action)) {
      const r = reactionLegality(state, c, action);
      return r
        ? { action, enabled: false, code: r.code, reason: r.message, cost: action.cost }
        : { action, enabled: true, cost: action.cost };
    }
    // Magic's tempo is the spell's: the latest tempo stands in for "some tempo still ahead".
    const tempo = action.data?.variableTempo === true ? 9 : undefined;
    const r = planLegality(state, c, action, { tempo });
    if ('code' in r) return { action, enabled: false, code: r.code, reason: r.message, cost: action.cost };
    const from: Instant = state.now ?? { round: state.round, at: [] };
    return {
      action,
      enabled: true,
      cost: r.slot === 'free' ? { actions: 0 } : action.cost,
      preview: { from, to: { round: state.round, at: [r.tempo] }, label: `tempo ${r.tempo} (${r.slot})` },
    };
  });
}
