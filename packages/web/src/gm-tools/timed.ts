import {
  type AnyRuleset,
  coreCommandSchemas,
  type EncounterState,
  isRejection,
  type LogEntry,
  type Param,
  paramsOfSchema,
  timedWhen,
} from '@roundkeeper/engine';
import { undoneGroups } from '../log/undone.js';

/** The add-timed-event command's fields, from its schema (name, at, note), read once. */
let fields: Param[] | null = null;
export function timedFields(): Param[] {
  fields ??= paramsOfSchema(coreCommandSchemas['add-timed-event']);
  return fields;
}

/**
 * What a number typed in the form's "At" field means on the ruleset's clock, in its own words ("initiative
 * 20, losing ties, every round"; "every 6 ticks"), or why it has no such moment; null for no number yet.
 */
export function momentWords(
  rs: AnyRuleset,
  state: EncounterState,
  text: string | boolean | undefined,
): { ok: boolean; words: string } | null {
  if (typeof text !== 'string' || text.trim() === '' || !Number.isFinite(Number(text))) return null;
  if (!rs.timedAt) return { ok: false, words: `${rs.name}'s clock has no fixed moment for a timed event.` };
  const n = Number(text);
  if (!Number.isInteger(n)) return { ok: false, words: 'A whole number.' };
  const r = rs.timedAt(state, n);
  if (isRejection(r)) return { ok: false, words: r.message };
  // Once a round, unless it comes back by a period of its own; said once ("Mark 10 each round" says it).
  return { ok: true, words: timedWhen(r) };
}

/** A timed event that fired, as the table screen says it: its name and its moment (the note is the GM's). */
export interface FiredLine {
  seq: number;
  name: string;
  when: string;
  note?: string;
}

/**
 * The timed events that fired with or after the command that began the turn (or the round) now under
 * way: what the table screen announces. Empty when none did. Commands undone count for nothing.
 */
export function firedNow(entries: readonly LogEntry[]): FiredLine[] {
  const undone = undoneGroups(entries);
  let from = Number.POSITIVE_INFINITY;
  for (let i = entries.length - 1; i >= 0; i--) {
    const { event, group } = entries[i]!;
    if (undone.has(group)) continue;
    if (event.type === 'encounter/ended') return [];
    if (event.type === 'turn/started' || event.type === 'round/started') {
      from = group;
      break;
    }
  }
  const out: FiredLine[] = [];
  for (const e of entries) {
    const ev = e.event;
    if (e.group < from || ev.type !== 'timed/fired' || undone.has(e.group)) continue;
    const line: FiredLine = { seq: e.seq, name: String(ev.name), when: String(ev.when) };
    if (typeof ev.note === 'string') line.note = ev.note;
    out.push(line);
  }
  return out;
}
