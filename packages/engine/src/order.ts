import type { EncounterState, LogEntry } from './types.js';

/** What `roundOrder` reads of a state (a view of one works too). */
type OrderState = Pick<EncounterState, 'status' | 'current' | 'agenda' | 'roster' | 'combatants'>;

/** The order of the turns to come: the one acting, the agenda's turns, then everyone else in the roster. */
export function turnOrder(state: OrderState): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const push = (id: string | null | undefined) => {
    if (id && !seen.has(id) && Object.hasOwn(state.combatants, id)) {
      seen.add(id);
      out.push(id);
    }
  };
  push(state.current);
  for (const a of state.agenda) if (a.kind === 'turn') push(a.combatant);
  for (const id of state.roster) push(id);
  return out;
}

/**
 * The round's order, kept still while the round goes on: who already had a turn this round (as the log
 * shows, undone commands left out), the one acting, the turns still to come, then everyone else. Read
 * back from the log's end to the round's start only. `steady` is the ruleset's own order while it keeps
 * one (`Presentation.steadyOrder`, tempo's planning): it stands first, as it is.
 */
export function roundOrder(
  state: OrderState,
  entries: readonly LogEntry[],
  steady?: readonly string[] | null,
): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const push = (id: string | undefined | null) => {
    if (id && !seen.has(id) && Object.hasOwn(state.combatants, id)) {
      seen.add(id);
      out.push(id);
    }
  };
  if (steady) {
    for (const id of steady) push(id);
  } else if (state.status === 'running') {
    // An undo or a redo comes after the entries of the group it names: the first word met reading back
    // is the last one on that group.
    const undone = new Map<number, boolean>();
    const acted: string[] = [];
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      const { type, group, combatant } = e.event;
      if ((type === 'undo' || type === 'redo') && typeof group === 'number') {
        if (!undone.has(group)) undone.set(group, type === 'undo');
        continue;
      }
      if (undone.get(e.group)) continue;
      if (type === 'round/started') break;
      if (type === 'turn/started' && typeof combatant === 'string') acted.push(combatant);
    }
    for (let i = acted.length - 1; i >= 0; i--) if (acted[i] !== state.current) push(acted[i]);
  }
  for (const id of turnOrder(state)) push(id);
  return out;
}
