import type { Analysis, Gauge, Presentation } from '@roundkeeper/engine';
import { refsOf, type StaminaTypes } from './types.js';

/** What a card shows: Stamina and Defense against their rested and composed maximums, initiative. */
export const staminaPresent: Presentation<StaminaTypes> = {
  gauges(_state, c) {
    const { stamina, defense } = c.stats;
    const out: Gauge[] = [
      {
        label: 'Stamina',
        value: `${c.cs.stamina}/${stamina}`,
        ...(stamina ? { fill: c.cs.stamina / stamina } : {}),
      },
      {
        label: 'Defense',
        value: `${c.cs.defense}/${defense}`,
        ...(defense ? { fill: c.cs.defense / defense } : {}),
      },
    ];
    if (c.cs.initiative !== null) out.push({ label: 'Initiative', value: String(c.cs.initiative) });
    return out;
  },
};

/** `analyze`: the initiative check is the encounter's formula over the sheet; a tie goes to the higher modifier. */
export const staminaAnalysis: Analysis<StaminaTypes> = {
  initiative: (state, c) => ({
    expression: state.options.initiativeDice,
    refs: refsOf(c.stats),
    tie: c.stats.initiative,
  }),
};
