import type { EngineEvent, JsonObject, Viewer } from '@roundkeeper/engine';
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

export function redactEvent(
  event: EngineEvent,
  viewer: Viewer,
  _state: State,
  hidden: ReadonlySet<string>,
): EngineEvent | null {
  if (viewer.role === 'gm') return event;
  const visible = (v: unknown) => typeof v !== 'string' || !hidden.has(v);
  let out: EngineEvent = event;
  for (const field of ['members', 'combatants'] as const) {
    const list = out[field];
    if (Array.isArray(list)) out = { ...out, [field]: list.filter(visible) };
  }
  if (!visible(out.interrupted)) out = { ...out, interrupted: 'someone' };
  const happening = out.happening as { combatant?: string } | undefined;
  if (happening && !visible(happening.combatant)) return null;
  const slot = out.slot as { members?: string[] } | undefined;
  if (slot?.members?.some((m) => !visible(m))) return null;
  if (Array.isArray(out.slots)) {
    const slots = (out.slots as unknown as Array<{ members: string[] }>)
      .map((s) => ({ ...s, members: s.members.filter(visible) }))
      .filter((s) => s.members.length > 0);
    out = { ...out, slots: slots as unknown as JsonObject[] };
  }
  // The GM's pools: how many Character Points an NPC has left is not the players' business.
  if (out.type === 'combatant/added') {
    const c = out.combatant as { side?: string; stats?: JsonObject; cs?: JsonObject } | undefined;
    if (c?.side === 'npc') {
      out = {
        ...out,
        combatant: {
          ...c,
          stats: { ...c.stats, characterPoints: 0, fatePoints: 0 },
          cs: { ...c.cs, characterPoints: 0 },
        } as JsonObject,
      };
    }
  }
  return out;
}
