import { type Gauge, type Presentation, reorderByInitiative } from '@roundkeeper/engine';
import type { ClassicTypes } from './index.js';

const SLOT_WORDS = { action: 'action', bonus: 'bonus action', reaction: 'reaction' } as const;

/** What a card shows: initiative and what is left of the action, bonus action and reaction. */
export const classicPresent: Presentation<ClassicTypes> = {
  gauges(_state, c) {
    const out: Gauge[] = [];
    if (c.cs.initiative !== null) out.push({ label: 'Initiative', value: String(c.cs.initiative) });
    const left = (Object.keys(SLOT_WORDS) as (keyof typeof SLOT_WORDS)[])
      .filter((slot) => !c.cs.used[slot])
      .map((slot) => SLOT_WORDS[slot]);
    out.push({ label: 'Available', value: left.length ? left.join(', ') : 'nothing' });
    if (c.cs.delaying) out.push({ label: 'Delaying', value: 'yes' });
    return out;
  },
  // The GM may set anyone's initiative (`set-initiative`, -100..200): moving a card sets it.
  reorder: (state, c, direction) => reorderByInitiative(state, c, direction, { min: -100, max: 200 }),
};
