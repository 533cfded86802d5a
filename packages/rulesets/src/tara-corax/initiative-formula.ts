import type { Combatant, EncounterState, InitiativeFormula } from '@roundkeeper/engine';
import { armorModifier, characteristic, MARKS_PER_ROUND, verySimplyCharacteristic } from './marks.js';
import type { TaraTypes } from './types.js';

/**
 * Tara-Corax's Initiative Score as dice, for `analyze` (the roll `rollInitiative` makes): 000 "The
 * Player rolls 1d10 and adds that to their character's Initiative Characteristic … If you roll a 10 on
 * the 1d10 for Initiative, roll 1d10 again and add that" (`explodingInitiative`: once, or on and on),
 * plus Armor and other modifiers, never below 0 nor above 30 ("The Maximum Initiative Score for any
 * character is 30"); Very Simply, no roll. At the same Mark the higher Initiative Characteristic goes
 * first, then Agility, then Intellect (`tieKey`): one number ordering the three.
 */
export function taraInitiativeFormula(
  state: EncounterState<TaraTypes>,
  c: Combatant<TaraTypes>,
): InitiativeFormula {
  const modifiers = armorModifier(c.stats) + c.stats.initiativeModifier;
  const verySimply = state.options.roundMode === 'very-simply';
  const base = (verySimply ? verySimplyCharacteristic(c.stats) : characteristic(c.stats)) + modifiers;
  const dice = state.options.explodingInitiative === 'keep' ? '1d10!' : '1d10!o';
  const tie = characteristic(c.stats) * 1_000_000 + c.stats.agility * 1_000 + c.stats.intellect;
  const signed = base < 0 ? `-${-base}` : `+${base}`;
  return {
    expression: verySimply ? String(base) : `${dice}${signed}`,
    refs: {},
    tie,
    atLeast: 0,
    atMost: MARKS_PER_ROUND,
  };
}
