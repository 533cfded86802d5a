import type { EngineEvent, Viewer } from '@roundkeeper/engine';
import type { State, TempoTypes } from './types.js';

/** 003: plans are picked in the Planning phase; a player sees their own, the GM sees all, the table none. */
function controls(viewer: Viewer, combatant: unknown): boolean {
  if (viewer.role === 'gm') return true;
  return viewer.role === 'player' && typeof combatant === 'string' && viewer.combatants.includes(combatant);
}

/** Removes every plan not yet taken from combatants the viewer does not control. */
export function redact(state: State, viewer: Viewer): State {
  if (viewer.role === 'gm') return state;
  const combatants = { ...state.combatants };
  for (const [id, c] of Object.entries(combatants)) {
    if (controls(viewer, id)) continue;
    combatants[id] = { ...c, cs: { ...c.cs, plan: c.cs.plan.filter((p) => p.taken) } as TempoTypes['cs'] };
  }
  return { ...state, combatants };
}

const PLAN_EVENTS = new Set(['tempo/planned', 'tempo/unplanned']);

/** Plan events keep only who planned; an Exert that moved a plan keeps the Exert, not the plan. */
export function redactEvent(event: EngineEvent, viewer: Viewer): EngineEvent | null {
  if (controls(viewer, event.combatant)) return event;
  if (PLAN_EVENTS.has(event.type)) return { type: event.type, combatant: event.combatant, secret: true };
  if (event.type === 'tempo/exerted' && event.plan !== undefined) {
    const { plan: _plan, tempo: _tempo, ...rest } = event;
    return rest;
  }
  return event;
}
