import type { Command, EncounterView } from '@roundkeeper/engine';
import { asState, rulesetOf } from '../model.js';

/**
 * The order moves the rules allow a GM for this combatant (`present.reorder`), as commands or null: one
 * place up or down, or past another combatant (`past`: a card dropped on that one's place).
 */
export function reorderCommand(
  view: EncounterView,
  id: string,
  direction: 'up' | 'down',
  past?: string,
): Command | null {
  const c = view.combatants[id];
  const other = past === undefined ? undefined : view.combatants[past];
  if (!c || (past !== undefined && !other)) return null;
  try {
    return rulesetOf(view)?.present?.reorder?.(asState(view), c, direction, other) ?? null;
  } catch {
    return null;
  }
}
