import {
  type AnyRuleset,
  combatantInputSchema,
  issueWords,
  type Json,
  type Param,
  paramsOfSchema,
  sayableIssues,
} from '@roundkeeper/engine';
import type { Creature } from '../store/api.js';
import {
  type FieldError,
  initialValues,
  issueErrors,
  type RawForm,
  readForm,
  type SchemaIssue,
} from './form.js';

/** Most combatants one add makes ("How many"). */
export const MOST_AT_ONCE = 50;

/**
 * The add form as the GM fills it: the combatant's name, side, HP, how many, group, hidden and notes, its
 * stats as the ruleset's fields (under `stats.`), and whether the next add keeps side, HP and stats.
 */
export interface AddDraft {
  name: string;
  side: 'pc' | 'npc';
  hp: string;
  count: string;
  group: string;
  hidden: boolean;
  notes: string;
  stats: RawForm;
  keep: boolean;
}

/** The ruleset's sheet fields, read from its stats schema. */
export function statParamsOf(rs: AnyRuleset | undefined): Param[] {
  return rs ? paramsOfSchema(rs.statsSchema) : [];
}

/** A fresh form: the ruleset's defaults (an NPC, no HP given, one at a time, the sheet's own defaults). */
export function freshDraft(statParams: readonly Param[]): AddDraft {
  return {
    name: '',
    side: 'npc',
    hp: '',
    count: '1',
    group: '',
    hidden: false,
    notes: '',
    stats: initialValues(statParams, { round: 0 }, 'stats'),
    keep: false,
  };
}

/**
 * The form after an add went through: back to the ruleset's defaults, unless the GM ticked "keep" — then
 * side, HP, how many and stats stay for the next one; the name, group, hidden and notes always belong to the
 * one just added and are cleared.
 */
export function afterAdd(done: AddDraft, statParams: readonly Param[]): AddDraft {
  const fresh = freshDraft(statParams);
  if (!done.keep) return fresh;
  return { ...fresh, side: done.side, hp: done.hp, count: done.count, stats: done.stats, keep: true };
}

/** The combatant's own fields as the engine names them, and the form's key for each. */
const FIELD_KEYS: Record<string, string> = {
  name: 'name',
  side: 'side',
  hp: 'hp',
  group: 'group',
  notes: 'notes',
};

/** A whole number typed in a field: the number, or a sentence. */
function wholeNumber(text: string, label: string): number | string {
  const n = Number(text.trim());
  if (!Number.isFinite(n)) return `${label} must be a number.`;
  if (!Number.isInteger(n)) return `${label} must be a whole number.`;
  return n;
}

/** How many combatants the form asks for, or a sentence naming the limit. */
export function countOf(text: string): number | string {
  const n = wholeNumber(text || '1', 'How many');
  if (typeof n === 'string') return n;
  const bound = { path: [], message: '', origin: 'number' };
  if (n < 1) return issueWords({ ...bound, code: 'too_small', minimum: 1 }, 'How many');
  if (n > MOST_AT_ONCE) return issueWords({ ...bound, code: 'too_big', maximum: MOST_AT_ONCE }, 'How many');
  return n;
}

/**
 * The creature the form describes, checked as the engine will check it (the same schema, the same words)
 * — or every field it cannot send, each on its input (`name`, `hp`, `count`, `stats.…`).
 */
export function readDraft(
  draft: AddDraft,
  rs: AnyRuleset | undefined,
  statParams: readonly Param[],
): { creature: Creature; count: number } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const name = draft.name.trim();
  if (!name) errors.push({ key: 'name', message: 'Give the combatant a name.', where: '' });
  const count = countOf(draft.count);
  if (typeof count === 'string') errors.push({ key: 'count', message: count, where: '' });
  const creature: Creature = { name, side: draft.side, stats: {} };
  if (draft.hp.trim()) {
    const hp = wholeNumber(draft.hp, 'HP');
    if (typeof hp === 'string') errors.push({ key: 'hp', message: hp, where: '' });
    else creature.hp = hp;
  }
  if (draft.group.trim()) creature.group = draft.group.trim();
  if (draft.hidden) creature.hidden = true;
  if (draft.notes.trim()) creature.notes = draft.notes.trim();
  // The combatant's own fields, by the engine's schema: HP's limits, the lengths of name and group.
  const own = combatantInputSchema.safeParse({ ...creature, name: name || '-' });
  if (!own.success) {
    const labels = paramsOfSchema(combatantInputSchema);
    for (const issue of sayableIssues(own.error.issues as readonly SchemaIssue[])) {
      const field = String(issue.path[0] ?? '');
      const key = FIELD_KEYS[field];
      if (!key || errors.some((e) => e.key === key)) continue;
      const label = labels.find((p) => p.name === field)?.label ?? field;
      errors.push({ key, message: issueWords(issue, label), where: '' });
    }
  }
  // The sheet, by the ruleset's fields and then its schema.
  const read = readForm(statParams, draft.stats, { round: 0 }, 'stats');
  errors.push(...read.errors);
  if (!read.errors.length && rs) {
    const parsed = rs.statsSchema.safeParse(read.value);
    if (!parsed.success)
      errors.push(
        ...issueErrors(statParams, draft.stats, 'stats', parsed.error.issues as readonly SchemaIssue[]),
      );
  }
  if (errors.length || typeof count === 'string') return { errors };
  creature.stats = read.value as Record<string, Json>;
  return { creature, count };
}
