import type { RulesetRegistry } from '@roundkeeper/engine';
import { classic } from './classic/index.js';
import { openD6 } from './opend6/index.js';
import { sixSecond } from './six-second/index.js';
import { stamina } from './stamina/index.js';
import { taraCorax } from './tara-corax/index.js';
import { tempo } from './tempo/index.js';
import { tick } from './tick/index.js';

export { classic } from './classic/index.js';
export { openD6 } from './opend6/index.js';
export { sixSecond } from './six-second/index.js';
export { stamina } from './stamina/index.js';
export { taraCorax } from './tara-corax/index.js';
export { tempo } from './tempo/index.js';
export { tick } from './tick/index.js';

/** Every ruleset Roundkeeper ships, by id. */
export const rulesets: RulesetRegistry = {
  classic,
  'tara-corax': taraCorax,
  'six-second': sixSecond,
  opend6: openD6,
  tempo,
  stamina,
  tick,
};
export {
  fromImprovedInitiative,
  type ImportedCombatant,
  type ImportedCreature,
  type ImprovedInitiativeImport,
  improvedInitiativeScenario,
} from './classic/improved-initiative.js';
export {
  compileTaraKernel,
  KERNEL_ACTIONS,
  KERNEL_ATTACKS,
  KERNEL_FIELDS,
  KERNEL_FIRST,
  KERNEL_FORFEITS,
  KERNEL_TURNS,
  kernelRound,
  type TaraKernel,
  type TaraKernelCombatant,
} from './tara-corax/kernel.js';
export type { TaraStats } from './tara-corax/types.js';
