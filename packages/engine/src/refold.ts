import { drafting, sealDraft } from './draft.js';
import { createdState, evolve, undoRedoOf } from './evolve.js';
import type { AnyRuleset } from './ruleset.js';
import type { EncounterState, EngineEvent, LogEntry } from './types.js';

const isUndoRedo = (e: EngineEvent) => e.type === 'undo' || e.type === 'redo';

/** Effective entries between two kept states: an undo refolds at most this many before its group. */
const CHECKPOINT_EVERY = 64;

/**
 * What an undo or redo needs to refold only the part of the log it changes, instead of the whole log
 * (whose cost grew with the square of its length over many undos). It holds the entries that count —
 * neither undo/redo entries nor entries of undone groups — in order, and the folded state every
 * CHECKPOINT_EVERY of them (one per combatant when there are more). Undoing or redoing group G changes
 * only what comes after G's first entry, so the fold restarts from the last checkpoint before it. Groups
 * that can be undone are among the last UNDO_DEPTH, so a refold covers at most their entries and one
 * checkpoint's worth more.
 *
 * The log is absorbed lazily: plain entries are only noted (their state comes the usual way), and the
 * first undo after loading builds everything once.
 */
export class Refold {
  /** `every`: effective entries between checkpoints (tests use small numbers to reach every path). */
  constructor(private readonly every = CHECKPOINT_EVERY) {}

  /** Log entries absorbed so far. */
  private known = 0;
  private readonly undone = new Set<number>();
  /** Each group's entries, as [first, end) indexes into the log, and the seq of its first. */
  private readonly spans = new Map<number, [first: number, end: number, firstSeq: number]>();
  /** The entries that count, after the creation entry, in seq order. */
  private effective: LogEntry[] = [];
  /** The fold after every effective entry up to and including `seq`; the first is the creation state. */
  private checkpoints: Array<{ seq: number; state: EncounterState }> = [];

  /** Forgets everything (the log was cut back); the next refold rebuilds from the log. */
  reset(): void {
    this.known = 0;
    this.undone.clear();
    this.spans.clear();
    this.effective = [];
    this.checkpoints = [];
  }

  /**
   * The fold of `log` (which ends with the entries just applied, some of them undo or redo) with undone
   * groups left out — what `reduce` gives, less its history and seq, which the caller sets.
   */
  fold(log: readonly LogEntry[], ruleset: AnyRuleset): EncounterState {
    const from = this.absorb(log);
    this.checkpoints = this.checkpoints.filter((c, i) => i === 0 || c.seq < from);
    const start = this.checkpoints.at(-1);
    if (!start) throw new Error('A refold starts from the state the log created; there was none.');
    return drafting(() => {
      let state = start.state;
      let sinceCheckpoint = 0;
      for (const entry of this.effective.slice(this.indexAfter(start.seq))) {
        state = evolve(state, entry.event, ruleset);
        if (++sinceCheckpoint >= this.spacing(state)) {
          // Kept: nothing may write into it from here on.
          sealDraft();
          this.checkpoints.push({ seq: entry.seq, state });
          sinceCheckpoint = 0;
        }
      }
      return state;
    });
  }

  /**
   * Builds, a slice at a time, what the next `fold` of `log` would otherwise build at once: after loading
   * (or a rollback), the first undo or redo folds the whole log to make its checkpoints. Each step folds
   * at most `every` entries, so a caller that must not hold its thread for long (a server with a long
   * log) can give way between steps; afterwards that undo or redo refolds only what it changes. Does
   * nothing when the log is already absorbed.
   */
  *warm(log: readonly LogEntry[], ruleset: AnyRuleset): Generator<void, void, undefined> {
    if (this.known > 0 && this.known <= log.length) return;
    this.rebuild(log);
    let state = this.checkpoints[0]!.state;
    // A slice at a time, each its own fold (other code runs between slices, so no draft outlives one).
    for (let at = 0; at < this.effective.length; ) {
      const slice = this.effective.slice(at, at + this.spacing(state));
      at += slice.length;
      const full = slice.length === this.spacing(state);
      state = drafting(() => slice.reduce((s, entry) => evolve(s, entry.event, ruleset), state));
      const last = slice.at(-1);
      if (last && full) {
        this.checkpoints.push({ seq: last.seq, state });
        yield;
      }
    }
  }

  /**
   * Effective entries between two checkpoints from `state` on: `every`, or one per combatant when there
   * are more. A checkpoint costs one copy of the combatants record (the fold after it may not write into
   * the kept one), so spacing them at least as far apart as there are combatants keeps a refold's work
   * linear in the entries it folds, whatever the encounter's size.
   */
  private spacing(state: EncounterState): number {
    return Math.max(this.every, state.roster.length);
  }

  /** Takes in the entries not seen yet; returns the lowest seq whose fold they change. */
  private absorb(log: readonly LogEntry[]): number {
    if (this.known === 0 || this.known > log.length) return this.rebuild(log);
    let from = Number.POSITIVE_INFINITY;
    for (let i = this.known; i < log.length; i++) {
      const entry = log[i];
      if (!entry) break;
      const undo = undoRedoOf(entry.event);
      if (undo) {
        const span = this.spans.get(undo.group);
        if (!span) continue;
        const [first, end, firstSeq] = span;
        if (undo.type === 'undo') {
          if (this.undone.has(undo.group)) continue;
          this.undone.add(undo.group);
          this.effective.splice(this.indexAfter(firstSeq - 1), end - first);
        } else {
          if (!this.undone.delete(undo.group)) continue;
          this.effective.splice(this.indexAfter(firstSeq - 1), 0, ...log.slice(first, end));
        }
        from = Math.min(from, firstSeq);
      } else {
        this.note(entry, i);
        this.effective.push(entry);
      }
    }
    this.known = log.length;
    return from;
  }

  /** Builds everything from the whole log in one pass each; the fold then starts from creation. */
  private rebuild(log: readonly LogEntry[]): number {
    this.reset();
    for (const entry of log) {
      const undo = undoRedoOf(entry.event);
      if (undo?.type === 'undo') this.undone.add(undo.group);
      else if (undo?.type === 'redo') this.undone.delete(undo.group);
    }
    for (const [i, entry] of log.entries()) {
      if (i === 0 || isUndoRedo(entry.event)) continue;
      this.note(entry, i);
      if (!this.undone.has(entry.group)) this.effective.push(entry);
    }
    const seq = log[0]?.seq ?? 0;
    this.checkpoints = [{ seq, state: createdState(log[0]) }];
    this.known = log.length;
    return seq;
  }

  private note(entry: LogEntry, index: number): void {
    const span = this.spans.get(entry.group);
    if (span) span[1] = index + 1;
    else this.spans.set(entry.group, [index, index + 1, entry.seq]);
  }

  /** The index in `effective` of the first entry with a seq above `seq` (binary search). */
  private indexAfter(seq: number): number {
    let lo = 0;
    let hi = this.effective.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.effective[mid]?.seq ?? Number.POSITIVE_INFINITY) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
