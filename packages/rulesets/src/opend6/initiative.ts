import {
  type Combatant,
  combatantIn,
  combatantOf,
  type Rejection,
  reject,
  unknownCombatant,
} from '@roundkeeper/engine';
import { pipsOf, rollOptions } from './codes.js';
import type { AnyEvent, Opend6EventOf } from './events.js';
import type { Opend6Options } from './options.js';
import { traitOf } from './penalty.js';
import type { InitiativeBonus } from './shapes.js';

import type { Ctx, Opend6Types, State } from './types.js';

export type { InitiativeBonus } from './shapes.js';

type C = Combatant<Opend6Types>;

/**
 * 002 "Optional Initiative Bonus". The sentence is ambiguous; the decisions (docs/rulesets/opend6.md):
 * - search: +1 per full 2D (6 pips) that search exceeds its base attribute, Perception;
 * - Reflexes: +1 per full 4D (12 pips) of the Reflexes code itself, counted from 0D (Reflexes is an
 *   attribute, so it has no base attribute to exceed);
 * - the two clauses add up ("or" lists two sources, each "for every");
 * - +1 per six ranks of Skill Bonus / Increased Attribute affecting Reflexes or search.
 */
export function initiativeBonus(c: C): InitiativeBonus {
  const search = traitOf(c, 'search');
  const over = search && search.kind === 'skill' ? pipsOf(search.code) - pipsOf(c.stats.perception) : 0;
  return {
    search: over > 0 ? Math.floor(over / 6) : 0,
    reflexes: Math.floor(Math.max(0, pipsOf(c.stats.reflexes)) / 12),
    ranks: Math.floor(c.stats.initiativeBonusRanks / 6),
  };
}

/** A skill's code, or the attribute rolled in its place (search → Perception, dodge → Reflexes). */
function skillPips(c: C, skill: string, fallback: string): number {
  const t = traitOf(c, skill);
  return pipsOf(t && t.kind === 'skill' ? t.code : fallback);
}

/**
 * 002 "Ties/No Rolls": (1) an ability to go first, (2) Perception, (3) search, (4) Reflexes, (5) dodge,
 * (6) special equipment or situation. Highest first, so each value is negated; comparing the tuples
 * lexicographically moves to the next factor only on a tie, and a spot once decided never changes.
 */
export function ladder(c: C): readonly number[] {
  let rungs = LADDERS.get(c.stats);
  if (rungs === undefined) {
    rungs = Object.freeze(ladderOf(c));
    LADDERS.set(c.stats, rungs);
  }
  return rungs;
}

/** Each sheet's ladder, read once (a sheet is never changed: a new one is a new object). */
const LADDERS = new WeakMap<C['stats'], readonly number[]>();

function ladderOf(c: C): number[] {
  return [
    -c.stats.goFirst,
    -pipsOf(c.stats.perception),
    -skillPips(c, 'search', c.stats.perception),
    -pipsOf(c.stats.reflexes),
    -skillPips(c, 'dodge', c.stats.reflexes),
    -c.stats.specialEquipment,
  ];
}

/** An order key: the first factor (initiative or the GM's place), the tie-break ladder, the roster index. */
export function orderKey(first: number, c: C, rosterIndex: number): number[] {
  const r = ladder(c);
  // The ladder has its six steps: the key is made whole at once, not grown.
  return [first, r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, rosterIndex];
}

/**
 * The units that take turns: each character, or an NPC group (002 "Groups": the GM may "roll one
 * action for a group"). A group's first member in roster order is its leader: its sheet rolls.
 */
export interface Unit {
  leader: string;
  members: string[];
  group?: string;
}

export function canAct(c: C): boolean {
  return c.active && c.cs.unable === null;
}

export function unitsOf(state: State, ids: readonly string[] = state.roster): Unit[] {
  const units: Unit[] = [];
  let byGroup: Map<string, Unit> | undefined;
  for (const id of ids) {
    const c = state.combatants[id];
    if (!c?.active) continue;
    if (c.side === 'npc' && c.group) {
      byGroup ??= new Map();
      const known = byGroup.get(c.group);
      if (known) {
        known.members.push(id);
        continue;
      }
      const unit: Unit = { leader: id, members: [id], group: c.group };
      byGroup.set(c.group, unit);
      units.push(unit);
    } else units.push({ leader: id, members: [id] });
  }
  return units;
}

