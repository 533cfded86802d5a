import {
  type AgendaEntry,
  combatantIn,
  compareInstants,
  turnEntry as engineTurnEntry,
  nextEntry,
  reach,
  rolled,
  scheduleTurns,
} from '@roundkeeper/engine';
import type { Fact } from './effects.js';
import { refsOf } from './options.js';
import type { Ctx, State } from './types.js';

/**
 * "characters declare and resolve their actions on their turns which happen in initiative order. Once all
 * characters have acted … recheck everyones initiative and begin another round."
 * The text gives no initiative check; the formula is an option. Ties: the higher modifier, then roster order.
 */
export function checkInitiative(ctx: Ctx, ids: string[], fixed: Record<string, number> = {}): Fact[] {
  const { state } = ctx;
  const events: Fact[] = [];
  const grouped = state.options.groupInitiative === 'group';
  // Group initiative: the first member of a group checks; the others follow it one after another.
  const firstOf = new Map<string, { total: number; key: number[]; count: number }>();
  for (const id of ids) {
    const c = combatantIn(state, id);
    const group = grouped ? c.group : undefined;
    const lead = group ? (firstOf.get(group) ?? placedGroup(state, group, ids)) : undefined;
    if (group && lead) {
      events.push({ type: 'stamina/initiative', combatant: id, total: lead.total, rolled: true });
      events.push({ type: 'stamina/key', combatant: id, key: [...lead.key, lead.count] });
      firstOf.set(group, { ...lead, count: lead.count + 1 });
      continue;
    }
    const groupSet =
      group !== undefined
        ? ids.find((m) => state.combatants[m]?.group === group && Object.hasOwn(fixed, m))
        : undefined;
    const entered = Object.hasOwn(fixed, id)
      ? fixed[id]
      : groupSet !== undefined
        ? fixed[groupSet]
        : undefined;
    let total: number;
    if (entered !== undefined) {
      total = entered;
      events.push({ type: 'stamina/initiative', combatant: id, total, rolled: false });
    } else {
      const roll = ctx.roll(state.options.initiativeDice, refsOf(c.stats));
      total = roll.total;
      events.push(rolled(id, 'initiative', roll));
      events.push({ type: 'stamina/initiative', combatant: id, total, rolled: true });
    }
    const key = [-total, -c.stats.initiative, state.roster.indexOf(id)];
    if (group) {
      firstOf.set(group, { total, key: [...key], count: 1 });
      key.push(0);
    }
    events.push({ type: 'stamina/key', combatant: id, key });
  }
  return events;
}

/** A group already in the order (a member who arrives late joins it): its place, and how many it has. */
function placedGroup(
  state: State,
  group: string,
  checking: string[],
): { total: number; key: number[]; count: number } | undefined {
  const placed = state.roster
    .map((id) => state.combatants[id])
    .filter((c) => c && c.group === group && c.cs.key && !checking.includes(c.id));
  const key = placed[0]?.cs.key;
  if (!key) return undefined;
  return { total: -key[0]!, key: key.slice(0, 3), count: placed.length };
}

export function keysFrom(events: Fact[]): Map<string, number[]> {
  const keys = new Map<string, number[]>();
  for (const e of events) if (e.type === 'stamina/key') keys.set(e.combatant, e.key);
  return keys;
}

export function turnEntry(ctx: Ctx, id: string, round: number, key: number[]): AgendaEntry {
  return engineTurnEntry(ctx, combatantIn(ctx.state, id), { round, at: key });
}

/** Schedules a round's turns as agenda entries {round, at: orderKey} and starts the first. */
export function scheduleRound(ctx: Ctx, round: number, keys: Map<string, number[]>): Fact[] {
  const events: Fact[] = [{ type: 'round/started', round }];
  const entries: AgendaEntry[] = [];
  for (const id of ctx.state.roster) {
    const c = combatantIn(ctx.state, id);
    const key = keys.get(id) ?? c.cs.key;
    if (!c.active || !key) continue;
    entries.push(turnEntry(ctx, id, round, key));
  }
  for (const e of scheduleTurns(entries)) events.push(e);
  return events;
}

/** Ends the current turn and starts the next; when everyone has acted, rechecks initiative and starts a new round. */
export function advance(ctx: Ctx, fixed: Record<string, number> = {}): Fact[] {
  const { state } = ctx;
  const events: Fact[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const next = nextEntry(state, (e) => e.kind === 'turn' && e.at.round === state.round);
  if (next) {
    for (const e of reach(next)) events.push(e);
    return events;
  }
  events.push({ type: 'round/ended', round: state.round });
  const active = state.roster.filter((id) => state.combatants[id]?.active);
  const recheck = state.options.recheckInitiative
    ? active
    : active.filter((id) => Object.hasOwn(fixed, id) || !state.combatants[id]?.cs.key);
  const rolled = checkInitiative(ctx, recheck, fixed);
  for (const e of rolled) events.push(e);
  for (const e of scheduleRound(ctx, state.round + 1, keysFrom(rolled))) events.push(e);
  return events;
}

export function orderOf(state: State): string[] {
  const keyed: { id: string; key: number[] }[] = [];
  for (const id of state.roster) {
    const key = state.combatants[id]?.cs.key;
    if (key) keyed.push({ id, key });
  }
  return keyed
    .sort((a, b) => compareInstants({ round: 0, at: a.key }, { round: 0, at: b.key }))
    .map((k) => k.id);
}

/**
 * The next round's order, where it is known now: with `recheckInitiative` off, everyone keeps the result
 * they have, and `advance` schedules the active ones by it; null when initiative is rechecked each round
 * (the default), or when someone active has no result yet (they are checked as the round begins).
 */
export function nextRoundOrder(state: State): string[] | null {
  if (state.options.recheckInitiative) return null;
  const active = state.roster.filter((id) => state.combatants[id]?.active);
  if (active.some((id) => !state.combatants[id]?.cs.key)) return null;
  return orderOf(state).filter((id) => active.includes(id));
}
