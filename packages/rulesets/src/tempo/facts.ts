import {
  type AgendaEntry,
  type CoreEvent,
  combatantOf,
  type DiceRoll,
  type Rejection,
  reject,
  unknownCombatant,
} from '@roundkeeper/engine';
import { findAction } from './catalog.js';
import type { TempoEvent } from './events.js';
import type { C, Ctx, PlanItem, State } from './types.js';

/**
 * The engine's `encounter/started`, which holds nothing: its schema (an empty object) infers a type no
 * event can have, so it is named here.
 */
type Started = { type: 'encounter/started' };

/** What a tempo decision records: the engine's events and the ruleset's own. */
export type Fact = CoreEvent | TempoEvent | Started;

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

/**
 * The engine's agenda events, typed: an entry scheduled, an entry removed, an entry reached (it leaves the
 * agenda, the clock moves to it, and a turn entry starts that turn) — as the engine's `schedule`,
 * `unschedule` and `reach` write them.
 */
export const scheduled = (entry: AgendaEntry): Fact => ({ type: 'agenda/scheduled', entry });
export const unscheduled = (entry: string, reason: string): Fact => ({
  type: 'agenda/removed',
  entry,
  reason,
});
export function reached(entry: AgendaEntry): Fact[] {
  const out: Fact[] = [
    { type: 'agenda/removed', entry: entry.id, reason: 'reached' },
    { type: 'clock/advanced', to: entry.at },
  ];
  if (entry.kind === 'turn' && entry.combatant)
    out.push({ type: 'turn/started', combatant: entry.combatant });
  return out;
}

/** A dice roll as the log keeps it: every face, copied into plain JSON objects. */
export function rolled(combatant: string, purpose: string, roll: DiceRoll): Fact {
  const terms = roll.terms.map((t) =>
    t.type === 'dice' || t.type === 'd6code' ? { ...t, dice: t.dice.map((d) => ({ ...d })) } : { ...t },
  );
  return { type: 'dice/rolled', combatant, purpose, roll: { ...roll, terms } };
}
