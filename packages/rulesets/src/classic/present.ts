import type { Analysis, Gauge, Presentation } from '@roundkeeper/engine';
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
};

/** `analyze`: initiative is the initiative dice plus the modifier; a tie goes to the higher modifier. */
export const classicAnalysis: Analysis<ClassicTypes> = {
  initiative: (state, c) => ({
    expression: `${state.options.initiativeDice}+@initiative`,
    refs: { initiative: c.stats.initiative },
    tie: c.stats.initiative,
  }),
};
