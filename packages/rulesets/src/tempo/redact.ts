import { type CoreEvent, hpShownTo, type Viewer } from '@roundkeeper/engine';
import type { SecretPlanEvent, TempoEvent } from './events.js';
import type { State } from './types.js';

/** 003: plans are picked in the Planning phase; a player sees their own, the GM sees all, the table none. */
function controls(viewer: Viewer, combatant: string | undefined): boolean {
  if (viewer.role === 'gm') return true;
  return viewer.role === 'player' && combatant !== undefined && viewer.combatants.includes(combatant);
}

/** Removes every plan not yet taken from combatants the viewer does not control. */
export function redact(state: State, viewer: Viewer): State {
  if (viewer.role === 'gm') return state;
  const combatants = { ...state.combatants };
  for (const [id, c] of Object.entries(combatants)) {
    if (controls(viewer, id)) continue;
    combatants[id] = { ...c, cs: { ...c.cs, plan: c.cs.plan.filter((p) => p.taken) } };
  }
  return { ...state, combatants };
}

/**
 * Plan events keep only who planned; an Exert that moved a plan keeps the Exert, not the plan; the scene's
 * Exertion damage names only those whose HP the viewer sees as numbers.
 */
export function redactEvent(
  event: CoreEvent | TempoEvent,
  viewer: Viewer,
  state: State,
): CoreEvent | TempoEvent | SecretPlanEvent | null {
  // The scene's Exertion damage is HP damage: only where the viewer sees that combatant's HP as numbers.
  if (event.type === 'tempo/scene-ended') {
    const damage = Object.fromEntries(
      Object.entries(event.damage).filter(([id]) => hpShownTo(state, viewer, id) === 'numbers'),
    );
    return { ...event, damage };
  }
  const combatant = 'combatant' in event && typeof event.combatant === 'string' ? event.combatant : undefined;
  if (controls(viewer, combatant)) return event;
  switch (event.type) {
    case 'tempo/planned':
    case 'tempo/unplanned':
      return { type: event.type, combatant: event.combatant, secret: true };
    case 'tempo/exerted': {
      if (event.plan === undefined) return event;
      const { plan: _plan, tempo: _tempo, ...rest } = event;
      return rest;
    }
    default:
      return event;
  }
}
