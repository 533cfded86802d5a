import { drafting } from './draft.js';
import {
  createEncounter,
  type DecideOptions,
  decideSettled,
  type NewEncounter,
  rulesetFor,
} from './engine.js';
import { createdState, evolve, undoRedoOf } from './evolve.js';
import { Refold } from './refold.js';
import type { RulesetRegistry } from './ruleset.js';
import {
  type EncounterState,
  type EngineEvent,
  type History,
  isRejection,
  type LogEntry,
  type Rejection,
} from './types.js';
import { everHiddenIn } from './view.js';

/** How many command groups can be undone in a row. */
export const UNDO_DEPTH = 200;

const isUndoRedo = (e: EngineEvent) => e.type === 'undo' || e.type === 'redo';

/**
 * `groups` with `group` added at its end, the oldest dropped past UNDO_DEPTH: one new array (this runs for
 * every command, and the list is up to UNDO_DEPTH long).
 */
function withGroup(groups: readonly number[], group: number): number[] {
  if (groups.length < UNDO_DEPTH) return groups.concat(group);
  const out = groups.slice(groups.length - UNDO_DEPTH + 1);
  out.push(group);
  return out;
}

/**
 * Updates the undo/redo stacks for one log entry. Group 0 (creation) is never undoable. `undone` collects
 * the groups undone (an undo or redo entry needs it).
 */
function track(h: History, entry: LogEntry, undone?: Set<number>): History {
  const e = undoRedoOf(entry.event);
  if (e?.type === 'undo') {
    const g = e.group;
    undone?.add(g);
    return {
      lastGroup: Math.max(h.lastGroup, entry.group),
      undoable: h.undoable.filter((x) => x !== g),
      redoable: h.redoable.concat(g),
    };
  }
  if (e?.type === 'redo') {
    const g = e.group;
    undone?.delete(g);
    return {
      lastGroup: Math.max(h.lastGroup, entry.group),
      undoable: withGroup(h.undoable, g),
      redoable: h.redoable.filter((x) => x !== g),
    };
  }
  if (entry.group > h.lastGroup) {
    // A new command: what was undone before it can no longer be redone. (An empty list stays the same
    // one: the GM's next view delta sees it unchanged without comparing.)
    return {
      lastGroup: entry.group,
      undoable: entry.group === 0 ? h.undoable : withGroup(h.undoable, entry.group),
      redoable: h.redoable.length === 0 ? h.redoable : [],
    };
  }
  return h;
}

/**
 * The state a log describes: its fold, with undone command groups left out. Pure; the log is
 * append-only, so undo and redo are entries too.
 */
export function reduce(log: readonly LogEntry[], registry: RulesetRegistry): EncounterState {
  let state = createdState(log[0]);
  let history: History = { undoable: [], redoable: [], lastGroup: 0 };
  const undone = new Set<number>();
  for (const entry of log) history = track(history, entry, undone);

  const ruleset = rulesetFor(state, registry);
  if (isRejection(ruleset)) throw new Error(ruleset.message);
  state = drafting(() => {
    let s = state;
    for (const [i, entry] of log.entries()) {
      if (i === 0 || isUndoRedo(entry.event) || undone.has(entry.group)) continue;
      s = evolve(s, entry.event, ruleset);
    }
    return s;
  });
  return { ...state, history, seq: lastSeq(log) };
}

/**
 * Applies new entries to a state. Plain events fold in directly; an undo or redo refolds the log
 * (which must already end with `entries`): all of it, or with `refold` (kept by the caller for this log
 * from one call to the next) only from the last checkpoint before the group it undoes or redoes.
 */
export function applyEntries(
  state: EncounterState,
  entries: readonly LogEntry[],
  log: readonly LogEntry[],
  registry: RulesetRegistry,
  refold?: Refold,
): EncounterState {
  const undoing = entries.some((e) => isUndoRedo(e.event));
  if (undoing && !refold) return reduce(log, registry);
  const ruleset = rulesetFor(state, registry);
  if (isRejection(ruleset)) throw new Error(ruleset.message);
  let s = state;
  let history = s.history;
  const undone = new Set<number>();
  if (!undoing) s = drafting(() => entries.reduce((x, entry) => evolve(x, entry.event, ruleset), s));
  for (const entry of entries) history = track(history, entry, undone);
  if (undoing && refold) s = refold.fold(log, ruleset);
  return entries.length ? { ...s, history, seq: lastSeq(entries) } : s;
}

/** The seq of the last entry; 0 for none. */
function lastSeq(entries: readonly LogEntry[]): number {
  return entries.at(-1)?.seq ?? 0;
}

/**
 * An encounter held in memory: its log and the state it folds to. The adapters (CLI, server,
 * simulations) own one of these; the engine's functions stay pure.
 */
export class EncounterLog {
  readonly entries: LogEntry[] = [];
  state: EncounterState;
  /** Every combatant the log ever added hidden or hid (for `viewLog` of a slice of the log). */
  readonly everHidden = new Set<string>();
  /** Keeps an undo or redo from refolding the whole log. */
  private readonly refold = new Refold();

  private constructor(
    readonly registry: RulesetRegistry,
    first: LogEntry,
  ) {
    this.entries.push(first);
    this.state = reduce(this.entries, registry);
  }

