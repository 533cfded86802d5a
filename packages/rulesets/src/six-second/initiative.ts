import { type CoreEvent, combatantOf, rolled } from '@roundkeeper/engine';
import type { SixSecondFact } from './events.js';
import type { Ctx } from './types.js';

/** How many times tied characters roll again before the GM's roster order settles it (a runaway guard). */
export const MAX_ROLL_OFFS = 20;

/** The check's notation for Reflex dice `dice`, written once per dice (the engine reads it once per text). */
const NOTATION = new Map<string, string>();
function checkNotation(dice: string): string {
  let notation = NOTATION.get(dice);
  if (notation === undefined) {
    notation = `(${dice})+@dexterity`;
    if (NOTATION.size >= 100) NOTATION.clear();
    NOTATION.set(dice, notation);
  }
  return notation;
}

/**
 * 001: "An Initiative check is a special Reflex check + your Dexterity ability." The Reflex dice are the
 * encounter's (option `initiativeDice`) unless the character has their own (`reflexDice`).
 */
export function initiativeCheck(ctx: Ctx, id: string, purpose: string): { total: number; event: CoreEvent } {
  const c = combatantOf(ctx.state, id);
  if (!c) throw new Error(`There is no combatant "${id}" to roll an Initiative check for.`);
  const dice = c.stats.reflexDice ?? ctx.state.options.initiativeDice;
  const roll = ctx.roll(checkNotation(dice), { dexterity: c.stats.dexterity });
  return { total: roll.total, event: rolled(id, purpose, roll) };
}

/** A character and the checks that order them: the first, then each roll-off. */
type Keyed = { id: string; key: number[] };

/** Groups by the latest check, in the order each total first appears. */
function byLatest(list: readonly Keyed[]): Keyed[][] {
  const groups = new Map<number | undefined, Keyed[]>();
  for (const k of list) {
    const total = k.key.at(-1);
    const group = groups.get(total);
    if (group) group.push(k);
    else groups.set(total, [k]);
  }
  return [...groups.values()];
}

/**
 * 001: "In the case of a draw, have the characters who tied roll initiative checks again, the one who
 * rolled higher goes before the lower." Those still tied roll again among themselves until it breaks;
 * every roll-off is an event, so the table sees it.
 */
function breakTies(
  ctx: Ctx,
  tied: Keyed[],
  events: SixSecondFact[],
  depth: number,
  rollOff: 'six-second/roll-off' | 'six-second/contest-roll-off' = 'six-second/roll-off',
): void {
  if (tied.length < 2) return;
  const combatants = tied.map((t) => t.id);
  if (depth >= MAX_ROLL_OFFS) {
    events.push({ type: 'six-second/roll-off-abandoned', combatants });
    return;
  }
  const totals: number[] = [];
  for (const t of tied) {
    const check = initiativeCheck(ctx, t.id, 'Initiative roll-off');
    events.push(check.event);
    totals.push(check.total);
    t.key.push(check.total);
  }
  events.push({ type: rollOff, combatants, totals });
  for (const again of byLatest(tied)) breakTies(ctx, again, events, depth + 1, rollOff);
}

function descending(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return y - x;
  }
  return 0;
}

/**
 * The ids ordered by their checks, highest first; stable, so a tie the roll-offs could not break keeps the
 * roster order. An insertion sort: a fight has a handful of combatants, for which `Array.prototype.sort`
 * with a comparator costs more than the comparisons (it ran once per simulated fight).
 */
function ordered(keyed: readonly Keyed[]): Keyed[] {
  const out = keyed.slice();
  for (let i = 1; i < out.length; i++) {
    const k = out[i]!;
    let j = i;
    for (; j > 0 && descending(out[j - 1]!.key, k.key) > 0; j--) out[j] = out[j - 1]!;
    out[j] = k;
  }
  return out;
}

/**
 * 001: "all involved characters make a special Initiative check to determine turn order, and go in the
 * order from the highest roll to lowest." `fixed` holds totals the GM rolled at the table.
 */
