import { evolve } from './evolve.js';
import type { AnyRuleset } from './ruleset.js';
import type { EncounterState, EngineEvent, LogEntry } from './types.js';

const isUndoRedo = (e: EngineEvent) => e.type === 'undo' || e.type === 'redo';

/** Effective entries between two kept states: an undo refolds at most this many before its group. */
const CHECKPOINT_EVERY = 64;

/**
 * What an undo or redo needs to refold only the part of the log it changes, instead of the whole log
 * (whose cost grew with the square of its length over many undos). It holds the entries that count —
 * neither undo/redo entries nor entries of undone groups — in order, and the folded state every
 * CHECKPOINT_EVERY of them. Undoing or redoing group G changes only what comes after G's first entry, so
 * the fold restarts from the last checkpoint before it. Groups that can be undone are among the last
 * UNDO_DEPTH, so a refold covers at most their entries and one checkpoint's worth more.
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
  /** Each group's entries, as [first, end) indexes into the log. */
  private readonly spans = new Map<number, [number, number]>();
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
    const start = this.checkpoints.at(-1)!;
    let state = start.state;
    let i = this.indexAfter(start.seq);
    let sinceCheckpoint = 0;
    for (; i < this.effective.length; i++) {
      const entry = this.effective[i]!;
      state = evolve(state, entry.event, ruleset);
      if (++sinceCheckpoint === this.every) {
        this.checkpoints.push({ seq: entry.seq, state });
        sinceCheckpoint = 0;
      }
    }
    return state;
  }

  /** Takes in the entries not seen yet; returns the lowest seq whose fold they change. */
  private absorb(log: readonly LogEntry[]): number {
    if (this.known === 0 || this.known > log.length) return this.rebuild(log);
    let from = Number.POSITIVE_INFINITY;
    for (let i = this.known; i < log.length; i++) {
      const entry = log[i]!;
      if (isUndoRedo(entry.event)) {
        const group = entry.event.group as number;
        const span = this.spans.get(group);
        if (!span) continue;
        if (entry.event.type === 'undo') {
          if (this.undone.has(group)) continue;
          this.undone.add(group);
          const at = this.indexAfter(log[span[0]]!.seq - 1);
          this.effective.splice(at, span[1] - span[0]);
        } else {
          if (!this.undone.delete(group)) continue;
          const at = this.indexAfter(log[span[0]]!.seq - 1);
          this.effective.splice(at, 0, ...log.slice(span[0], span[1]));
        }
        from = Math.min(from, log[span[0]]!.seq);
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
      if (entry.event.type === 'undo') this.undone.add(entry.event.group as number);
      else if (entry.event.type === 'redo') this.undone.delete(entry.event.group as number);
    }
    for (let i = 1; i < log.length; i++) {
      const entry = log[i]!;
      if (isUndoRedo(entry.event)) continue;
      this.note(entry, i);
      if (!this.undone.has(entry.group)) this.effective.push(entry);
    }
    this.checkpoints = [{ seq: log[0]!.seq, state: log[0]!.event.state as unknown as EncounterState }];
    this.known = log.length;
    return log[0]!.seq;
  }

  private note(entry: LogEntry, index: number): void {
    const span = this.spans.get(entry.group);
    if (span) span[1] = index + 1;
    else this.spans.set(entry.group, [index, index + 1]);
  }

  /** The index in `effective` of the first entry with a seq above `seq` (binary search). */
  private indexAfter(seq: number): number {
    let lo = 0;
    let hi = this.effective.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.effective[mid]!.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
