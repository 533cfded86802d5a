import { compareInstants, type Effect, schedule, unschedule } from '@roundkeeper/engine';
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
    case 'hp/changed': {
      // A concentration marker on the bearer: damage taken reminds the GM of the save.
      const damage = event.from.current + event.from.temp - (event.hp.current + event.hp.temp);
      const marker = state.effects.find((e) => e.target === event.combatant && isConcentration(e));
      if (damage <= 0 || !marker) return [];
      return [
        {
          type: 'classic/concentration-check',
          combatant: event.combatant,
          effect: marker.name,
          damage,
          dc: Math.max(10, Math.floor(damage / 2)),
        },
      ];
    }
    case 'combatant/defeated':
      return state.agenda
        .filter((e) => e.combatant === event.combatant)
        .map((e) => unschedule(e.id, 'defeated'));
    default:
      return [];
  }
}

/**
 * Classic's concentration marker: a condition named "Concentrating" or "Concentration" (with what is kept
 * up after it, "Concentrating: Bless"), or any condition whose data says `concentration: true`.
 */
export function isConcentration(effect: Pick<Effect, 'name' | 'data'>): boolean {
  return /^concentrat(ing|ion)\b/i.test(effect.name.trim()) || effect.data?.concentration === true;
}
