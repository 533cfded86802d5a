import type { Json, Viewer } from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';
import type { State } from './types.js';

/**
 * The engine hides hidden combatants' own events; OpenD6 also names people in lists (a group's
 * members, who acts, who was interrupted), so those lists are filtered here. The GM's Character
 * Point pools of NPCs are the GM's secret too.
 */
export function redact(state: State, viewer: Viewer): State {
  if (viewer.role === 'gm') return state;
  // The engine has already removed hidden combatants: anyone not in `combatants` is unseen.
  const seen = (id: string) => Object.hasOwn(state.combatants, id);
  const combatants = { ...state.combatants };
  for (const [id, c] of Object.entries(combatants)) {
    if (c.side === 'npc') {
      combatants[id] = {
        ...c,
        cs: { ...c.cs, characterPoints: 0 },
        stats: { ...c.stats, characterPoints: 0, fatePoints: 0 },
      };
    }
  }
  return {
    ...state,
    combatants,
    rs: {
      ...state.rs,
      acting: state.rs.acting.filter(seen),
      slots: state.rs.slots
        .map((s) => ({ ...s, members: s.members.filter(seen) }))
        .filter((s) => s.members.length > 0),
      happened: state.rs.happened.filter((h) => seen(h.combatant)),
      openRoll: state.rs.openRoll && seen(state.rs.openRoll.combatant) ? state.rs.openRoll : null,
    },
  };
}

/** A combatant's ruleset state with its Character Point pool emptied (an NPC's, for the players). */
function withoutPool(cs: Json): Json {
  return typeof cs === 'object' && cs !== null && !Array.isArray(cs) ? { ...cs, characterPoints: 0 } : cs;
}

export function redactEvent(
  event: AnyEvent,
  viewer: Viewer,
  _state: State,
  hidden: ReadonlySet<string>,
): AnyEvent | null {
  if (viewer.role === 'gm') return event;
  const visible = (id: string) => !hidden.has(id);
  switch (event.type) {
    case 'opend6/initiative':
    case 'opend6/turn':
      return { ...event, members: event.members.filter(visible) };
    case 'opend6/declared':
      return { ...event, combatants: event.combatants.filter(visible) };
    case 'opend6/interrupted':
      return visible(event.interrupted) ? event : { ...event, interrupted: 'someone' };
    case 'opend6/happened':
      return visible(event.happening.combatant) ? event : null;
    case 'opend6/slot-added':
      return event.slot.members.every(visible) ? event : null;
    case 'opend6/slots': {
      const slots = event.slots
        .map((s) => ({ ...s, members: s.members.filter(visible) }))
        .filter((s) => s.members.length > 0);
      return { ...event, slots };
    }
    case 'combatant/added': {
      // The GM's pools: how many Character Points an NPC has left is not the players' business.
      const c = event.combatant;
      if (c.side !== 'npc') return event;
      return {
        ...event,
        combatant: {
          ...c,
          stats: { ...c.stats, characterPoints: 0, fatePoints: 0 },
          cs: withoutPool(c.cs),
        },
      };
    }
    default:
      return event;
  }
}
