import {
  type Combatant,
  type EncounterState,
  type EncounterView,
  type LogEntry,
  perObject,
} from '@roundkeeper/engine';

/**
 * Every combatant's display name, by id: the view's combatants, and those the log added (or renamed) that
 * are no longer in the view — removed, or their addition undone — so a line about them still names them.
 * Two combatants with the same name are told apart ("Goblin", "Goblin (2)"), in the order they joined.
 */
export interface Names {
  /** The display name of an id; the words "someone unseen" for an id this viewer never saw named. */
  of(id: string): string;
  /** Every display name the viewer may read, by id. */
  readonly byId: ReadonlyMap<string, string>;
  /** The combatants that left, as the log last showed them (for describing lines about them). */
  readonly departed: ReadonlyMap<string, Combatant>;
}

export const UNSEEN = 'someone unseen';

/** The display names of a view's own combatants (no log), worked out once per view. */
export const viewNames: (view: EncounterView) => Names = perObject((view: EncounterView) =>
  namesOf(view, []),
);

/**
 * `namesOf`, worked out once for the same combatants, roster and log (the headline, the log and an undo's
 * label of one change ask for the same names).
 */
const namesKept = new WeakMap<
  readonly LogEntry[],
  WeakMap<EncounterView['combatants'], WeakMap<readonly string[], Names>>
>();
export function namesFor(
  view: Pick<EncounterView, 'combatants' | 'roster'>,
  entries: readonly LogEntry[],
): Names {
  let byCombatants = namesKept.get(entries);
  if (!byCombatants) {
    byCombatants = new WeakMap();
    namesKept.set(entries, byCombatants);
  }
  let byRoster = byCombatants.get(view.combatants);
  if (!byRoster) {
    byRoster = new WeakMap();
    byCombatants.set(view.combatants, byRoster);
  }
  let names = byRoster.get(view.roster);
  if (!names) {
    names = namesOf(view, entries);
    byRoster.set(view.roster, names);
  }
  return names;
}

/** What the log says of names, in order: a combatant added (with its name), or renamed. */
type Naming = { id: string; name: string; added?: Combatant };

/**
 * The log's namings, read once: the log grows by appending, so a log that starts with the one read last
 * is read from where that one ended (a change reads its few new entries, not the whole fight again).
 */
let lastRead: { entries: readonly LogEntry[]; namings: Naming[] } | null = null;
const namingsRead = new WeakMap<readonly LogEntry[], Naming[]>();
const NO_NAMINGS: Naming[] = [];
export function namingsOf(entries: readonly LogEntry[]): Naming[] {
  // No log (the names of a view alone, asked by the legal actions and the timeline on every change): it
  // leaves the last log read where it was, or the next change's log would be read from its start.
  if (entries.length === 0) return NO_NAMINGS;
  const known = namingsRead.get(entries);
  if (known) return known;
  const last = lastRead;
  const n = last?.entries.length ?? 0;
  const extends_ =
    last !== null &&
    n > 0 &&
    entries.length >= n &&
    entries[0] === last.entries[0] &&
    entries[n - 1] === last.entries[n - 1];
  const namings = extends_ ? [...last.namings] : [];
  for (let i = extends_ ? n : 0; i < entries.length; i++) {
    const { event } = entries[i]!;
    if (event.type === 'combatant/added' && isCombatant(event.combatant)) {
      namings.push({ id: event.combatant.id, name: event.combatant.name, added: event.combatant });
    } else if (event.type === 'combatant/updated' && typeof event.combatant === 'string') {
      const patch = event.patch;
      if (isRecord(patch) && typeof patch.name === 'string')
        namings.push({ id: event.combatant, name: patch.name });
    }
  }
  lastRead = { entries, namings };
  namingsRead.set(entries, namings);
  return namings;
}

export function namesOf(
  view: Pick<EncounterView, 'combatants' | 'roster'>,
  entries: readonly LogEntry[],
): Names {
  const raw = new Map<string, string>();
  const departed = new Map<string, Combatant>();
  for (const { id, name, added } of namingsOf(entries)) {
    raw.set(id, name);
    if (added) {
      if (!view.combatants[id]) departed.set(id, added);
    } else {
      const gone = departed.get(id);
      if (gone) departed.set(id, { ...gone, name });
    }
  }
  // The view's names are the current ones; the roster's order is the order they joined.
  for (const id of view.roster) {
    const c = view.combatants[id];
    if (c) raw.set(id, c.name);
  }
  for (const id in view.combatants) raw.set(id, view.combatants[id]!.name);
  const byId = new Map<string, string>();
  const count = new Map<string, number>();
  for (const [id, name] of raw) {
    const n = (count.get(name) ?? 0) + 1;
    count.set(name, n);
    byId.set(id, n === 1 ? name : `${name} (${n})`);
  }
  for (const [id, c] of departed) departed.set(id, { ...c, name: byId.get(id) ?? c.name });
  return { of: (id) => byId.get(id) ?? UNSEEN, byId, departed };
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCombatant(x: unknown): x is Combatant {
  return isRecord(x) && typeof x.id === 'string' && typeof x.name === 'string';
}

/**
 * The state the ruleset's words are asked of: the view (the engine's functions take a state; a view only
 * lacks the dice), with each combatant under its display name, and the combatants that left put back
 * (outside the roster) so a line about them names them.
 */
export function describingState(view: EncounterView, names: Names): EncounterState {
  let combatants = view.combatants;
  let renamed = false;
  for (const id in view.combatants) if (names.of(id) !== view.combatants[id]!.name) renamed = true;
  if (renamed || names.departed.size > 0) {
    combatants = { ...view.combatants };
    for (const id in combatants) {
      const name = names.of(id);
      if (combatants[id]!.name !== name) combatants[id] = { ...combatants[id]!, name };
    }
    for (const [id, c] of names.departed) combatants[id] = { ...c, active: false };
  }
  const state: Omit<EncounterState, 'dice'> & { dice: EncounterState['dice'] | null } = {
    ...view,
    combatants,
  };
  return asState(state);
}

/** A view as the engine's state: everything but the dice, which no screen reads. */
export function asState(
  v: Omit<EncounterState, 'dice'> & { dice: EncounterState['dice'] | null },
): EncounterState {
  // The dice state is the one field a view may lack; nothing the screens ask of a ruleset rolls.
  return v as EncounterState;
}
