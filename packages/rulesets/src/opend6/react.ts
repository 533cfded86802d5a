import { combatantIn, compareInstants, schedule, unschedule } from '@roundkeeper/engine';
import { turnAhead } from './actions.js';
import type { AnyEvent, Opend6EventOf } from './events.js';
import { canAct, orderKey, rollInitiative, unitsOf } from './initiative.js';
import { beginRound, lostAction, lostHappening, reachFirst, turnEntry } from './round.js';

import type { Ctx } from './types.js';

/** No consequence: one empty list for every event that causes none (most of them), never written to. */
const NONE = Object.freeze([]) as readonly AnyEvent[] as AnyEvent[];

/** Cascades: a round's turns once its initiative is known; late arrivals; the defeated leave the order. */
export function react(ctx: Ctx, event: AnyEvent): AnyEvent[] {
  const { state } = ctx;
  switch (event.type) {
    case 'opend6/round-begins':
      return beginRound(ctx, event.round);
    case 'opend6/slots':
      return reachFirst(state);
    case 'combatant/added':
      return state.status === 'running' ? lateArrival(ctx, event.combatant.id) : [];
    case 'combatant/revived':
      return placeOnReturn(ctx, event.combatant);
    case 'combatant/defeated':
      return leaveOrder(ctx, event.combatant);
    default:
      return NONE;
  }
}

/** A combatant out of the fight leaves the order: his turns, unless his group still acts. */
function leaveOrder(ctx: Ctx, id: string): AnyEvent[] {
  const { state } = ctx;
  const out: AnyEvent[] = [];
  const c = state.combatants[id];
  // A group member out of the fight before his group's turn loses this round's action, revived or not.
  if (
    c &&
    state.status === 'running' &&
    c.side === 'npc' &&
    c.group &&
    turnAhead(state, c) &&
    !lostAction(state, c.id, state.round)
  ) {
    out.push(
      { type: 'opend6/turn-lost', combatant: c.id, reason: 'out of the fight' },
      lostHappening(state.round, (state.now ?? { round: 0, at: [] }).at, c.id),
    );
  }
  for (const e of state.agenda) {
    if (e.combatant === undefined || e.combatant !== id) continue;
    const owner = combatantIn(state, e.combatant);
    const group = owner.side === 'npc' ? owner.group : undefined;
    const others = group ? unitsOf(state).some((u) => u.group === group) : false;
    if (!others) out.push(unschedule(e.id, 'defeated'));
  }
  return out;
}

/**
 * A character who had no place in the order because he could not act when it was decided (unable or out
 * of the fight when the scene's Perception was rolled, or when the GM set the order) gets one when he
 * comes back: rolled (Method 2) or after everyone (Method 1), from the next round — 002: he "loses his
 * action for that round", not the scene. Method 3 rolls him in with everyone at the next round.
 */
export function placeOnReturn(ctx: Ctx, id: string, characterPoints = 0): AnyEvent[] {
  const { state } = ctx;
  const c = state.combatants[id];
  if (!c || state.status !== 'running' || c.cs.orderKey !== null) return [];
  if (state.options.initiativeMethod === 'perception-per-round') return [];
  return lateArrival(ctx, id, 'recovered', characterPoints);
}

/** A late arrival joins its group, or gets a place: rolled (Methods 2, 3) or after everyone (Method 1). */
function lateArrival(ctx: Ctx, id: string, returning?: 'recovered', characterPoints = 0): AnyEvent[] {
  const { state } = ctx;
  const c = combatantIn(state, id);
  if (c.side === 'npc' && c.group) {
    const mate = state.roster
      .filter((m) => m !== id)
      .map((m) => combatantIn(state, m))
      .find((m) => m.group === c.group && m.cs.orderKey);
    if (mate?.cs.orderKey) {
      return [
        {
          type: 'opend6/initiative',
          combatant: id,
          members: [id],
          rolled: false,
          total: mate.cs.initiative,
          key: mate.cs.orderKey,
        },
      ];
    }
  }
  const unit = { leader: id, members: [id] };
  const index = state.roster.indexOf(id);
  const placed: Opend6EventOf<'opend6/initiative'> = {
    type: 'opend6/initiative',
    combatant: id,
    members: [id],
    rolled: false,
    total: null,
    key: orderKey(Number.MAX_SAFE_INTEGER, c, index),
  };
  const events: AnyEvent[] =
    state.options.initiativeMethod === 'first-significant-action'
      ? [placed]
      : rollInitiative(ctx, unit, characterPoints, index);
  const key = events.find((e) => e.type === 'opend6/initiative')?.key;
  if (!key) throw new Error(`OpenD6: no initiative was decided for ${c.name}.`);
  const entry = turnEntry(ctx, id, state.round, key);
  const ahead =
    returning === undefined && state.now !== null && compareInstants(entry.at, state.now) > 0 && canAct(c);
  if (!ahead)
    return [
      ...events,
      { type: 'opend6/joins-next-round', combatant: id, ...(returning ? { reason: returning } : {}) },
    ];
  return [
    ...events,
    schedule(entry),
    { type: 'opend6/slot-added', slot: { round: state.round, at: key, members: [id], label: entry.label } },
  ];
}
