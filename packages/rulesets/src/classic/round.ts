import {
  type AgendaEntry,
  combatantIn,
  combatantOf,
  compareTuples,
  turnEntry as engineTurnEntry,
  nextEntry,
  reach,
  scheduleTurns,
} from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';
import { keysFrom, keysOf, rollInitiative } from './initiative.js';

import type { Ctx, State } from './types.js';

export function turnEntry(ctx: Ctx, id: string, round: number, key: number[]): AgendaEntry {
  return engineTurnEntry(ctx, combatantIn(ctx.state, id), { round, at: key });
}

/** Schedules a round's turns from the keys (events carry the entries, so the order is a fact). */
export function scheduleRound(ctx: Ctx, round: number, keys: Map<string, number[]>): AnyEvent[] {
  const events: AnyEvent[] = [{ type: 'round/started', round }];
  const entries: AgendaEntry[] = [];
  for (const id of ctx.state.roster) {
    const c = combatantIn(ctx.state, id);
    const key = keys.get(id) ?? c.cs.key;
    if (!c.active || !key || c.cs.delaying) continue;
    entries.push(turnEntry(ctx, id, round, key));
  }
  for (const e of scheduleTurns(entries)) events.push(e);
  return events;
}

/** Ends the current turn and starts the next one, or the next round. */
export function advance(ctx: Ctx): AnyEvent[] {
  const { state } = ctx;
  const events: AnyEvent[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const next = nextEntry(state, (e) => e.kind === 'turn' && e.at.round === state.round);
  if (next) {
    for (const e of reach(next)) events.push(e);
    return events;
  }
  events.push({ type: 'round/ended', round: state.round });
  if (state.options.rerollEachRound) {
    const ids = state.roster.filter((id) => combatantOf(state, id)?.active);
    const rolled = rollInitiative(ctx, ids);
    for (const e of rolled) events.push(e);
    for (const e of scheduleRound(ctx, state.round + 1, keysFrom(rolled))) events.push(e);
    return events;
  }
  return [...events, ...scheduleRound(ctx, state.round + 1, keysOf(state))];
}

/**
 * The next round's order, as `scheduleRound` will place it from the keys the combatants hold (the same
 * initiative, round after round): null when initiative is rolled again each round. A combatant who is
 * delaying has no place in it until they come back (they keep delaying into the next round).
 */
export function nextRoundOrder(state: State): string[] | null {
  if (state.options.rerollEachRound) return null;
  const placed: { id: string; key: number[] }[] = [];
  for (const id of state.roster) {
    const c = combatantOf(state, id);
    if (c?.active && c.cs.key && !c.cs.delaying) placed.push({ id, key: c.cs.key });
  }
  return placed.sort((a, b) => compareTuples(a.key, b.key)).map((p) => p.id);
}
