import type { Analysis, Gauge, Presentation } from '@roundkeeper/engine';
import { tickNow } from './initiative.js';
import { tickKernel } from './kernel.js';
import { tickCreatures } from './library.js';
import type { TickTypes } from './types.js';

/** What a card shows: the tick the marker is on ("Next at tick 17"), a continuous action's progress. */
export const tickPresent: Presentation<TickTypes> = {
  /** Ready creatures for the library (library.ts). */
  creatures: tickCreatures,
  gauges(state, c) {
    const out: Gauge[] = [];
    const next = c.cs.waiting
      ? 'waiting'
      : c.cs.tick === null
        ? 'off the timeline'
        : state.current === c.id
          ? `${c.cs.tick} (now)`
          : String(c.cs.tick);
    out.push({ label: 'Next at tick', value: next });
    const busy = c.cs.busy;
    if (busy) {
      const done = (tickNow(state) - busy.from) / Math.max(1, busy.to - busy.from);
      out.push({ label: busy.name, value: `until tick ${busy.to}`, fill: Math.min(1, Math.max(0, done)) });
    }
    out.push({ label: 'Weapon speed', value: `${c.stats.weaponSpeed} ticks` });
    return out;
  },
  phase(state) {
    if (state.status !== 'running' || state.current) return null;
    // Nobody acting in the state a viewer holds is not everyone waiting: a hidden combatant's turn is left
    // out of the table's and players' state, while everyone they see still has a place on the track.
    const active = Object.values(state.combatants).filter((c) => c.active);
    if (!active.every((c) => c.cs.waiting)) return null;
    return 'Everyone is waiting: press Act now for whoever steps in';
  },
};

/**
 * For `roundkeeper analyze`. Rule 2: the first tick is the initiative dice less the Initiative stat, never
 * below 1, and the lowest tick acts first. Rule 3: everyone got there at the same moment (the start), so a
 * tie goes to the higher Initiative stat, then to the one the GM added first (either `ties` option).
 */
export const tickAnalysis: Analysis<TickTypes> = {
  lowestFirst: true,
  kernel: tickKernel,
  initiative: (state, c) => ({
    expression: `${state.options.initiativeDice}-@initiative`,
    refs: { initiative: c.stats.initiative },
    tie: c.stats.initiative * 1000 - state.roster.indexOf(c.id),
    atLeast: 1,
  }),
};
