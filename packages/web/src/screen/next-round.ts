import type { AnyRuleset, EncounterView } from '@roundkeeper/engine';
import { asState, viewNames } from './names.js';
import { asker } from './screen.js';

/**
 * "Next round: Bren, Orc, Ana" — the next round's order where the ruleset knows it now
 * (`Ruleset.nextRoundOrder`; each ruleset's page says when it does), by the view's display names (two Goblins told apart), only those this viewer sees (a hidden
 * combatant is not in the table's or a player's view, so not in their line). Null while no fight runs,
 * where the order is not known, or when the ruleset threw working it out (nothing to say then).
 */
export function nextRound(view: EncounterView, rs: AnyRuleset | undefined): string[] | null {
  if (view.status !== 'running' || !rs?.nextRoundOrder) return null;
  const { ask } = asker(rs);
  const ids = ask('the next round', () => rs.nextRoundOrder!(asState(view)), null);
  if (!ids) return null;
  const names = viewNames(view);
  const seen = ids.filter((id) => view.combatants[id]);
  return seen.length ? seen.map((id) => names.byId.get(id) ?? view.combatants[id]!.name) : null;
}
