import type { ActionDef, Effect, JsonObject } from '@roundkeeper/engine';
import { flagsOf, kindOf } from './catalog.js';
import type { State } from './types.js';

/** The text's "Combat Modifiers" a GM can put on a combatant, as conditions. */
export const CONDITIONS = ['kneeling', 'prone', 'cover', 'concealed', 'flanked', 'surprised'] as const;
export type ConditionName = (typeof CONDITIONS)[number];

/** What an effect of this ruleset does, in its data. */
export interface EffectData {
  condition?: ConditionName;
  /** Cover/concealment bonus, or the number of flanking opponents. */
  value?: number;
  /** Defensive actions: "cannot make an attack until their next turn". */
  noAttacks?: boolean;
  /** Cast Cantrip reduced: "may not take an additional magic action until their next turn". */
  noMagic?: boolean;
  /** Ready/Stow and Cast Cantrip reductions: penalty dice on the character's other checks. */
  penaltyDice?: number;
  /** Aim: bonus dice on ranged attacks against this combatant. */
  aimAt?: string;
  bonusDice?: number;
  /** Lunge, Off-hand attack: the weapon's parry bonus is lost. */
  noParry?: boolean;
  /** Scramble: move actions on the next turn keep their turn requirement. */
  noReducedMove?: boolean;
  /** Defensive actions' defense changes. */
  meleeDefenseDoubled?: boolean;
  rangedDefenseDoubled?: boolean;
  freeAttackDefense?: number;
  situationalDefense?: number;
}

export function dataOf(e: Effect): EffectData {
  return (e.data ?? {}) as EffectData;
}

export function effectsOn(state: State, id: string): Effect[] {
  return state.effects.filter((e) => e.target === id);
}

export function has(state: State, id: string, key: keyof EffectData): Effect | undefined {
  return effectsOn(state, id).find((e) => dataOf(e)[key] !== undefined && dataOf(e)[key] !== false);
}

/**
 * "Behind cover": "the cover bonus of whichever is greater plus one for each additional piece of cover up to a
 * maximum of +9 after which the character is completely covered and can not be attacked."
 */
export function coverBonus(sources: number[]): number {
  if (sources.length === 0) return 0;
  return Math.min(9, Math.max(...sources) + sources.length - 1);
}

export interface DefenseModifiers {
  melee: number;
  ranged: number;
  /** Cover of +9: "completely covered and can not be attacked". */
  fullyCovered: boolean;
  notes: string[];
}

/** The target's defense modifiers from conditions, as the text numbers them. */
export function defenseModifiers(state: State, id: string): DefenseModifiers {
  const out: DefenseModifiers = { melee: 0, ranged: 0, fullyCovered: false, notes: [] };
  const conditions = effectsOn(state, id).filter((e) => dataOf(e).condition);
  const named = (n: ConditionName) => conditions.filter((e) => dataOf(e).condition === n);
  // "Kneeling characters gain +2 ranged defense and -3 melee defense … Prone characters triple these effects."
  if (named('prone').length > 0) {
    out.ranged += 6;
    out.melee -= 9;
    out.notes.push('prone: +6 ranged, −9 melee defense');
  } else if (named('kneeling').length > 0) {
    out.ranged += 2;
    out.melee -= 3;
    out.notes.push('kneeling: +2 ranged, −3 melee defense');
  }
  const cover = coverBonus(named('cover').map((e) => dataOf(e).value ?? 1));
  if (cover > 0) {
    out.melee += cover;
    out.ranged += cover;
    out.fullyCovered = cover >= 9;
    out.notes.push(cover >= 9 ? 'completely covered: cannot be attacked' : `cover +${cover}`);
  }
  const concealed = Math.max(0, ...named('concealed').map((e) => dataOf(e).value ?? 1));
  if (concealed > 0) {
    out.melee += concealed;
    out.ranged += concealed;
    out.notes.push(`concealed +${concealed}`);
  }
  // "a -1 penalty to their melee defense for each opponent contributing to the situation"
  const flankers = named('flanked').reduce((n, e) => n + (dataOf(e).value ?? 2), 0);
  if (flankers > 0) {
    out.melee -= flankers;
    out.notes.push(`flanked by ${flankers}: −${flankers} melee defense`);
  }
  if (named('surprised').length > 0)
    out.notes.push('surprised: no melee or ranged defense bonuses (parry, block)');
  for (const e of effectsOn(state, id)) {
    const d = dataOf(e);
    if (d.meleeDefenseDoubled) out.notes.push(`${e.name}: melee defense bonus doubled`);
    if (d.rangedDefenseDoubled) out.notes.push(`${e.name}: ranged defense bonus doubled`);
    if (d.situationalDefense) {
      out.ranged += d.situationalDefense;
      out.notes.push(`${e.name}: +${d.situationalDefense} situational defense`);
    }
    if (d.noParry) out.notes.push(`${e.name}: no parry bonus`);
  }
  return out;
}