/** The members of a group's turn now: every active NPC of the group (late arrivals included). */
export function membersOf(state: State, leader: string, group: string | undefined): string[] {
  if (!group) return [leader];
  return state.roster.filter((id) => {
    const c = combatantOf(state, id);
    return c?.active === true && c.side === 'npc' && c.group === group;
  });
}

/**
 * Rolls a unit's initiative (Methods 2 and 3): Perception, plus the optional bonus shown as named
 * terms in the breakdown, plus one Wild Die per Character Point spent. Initiative takes no penalty.
 */
export function rollInitiative(
  ctx: Ctx,
  unit: Unit,
  characterPoints: number,
  rosterIndex: number,
): AnyEvent[] {
  const { state } = ctx;
  const c = combatantIn(state, unit.leader);
  const bonus = state.options.initiativeBonus ? initiativeBonus(c) : null;
  const expression = bonus
    ? `${c.stats.perception} + @bonus.search + @bonus.reflexes + @bonus.ranks`
    : c.stats.perception;
  const refs: Record<string, number> | undefined = bonus
    ? { 'bonus.search': bonus.search, 'bonus.reflexes': bonus.reflexes, 'bonus.ranks': bonus.ranks }
    : undefined;
  const roll = ctx.roll(expression, refs, rollOptions(state.options.complication));
  const events: AnyEvent[] = [
    { type: 'dice/rolled', combatant: c.id, purpose: 'initiative (Perception)', roll: roll },
  ];
  // 002: "Spending one Character Point … allows … to add the result of one extra Wild Die roll".
  // One Wild Die per roll (the dice module's rule), so each point is its own roll; a 1 on it is no complication.
  const extra: number[] = [];
  let total = roll.total;
  for (let i = 0; i < characterPoints; i++) {
    const wild = ctx.roll('1D', undefined, rollOptions('none'));
    extra.push(wild.total);
    total += wild.total;
    events.push({
      type: 'dice/rolled',
      combatant: c.id,
      purpose: 'initiative (Character Point: one extra Wild Die)',
      roll: wild,
    });
  }
  const init: Opend6EventOf<'opend6/initiative'> = {
    type: 'opend6/initiative',
    combatant: c.id,
    members: unit.members,
    rolled: true,
    perception: c.stats.perception,
    perceptionRoll: roll.total,
    characterPoints,
    characterPointRolls: extra,
    total,
    key: orderKey(-total, c, rosterIndex),
  };
  if (bonus) init.bonus = bonus;
  events.push(init);
  return events;
}

/**
 * Method 1 and "No Rolls": the GM names who acts first (or the whole order); everyone else follows
 * the tie-break ladder. The order holds until the scene ends.
 */
export function setOrder(
  state: State,
  units: Unit[],
  first: string | undefined,
  order: string[] | undefined,
): Opend6EventOf<'opend6/initiative'>[] {
  const events: Opend6EventOf<'opend6/initiative'>[] = [];
  const position = (u: Unit): number => {
    if (order) {
      const i = order.findIndex((id) => u.members.includes(id));
      return i < 0 ? order.length : i;
    }
    return first && u.members.includes(first) ? 0 : 1;
  };
  for (const u of units) {
    const c = combatantIn(state, u.leader);
    events.push({
      type: 'opend6/initiative',
      combatant: c.id,
      members: u.members,
      rolled: false,
      total: null,
      key: orderKey(position(u), c, state.roster.indexOf(c.id)),
    });
  }
  return events;
}

/** Character Points and Fate Points on initiative, by the character spending them. */
export interface InitiativePoints {
  characterPoints?: Record<string, number> | undefined;
  fatePoints?: Record<string, number> | undefined;
}

