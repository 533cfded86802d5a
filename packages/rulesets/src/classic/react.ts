import { compareInstants, type Effect, schedule, unschedule } from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';
import { keysFrom, rollInitiative } from './initiative.js';
import { turnEntry } from './round.js';
import type { Ctx, State } from './types.js';

/**
 * Down at 0 HP: an NPC is defeated (out of the fight, its turns skipped); a PC falls unconscious and makes
 * death saves on their turns. Damage taken at 0 HP counts a failed save (a stable PC starts again), a third
 * failure kills; HP above 0 brings a downed PC back.
 */
function down(state: State, event: Extract<AnyEvent, { type: 'hp/changed' }>): AnyEvent[] {
  const c = state.combatants[event.combatant];
  if (!c?.active) return [];
  const to = event.hp.current;
  const dying = c.cs.dying;
  if (c.side === 'npc')
    return to <= 0 && event.hp.max > 0 ? [{ type: 'combatant/defeated', combatant: c.id }] : [];
  if (to > 0) return dying ? [{ type: 'classic/came-to', combatant: c.id }] : [];
  if (!dying) return event.hp.max > 0 ? [{ type: 'classic/fell', combatant: c.id }] : [];
  const hurt = event.hp.max === event.from.max && event.hp.temp <= event.from.temp;
  if (!hurt) return [];
  return saves(c.id, dying.stable ? 0 : dying.successes, (dying.stable ? 0 : dying.failures) + 1);
}

/** A downed PC's death saves now (`roll`: the face of the save just made), and death at three failures. */
export function saves(id: string, successes: number, failures: number, roll?: number): AnyEvent[] {
  const out: AnyEvent[] = [
    {
      type: 'classic/death-saves',
      combatant: id,
      ...(roll === undefined ? {} : { roll }),
      successes,
      failures,
    },
  ];
  if (failures >= 3)
    out.push({ type: 'classic/died', combatant: id }, { type: 'combatant/defeated', combatant: id });
  return out;
}

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
      // Falling to 0 HP (down), and a concentration marker on the bearer: damage taken reminds the GM
      // of the save.
      const fell = down(state, event);
      const damage = event.from.current + event.from.temp - (event.hp.current + event.hp.temp);
      const marker = state.effects.find((e) => e.target === event.combatant && isConcentration(e));
      if (damage <= 0 || !marker) return fell;
      return [
        ...fell,
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
