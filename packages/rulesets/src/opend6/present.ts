import type { Gauge, Panel, Presentation } from '@roundkeeper/engine';
import { opend6Creatures } from './library.js';
import type { Opend6Types } from './types.js';

/** What a card shows (initiative, Character Points, actions declared and used) and the declaration panel. */
export const opend6Present: Presentation<Opend6Types> = {
  /** Ready creatures for the library (library.ts). */
  creatures: opend6Creatures,
  gauges(_state, c) {
    const out: Gauge[] = [];
    if (c.cs.initiative !== null) out.push({ label: 'Initiative', value: String(c.cs.initiative) });
    out.push({ label: 'Character Points', value: String(c.cs.characterPoints) });
    out.push({
      label: 'Actions',
      value: c.cs.declared === null ? 'not declared' : `${c.cs.used}/${c.cs.declared}`,
    });
    if (c.cs.waiting) out.push({ label: 'Waiting', value: 'yes' });
    if (c.cs.unable) out.push({ label: 'Unable', value: c.cs.unable });
    return out;
  },
  panels(state, c) {
    if (state.status === 'ended') return [];
    return [
      {
        title: 'Declare actions',
        // 002: the player decides how many actions the character takes; each extra one costs 1D.
        help: 'The player decides how many actions the character takes this round; each extra one costs 1D.',
        command: 'declare',
        fixed: { actor: c.id },
        items: c.cs.declared === null ? [] : [{ label: `${c.cs.declared} declared, ${c.cs.used} taken` }],
      } satisfies Panel,
    ];
  },
};
