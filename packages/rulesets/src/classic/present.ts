import { type Analysis, type Gauge, type Presentation, reorderByInitiative } from '@roundkeeper/engine';
import { classicKernel } from './kernel.js';
import { classicCreatures } from './library.js';
import type { ClassicTypes } from './types.js';

const SLOT_WORDS = [
  ['action', 'action'],
  ['bonus', 'bonus action'],
  ['reaction', 'reaction'],
] as const;

/** What a card shows: initiative and what is left of the action, bonus action and reaction. */
export const classicPresent: Presentation<ClassicTypes> = {
  /** Ready creatures for the library (library.ts). */
  creatures: classicCreatures,
  gauges(_state, c) {
    const out: Gauge[] = [];
    if (c.stats.armorClass !== undefined) out.push({ label: 'AC', value: String(c.stats.armorClass) });
    if (c.cs.initiative !== null) out.push({ label: 'Initiative', value: String(c.cs.initiative) });
    const dying = c.cs.dying;
    if (!c.active) {
      out.push({ label: 'Out', value: dying && dying.failures >= 3 ? 'dead' : 'defeated' });
      return out;
    }
    if (dying) {
      const saves = `${dying.successes} ✓ ${dying.failures} ✗`;
      out.push({
        label: 'Down',
        value: dying.stable ? 'unconscious, stable' : `unconscious, death saves ${saves}`,
      });
      return out;
    }
    const left = SLOT_WORDS.filter(([slot]) => !c.cs.used[slot]).map(([, words]) => words);
    out.push({ label: 'Available', value: left.length ? left.join(', ') : 'nothing' });
    if (c.cs.delaying) out.push({ label: 'Delaying', value: 'yes' });
    return out;
  },
  // The GM may set anyone's initiative (`set-initiative`, -100..200): moving a card sets it.
  reorder: (state, c, direction, past) =>
    reorderByInitiative(state, c, direction, { min: -100, max: 200 }, past),
};

/** `analyze`: initiative is the initiative dice plus the modifier; a tie goes to the higher modifier. */
export const classicAnalysis: Analysis<ClassicTypes> = {
  initiative: (state, c) => ({
    expression: `${state.options.initiativeDice}+@initiative`,
    refs: { initiative: c.stats.initiative },
    tie: c.stats.initiative,
  }),
  kernel: classicKernel,
};
