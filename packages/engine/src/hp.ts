import type { HitPoints } from './types.js';

/**
 * Hit points as the rules keep them. HP never goes below 0 unless the ruleset has negative HP
 * (`Ruleset.negativeHp`; none of the shipped rulesets has), and never above the maximum (temporary HP is
 * counted apart).
 */

/** The lowest `current` a ruleset allows. */
const floorOf = (negativeHp: boolean) => (negativeHp ? Number.NEGATIVE_INFINITY : 0);

/** `hp` after `amount` damage: temporary HP first, then current HP, down to the ruleset's floor. */
export function damaged(hp: HitPoints, amount: number, negativeHp = false): HitPoints {
  const fromTemp = Math.min(hp.temp, amount);
  const current = Math.max(floorOf(negativeHp), hp.current - (amount - fromTemp));
  return { ...hp, temp: hp.temp - fromTemp, current };
}

/**
 * `hp` with what the GM set. A new maximum without a new current keeps the damage taken: an unhurt
 * combatant stays unhurt (11/11 → max 37 gives 37/37), a hurt one keeps its wounds (6/11 → max 37 gives
 * 32/37); lowered, a combatant still standing keeps at least 1 HP. `current` stays between the ruleset's
 * floor and the maximum.
 */
export function setHp(
  hp: HitPoints | undefined,
  set: { current?: number | undefined; max?: number | undefined; temp?: number | undefined },
  negativeHp = false,
): HitPoints {
  const was = hp ?? { current: 0, max: 0, temp: 0 };
  // A combatant given HP for the first time, with no maximum said: what it has is its maximum.
  const max = set.max ?? (hp ? was.max : Math.max(0, set.current ?? 0));
  let current: number;
  if (set.current !== undefined) current = set.current;
  else if (hp && set.max !== undefined) {
    const taken = Math.max(0, was.max - was.current);
    current = max - taken;
    if (was.current > 0) current = Math.max(current, Math.min(1, max));
  } else current = was.current;
  if (!hp && set.current === undefined) current = max;
  current = Math.min(max, Math.max(floorOf(negativeHp), current));
  return { current, max, temp: set.temp ?? was.temp };
}
