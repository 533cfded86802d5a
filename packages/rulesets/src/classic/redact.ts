import { type EncounterState, hpShownTo, type Viewer } from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';

/**
 * The concentration reminder carries the damage taken: only for a viewer who sees that combatant's HP as
 * numbers (the GM, its player, or everyone when the GM shows HP as numbers).
 */
export function redactEvent(event: AnyEvent, viewer: Viewer, state: EncounterState): AnyEvent | null {
  if (event.type === 'classic/concentration-check' && hpShownTo(state, viewer, event.combatant) !== 'numbers')
    return null;
  return event;
}
