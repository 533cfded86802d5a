import type { EngineEvent, JsonObject } from '@roundkeeper/engine';
import type { Ctx } from './types.js';

/** How many times tied characters roll again before the GM's roster order settles it (a runaway guard). */
export const MAX_ROLL_OFFS = 20;

/**
 * 001: "An Initiative check is a special Reflex check + your Dexterity ability." The Reflex dice are the
 * encounter's (option `initiativeDice`) unless the character has their own (`reflexDice`).
 */
export function initiativeCheck(
  ctx: Ctx,
  id: string,
  purpose: string,
): { total: number; event: EngineEvent } {
  const c = ctx.state.combatants[id]!;
  const dice = c.stats.reflexDice ?? ctx.state.options.initiativeDice;
  const roll = ctx.roll(`(${dice})+@dexterity`, { dexterity: c.stats.dexterity });
  return {
    total: roll.total,
    event: { type: 'dice/rolled', combatant: id, purpose, roll: roll as unknown as JsonObject },
  };
}

/**
 * 001: "In the case of a draw, have the characters who tied roll initiative checks again, the one who
 * rolled higher goes before the lower." Those still tied roll again among themselves until it breaks;
 * every roll-off is an event, so the table sees it.
 */
function breakTies(
  ctx: Ctx,
  tied: string[],
  keys: Map<string, number[]>,
  events: EngineEvent[],
  depth: number,
  rollOff = 'six-second/roll-off',
): void {
  if (tied.length < 2) return;
  if (depth >= MAX_ROLL_OFFS) {
    events.push({ type: 'six-second/roll-off-abandoned', combatants: tied });
    return;
  }
  const totals: number[] = [];
  for (const id of tied) {
    const check = initiativeCheck(ctx, id, 'Initiative roll-off');
    events.push(check.event);
    totals.push(check.total);
    keys.get(id)!.push(check.total);
  }
  events.push({ type: rollOff, combatants: tied, totals });
  const byTotal = new Map<number, string[]>();
  tied.forEach((id, i) => {
    byTotal.set(totals[i]!, [...(byTotal.get(totals[i]!) ?? []), id]);
  });
  for (const again of byTotal.values()) breakTies(ctx, again, keys, events, depth + 1, rollOff);
}

function descending(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return b[i]! - a[i]!;
  return 0;
}

/**
 * 001: "all involved characters make a special Initiative check to determine turn order, and go in the
 * order from the highest roll to lowest." `fixed` holds totals the GM rolled at the table.
 */
export function rollInitiative(ctx: Ctx, ids: string[], fixed: Record<string, number> = {}): EngineEvent[] {
  const events: EngineEvent[] = [];
  const keys = new Map<string, number[]>();
  for (const id of ids) {
    if (Object.hasOwn(fixed, id)) {
      keys.set(id, [fixed[id]!]);
      events.push({ type: 'six-second/initiative', combatant: id, total: fixed[id]!, rolled: false });
      continue;
    }
    const check = initiativeCheck(ctx, id, 'Initiative (Reflex + Dexterity)');
    keys.set(id, [check.total]);
    events.push(check.event, {
      type: 'six-second/initiative',
      combatant: id,
      total: check.total,
      rolled: true,
    });
  }
  const groups = new Map<number, string[]>();
  for (const id of ids) groups.set(keys.get(id)![0]!, [...(groups.get(keys.get(id)![0]!) ?? []), id]);
  for (const tied of groups.values()) breakTies(ctx, tied, keys, events, 0);
  // Stable: a tie the roll-offs could not break keeps the roster order.
  const order = [...ids].sort((a, b) => descending(keys.get(a)!, keys.get(b)!));
  events.push({ type: 'six-second/order', order });
  return events;
}

/**
 * 001: "any time when you need to know who does something first (who speaks first, who grabs the cursed
 * magic item first, etc.) have the contesting characters make a Reflex check for initiative." In or out of
 * the fight: the same check and the same roll-offs, but the turn order and the recorded Initiative stay.
 */
export function contest(ctx: Ctx, ids: string[], about: string | null): EngineEvent[] {
  const events: EngineEvent[] = [];
  const keys = new Map<string, number[]>();
  for (const id of ids) {
    const check = initiativeCheck(ctx, id, `Reflex check for initiative: ${about ?? 'who goes first'}`);
    keys.set(id, [check.total]);
    events.push(check.event);
  }
  const groups = new Map<number, string[]>();
  for (const id of ids) groups.set(keys.get(id)![0]!, [...(groups.get(keys.get(id)![0]!) ?? []), id]);
  for (const tied of groups.values()) breakTies(ctx, tied, keys, events, 0, 'six-second/contest-roll-off');
  const order = [...ids].sort((a, b) => descending(keys.get(a)!, keys.get(b)!));
  events.push({
    type: 'six-second/contest',
    order,
    totals: order.map((id) => keys.get(id)![0]!),
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
export function insertLateArrival(ctx: Ctx, id: string): { events: EngineEvent[]; index: number } {
  const { state } = ctx;
  const events: EngineEvent[] = [];
  const check = initiativeCheck(ctx, id, 'Initiative (Reflex + Dexterity), late arrival');
  const total = check.total;
  events.push(check.event, { type: 'six-second/initiative', combatant: id, total, rolled: true });
  const order = state.rs.order.filter((x) => x !== id);
  const initiativeOf = (x: string) => state.combatants[x]?.cs.initiative ?? Number.NEGATIVE_INFINITY;
  let index = order.findIndex((x) => initiativeOf(x) <= total);
  if (index < 0) index = order.length;
  while (index < order.length && initiativeOf(order[index]!) === total) {
    const other = order[index]!;
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
