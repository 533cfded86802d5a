import type { Combatant, EngineEvent, JsonObject } from '@roundkeeper/engine';
import { pipsOf } from './codes.js';
import { traitOf } from './penalty.js';
import type { Ctx, Opend6Types, State } from './types.js';

type C = Combatant<Opend6Types>;

/**
 * 002 "Optional Initiative Bonus". The sentence is ambiguous; the decisions (docs/rulesets/opend6.md):
 * - search: +1 per full 2D (6 pips) that search exceeds its base attribute, Perception;
 * - Reflexes: +1 per full 4D (12 pips) of the Reflexes code itself, counted from 0D (Reflexes is an
 *   attribute, so it has no base attribute to exceed);
 * - the two clauses add up ("or" lists two sources, each "for every");
 * - +1 per six ranks of Skill Bonus / Increased Attribute affecting Reflexes or search.
 */
export interface InitiativeBonus {
  search: number;
  reflexes: number;
  ranks: number;
}

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
export function ladder(c: C): number[] {
  return [
    -c.stats.goFirst,
    -pipsOf(c.stats.perception),
    -skillPips(c, 'search', c.stats.perception),
    -pipsOf(c.stats.reflexes),
    -skillPips(c, 'dodge', c.stats.reflexes),
    -c.stats.specialEquipment,
  ];
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
  const byGroup = new Map<string, Unit>();
  for (const id of ids) {
    const c = state.combatants[id];
    if (!c?.active) continue;
    if (c.side === 'npc' && c.group) {
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
    const c = state.combatants[id]!;
    return c.active && c.side === 'npc' && c.group === group;
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
): EngineEvent[] {
  const { state } = ctx;
  const c = state.combatants[unit.leader]!;
  const bonus = state.options.initiativeBonus ? initiativeBonus(c) : null;
  const expression = bonus
    ? `${c.stats.perception} + @bonus.search + @bonus.reflexes + @bonus.ranks`
    : c.stats.perception;
  const refs: Record<string, number> = bonus
    ? { 'bonus.search': bonus.search, 'bonus.reflexes': bonus.reflexes, 'bonus.ranks': bonus.ranks }
    : {};
  const roll = ctx.roll(expression, refs, { complication: state.options.complication });
  const events: EngineEvent[] = [
    {
      type: 'dice/rolled',
      combatant: c.id,
      purpose: 'initiative (Perception)',
      roll: roll as unknown as JsonObject,
    },
  ];
  // 002: "Spending one Character Point … allows … to add the result of one extra Wild Die roll".
  // One Wild Die per roll (the dice module's rule), so each point is its own roll; a 1 on it is no complication.
  const extra: number[] = [];
  for (let i = 0; i < characterPoints; i++) {
    const wild = ctx.roll('1D', {}, { complication: 'none' });
    extra.push(wild.total);
    events.push({
      type: 'dice/rolled',
      combatant: c.id,
      purpose: 'initiative (Character Point: one extra Wild Die)',
      roll: wild as unknown as JsonObject,
    });
  }
  const total = roll.total + extra.reduce((a, b) => a + b, 0);
  const init: EngineEvent = {
    type: 'opend6/initiative',
    combatant: c.id,
    members: unit.members,
    rolled: true,
    perception: c.stats.perception,
    perceptionRoll: roll.total,
    characterPoints,
    characterPointRolls: extra,
    total,
    key: [-total, ...ladder(c), rosterIndex],
  };
  if (bonus) init.bonus = bonus as unknown as JsonObject;
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
): EngineEvent[] {
  const events: EngineEvent[] = [];
  const position = (u: Unit): number => {
    if (order) {
      const i = order.findIndex((id) => u.members.includes(id));
      return i < 0 ? order.length : i;
    }
    return first && u.members.includes(first) ? 0 : 1;
  };
  for (const u of units) {
    const c = state.combatants[u.leader]!;
    events.push({
      type: 'opend6/initiative',
      combatant: c.id,
      members: u.members,
      rolled: false,
      total: null,
      key: [position(u), ...ladder(c), state.roster.indexOf(c.id)],
    });
  }
  return events;
}
