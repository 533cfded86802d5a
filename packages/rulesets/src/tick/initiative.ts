import {
  type AgendaEntry,
  combatantIn,
  compareInstants,
  type Instant,
  reach,
  schedule,
  turnEntry,
  unschedule,
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

/** A marker's instant is at most 5 numbers (a group's member: the lead's 4, then its place); a slot's is 6. */
const ROOT = 5;

/**
 * `count` instants right after this moment on the current tick, before anything else comes there (rule 5:
 * a step-in and the turn it pauses; a marker set on the current tick): slots `[...root, k]`, where `root` is
 * the moment's marker (padded with 0 to 5 numbers, which sorts it as before) and a slot is told by its
 * length. A slot taken during a slot is its sibling (`k + 1`), not its child, so stepping in again and again
 * never deepens the instant; the slots still to come there move on by `count`, keeping their order after
 * the new ones.
 */
export function slotsAfterNow(
  ctx: Ctx,
  count: number,
  except?: string,
): { slots: Instant[]; moved: AnyEvent[]; dropped: string[]; added: AgendaEntry[] } {
  const { state } = ctx;
  const now = state.now?.at ?? [tickNow(state)];
  const root = now.slice(0, ROOT);
  while (root.length < ROOT) root.push(0);
  const k = now.length > ROOT ? (now[ROOT] ?? 0) : 0;
  const slots = Array.from({ length: count }, (_, i) => ({ round: 0, at: [...root, k + 1 + i] }));
  const dropped: string[] = [];
  const added: AgendaEntry[] = [];
  for (const e of state.agenda) {
    const at = e.at.at;
    if (e.kind !== 'turn' || e.combatant === except || at.length <= ROOT) continue;
    if (root.some((x, i) => at[i] !== x) || at[ROOT]! <= k) continue;
    dropped.push(e.id);
    added.push({ ...e, id: ctx.newId('turn'), at: { round: e.at.round, at: [...root, at[ROOT]! + count] } });
  }
  const moved = [...dropped.map((id) => unschedule(id, 'moved')), ...added.map(schedule)];
  return { slots, moved, dropped, added };
}
