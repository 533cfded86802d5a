import type { z } from 'zod';
import { compareInstants } from './clock.js';
import { ownState, updateCombatant, withCombatants, writeCombatant } from './draft.js';
import {
  type CoreEvent,
  type CoreEventSchemas,
  type combatantPatchSchema,
  coreEventSchemas,
} from './events.js';
import type { AnyRuleset } from './ruleset.js';
import type { TimedEvent } from './timed.js';
import type { AgendaEntry, Combatant, EncounterState, EngineEvent, LogEntry } from './types.js';

type CombatantPatch = z.output<ReturnType<typeof combatantPatchSchema>>;

/**
 * The engine's own event types (the keys of `coreEventSchemas`). Everything else belongs to the ruleset
 * named in the state. Each is a fact; `evolve` applies it and never throws on an event `decide` produced.
 */
export type CoreEventType = keyof CoreEventSchemas;

/** The engine's own event types, as a set: asked of every event folded (the schemas record is lazy). */
const CORE_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(coreEventSchemas));

export function isCoreEvent(type: string): type is CoreEventType {
  return CORE_EVENT_TYPES.has(type);
}

/** An event of the engine's own, with its fields as its schema declares them. */
export function isCore(event: EngineEvent): event is CoreEvent {
  return isCoreEvent(event.type);
}

/** The undo or redo an event is, with the command group it names; undefined for any other event. */
export function undoRedoOf(event: EngineEvent): Extract<CoreEvent, { type: 'undo' | 'redo' }> | undefined {
  return isCore(event) && (event.type === 'undo' || event.type === 'redo') ? event : undefined;
}

/** The encounter as its first log entry created it. */
export function createdState(entry: LogEntry | undefined): EncounterState {
  const event = entry?.event;
  if (!event || !isCore(event) || event.type !== 'encounter/created') {
    throw new Error('A log must start with an encounter/created event.');
  }
  return event.state;
}

function withCombatant(state: EncounterState, id: string, f: (c: Combatant) => Combatant): EncounterState {
  return updateCombatant(state, id, f);
}

/** Inserts an entry keeping clock order; ties keep insertion order (stable). */
export function insertAgenda(agenda: readonly AgendaEntry[], entry: AgendaEntry): AgendaEntry[] {
  const out = agenda.filter((a) => a.id !== entry.id);
  placeInAgenda(out, entry);
  return out;
}

/** `insertAgenda`'s placement, into `out` itself: after the last entry not later than `entry`. */
function placeInAgenda(out: AgendaEntry[], entry: AgendaEntry): void {
  let i = out.length;
  for (let before = out[i - 1]; before && compareInstants(before.at, entry.at) > 0; before = out[i - 1]) i--;
  out.splice(i, 0, entry);
}

/**
 * The agenda after inserting `entries` one by one with `insertAgenda`, copied once instead of once per
 * entry (a round's turns at 200 combatants are 200 entries): when no id repeats, removing earlier entries
 * of the same id removes nothing, so each insertion is only its placement.
 */
export function insertAgendaMany(
  agenda: readonly AgendaEntry[],
  entries: readonly AgendaEntry[],
): AgendaEntry[] {
  const ids = new Set(entries.map((e) => e.id));
  if (ids.size !== entries.length || agenda.some((a) => ids.has(a.id))) {
    let out = agenda.slice();
    for (const entry of entries) out = insertAgenda(out, entry);
    return out;
  }
  const out = agenda.slice();
  for (const entry of entries) placeInAgenda(out, entry);
  return out;
}

/** A combatant with a patch applied; `null` clears an optional field (a player link, a group). */
function patched(c: Combatant, patch: CombatantPatch): Combatant {
  const { player, group, ...rest } = patch;
  const out: Combatant = { ...c, ...rest };
  if (player === null) delete out.player;
  else if (player !== undefined) out.player = player;
  if (group === null) delete out.group;
  else if (group !== undefined) out.group = group;
  return out;
}

/** Applies one event: the engine's own here, the ruleset's by its `evolve`; unknown events change nothing. */
export function evolve(state: EncounterState, event: EngineEvent, ruleset: AnyRuleset): EncounterState {
  return isCore(event) ? evolveCore(state, event) : (ruleset.evolve(state, event) ?? state);
}