  static create(input: NewEncounter, registry: RulesetRegistry, time?: string): EncounterLog | Rejection {
    const event = createEncounter(input, registry);
    if (isRejection(event)) return event;
    const first: LogEntry = time ? { seq: 1, group: 0, event, time } : { seq: 1, group: 0, event };
    return new EncounterLog(registry, first);
  }

  /**
   * An encounter from its stored log. With a snapshot (the state at some seq), only the entries after it
   * are folded — unless one of them is an undo or redo, which needs the whole log.
   */
  static fromLog(
    log: readonly LogEntry[],
    registry: RulesetRegistry,
    snapshot?: { seq: number; state: EncounterState },
  ): EncounterLog {
    const loading = EncounterLog.loading(log, registry, snapshot);
    for (;;) {
      const step = loading.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `fromLog` a step at a time: where the whole log must be folded (no snapshot, or an undo or redo after
   * it), it is folded a slice per step (`prepareUndo`), so a server can give way to other requests
   * between steps however long the log.
   */
  static *loading(
    log: readonly LogEntry[],
    registry: RulesetRegistry,
    snapshot?: { seq: number; state: EncounterState },
  ): Generator<void, EncounterLog, undefined> {
    const [first] = log;
    if (!first) throw new Error('A log must start with an encounter/created event.');
    const enc = new EncounterLog(registry, first);
    // One at a time: spreading a long log into one call overflows the stack (past ~130,000 entries).
    for (const [i, entry] of log.entries()) if (i > 0) enc.entries.push(entry);
    everHiddenIn(enc.entries, enc.everHidden);
    const usable = snapshot && snapshot.state.seq === snapshot.seq && log.some((e) => e.seq === snapshot.seq);
    const start = usable ? snapshot.state : enc.state;
    const tail = usable ? log.filter((e) => e.seq > snapshot.seq) : log.slice(1);
    if (tail.length === 0) {
      enc.state = start;
    } else if (usable && !tail.some((e) => isUndoRedo(e.event))) {
      enc.state = applyEntries(start, tail, enc.entries, registry);
    } else {
      // The whole log to fold: the refold's fold, built a slice at a time, then the tail's history.
      yield* enc.prepareUndo();
      let history = start.history;
      const undone = new Set<number>();
      for (const entry of tail) history = track(history, entry, undone);
      enc.state = { ...enc.refold.fold(enc.entries, enc.ruleset()), history, seq: lastSeq(tail) };
    }
    return enc;
  }

  /**
   * Prepares the next undo or redo to refold only what it changes, a slice of the log per step (see
   * `Refold.warm`). After loading a log, the first undo or redo folds all of it; a server runs this
   * first, giving way to other requests between steps. Without it, that undo or redo does the same work
   * at once.
   */
  *prepareUndo(): Generator<void, void, undefined> {
    yield* this.refold.warm(this.entries, this.ruleset());
  }

  private ruleset() {
    const ruleset = rulesetFor(this.state, this.registry);
    if (isRejection(ruleset)) throw new Error(ruleset.message);
    return ruleset;
  }

  /** Restores the log and state to what they were before the last `execute` (storage refused it). */
  rollback(to: { length: number; state: EncounterState }): void {
    this.entries.length = to.length;
    this.state = to.state;
    this.refold.reset();
    this.everHidden.clear();
    everHiddenIn(this.entries, this.everHidden);
  }

  /**
   * Folds entries stored by another writer (another server instance on the same database). They must
   * continue this log: the first one's seq is the next one.
   */
  adopt(entries: readonly LogEntry[]): void {
    const next = (this.entries.at(-1)?.seq ?? 0) + 1;
    const [first] = entries;
    if (!first) return;
    if (first.seq !== next) {
      throw new Error(`Entries from seq ${first.seq} do not continue a log that ends before ${next}.`);
    }
    this.entries.push(...entries);
    everHiddenIn(entries, this.everHidden);
    // An undo or redo refolds from the last checkpoint before what it changes, as `execute`'s do.
    this.state = applyEntries(this.state, entries, this.entries, this.registry, this.refold);
  }

  /**
   * Decides and applies a command; returns the new log entries or the rejection. The state is the one the
   * command settled to while it was decided: its events are folded once, not again here (an undo or redo
   * still refolds the log, which it needs whole).
   */
  execute(command: unknown, options: DecideOptions & { time?: string } = {}): LogEntry[] | Rejection {
    const settled = decideSettled(this.state, command, this.registry, options);
    if (isRejection(settled)) return settled;
    const group = this.state.history.lastGroup + 1;
    let seq = lastSeq(this.entries);
    const time = options.time;
    // Each entry made with all its fields at once: a field added afterwards moves an object's fields out
    // of line, ~30 bytes more for every entry a loaded encounter keeps.
    const entries = settled.events.map(
      (event): LogEntry => (time ? { seq: ++seq, group, event, time } : { seq: ++seq, group, event }),
    );
    this.entries.push(...entries);
    everHiddenIn(entries, this.everHidden);
    if (entries.length === 0 || entries.some((e) => isUndoRedo(e.event))) {
      this.state = applyEntries(this.state, entries, this.entries, this.registry, this.refold);
    } else {
      // No undo or redo among them: nothing is undone, so no set of undone groups is needed.
      let history = this.state.history;
      for (const entry of entries) history = track(history, entry);
      this.state = { ...settled.state, history, seq };
    }
    return entries;
  }
}
