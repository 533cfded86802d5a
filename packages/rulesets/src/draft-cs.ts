import { withCombatants } from '@roundkeeper/engine';

/**
 * A combatant's ruleset state (`cs`) changed in place where that is safe, for the rulesets' `evolve`.
 *
 * The engine's fold writes the combatants record in place once it has copied it (`withCombatants`: a
 * record the running fold — or a simulator trial's whole-trial draft — owns is handed over as it is; any
 * other is copied first, and the copy is then owned). A `cs` object made here is remembered with the
 * record it was made for. While that record is still handed over as it is, nothing outside the fold can
 * hold the `cs` object: it was made after the record was copied, and every state that shares the record
 * is one of the fold's own intermediate states (or, under a trial's draft, one the trial has already let
 * go). So the next change writes into it instead of copying the combatant and its `cs` once more per
 * event. Once a fold ends or seals its draft, the record is copied before any change, no `cs` is
 * remembered with the copy, and every kept state stays exactly as it was (`draft-cs.test.ts` plays each
 * ruleset that uses this and checks every state handed out). Outside a fold every change copies.
 *
 * `edit` may only assign fields of the `cs` it is given (new arrays and objects as values): a nested
 * array or object may be shared with an event or a kept state.
 */
const MADE = new WeakMap<object, WeakSet<object>>();
/** The record edited last and its set (a fold edits one record many times in a row). */
let lastRecord: object | undefined;
let lastMade: WeakSet<object> | undefined;

export function editCs<S extends { combatants: Record<string, { cs: object }> }>(
  state: S,
  id: string,
  edit: (cs: S['combatants'][string]['cs']) => void,
): S {
  if (!Object.hasOwn(state.combatants, id)) return state;
  return withCombatants(state, (all) => {
    const c = all[id] as S['combatants'][string];
    let made = all === lastRecord ? lastMade : MADE.get(all);
    // Made here for this very record, which the fold still owns (else `all` would be a new copy).
    if (made?.has(c.cs)) {
      edit(c.cs);
    } else {
      const cs = { ...c.cs };
      edit(cs);
      (all as Record<string, unknown>)[id] = { ...c, cs };
      if (!made) {
        made = new WeakSet();
        MADE.set(all, made);
      }
      made.add(cs);
    }
    lastRecord = all;
    lastMade = made;
  });
}