/** "lose 3 meters distance when making a movement action. Prone characters triple these effects." */
export function movementPenalty(state: State, id: string): number {
  const names = effectsOn(state, id).map((e) => dataOf(e).condition);
  if (names.includes('prone')) return 9;
  if (names.includes('kneeling')) return 3;
  return 0;
}

/** Penalty dice the character carries on every other check (Ready/Stow, Cast Cantrip reductions). */
export function carriedPenaltyDice(state: State, id: string): number {
  return effectsOn(state, id).reduce((n, e) => n + (dataOf(e).penaltyDice ?? 0), 0);
}

/** The dice and defenses that bear on one action's check, shown in the log and in legal actions. */
export interface CheckModifiers extends JsonObject {
  penaltyDice: number;
  bonusDice: number;
  notes: string[];
}

export interface CheckInput {
  target?: string | undefined;
  bonusDice?: number | undefined;
  reachChoice?: 'penalty' | 'free-strike' | undefined;
  /** The action a free attack is made as. */
  as?: ActionDef | undefined;
}

export function checkModifiers(
  state: State,
  id: string,
  action: ActionDef,
  input: CheckInput,
): CheckModifiers {
  const c = state.combatants[id]!;
  const made = input.as ?? action;
  const out: CheckModifiers = { penaltyDice: 0, bonusDice: 0, notes: [] };
  const own = flagsOf(made).penaltyDice ?? 0;
  if (own > 0) {
    out.penaltyDice += own;
    out.notes.push(`${made.name}: ${own} penalty dice`);
  }
  const carried = carriedPenaltyDice(state, id);
  if (carried > 0) {
    out.penaltyDice += carried;
    out.notes.push(`${carried} penalty ${carried === 1 ? 'die' : 'dice'} until ${c.name}'s next turn`);
  }
  if (input.bonusDice) {
    out.bonusDice += input.bonusDice;
    out.notes.push(`${input.bonusDice} bonus dice chosen`);
  }
  const kind = kindOf(made);
  // "massless ranged magical effects do not suffer ranged penalties from wind"
  if (
    kind === 'ranged' &&
    made.tags.includes('attack') &&
    made.id !== 'throw-spell' &&
    state.options.wind > 0
  ) {
    out.penaltyDice += state.options.wind;
    out.notes.push(`wind: ${state.options.wind} penalty dice`);
  }
  const target = input.target ? state.combatants[input.target] : undefined;
  if (target && made.tags.includes('attack')) {
    const d = defenseModifiers(state, target.id);
    if (kind === 'melee' && d.melee !== 0)
      out.notes.push(`${target.name}'s melee defense ${signed(d.melee)}`);
    if (kind === 'ranged' && d.ranged !== 0)
      out.notes.push(`${target.name}'s ranged defense ${signed(d.ranged)}`);
    out.notes.push(...d.notes.map((n) => `${target.name} ${n}`));
    if (kind === 'ranged') {
      for (const e of effectsOn(state, id)) {
        const aim = dataOf(e);
        if (aim.aimAt === target.id && aim.bonusDice) {
          out.bonusDice += aim.bonusDice;
          out.notes.push(`aimed at ${target.name}: ${aim.bonusDice} bonus dice`);
        }
      }
    }
    // "Reach": one penalty die plus one per five points the opponent's reach exceeds yours, the first time.
    const exceed = target.stats.reach - c.stats.reach;
    if (kind === 'melee' && exceed > 0 && !c.cs.reachPaid.includes(target.id)) {
      if (input.reachChoice === 'free-strike')
        out.notes.push(`${target.name} is granted a free strike (reach)`);
      else {
        const dice = 1 + Math.floor(exceed / 5);
        out.penaltyDice += dice;
        out.notes.push(`reach: ${dice} penalty ${dice === 1 ? 'die' : 'dice'} against ${target.name}`);
      }
    }
  }
  return out;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : `−${-n}`;
}