function evolveCore(state: EncounterState, event: CoreEvent): EncounterState {
  switch (event.type) {
    case 'encounter/created':
      return event.state;
    // Set on the state object itself when this fold made it (see `ownState`).
    case 'encounter/started': {
      const s = ownState(state);
      s.status = 'running';
      return s;
    }
    case 'encounter/ended':
      return { ...state, status: 'ended', current: null };
    case 'combatant/added': {
      const c = event.combatant;
      return {
        ...withCombatants(state, (all) => {
          all[c.id] = c;
        }),
        roster: state.roster.includes(c.id) ? state.roster : [...state.roster, c.id],
      };
    }
    case 'combatant/updated':
      return withCombatant(state, event.combatant, (c) => patched(c, event.patch));
    case 'combatant/removed': {
      const id = event.combatant;
      return {
        ...withCombatants(state, (all) => {
          delete all[id];
        }),
        roster: state.roster.filter((r) => r !== id),
        agenda: state.agenda.filter((a) => a.combatant !== id),
        effects: state.effects.filter((e) => e.target !== id),
        current: state.current === id ? null : state.current,
      };
    }
    // Written into the combatant when this fold copied it already (see `writeCombatant`).
    case 'combatant/defeated':
      return writeCombatant(state, event.combatant, (c) => {
        c.active = false;
      });
    case 'combatant/revived':
      return writeCombatant(state, event.combatant, (c) => {
        c.active = true;
      });
    case 'hp/changed': {
      const hp = event.hp;
      return writeCombatant(state, event.combatant, (c) => {
        c.hp = hp;
      });
    }
    case 'effect/added':
      return { ...state, effects: [...state.effects, event.effect] };
    case 'effect/expired':
    case 'effect/removed': {
      const id = event.effect;
      const s = ownState(state);
      s.effects = state.effects.filter((e) => e.id !== id);
      return s;
    }
    case 'action/defined': {
      const action = event.action;
      return { ...state, customActions: [...state.customActions.filter((a) => a.id !== action.id), action] };
    }
    case 'action/removed': {
      const id = event.action;
      return { ...state, customActions: state.customActions.filter((a) => a.id !== id) };
    }
    case 'options/set':
      return { ...state, options: event.options };
    case 'hp-display/set':
      return { ...state, hpDisplay: event.display };
    case 'hp/described':
      return state;
    case 'timed/added':
      return { ...state, timed: [...(state.timed ?? []), event.timed] };
    case 'timed/removed':
      return { ...state, timed: (state.timed ?? []).filter((t) => t.id !== event.id) };
    case 'timed/fired': {
      const { id, round, next } = event;
      const moved = (t: TimedEvent): TimedEvent =>
        next ? { ...t, fired: round, at: next } : { ...t, fired: round };
      return { ...state, timed: (state.timed ?? []).map((t) => (t.id === id ? moved(t) : t)) };
    }
    case 'note/added':
      return { ...state, gmNotes: [...state.gmNotes, event.text] };
    case 'round/started': {
      // A timed event that comes back every turn starts again from the round's first turn.
      const timed = state.timed?.some((t) => t.restart)
        ? state.timed.map((t) => (t.restart ? { ...t, at: t.restart } : t))
        : state.timed;
      const s = ownState(state);
      s.round = event.round;
      s.status = 'running';
      if (timed) s.timed = timed;
      return s;
    }
    case 'round/ended':
      return state;
    case 'turn/started': {
      const id = event.combatant;
      const s = ownState(
        writeCombatant(state, id, (c) => {
          c.turnsStarted++;
        }),
      );
      s.current = id;
      return s;
    }
    case 'turn/ended': {
      const id = event.combatant;
      const s = ownState(
        writeCombatant(state, id, (c) => {
          c.turnsEnded++;
        }),
      );
      if (s.current === id) s.current = null;
      return s;
    }
    case 'clock/advanced': {
      const s = ownState(state);
      s.now = event.to;
      return s;
    }
    case 'agenda/scheduled': {
      const s = ownState(state);
      s.agenda = insertAgenda(state.agenda, event.entry);
      return s;
    }
    case 'agenda/scheduled-many': {
      // In order, as that many `agenda/scheduled` would: the same agenda either way.
      const s = ownState(state);
      s.agenda = insertAgendaMany(state.agenda, event.entries);
      return s;
    }
    case 'agenda/removed': {
      const id = event.entry;
      const s = ownState(state);
      s.agenda = state.agenda.filter((a) => a.id !== id);
      return s;
    }
    case 'dice/rolled':
      return state;
    case 'dice/state': {
      const s = ownState(state);
      s.dice = event.dice;
      return s;
    }
    case 'undo':
    case 'redo':
      // Applied by the log fold (see log.ts), which needs the whole log, not by this reducer.
      return state;
  }
}
