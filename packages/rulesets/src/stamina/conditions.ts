import { type ActionDef, combatantIn, type Effect, type JsonObject } from '@roundkeeper/engine';
import { STAMINA_CATALOG } from './catalog.js';
import { flagsOf, isAttack, kindOf } from './flags.js';
import { attackReach, type ConditionName, rank } from './options.js';
import type { State } from './types.js';

/** What an effect of this ruleset does, in its data. */
export type EffectData = {
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
  /** Lunge, Off-hand attack: the weapon's parry bonus is lost (`parryWeapon`'s, or every weapon's when unknown). */
  noParry?: boolean;
  parryWeapon?: string;
  /** Scramble: move actions on the next turn keep their turn requirement. */
  noReducedMove?: boolean;
  /** Defensive actions' defense changes. */
  meleeDefenseDoubled?: boolean;
  rangedDefenseDoubled?: boolean;
  freeAttackDefense?: number;
  situationalDefense?: number;
  /** Dodge without an entered distance: the meters the character moved on the Dodge's turn. */
  situationalFromTurn?: boolean;
};

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

/** The attack the defense is against: its kind (only that kind's bonuses are noted) and Bull Rush's "ignoring any shield bonuses". */
export interface Against {
  kind?: 'melee' | 'ranged' | undefined;
  ignoreShield?: boolean | undefined;
}

/**
 * The target's defense modifiers over their defense, as the text numbers them: the sheet's melee and ranged
 * defense bonuses (doubled by Defensive Stance and Dodge), the readied weapons' parry and a shield's block (as
 * a piece of cover), none of them when Surprised, and the conditions. `freeAttack`: the attack is a free
 * attack, so Disengage's "situational 10 defense bonus against any free attacks" counts.
 */
export function defenseModifiers(
  state: State,
  id: string,
  freeAttack = false,
  against: Against = {},
): DefenseModifiers {
  const out: DefenseModifiers = { melee: 0, ranged: 0, fullyCovered: false, notes: [] };
  const c = combatantIn(state, id);
  const own = effectsOn(state, id);
  const conditions = own.length ? own.filter((e) => dataOf(e).condition) : own;
  const named = (n: ConditionName) =>
    conditions.length ? conditions.filter((e) => dataOf(e).condition === n) : conditions;
  // Surprised: "does not gain melee or ranged defense bonuses including parry and block bonuses from carried equipment"
  const surprised = named('surprised').length > 0;
  if (!surprised) {
    // Defensive Stance: "double their melee defense bonus (not including any parry or cover bonuses)"
    const stance = own.find((e) => dataOf(e).meleeDefenseDoubled);
    out.melee += c.stats.meleeDefenseBonus * (stance ? 2 : 1);
    // Dodge: "double their ranged defense bonus (not including any cover bonuses)"
    const dodge = own.find((e) => dataOf(e).rangedDefenseDoubled);
    out.ranged += c.stats.rangedDefenseBonus * (dodge ? 2 : 1);
    const bonusNote = (
      kind: string,
      base: number,
      doubledBy: { name: string } | undefined,
    ): string | null => {
      if (doubledBy) {
        const what = base > 0 ? `+${base} → +${2 * base}` : 'none on the sheet';
        return `${doubledBy.name}: ${kind} defense bonus doubled (${what})`;
      }
      return base > 0 ? `${kind} defense bonus +${base}` : null;
    };
    const noted =
      against.kind === 'melee'
        ? bonusNote('melee', c.stats.meleeDefenseBonus, stance)
        : against.kind === 'ranged'
          ? bonusNote('ranged', c.stats.rangedDefenseBonus, dodge)
          : null;
    if (noted) out.notes.push(noted);
    // "the character loses any parry bonus from the weapon used" (Lunge, Off-hand attack)
    const lost = own.filter((e) => dataOf(e).noParry).map((e) => dataOf(e).parryWeapon ?? '*');
    const parrying = c.cs.readied.filter(
      (w) => (c.stats.weapons[w]?.parry ?? 0) > 0 && !lost.includes(w) && !lost.includes('*'),
    );
    const parry = parrying.reduce((n, w) => n + (c.stats.weapons[w]?.parry ?? 0), 0);
    out.melee += parry;
    if (parry > 0 && against.kind === 'melee') out.notes.push(`parry +${parry} (${parrying.join(', ')})`);
  }
  // A wielded shield is "a piece of cover": "whichever is greater plus one for each additional piece".
  const shields = surprised ? [] : c.cs.readied.filter((w) => (c.stats.weapons[w]?.block ?? 0) > 0);
  const blocks = against.ignoreShield ? [] : shields;
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
  const cover = coverBonus([
    ...named('cover').map((e) => dataOf(e).value ?? 1),
    ...blocks.map((w) => c.stats.weapons[w]?.block ?? 0),
  ]);
  if (cover > 0) {
    out.melee += cover;
    out.ranged += cover;
    out.fullyCovered = cover >= 9;
    const counting = blocks.length
      ? ` (counting ${blocks.map((w) => `${w}'s block +${c.stats.weapons[w]?.block ?? 0}`).join(', ')})`
      : '';
    out.notes.push(cover >= 9 ? 'completely covered: cannot be attacked' : `cover +${cover}${counting}`);
  }
  // Bull Rush: "ignoring any shield bonuses to the target's defense"
  if (against.ignoreShield && shields.length)
    out.notes.push(`shield ignored by Bull Rush (${shields.join(', ')})`);
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
  for (const e of own) {
    const d = dataOf(e);
    // Dodge: "a situational defense bonus equal to the distance they move on the turn they took this action"
    const situational = d.situationalFromTurn
      ? (state.combatants[id]?.cs.turn.meters ?? 0)
      : (d.situationalDefense ?? 0);
    if (situational > 0) {
      out.ranged += situational;
      out.notes.push(`${e.name}: +${situational} situational defense`);
    }
    // Disengage: "a situational 10 defense bonus against any free attacks until their next turn"
    if (freeAttack && d.freeAttackDefense) {
      out.melee += d.freeAttackDefense;
      out.ranged += d.freeAttackDefense;
      out.notes.push(`${e.name}: +${d.freeAttackDefense} defense against free attacks`);
    }
    if (d.noParry)
      out.notes.push(`${e.name}: no parry bonus${d.parryWeapon ? ` from ${d.parryWeapon}` : ''}`);
  }
  return out;
}

