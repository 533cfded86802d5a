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

/** Whether an NPC's Stamina and Defense are the GM's for this viewer (not theirs, and not shown by the GM). */
function numbersUnseen(state: State, viewer: Viewer, c: { id: string; side: string }): boolean {
  if (viewer.role === 'gm' || state.options.npcNumbersShown || c.side !== 'npc') return false;
  return !(viewer.role === 'player' && viewer.combatants.includes(c.id));
}

/**
 * Non-GM viewers do not see what hidden combatants spent (the engine already removed them from the state),
 * nor an NPC's Stamina and Defense unless the GM shows them (`npcNumbersShown`): those numbers are blanked
 * to 0 and the NPC is listed in `rs.unseenNumbers`, so cards and the timeline leave them out.
 */
export function redact(state: State, viewer: Viewer): State {
  if (viewer.role === 'gm') return state;
  const seen = (x: string | null) => x === null || Object.hasOwn(state.combatants, x);
  const unseen = Object.values(state.combatants).filter((c) => numbersUnseen(state, viewer, c));
  const combatants = { ...state.combatants };
  for (const c of unseen)
    combatants[c.id] = {
      ...c,
      stats: { ...c.stats, stamina: 0, defense: 0 },
      cs: { ...c.cs, stamina: 0, defense: 0 },
    };
  return {
    ...state,
    combatants,
    // The state here is already without the hidden: whoever is missing from it is unseen.
    effects: state.effects.map((fx) => redactAim(fx, (id) => !Object.hasOwn(state.combatants, id))),
    rs: {
      ...state.rs,
      // What an NPC spent is blanked as its pools are.
      spent: state.rs.spent
        .filter((e) => seen(e.combatant) && seen(e.during))
        .map((e) => (unseen.some((c) => c.id === e.combatant) ? { ...e, stamina: 0, defense: 0 } : e)),
      ...(unseen.length ? { unseenNumbers: unseen.map((c) => c.id) } : {}),
    },
  };
}

/** A sheet or a combatant's state without its Stamina and Defense (anything else as it is). */
function withoutNumbers<T>(x: T): T {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return x;
  const { stamina: _s, defense: _d, ...rest } = x as Record<string, unknown>;
  return rest as T;
}

/** Whether a view leaves out this combatant's Stamina and Defense (see `redact`). */
export function numbersHidden(state: State, id: string): boolean {
  return state.rs.unseenNumbers?.includes(id) ?? false;
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
    case 'combatant/added': {
      // The sheet an NPC joins with, and its state then, carry its Stamina and Defense.
      const c = event.combatant;
      if (!numbersUnseen(state, viewer, c)) return event;
      return { ...event, combatant: { ...c, stats: withoutNumbers(c.stats), cs: withoutNumbers(c.cs) } };
    }
    case 'stamina/resources': {
      const c = state.combatants[event.combatant];
      return c && numbersUnseen(state, viewer, c) ? null : event;
    }
    case 'combatant/updated': {
      // An NPC's sheet edited: its Stamina and Defense stay the GM's.
      const c = state.combatants[event.combatant];
      if (!c || !numbersUnseen(state, viewer, c)) return event;
      const { stats, cs } = event.patch;
      if (stats === undefined && cs === undefined) return event;
      return {
        ...event,
        patch: {
          ...event.patch,
          ...(stats === undefined ? {} : { stats: withoutNumbers(stats) }),
          ...(cs === undefined ? {} : { cs: withoutNumbers(cs) }),
        },
      };
    }
    case 'stamina/acted': {
      const c = state.combatants[event.combatant];
      // What an NPC spent is the GM's, as its pools are.
      const costs = c && numbersUnseen(state, viewer, c);
      const shown = costs ? { ...event, stamina: 0, defense: 0, costsUnseen: true as const } : event;
      if (!unseen(event.during)) return shown;
      const { during: _d, ...rest } = shown;
      return rest;
    }
    default:
      return event;
  }
}
