import {
  type AgendaEntry,
  combatantIn,
  combatantOf,
  turnEntry as engineTurnEntry,
  nextEntry,
  reach,
  scheduleTurns,
} from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';
import { keysFrom, keysOf, rollInitiative } from './initiative.js';

import type { Ctx } from './types.js';

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
  return [...events, ...scheduleTurns(entries)];
}

/** Ends the current turn and starts the next one, or the next round. */
export function advance(ctx: Ctx): AnyEvent[] {
  const { state } = ctx;
  const events: AnyEvent[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const next = nextEntry(state, (e) => e.kind === 'turn' && e.at.round === state.round);
  if (next) return [...events, ...reach(next)];
  events.push({ type: 'round/ended', round: state.round });
  if (state.options.rerollEachRound) {
    const ids = state.roster.filter((id) => combatantOf(state, id)?.active);
    const rolled = rollInitiative(ctx, ids);
    return [...events, ...rolled, ...scheduleRound(ctx, state.round + 1, keysFrom(rolled))];
  }
  return [...events, ...scheduleRound(ctx, state.round + 1, keysOf(state))];
}
