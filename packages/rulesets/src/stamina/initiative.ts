import {
  type AgendaEntry,
  compareInstants,
  type EngineEvent,
  type JsonObject,
  nextEntry,
  reach,
  schedule,
  unschedule,
} from '@roundkeeper/engine';
import { type Ctx, refsOf, type State } from './types.js';

/**
 * "characters declare and resolve their actions on their turns which happen in initiative order. Once all
 * characters have acted … recheck everyones initiative and begin another round."
 * The text gives no initiative check; the formula is an option. Ties: the higher modifier, then roster order.
 */
export function checkInitiative(ctx: Ctx, ids: string[], fixed: Record<string, number> = {}): EngineEvent[] {
  const { state } = ctx;
  const events: EngineEvent[] = [];
  for (const id of ids) {
    const c = state.combatants[id]!;
    let total: number;
    if (Object.hasOwn(fixed, id)) {
      total = fixed[id]!;
      events.push({ type: 'stamina/initiative', combatant: id, total, rolled: false });
    } else {
      const roll = ctx.roll(state.options.initiativeDice, refsOf(c.stats));
      total = roll.total;
      events.push({
        type: 'dice/rolled',
        combatant: id,
        purpose: 'initiative',
        roll: roll as unknown as JsonObject,
      });
      events.push({ type: 'stamina/initiative', combatant: id, total, rolled: true });
    }
    events.push({
      type: 'stamina/key',
      combatant: id,
      key: [-total, -c.stats.initiative, state.roster.indexOf(id)],
    });
  }
  return events;
}

export function keysFrom(events: EngineEvent[]): Map<string, number[]> {
  const keys = new Map<string, number[]>();
  for (const e of events) if (e.type === 'stamina/key') keys.set(e.combatant as string, e.key as number[]);
  return keys;
}

export function turnEntry(ctx: Ctx, id: string, round: number, key: number[]): AgendaEntry {
  const c = ctx.state.combatants[id]!;
  return {
    id: ctx.newId('turn'),
    at: { round, at: key },
    kind: 'turn',
    combatant: id,
    label: `${c.name}'s turn`,
    ...(c.hidden ? { secret: true } : {}),
  };
}

/**
 * A new initiative set mid-round: the character's turn still to come this round moves to its new place
 * when that place is still ahead. A turn already taken, or a place the round has passed, keeps this
 * round's order; the new one counts from the next round (when it is not rechecked).
 */
export function movedTurn(ctx: Ctx, id: string, key: number[]): EngineEvent[] {
  const { state } = ctx;
  if (state.status !== 'running') return [];
  const pending = state.agenda.find(
    (e) => e.kind === 'turn' && e.combatant === id && e.at.round === state.round,
  );
  if (!pending) return [];
  const entry = turnEntry(ctx, id, state.round, key);
  if (state.now && compareInstants(entry.at, state.now) <= 0) return [];
  return [unschedule(pending.id, 'moved'), schedule(entry)];
}

/** Schedules a round's turns as agenda entries {round, at: orderKey} and starts the first. */
export function scheduleRound(ctx: Ctx, round: number, keys: Map<string, number[]>): EngineEvent[] {
  const events: EngineEvent[] = [{ type: 'round/started', round }];
  const entries: AgendaEntry[] = [];
  for (const id of ctx.state.roster) {
    const c = ctx.state.combatants[id]!;
    const key = keys.get(id) ?? c.cs.key;
    if (!c.active || !key) continue;
    entries.push(turnEntry(ctx, id, round, key));
  }
  entries.sort((a, b) => compareInstants(a.at, b.at));
  for (const e of entries) events.push(schedule(e));
  const first = entries[0];
  if (first) events.push(...reach(first));
  return events;
}

/** Ends the current turn and starts the next; when everyone has acted, rechecks initiative and starts a new round. */
export function advance(ctx: Ctx, fixed: Record<string, number> = {}): EngineEvent[] {
  const { state } = ctx;
  const events: EngineEvent[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const next = nextEntry(state, (e) => e.kind === 'turn' && e.at.round === state.round);
  if (next) return [...events, ...reach(next)];
  events.push({ type: 'round/ended', round: state.round });
  const active = state.roster.filter((id) => state.combatants[id]!.active);
  const recheck = state.options.recheckInitiative
    ? active
    : active.filter((id) => Object.hasOwn(fixed, id) || !state.combatants[id]!.cs.key);
  const rolled = checkInitiative(ctx, recheck, fixed);
  return [...events, ...rolled, ...scheduleRound(ctx, state.round + 1, keysFrom(rolled))];
}

export function orderOf(state: State): string[] {
  return state.roster
    .filter((id) => state.combatants[id]!.cs.key)
    .sort((a, b) =>
      compareInstants(
        { round: 0, at: state.combatants[a]!.cs.key! },
        { round: 0, at: state.combatants[b]!.cs.key! },
      ),
    );
}
