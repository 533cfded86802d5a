import type { CoreEvent, Viewer } from '@roundkeeper/engine';
import { AIM_AT } from './effects.js';
import type { StaminaEvent } from './events.js';
import type { State } from './types.js';

/**
 * An Aim at a hidden combatant reads as a plain Aim: the effect would otherwise name whom it aims at.
 * `unseen` says whether the viewer may not see a combatant.
 */
function redactAim<E extends { name: string; data?: Readonly<Record<string, unknown>> }>(
  fx: E,
  unseen: (id: string) => boolean,
): E {
  const aimAt = fx.data?.aimAt;
  if (!fx.data || typeof aimAt !== 'string' || !unseen(aimAt)) return fx;
  const { aimAt: _a, ...rest } = fx.data;
  return { ...fx, name: 'Aim', data: rest };
}

/** Non-GM viewers do not see what hidden combatants spent (the engine already removed them from the state). */
export function redact(state: State, viewer: Viewer): State {
  if (viewer.role === 'gm') return state;
  const seen = (x: string | null) => x === null || Object.hasOwn(state.combatants, x);
  return {
    ...state,
    // The state here is already without the hidden: whoever is missing from it is unseen.
    effects: state.effects.map((fx) => redactAim(fx, (id) => !Object.hasOwn(state.combatants, id))),
    rs: { ...state.rs, spent: state.rs.spent.filter((e) => seen(e.combatant) && seen(e.during)) },
  };
}

/**
 * The engine drops events naming a hidden combatant, but an Aim names whom it aims at inside its effect's
 * data: an Aim at a hidden combatant loses whom it aims at; a reaction taken during a hidden combatant's
 * turn loses whose turn it was.
 */
export function redactEvent(
  event: CoreEvent | StaminaEvent,
  viewer: Viewer,
  state: State,
  hidden: ReadonlySet<string>,
): CoreEvent | StaminaEvent | null {
  if (viewer.role === 'gm') return event;
  const unseen = (id: string | null | undefined) => typeof id === 'string' && hidden.has(id);
  switch (event.type) {
    case 'effect/added': {
      const fx = event.effect;
      if (unseen(fx.target) || unseen(fx.source)) return null;
      return { ...event, effect: redactAim(fx, unseen) };
    }
    // An Aim's end carries only the effect's name ("Aim at Spy"): it reads as a plain Aim unless it names
    // a combatant the viewer sees.
    case 'effect/expired':
    case 'effect/removed': {
      const aimedAt = event.name.startsWith(AIM_AT) ? event.name.slice(AIM_AT.length) : null;
      const seen = (c: { id: string; name: string }) => c.name === aimedAt && !hidden.has(c.id);
      if (aimedAt !== null && !Object.values(state.combatants).some(seen)) return { ...event, name: 'Aim' };
      return event;
    }
    case 'stamina/acted': {
      if (!unseen(event.during)) return event;
      const { during: _d, ...rest } = event;
      return rest;
    }
    default:
      return event;
  }
}
