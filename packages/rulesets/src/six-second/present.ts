import type { Gauge, Presentation } from '@roundkeeper/engine';
import { sixSecondCreatures } from './library.js';
import type { SixSecondTypes } from './types.js';

/** What a card shows: the seconds left of the turn, initiative, delayed effects still counting. */
export const sixSecondPresent: Presentation<SixSecondTypes> = {
  /** Ready creatures for the library (library.ts). */
  creatures: sixSecondCreatures,
  gauges(state, c) {
    const total = state.options.turnSeconds;
    const left = Math.max(0, total - c.cs.secondsUsed);
    const out: Gauge[] = [
      { label: 'Seconds left', value: `${left}/${total}`, fill: total ? left / total : 0 },
    ];
    if (c.cs.initiative !== null) out.push({ label: 'Initiative', value: String(c.cs.initiative) });
    if (c.cs.pending.length) out.push({ label: 'Pending effects', value: String(c.cs.pending.length) });
    if (c.cs.delaying) out.push({ label: 'Delaying', value: 'yes' });
    return out;
  },
};
