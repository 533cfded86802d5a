import { type Analysis, combatantOf, type KernelRule } from '@roundkeeper/engine';
import { taraInitiativeFormula } from './initiative-formula.js';
import { compileTaraKernel, kernelRound, type TaraKernelCombatant } from './kernel.js';
import type { TaraTypes } from './types.js';

/** A rule that only takes melee attacks (`tag: attack` or `action: melee-attack`, nothing conditional). */
function onlyMeleeAttacks(rule: KernelRule): boolean {
  const melee =
    (rule.tag === 'attack' || rule.tag === undefined) &&
    (rule.action === 'melee-attack' || (rule.action === undefined && rule.tag === 'attack'));
  return melee && rule.kind === undefined && !rule.conditional;
}

/**
 * The compiled Tara-Corax Round (`kernel.ts`): it fits when every combatant's policy is one rule taking
 * melee attacks, so that nothing but the Initiative Roll is random.
 */
export const taraAnalysis: Analysis<TaraTypes> = {
  initiative: taraInitiativeFormula,
  kernel({ state, rules, canAct }) {
    const list: TaraKernelCombatant[] = [];
    for (const id of state.roster) {
      const c = combatantOf(state, id);
      if (!c) return `${id} is not in the fight`;
      const policy = rules[id] ?? [];
      const rule = policy[0];
      if (policy.length !== 1 || !rule) return `${id}'s policy is not a single attack rule`;
      if (!onlyMeleeAttacks(rule)) return `${id}'s policy does more than attack`;
      list.push({ stats: c.stats, canAct: canAct[id] ?? true, actionsPerTurn: rule.times });
    }
    const kernel = compileTaraKernel(state.options, list);
    return { round: (rng, out) => kernelRound(kernel, rng, out) };
  },
};