export function rollInitiative(
  ctx: Ctx,
  ids: string[],
  fixed: Record<string, number> = {},
): { events: SixSecondFact[]; order: string[] } {
  const events: SixSecondFact[] = [];
  const keyed: Keyed[] = [];
  // Group initiative: the first member of a group checks for it; the others follow it in the order.
  const grouped = ctx.state.options.groupInitiative === 'group';
  const followers = new Map<string, string[]>();
  const leadOf = new Map<string, string>();
  for (const id of grouped ? ids : []) {
    const group = ctx.state.combatants[id]?.group;
    if (!group) continue;
    const lead = leadOf.get(group);
    if (lead) followers.get(lead)!.push(id);
    else {
      leadOf.set(group, id);
      followers.set(id, []);
    }
  }
  for (const id of ids) {
    const group = grouped ? ctx.state.combatants[id]?.group : undefined;
    if (group && leadOf.get(group) !== id) continue;
    const member = group ? [id, ...followers.get(id)!].find((m) => Object.hasOwn(fixed, m)) : undefined;
    const given = Object.hasOwn(fixed, id) ? fixed[id] : member !== undefined ? fixed[member] : undefined;
    if (given !== undefined) {
      keyed.push({ id, key: [given] });
      events.push({ type: 'six-second/initiative', combatant: id, total: given, rolled: false });
      continue;
    }
    const check = initiativeCheck(ctx, id, 'Initiative (Reflex + Dexterity)');
    keyed.push({ id, key: [check.total] });
    events.push(check.event, {
      type: 'six-second/initiative',
      combatant: id,
      total: check.total,
      rolled: true,
    });
  }
  for (const tied of byLatest(keyed)) breakTies(ctx, tied, events, 0);
  const order: string[] = [];
  for (const k of ordered(keyed)) {
    order.push(k.id);
    for (const id of followers.get(k.id) ?? []) {
      events.push({ type: 'six-second/initiative', combatant: id, total: k.key[0] ?? 0, rolled: true });
      order.push(id);
    }
  }
  events.push({ type: 'six-second/order', order });
  return { events, order };
}

/**
 * 001: "any time when you need to know who does something first (who speaks first, who grabs the cursed
 * magic item first, etc.) have the contesting characters make a Reflex check for initiative." In or out of
 * the fight: the same check and the same roll-offs, but the turn order and the recorded Initiative stay.
 */
export function contest(ctx: Ctx, ids: string[], about: string | null): SixSecondFact[] {
  const events: SixSecondFact[] = [];
  const keyed: Keyed[] = [];
  for (const id of ids) {
    const check = initiativeCheck(ctx, id, `Reflex check for initiative: ${about ?? 'who goes first'}`);
    keyed.push({ id, key: [check.total] });
    events.push(check.event);
  }
  for (const tied of byLatest(keyed)) breakTies(ctx, tied, events, 0, 'six-second/contest-roll-off');
  const order = ordered(keyed);
  events.push({
    type: 'six-second/contest',
    order: order.map((k) => k.id),
    totals: order.map((k) => k.key[0] ?? 0),
    about,
  });
  return events;
}

/**
 * 001 "Late Arrivals": "simply roll an Initiative check for that character … and insert them into the
 * Initiative order based on their roll." A tie with characters already placed is settled the same way as
 * at the start: the newcomer and each tied character in turn roll again until one is higher; the newcomer
 * goes before the first one it beats, else after them all. The others keep their places.
 */
export function insertLateArrival(ctx: Ctx, id: string): { events: SixSecondFact[]; index: number } {
  const { state } = ctx;
  const events: SixSecondFact[] = [];
  // Group initiative: a late member takes its group's Initiative and comes after the others, unrolled.
  const group = state.options.groupInitiative === 'group' ? state.combatants[id]?.group : undefined;
  const order0 = state.rs.order.filter((x) => x !== id);
  const last = group ? order0.findLastIndex((x) => state.combatants[x]?.group === group) : -1;
  if (last >= 0) {
    const total = state.combatants[order0[last]!]?.cs.initiative ?? 0;
    events.push({ type: 'six-second/initiative', combatant: id, total, rolled: true });
    const index = last + 1;
    const next = [...order0.slice(0, index), id, ...order0.slice(index)];
    events.push({ type: 'six-second/order', order: next, shiftFrom: index + 1 });
    return { events, index };
  }
  const check = initiativeCheck(ctx, id, 'Initiative (Reflex + Dexterity), late arrival');
  const total = check.total;
  events.push(check.event, { type: 'six-second/initiative', combatant: id, total, rolled: true });
  const order = state.rs.order.filter((x) => x !== id);
  const initiativeOf = (x: string) => state.combatants[x]?.cs.initiative ?? Number.NEGATIVE_INFINITY;
  let index = order.findIndex((x) => initiativeOf(x) <= total);
  if (index < 0) index = order.length;
  for (let other = order[index]; other !== undefined && initiativeOf(other) === total; other = order[index]) {
    let beats: boolean | null = null;
    for (let n = 0; n < MAX_ROLL_OFFS && beats === null; n++) {
      const mine = initiativeCheck(ctx, id, 'Initiative roll-off');
      const theirs = initiativeCheck(ctx, other, 'Initiative roll-off');
      events.push(mine.event, theirs.event, {
        type: 'six-second/roll-off',
        combatants: [id, other],
        totals: [mine.total, theirs.total],
      });
      if (mine.total !== theirs.total) beats = mine.total > theirs.total;
    }
    if (beats === null) events.push({ type: 'six-second/roll-off-abandoned', combatants: [id, other] });
    if (beats) break;
    index++;
  }
  const next = [...order.slice(0, index), id, ...order.slice(index)];
  events.push({ type: 'six-second/order', order: next, shiftFrom: index + 1 });
  return { events, index };
}
