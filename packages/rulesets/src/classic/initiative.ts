import { combatantIn } from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';

import type { Ctx, State } from './types.js';

/** A combatant's place being decided: their order key grows as ties are broken. */
interface Place {
  id: string;
  key: number[];
}

/** The initiative roll's notation for the option's dice, the last one remembered (asked once per roll). */
let lastDice: string | undefined;
let lastExpression = '';
function initiativeExpression(dice: string): string {
  if (dice !== lastDice) {
    lastDice = dice;
    lastExpression = `${dice}+@init`;
  }
  return lastExpression;
}

/** Rolls initiative for the given combatants and breaks full ties with roll-offs. */
export function rollInitiative(ctx: Ctx, ids: string[], fixed: Record<string, number> = {}): AnyEvent[] {
  const { state } = ctx;
  const events: AnyEvent[] = [];
  const rolled: { id: string; total: number; modifier: number }[] = [];
  // Group initiative: one roll per group, its members after it one after another (`members`).
  const members = new Map<string, string[]>();
  const grouped = state.options.groupInitiative === 'group';
  const joined: { id: string; key: number[] }[] = [];
  for (const id of ids) {
    const c = combatantIn(state, id);
    if (grouped && c.group) {
      const list = members.get(c.group);
      if (list) {
        list.push(id);
        continue;
      }
      // A late member joins the place its group already has, after the others.
      const placed = state.roster
        .map((other) => state.combatants[other])
        .filter((o) => o && o.id !== id && o.group === c.group && o.cs.key && !ids.includes(o.id));
      if (placed.length) {
        const key = placed[0]!.cs.key!;
        const total = placed[0]!.cs.initiative ?? -key[0]!;
        events.push({ type: 'classic/initiative', combatant: id, total, rolled: true });
        joined.push({ id, key: [...key.slice(0, -1), placed.length] });
        continue;
      }
      members.set(c.group, [id]);
    }
    const groupSet =
      grouped && c.group
        ? ids.find((m) => state.combatants[m]?.group === c.group && Object.hasOwn(fixed, m))
        : undefined;
    const set = Object.hasOwn(fixed, id) ? fixed[id] : groupSet !== undefined ? fixed[groupSet] : undefined;
    if (set !== undefined) {
      rolled.push({ id, total: set, modifier: c.stats.initiative });
      events.push({ type: 'classic/initiative', combatant: id, total: set, rolled: false });
      continue;
    }
    const roll = ctx.roll(initiativeExpression(state.options.initiativeDice), { init: c.stats.initiative });
    rolled.push({ id, total: roll.total, modifier: c.stats.initiative });
    events.push({ type: 'dice/rolled', combatant: id, purpose: 'initiative', roll: roll });
    events.push({ type: 'classic/initiative', combatant: id, total: roll.total, rolled: true });
  }
  // Ties on total and modifier roll off (d20, again until broken); existing combatants keep their spot.
  const places: Place[] = [];
  const groups = new Map<string, Place[]>();
  for (const { id, total, modifier } of rolled) {
    const place = { id, key: [-total, -modifier] };
    places.push(place);
    const k = `${total}:${modifier}`;
    const tied = groups.get(k);
    if (tied) tied.push(place);
    else groups.set(k, [place]);
  }
  for (const tied of groups.values()) rollOff(ctx, tied, events);
  for (const { id, key } of places) {
    const group = grouped ? state.combatants[id]?.group : undefined;
    const list = group ? (members.get(group) ?? [id]) : [id];
    list.forEach((member, i) => {
      if (member !== id) {
        const total = -key[0]!;
        events.push({ type: 'classic/initiative', combatant: member, total, rolled: true });
      }
      events.push({ type: 'classic/key', combatant: member, key: group ? [...key, i] : key });
    });
  }
  for (const { id, key } of joined) events.push({ type: 'classic/key', combatant: id, key });
  return events;
}

/** Tied combatants each roll a d20; higher goes first; those still tied roll again among themselves. */
function rollOff(ctx: Ctx, tied: Place[], events: AnyEvent[]): void {
  if (tied.length < 2) return;
  const rolls = tied.map((place) => ({ place, roll: ctx.rng.int(1, 20) }));
  events.push({
    type: 'classic/roll-off',
    combatants: tied.map((p) => p.id),
    rolls: rolls.map((r) => r.roll),
  });
  const byValue = new Map<number, Place[]>();
  for (const { place, roll } of rolls) {
    place.key.push(-roll);
    byValue.set(roll, [...(byValue.get(roll) ?? []), place]);
  }
  for (const again of byValue.values()) rollOff(ctx, again, events);
}

/** The order keys a list of events sets. */
export function keysFrom(events: AnyEvent[]): Map<string, number[]> {
  const keys = new Map<string, number[]>();
  for (const e of events) if (e.type === 'classic/key') keys.set(e.combatant, e.key);
  return keys;
}

/** Everyone's place in the order as it stands. */
export function keysOf(state: State): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const id of state.roster) {
    const k = state.combatants[id]?.cs.key;
    if (k) m.set(id, k);
  }
  return m;
}
