import { compareInstants, schedule, unschedule } from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';
import { keysFrom, rollInitiative } from './initiative.js';
import { turnEntry } from './round.js';
import type { Ctx } from './types.js';

/** Turn bookkeeping that follows from core events: a new turn refreshes the action economy. */
export function react(ctx: Ctx, event: AnyEvent): AnyEvent[] {
  const { state } = ctx;
  switch (event.type) {
    case 'turn/started': {
      const c = state.combatants[event.combatant];
      if (!c) return [];
      const out: AnyEvent[] = [{ type: 'classic/refreshed', combatant: c.id }];
      if (c.cs.readied) out.push({ type: 'classic/ready-lapsed', combatant: c.id });
      return out;
    }
    case 'combatant/added': {
      // Late arrival: roll initiative and join this round if their place in the order is still ahead.
      if (state.status !== 'running') return [];
      const id = event.combatant.id;
      const rolled = rollInitiative(ctx, [id]);
      const key = keysFrom(rolled).get(id) ?? [0];
      const entry = turnEntry(ctx, id, state.round, key);
      const ahead = !state.now || compareInstants(entry.at, state.now) > 0;
      return [...rolled, ahead ? schedule(entry) : { type: 'classic/joins-next-round', combatant: id }];
    }
    case 'combatant/defeated':
      return state.agenda
        .filter((e) => e.combatant === event.combatant)
        .map((e) => unschedule(e.id, 'defeated'));
    default:
      return [];
  }
}
