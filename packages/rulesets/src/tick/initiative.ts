import {
  type AgendaEntry,
  combatantIn,
  compareInstants,
  type Instant,
  reach,
  schedule,
  turnEntry,
} from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';
import type { Ctx, State } from './types.js';

/** The tick counter: where the clock stands (0 before anyone has acted). */
export function tickNow(state: State): number {
  return state.now?.at[0] ?? 0;
}

/**
 * Rule 3: the instant of a marker. The tick first; on a shared tick, by the option `ties`: the earlier
 * arrival, then the higher Initiative stat (or the other way round), then the GM's roster order.
 */
export function markerAt(state: State, id: string, tick: number, arrival: number): Instant {
  const c = combatantIn(state, id);
  const order = state.roster.indexOf(id);
  const at =
    state.options.ties === 'initiative'
      ? [tick, -c.stats.initiative, arrival, order]
      : [tick, arrival, -c.stats.initiative, order];
  return { round: 0, at };
}

/** A marker on the agenda: the combatant's turn at that tick. */
export function markerEntry(ctx: Ctx, id: string, at: Instant, label?: string): AgendaEntry {
  const c = combatantIn(ctx.state, id);
  return turnEntry(ctx, c, at, label ? { label } : {});
}

/** Puts a combatant's marker on a tick: the agenda entry and the fact. */
export function place(
  ctx: Ctx,
  id: string,
  tick: number,
  arrival: number,
  label?: string,
): { entry: AgendaEntry; events: AnyEvent[] } {
  return placedAt(ctx, id, tick, arrival, markerAt(ctx.state, id, tick, arrival), label);
}

/** Puts a combatant's marker on a tick at a given instant of it. */
export function placedAt(
  ctx: Ctx,
  id: string,
  tick: number,
  arrival: number,
  at: Instant,
  label?: string,
): { entry: AgendaEntry; events: AnyEvent[] } {
  const entry = markerEntry(ctx, id, at, label);
  return { entry, events: [schedule(entry), { type: 'tick/placed', combatant: id, tick, arrival }] };
}

/**
 * Rule 2: the first tick, rolled (the dice less the Initiative stat, at least 1) or set by the GM; rule 7:
 * a latecomer counts it from the current tick (`base`).
 */
export function rollFirstTick(
  ctx: Ctx,
  id: string,
  base: number,
  fixed?: number,
): { tick: number; events: AnyEvent[] } {
  const c = combatantIn(ctx.state, id);
  if (fixed !== undefined) {
    const tick = base + fixed;
    return { tick, events: [{ type: 'tick/initiative', combatant: id, roll: fixed, tick, rolled: false }] };
  }
  const roll = ctx.roll(ctx.state.options.initiativeDice);
  const tick = base + Math.max(1, roll.total - c.stats.initiative);
  return {
    tick,
    events: [
      { type: 'dice/rolled', combatant: id, purpose: 'initiative', roll },
      { type: 'tick/initiative', combatant: id, roll: roll.total, tick, rolled: true },
    ],
  };
}

/**
 * Rule 3: the next marker acts — the earliest turn on the agenda (with `added` entries not yet applied,
 * and without `dropped` ones): the counter moves to its tick. Nothing when no marker is left.
 */
export function advance(state: State, added: AgendaEntry[] = [], dropped: string[] = []): AnyEvent[] {
  let next: AgendaEntry | undefined;
  for (const e of [...state.agenda, ...added]) {
    if (e.kind !== 'turn' || dropped.includes(e.id)) continue;
    if (!next || compareInstants(e.at, next.at) < 0) next = e;
  }
  return next ? reach(next) : [];
}
