import type { Instant } from '@roundkeeper/engine';
import type { TaraStats } from './options.js';

/** 000: "A Round is broken up into 30 'Marks' … The Round always begins at Mark 30 and then decreases by 1." */
export const MARKS_PER_ROUND = 30;

/** The longest Casting Time followed: ten Rounds (000 has no spell longer than a Round). */
export const MAX_CASTING_TIME = 10 * MARKS_PER_ROUND;

/**
 * What happens at one Mark, in order: a spell resolves, then an attack lands, then someone starts an
 * action. Among combatants the tie-break key decides (000 "Ties").
 */
export const AT_MARK = { resolve: 0, attack: 1, turn: 2 } as const;
export type AtMarkKind = keyof typeof AT_MARK;

/**
 * The tie-break key of a combatant, lower first. 000 "Ties": "the character with the higher raw
 * Initiative goes first. If the Initiatives are the same, then the higher Agility, then Intellect. If
 * they are all the same, then simultaneous actions".
 */
export function tieKey(stats: TaraStats): number[] {
  // `0 - x`, not `-x`: no negative zero in the state.
  return [0 - characteristic(stats), 0 - stats.agility, 0 - stats.intellect];
}

/**
 * The instant of something at a Mark of a round. Marks count down, so Mark m is position 30 − m;
 * a Mark of 0 or less lies in the next round: Mark 0 is the next round's Mark 30, Mark −5 its Mark 25
 * (000 Casting in Combat: a spell that "goes off 5 Marks into this Round" resolves at Mark 25).
 */
export function instantAt(round: number, mark: number, key: readonly number[], kind: AtMarkKind): Instant {
  let r = round;
  let m = mark;
  while (m <= 0) {
    r += 1;
    m += MARKS_PER_ROUND;
  }
  return { round: r, at: [MARKS_PER_ROUND - m, ...key, AT_MARK[kind]] };
}

/** The Mark an instant falls on. */
export function markOf(at: Instant): number {
  return MARKS_PER_ROUND - (at.at[0] ?? 0);
}

/** Two instants at the same Mark with the same tie-break key: simultaneous. */
export function sameMoment(a: Instant, b: Instant): boolean {
  if (a.round !== b.round) return false;
  // The first four positions (Mark, the tie-break key): compared one by one, as their joined text would be.
  const n = Math.min(a.at.length, 4);
  if (n !== Math.min(b.at.length, 4)) return false;
  for (let i = 0; i < n; i++) if (a.at[i] !== b.at[i]) return false;
  return true;
}

/**
 * 000 Initiative: "A character's Initiative Characteristic is the average between their Agility and
 * Intellect, rounded down." A sheet may state the Initiative directly (the worked examples do).
 */
export function characteristic(stats: TaraStats): number {
  return stats.initiative ?? Math.floor((stats.agility + stats.intellect) / 2);
}

/** 000 Very Simply: "each Character has their Initiative, which is Intellect and Agility average rounding up." */
export function verySimplyCharacteristic(stats: TaraStats): number {
  return stats.initiative ?? Math.ceil((stats.agility + stats.intellect) / 2);
}

/** 000 Initiative Modifiers: "Initiative is modified by Armor, equal to half (round down) of the Evade Modifier." */
export function armorModifier(stats: TaraStats): number {
  return Math.floor(stats.armorEvadeModifier / 2);
}

/**
 * 000 Attacking: first attack on the Initiative Score; 2 attacks 7 Marks apart, 3 attacks 5 apart,
 * 4 attacks 4 apart, 5 attacks 3 apart. (The chart's 4-attack row "20 16 12 5" is a slip for 8.)
 */
export const ATTACK_OFFSETS: Record<number, number[]> = {
  1: [0],
  2: [0, 7],
  3: [0, 5, 10],
  4: [0, 4, 8, 12],
  5: [0, 3, 6, 9, 12],
};

export function attackOffsets(count: number): number[] {
  return ATTACK_OFFSETS[Math.max(1, Math.min(5, count))] ?? [0];
}

/** 000 Actions in Combat: Free 0, Quarter 5, Half 10, Full 15 Marks. */
export const CATEGORY_MARKS = { free: 0, quarter: 5, half: 10, full: 15 } as const;
export type Category = keyof typeof CATEGORY_MARKS;
export const CATEGORIES: readonly Category[] = ['free', 'quarter', 'half', 'full'];

export function isCategory(kind: string): kind is Category {
  return Object.hasOwn(CATEGORY_MARKS, kind);
}
export const FULL_ACTION = CATEGORY_MARKS.full;