/**
 * `defenseModifiers(state, id).fullyCovered` without writing its notes (asked of every attack's target): the
 * conditions' cover and, unless Surprised, the readied shields' blocks, as one cover bonus of +9.
 */
export function fullyCovered(state: State, id: string): boolean {
  const c = combatantIn(state, id);
  const sources: number[] = [];
  let surprised = false;
  for (const e of state.effects) {
    if (e.target !== id) continue;
    const d = dataOf(e);
    if (d.condition === 'surprised') surprised = true;
    else if (d.condition === 'cover') sources.push(d.value ?? 1);
  }
  if (!surprised) {
    for (const w of c.cs.readied) {
      const block = c.stats.weapons[w]?.block ?? 0;
      if (block > 0) sources.push(block);
    }
  }
  return coverBonus(sources) >= 9;
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
  /** Bash made with a shield (no penalty dice). */
  shield?: boolean | undefined;
  /** Disarm against a weapon wielded two-handed (four penalty dice). */
  twoHanded?: boolean | undefined;
  /** Wind penalty dice for this shot, instead of the encounter's `wind` option. */
  wind?: number | undefined;
}

/** Whether the character made an attack after their last Dash of this turn (Power attack). */
function attackedSinceDash(state: State, id: string): boolean | null {
  const done = combatantIn(state, id).cs.turn.actions;
  const dash = done.lastIndexOf('dash');
  if (dash < 0) return null;
  const catalog = [...STAMINA_CATALOG, ...state.customActions];
  return done.slice(dash + 1).some((x) => {
    const a = catalog.find((y) => y.id === x);
    return a !== undefined && isAttack(a);
  });
}

/**
 * The penalty dice the action's own text adds to its check, with the reason: the catalog's base number, changed
 * where the text makes it depend on the situation.
 */
