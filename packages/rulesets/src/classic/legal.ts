import { type ActionDef, candidates, catalogWith, type LegalAction, notRunning } from '@roundkeeper/engine';
import { CLASSIC_CATALOG, DEATH_SAVE, slotOf } from './catalog.js';
import type { Dying, State } from './types.js';

/** The catalog and the GM's custom actions (read only: the same list for the same custom actions). */
export function catalog(state: State): readonly ActionDef[] {
  return catalogWith(CLASSIC_CATALOG, state.customActions);
}

/** An action the catalog does not have: the ones it has, by name. */
export function unknownAction(state: State, action: string): string {
  const names = catalog(state).map((x) => x.name);
  return `There is no action "${action}" here; pick one of ${names.join(', ')}.`;
}

export function legality(
  state: State,
  id: string,
  action: ActionDef,
): { ok: true } | { ok: false; code: string; reason: string } {
  const c = state.combatants[id];
  if (!c) return { ok: false, code: 'combatant/unknown', reason: `There is no combatant "${id}".` };
  const stopped = notRunning(state);
  if (stopped) return { ok: false, code: stopped.code, reason: stopped.message };
  if (!c.active) return { ok: false, code: 'combatant/defeated', reason: `${c.name} is out of the fight.` };
  const dying = c.cs.dying;
  if (action.id === DEATH_SAVE) {
    if (!dying) {
      return {
        ok: false,
        code: 'death-save/not-down',
        reason: `${c.name} is not down; a death save is made only when unconscious at 0 HP.`,
      };
    }
    if (dying.stable) return { ok: false, code: 'death-save/stable', reason: downReason(c) ?? '' };
  } else if (dying) {
    return { ok: false, code: 'combatant/down', reason: downReason(c) ?? '' };
  }
  const slot = slotOf(action);
  if (slot === 'reaction') {
    if (state.current === id) {
      return {
        ok: false,
        code: 'reaction/own-turn',
        reason: `A reaction is taken on someone else's turn, not on ${c.name}'s own.`,
      };
    }
    if (c.cs.used.reaction) {
      return {
        ok: false,
        code: 'reaction/used',
        reason: `${c.name} has already used a reaction since their last turn.`,
      };
    }
    return { ok: true };
  }
  if (state.current !== id) {
    const now = state.current ? (state.combatants[state.current]?.name ?? 'someone else') : 'nobody';
    return {
      ok: false,
      code: 'turn/not-yours',
      reason: `It is ${now}'s turn; ${action.name} is taken on ${c.name}'s own turn.`,
    };
  }
  if (slot === 'action' && c.cs.used.action) {
    return { ok: false, code: 'action/used', reason: `${c.name} has already used their action this turn.` };
  }
  if (slot === 'bonus' && c.cs.used.bonus) {
    return {
      ok: false,
      code: 'bonus/used',
      reason: `${c.name} has already used their bonus action this turn.`,
    };
  }
  return { ok: true };
}

/** Why a PC down at 0 HP does nothing but death saves, in words; undefined while they are up. */
export function downReason(c: { name: string; cs: { dying?: Dying | null } }): string | undefined {
  const dying = c.cs.dying;
  if (!dying) return undefined;
  return dying.stable
    ? `${c.name} is unconscious and stable at 0 HP; healing brings them back.`
    : `${c.name} is unconscious at 0 HP; on their turn they make a Death Save, nothing else.`;
}

export function legalActions(state: State, id: string, only?: (action: ActionDef) => boolean): LegalAction[] {
  // Death Save is offered to a PC down at 0 HP, not listed greyed out for everyone else.
  const down = Boolean(state.combatants[id]?.cs.dying);
  const all = only ? candidates(catalog(state), only) : catalog(state);
  const actions = down ? all : all.filter((a) => a.id !== DEATH_SAVE);
  return actions.map((action) => {
    const l = legality(state, id, action);
    return l.ok
      ? { action, enabled: true, cost: action.cost }
      : { action, enabled: false, reason: l.reason, code: l.code, cost: action.cost };
  });
}
