import { type Analysis, combatantOf } from '@roundkeeper/engine';
import type { SixSecondTypes } from './types.js';

/**
 * Six-second initiative for `analyze`: 001 "An Initiative check is a special Reflex check + your
 * Dexterity ability" (the encounter's Reflex dice, or the character's own), the highest first. "In the
 * case of a draw, have the characters who tied roll initiative checks again": a tie is a fair coin only
 * between characters who roll the same dice with the same Dexterity, so the order is enumerated when
 * every combatant does; otherwise the sentence says who differs.
 */
export const sixSecondAnalysis: Analysis<SixSecondTypes> = {
  initiative(state, c) {
    const dice = (id: string) => {
      const o = combatantOf(state, id);
      return o ? `${o.stats.reflexDice ?? state.options.initiativeDice}+${o.stats.dexterity}` : '';
    };
    const own = dice(c.id);
    const other = state.roster.find((id) => state.combatants[id]?.active && dice(id) !== own);
    if (other !== undefined) {
      const o = state.combatants[other]!;
      return `ties are rolled again (001 "have the characters who tied roll initiative checks again"), and ${c.name} (${own}) and ${o.name} (${dice(other)}) roll different checks, so who wins a tie is not a fair coin. analyze enumerates the order when every combatant rolls the same dice with the same Dexterity; simulate samples it.`;
    }
    return {
      expression: `(${c.stats.reflexDice ?? state.options.initiativeDice})+@dexterity`,
      refs: { dexterity: c.stats.dexterity },
      tie: 0,
    };
  },
};