export function ownPenaltyDice(
  state: State,
  id: string,
  made: ActionDef,
  input: CheckInput,
): { dice: number; note: string | null } {
  const c = combatantIn(state, id);
  const target = input.target ? state.combatants[input.target] : undefined;
  const base = flagsOf(made).penaltyDice ?? 0;
  switch (made.id) {
    case 'bash':
      // "two penalty dice unless it is being performed with a shield"
      return input.shield
        ? { dice: 0, note: 'Bash with a shield: no penalty dice' }
        : { dice: 2, note: 'Bash: 2 penalty dice (no shield)' };
    case 'disarm':
      // "two penalty dice … if the targeted weapon is wielded one-handed and four penalty dice if it's wielded two-handed"
      return input.twoHanded
        ? { dice: 4, note: 'Disarm: 4 penalty dice (two-handed weapon)' }
        : { dice: 2, note: 'Disarm: 2 penalty dice (one-handed weapon)' };
    case 'distracting-attack':
      // "two penalty dice …, three if the opponents weapon's reach is greater than the attackers"
      return target && target.stats.reach > c.stats.reach
        ? { dice: 3, note: `Distracting attack: 3 penalty dice (${target.name} has the longer reach)` }
        : { dice: 2, note: 'Distracting attack: 2 penalty dice' };
    case 'off-hand-attack': {
      // "two penalty dice, reduced by the character's rank …, in addition to the penalty die … for using the off-hand"
      const dice = Math.max(0, 2 - rank(c.stats, 'offHandAttack')) + 1;
      return { dice, note: `Off-hand attack: ${dice} penalty ${dice === 1 ? 'die' : 'dice'}` };
    }
    case 'power-attack':
      // "two penalty dice …, zero penalty dice if this is the first attack after the character performed a dash action this turn"
      return attackedSinceDash(state, id) === false
        ? { dice: 0, note: 'Power attack: no penalty dice (first attack after a Dash)' }
        : { dice: 2, note: 'Power attack: 2 penalty dice' };
    case 'trip': {
      // "two, plus the defender's balance rank, penalty dice"
      const dice = 2 + (target ? rank(target.stats, 'balance') : 0);
      return { dice, note: `Trip: ${dice} penalty dice` };
    }
    default:
      return { dice: base, note: base > 0 ? `${made.name}: ${base} penalty dice` : null };
  }
}

export function checkModifiers(
  state: State,
  id: string,
  action: ActionDef,
  input: CheckInput,
): CheckModifiers {
  const c = combatantIn(state, id);
  const made = input.as ?? action;
  const out: CheckModifiers = { penaltyDice: 0, bonusDice: 0, notes: [] };
  const own = ownPenaltyDice(state, id, made, input);
  out.penaltyDice += own.dice;
  if (own.note) out.notes.push(own.note);
  if (made.id === 'jump') {
    // "increase the total distance by 50% if you've taken a dash or sprint action already this turn"
    const done = c.cs.turn.actions;
    if (done.includes('dash') || done.includes('sprint'))
      out.notes.push('Jump: distance +50% (after a Dash or Sprint this turn)');
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
  // "ranged attack skill checks receive up to five penalty dice, heavier or smaller projectiles should receive
  // lesser penalties and massless ranged magical effects do not suffer ranged penalties from wind"
  const wind = input.wind ?? state.options.wind;
  if (kind === 'ranged' && made.tags.includes('attack') && made.id !== 'throw-spell' && wind > 0) {
    out.penaltyDice += wind;
    out.notes.push(`wind: ${wind} penalty dice`);
  }
  const target = input.target ? state.combatants[input.target] : undefined;
  if (target && made.tags.includes('attack')) {
    const d = defenseModifiers(state, target.id, action.id === 'free-attack', {
      kind: kind === 'melee' || kind === 'ranged' ? kind : undefined,
      ignoreShield: made.id === 'bull-rush',
    });
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
    // "Reach": "Against a character with greater reach than your melee attack's" — the attack's own reach
    // (Half-Sword halves it, Lunge doubles it and adds the rank) — one penalty die plus one per five points
    // their reach exceeds it, the first time.
    const reachOf = attackReach(c.stats, made.id);
    const exceed = target.stats.reach - reachOf;
    if (kind === 'melee' && exceed > 0 && !c.cs.reachPaid.includes(target.id)) {
      if (input.reachChoice === 'free-strike')
        out.notes.push(`${target.name} is granted a free strike (reach)`);
      else {
        const dice = 1 + Math.floor(exceed / 5);
        out.penaltyDice += dice;
        out.notes.push(
          `reach: ${dice} penalty ${dice === 1 ? 'die' : 'dice'} against ${target.name} (reach ${target.stats.reach} against this attack's ${reachOf})`,
        );
      }
    }
  }
  return out;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : `−${-n}`;
}
