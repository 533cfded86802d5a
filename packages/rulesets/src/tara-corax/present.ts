import type { Gauge, Presentation } from '@roundkeeper/engine';
import { taraCreatures } from './library.js';
import type { TaraTypes } from './types.js';

/** What a card shows: the Marks left of the Initiative Score (the budget), carry-over and Sets. */
export const taraPresent: Presentation<TaraTypes> = {
  /** Ready creatures for the library (library.ts). */
  creatures: taraCreatures,
  gauges(_state, c) {
    const out: Gauge[] = [];
    const { marksLeft, initiativeScore, carryOver } = c.cs;
    if (initiativeScore !== null) {
      out.push({
        label: 'Marks left',
        value: String(marksLeft),
        fill: Math.max(0, marksLeft) / Math.max(initiativeScore, marksLeft, 1),
      });
      out.push({ label: 'Initiative Score', value: String(initiativeScore) });
    }
    if (carryOver) out.push({ label: 'Carry-over', value: `${carryOver} Marks` });
    const sets = [
      c.cs.meleeSet ? 'melee' : null,
      c.cs.rangedSet ? 'ranged' : null,
      c.cs.castingSet ? 'casting' : null,
    ].filter((x) => x !== null);
    if (sets.length) out.push({ label: 'Set', value: sets.join(', ') });
    return out;
  },
};
