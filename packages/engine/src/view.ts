import type { z } from 'zod';
import { type CoreEvent, coreEventSchemas, effectSchema } from './events.js';
import { isCore, isCoreEvent } from './evolve.js';
import { hpRedacted, hpShownTo, hpWord, withHpShown } from './hp-display.js';
import type { Json, JsonObject } from './json.js';
import { combatantsIn } from './params.js';
import type { AnyRuleset } from './ruleset.js';
import type {
  AgendaEntry,
  Combatant,
  EncounterState,
  EngineEvent,
  LogEntry,
  Rejection,
  Viewer,
} from './types.js';

/** What a viewer receives. For anyone but the GM the dice state is gone (it would predict rolls). */
export type EncounterView = Omit<EncounterState, 'dice'> & {
  dice: EncounterState['dice'] | null;
  /**
   * A turn this viewer may not see is under way (a hidden combatant's): `current` is null, as between
   * turns, and this says it is not. It names nobody. Absent when no hidden turn is.
   */
  unseenTurn?: true;
};

/**
 * The ids of the combatants a viewer may not see: hidden ones, except a player's own. Empty for the GM.
 * `everHidden` (see `everHiddenIn`) adds the combatants that were hidden once and are no longer in the
 * state (their adding was undone, or they were removed): the events of their time still name them.
 */
export function hiddenFrom(
  state: EncounterState,
  viewer: Viewer,
  everHidden?: ReadonlySet<string>,
): Set<string> {
  const hidden = new Set<string>();
  if (viewer.role === 'gm') return hidden;
  const own = (id: string) => viewer.role === 'player' && viewer.combatants.includes(id);
  for (const id in state.combatants) {
    const c = state.combatants[id]!;
    if (c.hidden && !own(c.id)) hidden.add(c.id);
  }
  if (everHidden) for (const id of everHidden) if (!state.combatants[id] && !own(id)) hidden.add(id);
  return hidden;
}

/** Adds to `into` the ids of combatants that the entries add hidden or hide later. */
export function everHiddenIn(entries: readonly LogEntry[], into: Set<string> = new Set()): Set<string> {
  for (const { event } of entries) {
    if (!isCore(event)) continue;
    if (event.type === 'combatant/added' && event.combatant.hidden) into.add(event.combatant.id);
    else if (event.type === 'combatant/updated' && event.patch.hidden) into.add(event.combatant);
  }
  return into;
}

/** The undo history in a view for anyone but the GM (see `view`): one object, frozen, shared by all. */
const NONE: number[] = [];
Object.freeze(NONE);
const NO_HISTORY: EncounterState['history'] = { lastGroup: 0, undoable: NONE, redoable: NONE };
Object.freeze(NO_HISTORY);

function stripNotes(c: Combatant): Combatant {
  if (c.notes === undefined) return c;
  const { notes: _n, ...rest } = c;
  return rest;
}

/**
 * The state as a viewer may see it. Pure. The GM sees everything; the table view and players never
 * get the dice state, hidden combatants (or anything scheduled for, done by or counted on them), GM
 * notes, or the ruleset's secrets (another player's unrevealed plan). `everHidden` (see `everHiddenIn`)
 * names the combatants hidden once and gone since: an effect one of them caused still names it.
 */
export function view(
  state: EncounterState,
  viewer: Viewer,
  ruleset: AnyRuleset,
  everHidden?: ReadonlySet<string>,
): EncounterView {
  if (viewer.role === 'gm') return state;
  const hidden = hiddenFrom(state, viewer, everHidden);
  const combatants: Record<string, Combatant> = {};
  // Walked by key: a list of [id, combatant] pairs for every view of every change was garbage at once.
  const hpLess = hpRedacted(state);
  for (const id in state.combatants) {
    if (hidden.has(id)) continue;
    const c = stripNotes(state.combatants[id]!);
    combatants[id] = hpLess ? withHpShown(c, hpShownTo(state, viewer, id)) : c;
  }
  const redacted: EncounterState = {
    ...state,
    combatants,
    roster: state.roster.filter((id) => !hidden.has(id)),
    agenda: state.agenda.filter((a) => seesEntry(viewer, hidden, a)),
    // By the effect's declaration, as events are: its target, its source, whose turns it is counted on.
    effects: state.effects.filter((e) => !combatantsIn(effectSchema, e).some((id) => hidden.has(id))),
    current: state.current && hidden.has(state.current) ? null : state.current,
    gmNotes: [],
    // A timed event's note is the GM's: the table and players see what and when, not what happens.
    ...(state.timed ? { timed: state.timed.map(({ note: _n, ...t }) => t) } : {}),
    // Undo and redo are the GM's: the table and players do without the groups they would take back.
    history: NO_HISTORY,
  };
  const final = ruleset.redact ? ruleset.redact(redacted, viewer) : redacted;
  const unseen = state.status === 'running' && state.current !== null && hidden.has(state.current);
  return unseen ? { ...final, dice: null, unseenTurn: true } : { ...final, dice: null };
}

