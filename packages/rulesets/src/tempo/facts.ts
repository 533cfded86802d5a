import {
  type AgendaEntry,
  type CoreEvent,
  combatantOf,
  type Rejection,
  reject,
  unknownCombatant,
} from '@roundkeeper/engine';
import { findAction } from './catalog.js';
import type { TempoEvent } from './events.js';
import type { C, Ctx, PlanItem, State } from './types.js';

/** What a tempo decision records: the engine's events and the ruleset's own. */
export type Fact = CoreEvent | TempoEvent;

/** A player commands only their own combatants; the GM commands everyone. */
export function commandable(ctx: Ctx, id: string): C | Rejection {
  const c = combatantOf(ctx.state, id);
  if (!c) return unknownCombatant(ctx.state, id);
  if (ctx.by.role === 'table') return reject('auth/table', 'The table view cannot send commands.');
  if (ctx.by.role === 'player' && !ctx.by.combatants.includes(c.id)) {
    return reject('auth/not-yours', `Only ${c.name}'s player or the GM can command ${c.name}.`);
  }
  return c;
}

export function gmOnly(ctx: Ctx, what: string): Rejection | undefined {
  return ctx.by.role === 'gm' ? undefined : reject('auth/gm-only', `Only the GM can ${what}.`);
}

export function planEntry(state: State, c: C, item: PlanItem, at: AgendaEntry['at']): AgendaEntry {
  const name = findAction(state, c, item.action)?.name ?? item.action;
  // Secret: the engine's view drops it for everyone but the GM until the turn is reached.
  return {
    id: item.id,
    at,
    kind: 'turn',
    combatant: c.id,
    label: `${c.name}: ${name}`,
    secret: true,
    data: { plan: item.id },
  };
}