/** Character Points on initiative: only when initiative is rolled, only from the pool, never Fate Points. */
export function checkPoints(state: State, spent: InitiativePoints, rolling: boolean): Rejection | undefined {
  const spentFate = spent.fatePoints && Object.entries(spent.fatePoints).find(([, n]) => n > 0);
  if (spentFate) {
    const name = state.combatants[spentFate[0]]?.name ?? spentFate[0];
    return reject(
      'initiative/fate-points',
      `Fate Points cannot be spent on initiative (the rules: "Character Points, but not Fate Points"); spend Character Points for ${name} instead.`,
    );
  }
  const points = spent.characterPoints;
  if (points === undefined) return undefined;
  for (const [id, n] of Object.entries(points)) {
    if (n === 0) continue;
    const c = combatantOf(state, id);
    if (!c) return unknownCombatant(state, id);
    if (!rolling) {
      const when =
        state.options.initiativeMethod === 'first-significant-action'
          ? 'under Method 1 nobody rolls initiative'
          : state.options.initiativeMethod === 'perception-per-scene'
            ? 'under Method 2 initiative is rolled once, when the scene starts'
            : 'under Method 3 initiative is rolled when a round begins: spend them when pressing Next at the end of the round';
      return reject(
        'initiative/not-rolled',
        `Character Points add Wild Dice to an initiative roll, and no initiative is rolled now (${when}); keep ${c.name}'s points.`,
      );
    }
    if (!c.active) {
      return reject(
        'initiative/not-rolling',
        `${c.name} is out of the fight and rolls no initiative; keep the points.`,
      );
    }
    if (!leads(state, c)) {
      const group = c.group ?? '';
      const leader = unitsOf(state).find((u) => u.group === group)?.leader ?? id;
      return reject(
        'initiative/group-roll',
        `${c.name}'s group ${group} rolls once, on ${state.combatants[leader]?.name ?? leader}'s sheet; spend the group's Character Points from that character.`,
      );
    }
    const unit = c.cs.unable ? unitsOf(state).find((u) => u.leader === id) : undefined;
    if (unit && !unit.members.some((m) => canAct(combatantIn(state, m)))) {
      return reject(
        'initiative/not-rolling',
        `${c.name} is ${c.cs.unable} and rolls no initiative this round; keep the points, or record the recovery (Recover) first.`,
      );
    }
    if (c.cs.characterPoints < n) {
      return reject(
        'initiative/character-points',
        `${c.name} has ${c.cs.characterPoints} Character Point${c.cs.characterPoints === 1 ? '' : 's'}, not ${n}; spend at most ${c.cs.characterPoints}.`,
      );
    }
  }
  return undefined;
}

/** Whether `next` now ends the round and rolls initiative (Method 3). */
export function willRoll(state: State): boolean {
  if (state.options.initiativeMethod !== 'perception-per-round') return false;
  for (const e of state.agenda) {
    if (e.kind === 'turn' && e.at.round === state.round && e.combatant !== undefined)
      if (state.combatants[e.combatant]?.active) return false;
  }
  return true;
}

/**
 * Whether active combatant `c` leads the unit it takes turns in (`unitsOf`'s leader): a character, or an
 * NPC group's first active member in roster order — asked without making the units.
 */
function leads(state: State, c: C): boolean {
  if (!(c.side === 'npc' && c.group)) return true;
  for (const id of state.roster) {
    const o = state.combatants[id];
    if (o?.active && o.side === 'npc' && o.group === c.group) return id === c.id;
  }
  return false;
}

/**
 * 002: the GM picks a method when rounds are declared, and it holds for the scene — Method 1's order is
 * kept "until the scene ends", Method 2 rolls "once for the entire scene". Changing it mid-scene would
 * leave a Method 2 scene nobody rolled for, or a GM order with no first actor. The other options may
 * change at any time (they apply to the next roll).
 */
export function canSetOptions(state: State, next: Opend6Options): Rejection | undefined {
  if (state.status !== 'running' || next.initiativeMethod === state.options.initiativeMethod)
    return undefined;
  return reject(
    'options/method-locked',
    `The initiative method holds for the whole scene (the rules: the order is kept "until the scene ends", or rolled "once for the entire scene"); this scene uses ${state.options.initiativeMethod}. Change the initiative method before starting the scene, or end this scene and start a new one.`,
  );
}