/** Whether a viewer sees an agenda entry: not a secret of someone else's, not a hidden combatant's. */
function seesEntry(viewer: Viewer, hidden: ReadonlySet<string>, entry: AgendaEntry): boolean {
  return (
    (!entry.secret || controls(viewer, entry.combatant)) && !(entry.combatant && hidden.has(entry.combatant))
  );
}

/** Whether a player viewer controls the combatant (their own secrets are theirs to see). */
function controls(viewer: Viewer, combatant: string | undefined): boolean {
  return viewer.role === 'player' && combatant !== undefined && viewer.combatants.includes(combatant);
}

/** The schema of an event type: the engine's own, or the ruleset's declaration; undefined if undeclared. */
export function eventSchema(ruleset: AnyRuleset, type: string): z.ZodType | undefined {
  if (isCoreEvent(type)) return coreEventSchemas[type];
  return ruleset.events && Object.hasOwn(ruleset.events, type) ? ruleset.events[type] : undefined;
}

/** The combatant ids an event names, read from its declaration; null for an undeclared event type. */
export function namedBy(event: EngineEvent, ruleset: AnyRuleset): string[] | null {
  const schema = eventSchema(ruleset, event.type);
  return schema ? combatantsIn(schema, event) : null;
}

/**
 * Whether the event names a combatant the viewer may not see, by its declaration. An event type nobody
 * declared could name anyone: it counts as naming someone hidden whenever anyone is.
 */
function mentions(event: EngineEvent, hidden: ReadonlySet<string>, ruleset: AnyRuleset): boolean {
  if (hidden.size === 0) return false;
  const declared = namedBy(event, ruleset);
  return declared === null || declared.some((id) => hidden.has(id));
}

/**
 * One event as a viewer may see it, or null. `state` is the state the event led to; `everHidden` as in
 * `hiddenFrom`.
 */
export function viewEvent(
  original: EngineEvent,
  viewer: Viewer,
  state: EncounterState,
  ruleset: AnyRuleset,
  everHidden?: ReadonlySet<string>,
): EngineEvent | null {
  if (viewer.role === 'gm') return original;
  return redactFor(original, viewer, state, ruleset, () => hiddenFrom(state, viewer, everHidden));
}

