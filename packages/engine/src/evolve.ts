import { compareInstants } from './clock.js';
import type { DiceState } from './dice/rng.js';
import type { AnyRuleset } from './ruleset.js';
import type {
  ActionDef,
  AgendaEntry,
  Combatant,
  Effect,
  EncounterState,
  EngineEvent,
  HitPoints,
  Instant,
} from './types.js';

/**
 * The engine's own event types. Everything else belongs to the ruleset named in the state.
 * Each is a fact; `evolve` applies it and never throws on an event `decide` produced.
 */
export const CORE_EVENTS = [
  'encounter/created',
  'encounter/started',
  'encounter/ended',
  'combatant/added',
  'combatant/updated',
  'combatant/removed',
  'combatant/defeated',
  'combatant/revived',
  'hp/changed',
  'effect/added',
  'effect/expired',
  'effect/removed',
  'action/defined',
  'action/removed',
  'options/set',
  'note/added',
  'round/started',
  'round/ended',
  'turn/started',
  'turn/ended',
  'clock/advanced',
  'agenda/scheduled',
  'agenda/removed',
  'dice/rolled',
  'dice/state',
  'undo',
  'redo',
] as const;

export type CoreEventType = (typeof CORE_EVENTS)[number];
const CORE = new Set<string>(CORE_EVENTS);

export function isCoreEvent(type: string): type is CoreEventType {
  return CORE.has(type);
}

function str(e: EngineEvent, key: string): string {
  const v = e[key];
  return typeof v === 'string' ? v : '';
}

function withCombatant(state: EncounterState, id: string, f: (c: Combatant) => Combatant): EncounterState {
  const c = state.combatants[id];
  if (!c) return state;
  return { ...state, combatants: { ...state.combatants, [id]: f(c) } };
}

/** Inserts an entry keeping clock order; ties keep insertion order (stable). */
export function insertAgenda(agenda: readonly AgendaEntry[], entry: AgendaEntry): AgendaEntry[] {
  const out = agenda.filter((a) => a.id !== entry.id);
  let i = out.length;
  while (i > 0 && compareInstants(out[i - 1]!.at, entry.at) > 0) i--;
  out.splice(i, 0, entry);
  return out;
}

/** Applies one core event. Ruleset events go to the ruleset; unknown events change nothing. */
export function evolve(state: EncounterState, event: EngineEvent, ruleset: AnyRuleset): EncounterState {
  switch (event.type) {
    case 'encounter/created':
      return event.state as unknown as EncounterState;
    case 'encounter/started':
      return { ...state, status: 'running' };
    case 'encounter/ended':
      return { ...state, status: 'ended', current: null };
    case 'combatant/added': {
      const c = event.combatant as unknown as Combatant;
      return {
        ...state,
        combatants: { ...state.combatants, [c.id]: c },
        roster: state.roster.includes(c.id) ? state.roster : [...state.roster, c.id],
      };
    }
    case 'combatant/updated': {
      const patch = (event.patch ?? {}) as Partial<Combatant>;
      return withCombatant(state, str(event, 'combatant'), (c) => ({ ...c, ...patch }));
    }
    case 'combatant/removed': {
      const id = str(event, 'combatant');
      const { [id]: _gone, ...rest } = state.combatants;
      return {
        ...state,
        combatants: rest,
        roster: state.roster.filter((r) => r !== id),
        agenda: state.agenda.filter((a) => a.combatant !== id),
        effects: state.effects.filter((e) => e.target !== id),
        current: state.current === id ? null : state.current,
      };
    }
    case 'combatant/defeated':
      return withCombatant(state, str(event, 'combatant'), (c) => ({ ...c, active: false }));
    case 'combatant/revived':
      return withCombatant(state, str(event, 'combatant'), (c) => ({ ...c, active: true }));
    case 'hp/changed': {
      const hp = event.hp as unknown as HitPoints;
      return withCombatant(state, str(event, 'combatant'), (c) => ({ ...c, hp }));
    }
    case 'effect/added':
      return { ...state, effects: [...state.effects, event.effect as unknown as Effect] };
    case 'effect/expired':
    case 'effect/removed': {
      const id = str(event, 'effect');
      return { ...state, effects: state.effects.filter((e) => e.id !== id) };
    }
    case 'action/defined': {
      const action = event.action as unknown as ActionDef;
      return { ...state, customActions: [...state.customActions.filter((a) => a.id !== action.id), action] };
    }
    case 'action/removed': {
      const id = str(event, 'action');
      return { ...state, customActions: state.customActions.filter((a) => a.id !== id) };
    }
    case 'options/set':
      return { ...state, options: event.options as EncounterState['options'] };
    case 'note/added':
      return { ...state, gmNotes: [...state.gmNotes, str(event, 'text')] };
    case 'round/started':
      return { ...state, round: event.round as number, status: 'running' };
    case 'round/ended':
      return state;
    case 'turn/started': {
      const id = str(event, 'combatant');
      const s = withCombatant(state, id, (c) => ({ ...c, turnsStarted: c.turnsStarted + 1 }));
      return { ...s, current: id };
    }
    case 'turn/ended': {
      const id = str(event, 'combatant');
      const s = withCombatant(state, id, (c) => ({ ...c, turnsEnded: c.turnsEnded + 1 }));
      return { ...s, current: s.current === id ? null : s.current };
    }
    case 'clock/advanced':
      return { ...state, now: event.to as unknown as Instant };
    case 'agenda/scheduled':
      return { ...state, agenda: insertAgenda(state.agenda, event.entry as unknown as AgendaEntry) };
    case 'agenda/removed': {
      const id = str(event, 'entry');
      return { ...state, agenda: state.agenda.filter((a) => a.id !== id) };
    }
    case 'dice/rolled':
      return state;
    case 'dice/state':
      return { ...state, dice: event.dice as unknown as DiceState };
    case 'undo':
    case 'redo':
      // Applied by the log fold (see log.ts), which needs the whole log, not by this reducer.
      return state;
    default:
      return ruleset.evolve(state, event) ?? state;
  }
}
