import { type Analysis, type Gauge, type Presentation, reorderByInitiative } from '@roundkeeper/engine';
import { staminaCreatures } from './library.js';
import { refsOf } from './options.js';
import { numbersHidden } from './redact.js';
import type { StaminaTypes } from './types.js';

/** What a card shows: Stamina and Defense against their rested and composed maximums, initiative. */
export const staminaPresent: Presentation<StaminaTypes> = {
  /** Ready creatures for the library (library.ts). */
  creatures: staminaCreatures,
  gauges(state, c) {
    const { stamina, defense } = c.stats;
    const hidden = numbersHidden(state, c.id);
    const out: Gauge[] = hidden
      ? []
      : [
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
  // The GM may set anyone's initiative (`set-initiative`, -1000..1000): moving a card sets it.
  reorder: (state, c, direction, past) =>
    reorderByInitiative(state, c, direction, { min: -1000, max: 1000 }, past),
};

/** `analyze`: the initiative check is the encounter's formula over the sheet; a tie goes to the higher modifier. */
export const staminaAnalysis: Analysis<StaminaTypes> = {
  initiative: (state, c) => ({
    expression: state.options.initiativeDice,
    refs: refsOf(c.stats),
    tie: c.stats.initiative,
  }),
};