/** `viewEvent` for a non-GM viewer; `hiddenOf` gives who that viewer may not see (asked at most once). */
function redactFor(
  original: EngineEvent,
  viewer: Viewer,
  state: EncounterState,
  ruleset: AnyRuleset,
  hiddenOf: () => ReadonlySet<string>,
): EngineEvent | null {
  if (isCore(original)) {
    if (original.type === 'dice/state' || original.type === 'note/added') return null;
    if (original.type === 'encounter/created') {
      return { type: 'encounter/created', state: view(original.state, viewer, ruleset) };
    }
    // A combatant added hidden stays unseen even after it leaves the state.
    if (
      original.type === 'combatant/added' &&
      original.combatant.hidden &&
      !controls(viewer, original.combatant.id)
    )
      return null;
  }
  const hidden = hiddenOf();
  // Entries scheduled at once are seen one by one, as the agenda shows them: the others' are left out.
  const shown =
    isCore(original) && original.type === 'agenda/scheduled-many'
      ? someEntries(original, viewer, hidden)
      : original;
  if (!shown) return null;
  // The ruleset speaks first: it may rewrite an event that names a hidden combatant among others (an
  // order without them). Whatever still names one after that is dropped whole.
  const event = ruleset.redactEvent ? ruleset.redactEvent(shown, viewer, state, hidden) : shown;
  if (!event || mentions(event, hidden, ruleset)) return null;
  if (!isCore(event)) return event;
  switch (event.type) {
    case 'agenda/scheduled':
      return event.entry.secret && !controls(viewer, event.entry.combatant) ? null : event;
    case 'combatant/added': {
      const c = stripNotes(event.combatant);
      return { ...event, combatant: withHpShown(c, hpShownTo(state, viewer, c.id)) };
    }
    case 'hp/changed': {
      // HP as the GM chooses: a descriptor when it changes, or nothing; never the numbers.
      const shown = hpShownTo(state, viewer, event.combatant);
      if (shown === 'numbers') return event;
      const word = hpWord(event.hp);
      if (shown === 'hidden' || word === hpWord(event.from)) return null;
      return { type: 'hp/described', combatant: event.combatant, word };
    }
    case 'timed/added': {
      const { note: _n, ...timed } = event.timed;
      return { ...event, timed };
    }
    case 'timed/fired': {
      const { note: _n, ...rest } = event;
      return rest;
    }
    case 'combatant/updated': {
      const { notes: _n, ...patch } = event.patch;
      return _n === undefined ? event : { ...event, patch };
    }
    default:
      return event;
  }
}

/** An `agenda/scheduled-many` with only the entries the viewer sees (itself when that is all), or null. */
function someEntries(
  event: Extract<CoreEvent, { type: 'agenda/scheduled-many' }>,
  viewer: Viewer,
  hidden: ReadonlySet<string>,
): EngineEvent | null {
  const entries = event.entries.filter((e) => seesEntry(viewer, hidden, e));
  if (entries.length === event.entries.length) return event;
  return entries.length === 0 ? null : { type: 'agenda/scheduled-many', entries };
}

/**
 * Log entries as a viewer may see them. `everHidden` is `everHiddenIn` of the whole log; without it the
 * entries given are taken to be the whole log (pass it when they are a slice, such as "since seq N").
 */
export function viewLog(
  entries: readonly LogEntry[],
  viewer: Viewer,
  state: EncounterState,
  ruleset: AnyRuleset,
  everHidden?: ReadonlySet<string>,
): LogEntry[] {
  if (viewer.role === 'gm') return [...entries];
  // Who is hidden depends on the state, not on the event: worked out once for the whole list.
  const hidden = hiddenFrom(state, viewer, everHidden ?? everHiddenIn(entries));
  const out: LogEntry[] = [];
  for (const entry of entries) {
    const e = redactFor(entry.event, viewer, state, ruleset, () => hidden);
    if (e) out.push({ ...entry, event: e });
  }
  return out;
}

/**
 * A refusal as a viewer may read it: the names and ids of combatants hidden from that viewer become
 * "someone unseen" in the sentence and in the details. A refusal must not confirm what the view hides
 * ("It is Spy's turn" would).
 */
export function viewRejection(rejection: Rejection, viewer: Viewer, state: EncounterState): Rejection {
  if (viewer.role === 'gm') return rejection;
  const hidden = hiddenFrom(state, viewer);
  if (hidden.size === 0) return rejection;
  const words: string[] = [];
  for (const id of hidden) {
    words.push(id);
    const name = state.combatants[id]?.name;
    if (name && name.length > 1) words.push(name);
  }
  // Longest first, so a name containing another is replaced whole.
  words.sort((a, b) => b.length - a.length);
  // Whole words only: a hidden "Orc" leaves "Orcish" alone, a hidden id "e" leaves every "e" alone.
  const literal = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}_-])(?:${words.map(literal).join('|')})(?![\\p{L}\\p{N}_-])`,
    'gu',
  );
  const scrub = (text: string): string => text.replace(pattern, 'someone unseen');
  const scrubJson = (v: Json): Json => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(scrubJson);
    if (v && typeof v === 'object') {
      const o: JsonObject = {};
      for (const [k, x] of Object.entries(v)) o[k] = scrubJson(x);
      return o;
    }
    return v;
  };
  const message = scrub(rejection.message);
  if (!rejection.details) return { code: rejection.code, message };
  return { code: rejection.code, message, details: scrubJson(rejection.details) as JsonObject };
}
