import type { EncounterView } from '@roundkeeper/engine';
import { conditionsOf, resourcesOf } from '../model.js';
import type { EncounterSnapshot, EncounterStore } from '../store/encounter-store.js';
import { reorderCommand } from './reorder.js';

/** The type a dragged card carries: only a card dropped on another card moves in the order. */
export const CARD_DRAG = 'application/x-roundkeeper-combatant';

/** What a card shows of a combatant, worked out of the view (HP, the ruleset's gauges, conditions, moves). */
export function cardOf(view: EncounterView, id: string, privateToo: boolean, movable: boolean) {
  const c = view.combatants[id];
  if (!c) return null;
  return {
    c,
    res: resourcesOf(view, c, privateToo),
    conds: conditionsOf(view, id),
    canMove: movable ? movesOf(view, id) : undefined,
  };
}

/**
 * A card's model as its selector reads it from the store: worked out once per view (`derive`: the
 * change's notification, the render and React's check after the commit ask for it three times), and the
 * same object while what the card shows did not change, so a change to another combatant leaves it.
 */
export function cardPart(
  store: Pick<EncounterStore, 'derive'>,
  s: Pick<EncounterSnapshot, 'view'>,
  id: string,
  privateToo: boolean,
  movable: boolean,
) {
  return s.view
    ? store.derive(`card:${id}:${privateToo}:${movable}`, s.view, (v) => cardOf(v, id, privateToo, movable))
    : null;
}

export function movesOf(view: EncounterView, id: string): { up: boolean; down: boolean } {
  return { up: reorderCommand(view, id, 'up') !== null, down: reorderCommand(view, id, 'down') !== null };
}
