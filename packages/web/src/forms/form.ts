import {
  issueWords,
  type Json,
  type Param,
  type ParamOption,
  type SchemaIssue,
  sayableIssues,
} from '@roundkeeper/engine';

/**
 * A form built from the engine's `Param` descriptions (an action's parameters, a command's fields, a
 * combatant's stats): its raw values as the inputs hold them, and the payload they make. Nested fields
 * are kept flat under dotted keys ("spell.difficulty", "initiative.ana", "duration.kind").
 */
export type RawForm = Record<string, string | boolean>;

/** How long a condition lasts, as the duration picker offers it. */
export type DurationChoice = 'turn-start' | 'turn-end' | 'rounds' | 'units' | 'indefinite';

/** Where the form is filled: the round now (for "N rounds") and who acts (a duration's default anchor). */
export interface FormContext {
  round: number;
  actor?: string;
}

const key = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

function defaultText(p: Param): string | boolean | undefined {
  if (p.default === undefined || p.default === null) return undefined;
  if (p.type === 'boolean') return p.default === true;
  if (typeof p.default === 'object') return undefined;
  return String(p.default);
}

/** Where a list's or a map's rows are kept: their ids, in order, comma-separated ("0,1,3"). */
export const rowsKey = (k: string) => `${k}[]`;
/** A map row's name (a skill's name), beside the row's value or fields. */
export const nameKey = (k: string, id: string) => `${k}.${id}:name`;

/** The ids of a list's or a map's rows, in order. */
export function rowIds(raw: RawForm, k: string): string[] {
  const v = raw[rowsKey(k)];
  return typeof v === 'string' && v ? v.split(',') : [];
}

/** A map entry's name as a person reads it: its label where the names come from a list ("Reckless attack"). */
export function keyLabel(p: Param, name: string): string {
  return p.key?.options?.find((o) => String(o.value) === name)?.label ?? name;
}

/** One row as a field of its own: a list's entry or a map's value, named by the row's id. */
export function rowParam(p: Param, id: string): Param {
  return { ...(p.of ?? { name: 'item', label: p.label, type: 'json', required: true }), name: id };
}

/** The form with one more row in a list or a map, its fields at their defaults; and the new row's id. */
export function addRow(raw: RawForm, k: string, p: Param): { raw: RawForm; id: string } {
  const ids = rowIds(raw, k);
  const id = String(ids.reduce((m, x) => Math.max(m, Number(x) + 1), 0));
  const out: RawForm = { ...raw, ...initialValues([rowParam(p, id)], { round: 0 }, k) };
  out[rowsKey(k)] = [...ids, id].join(',');
  if (p.type === 'map') out[nameKey(k, id)] = '';
  return { raw: out, id };
}

/** The form without one row of a list or a map (and nothing left of its fields). */
export function removeRow(raw: RawForm, k: string, id: string): RawForm {
  const row = `${k}.${id}`;
  const out: RawForm = {};
  for (const [key, v] of Object.entries(raw)) {
    if (key === row || key.startsWith(`${row}.`) || key.startsWith(`${row}:`)) continue;
    out[key] = v;
  }
  out[rowsKey(k)] = rowIds(raw, k)
    .filter((x) => x !== id)
    .join(',');
  return out;
}

/** A value as the form holds it, at `k`: numbers and words as text, lists and maps as rows. */
function fill(p: Param, v: unknown, k: string, out: RawForm): void {
  if (v === undefined || v === null) return;
  if (p.type === 'group' && typeof v === 'object' && !Array.isArray(v)) {
    const obj = v as Record<string, unknown>;
    for (const f of p.fields ?? []) fill(f, obj[f.name], key(k, f.name), out);
  } else if (p.type === 'list' && Array.isArray(v)) {
    const ids = v.map((_, i) => String(i));
    out[rowsKey(k)] = ids.join(',');
    for (const [i, item] of v.entries()) fill(rowParam(p, String(i)), item, `${k}.${i}`, out);
  } else if (p.type === 'map' && typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>);
    out[rowsKey(k)] = entries.map((_, i) => String(i)).join(',');
    entries.forEach(([name, value], i) => {
      out[nameKey(k, String(i))] = name;
      fill(rowParam(p, String(i)), value, `${k}.${i}`, out);
    });
  } else if (typeof v === 'boolean') out[k] = v;
  else if (typeof v === 'number' || typeof v === 'string') out[k] = String(v);
  else if (p.type === 'json') out[k] = JSON.stringify(v);
}

/** The form's values for a record (a combatant's stats): each field's value as the form holds it. */
export function valuesOf(params: readonly Param[], value: Record<string, unknown>, prefix = ''): RawForm {
  const out: RawForm = {};
  for (const p of params) fill(p, value[p.name], key(prefix, p.name), out);
  return out;
}

/**
 * The starting values of a form: each field's default; a required duration until the actor's next turn, an
 * optional one left to the rules (nothing sent, so the ruleset's own default applies).
 */
export function initialValues(params: readonly Param[], ctx: FormContext, prefix = ''): RawForm {
  const out: RawForm = {};
  for (const p of params) {
    const k = key(prefix, p.name);
    if (p.type === 'group' && p.fields) Object.assign(out, initialValues(p.fields, ctx, k));
    else if (p.type === 'list' || p.type === 'map') fill(p, p.default, k, out);
    else if (p.type === 'duration') {
      out[`${k}.kind`] = p.required ? 'turn-start' : '';
      out[`${k}.count`] = '1';
      if (ctx.actor) out[`${k}.combatant`] = ctx.actor;
    } else {
      const d = defaultText(p);
      if (d !== undefined) out[k] = d;
    }
  }
  return out;
}

function numberOf(p: Param, text: string): number | string {
  const n = Number(text.trim());
  if (!Number.isFinite(n)) return `${p.label} must be a number.`;
  if (p.type === 'integer' && !Number.isInteger(n)) return `${p.label} must be a whole number.`;
  const bound = { path: [], message: '', origin: 'number' };
  if (p.min !== undefined && n < p.min)
    return issueWords({ ...bound, code: 'too_small', minimum: p.min }, p.label);
  if (p.max !== undefined && n > p.max)
    return issueWords({ ...bound, code: 'too_big', maximum: p.max }, p.label);
  return n;
}

function text(raw: RawForm, k: string): string {
  const v = raw[k];
  return typeof v === 'string' ? v.trim() : '';
}

/** A duration from the picker's fields, in the engine's terms; a sentence when something is missing. */
export function durationOf(raw: RawForm, k: string, ctx: FormContext): Json | string {
  const kind = text(raw, `${k}.kind`) as DurationChoice;
  const count = Number(text(raw, `${k}.count`) || '1');
  if (kind === 'indefinite') return { kind: 'indefinite' };
  if (!Number.isInteger(count) || count < 1) return 'Say how many: a whole number, 1 or more.';
  if (kind === 'rounds') {
    // "2 rounds" ends at the end of the next round: this round counts as the first.
    return { kind: 'until-round-end', round: Math.max(1, ctx.round) + count - 1 };
  }
  if (kind === 'units') return { kind: 'for', amount: count };
  const combatant = text(raw, `${k}.combatant`);
  if (!combatant) return 'Choose whose turn ends the condition.';
  return {
    kind: kind === 'turn-end' ? 'until-turn-end' : 'until-turn-start',
    combatant,
    turns: count,
  };
}

/**
 * A field the form cannot send as it is: the input it belongs to (`key`, for the message beside it), the
 * sentence, and where the field is for a message shown elsewhere ("Weapons 2", `""` at the top level).
 */
export interface FieldError {
  key: string;
  message: string;
  where: string;
}

/** Errors by the input they belong to, the first for each. */
export function fieldErrors(errors: readonly FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) out[e.key] ??= e.message;
  return out;
}

/** The errors but the one of an input just changed (the change may have fixed it). */
export function withoutError(errors: Record<string, string>, key: string): Record<string, string> {
  const out = { ...errors };
  delete out[key];
  return out;
}

/** An error as one sentence for the status line: where it is, then what is wrong. */
export function sayError(e: FieldError): string {
  return e.where ? `${e.where}: ${e.message}` : e.message;
}

const within = (where: string, here: string) => (where ? `${where} › ${here}` : here);

/** One field's value, or undefined when it is left empty; what is wrong goes into `errors`. */
function readField(
  p: Param,
  k: string,
  raw: RawForm,
  ctx: FormContext,
  where: string,
  errors: FieldError[],
): Json | undefined {
  const fail = (message: string, at = k): undefined => {
    errors.push({ key: at, message, where });
    return undefined;
  };
  switch (p.type) {
    case 'group': {
      const inner = readFields(p.fields ?? [], raw, ctx, k, where, errors);
      return Object.keys(inner).length ? inner : undefined;
    }
    case 'list': {
      if (!Object.hasOwn(raw, rowsKey(k))) return undefined;
      const ids = rowIds(raw, k);
      if (p.min !== undefined && ids.length < p.min)
        return fail(`${p.label}: at least ${p.min}.`, rowsKey(k));
      if (p.max !== undefined && ids.length > p.max) return fail(`${p.label}: at most ${p.max}.`, rowsKey(k));
      return ids.map((id, i) => {
        const row = rowParam(p, id);
        const at = within(where, `${p.label} ${i + 1}`);
        // An entry of a list is always there, even with its fields empty: the rules say what it lacks.
        if (row.type === 'group') return readFields(row.fields ?? [], raw, ctx, `${k}.${id}`, at, errors);
        const before = errors.length;
        const v = readField(row, `${k}.${id}`, raw, ctx, at, errors);
        if (v === undefined && errors.length === before)
          errors.push({ key: `${k}.${id}`, message: `Fill in ${row.label}.`, where: at });
        return v ?? null;
      });
    }
    case 'map': {
      if (!Object.hasOwn(raw, rowsKey(k))) return undefined;
      const out: Record<string, Json> = {};
      for (const [i, id] of rowIds(raw, k).entries()) {
        const name = text(raw, nameKey(k, id));
        const label = p.key?.label ?? 'Name';
        const at = within(where, name ? `${p.label} “${keyLabel(p, name)}”` : `${p.label} ${i + 1}`);
        if (!name) {
          errors.push({ key: nameKey(k, id), message: `Fill in ${label}.`, where: at });
          continue;
        }
        if (Object.hasOwn(out, name)) {
          errors.push({
            key: nameKey(k, id),
            message: `Another entry is already named “${keyLabel(p, name)}”.`,
            where: at,
          });
          continue;
        }
        const row = rowParam(p, id);
        const before = errors.length;
        const v =
          row.type === 'group'
            ? readFields(row.fields ?? [], raw, ctx, `${k}.${id}`, at, errors)
            : readField(row, `${k}.${id}`, raw, ctx, at, errors);
        if (v === undefined) {
          if (errors.length === before)
            errors.push({ key: `${k}.${id}`, message: `Fill in ${row.label}.`, where: at });
          continue;
        }
        out[name] = v;
      }
      return out;
    }
    case 'duration': {
      // An optional duration left as the rules have it is not sent.
      if (!p.required && text(raw, `${k}.kind`) === '') return undefined;
      const d = durationOf(raw, k, ctx);
      if (typeof d === 'string') return fail(`${p.label}: ${d}`);
      return d;
    }
    case 'boolean':
      if (raw[k] === true) return true;
      return p.required ? false : undefined;
    case 'combatants': {
      const picked = (p.options ?? [])
        .filter((o) => raw[`${k}.${String(o.value)}`] === true)
        .map((o) => String(o.value));
      return picked.length ? picked : undefined;
    }
    case 'per-combatant': {
      const map: Record<string, Json> = {};
      for (const o of p.options ?? []) {
        const at = `${k}.${String(o.value)}`;
        const t = text(raw, at);
        if (!t) continue;
        const of = p.of ?? { name: 'value', label: p.label, type: 'number', required: true };
        const n = of.type === 'integer' || of.type === 'number' ? numberOf({ ...of, label: o.label }, t) : t;
        if (typeof n === 'string' && (of.type === 'integer' || of.type === 'number')) {
          fail(n, at);
          continue;
        }
        // A choice keeps its option's own value (a number stays a number).
        map[String(o.value)] =
          of.type === 'choice' ? (of.options?.find((x) => String(x.value) === t)?.value ?? t) : n;
      }
      return Object.keys(map).length ? map : undefined;
    }
    case 'integer':
    case 'number': {
      const t = text(raw, k);
      if (!t) return undefined;
      const n = numberOf(p, t);
      return typeof n === 'string' ? fail(n) : n;
    }
    case 'choice': {
      const t = text(raw, k);
      if (!t) return undefined;
      const o = p.options?.find((x) => String(x.value) === t);
      return o ? o.value : t;
    }
    case 'json': {
      const t = text(raw, k);
      if (!t) return undefined;
      try {
        return JSON.parse(t) as Json;
      } catch {
        return fail(`${p.label} is not readable: write it as the rules text gives it.`);
      }
    }
    default: {
      const t = text(raw, k);
      return t || undefined;
    }
  }
}

function readFields(
  params: readonly Param[],
  raw: RawForm,
  ctx: FormContext,
  prefix: string,
  where: string,
  errors: FieldError[],
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const p of params) {
    const k = key(prefix, p.name);
    const before = errors.length;
    const value = readField(p, k, raw, ctx, where, errors);
    if (value === undefined) {
      if (p.required && errors.length === before)
        errors.push({
          key: p.type === 'list' || p.type === 'map' ? rowsKey(k) : k,
          message: `Fill in ${p.label}.`,
          where,
        });
      continue;
    }
    out[p.name] = value;
  }
  return out;
}

/**
 * The payload the form makes, and every field it cannot send, each by the input it belongs to. Empty
 * optional fields are left out, so the rules' defaults apply; a list or a map is sent whole once the form
 * holds its rows (emptied, it is sent empty).
 */
export function readForm(
  params: readonly Param[],
  raw: RawForm,
  ctx: FormContext,
  prefix = '',
): { value: Record<string, Json>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const value = readFields(params, raw, ctx, prefix, '', errors);
  return { value, errors };
}

/**
 * The payload the form makes, or a sentence saying which field is wrong (by its label). Empty optional
 * fields are left out, so the rules' defaults apply.
 */
export function payloadOf(
  params: readonly Param[],
  raw: RawForm,
  ctx: FormContext,
  prefix = '',
): Record<string, Json> | string {
  const { value, errors } = readForm(params, raw, ctx, prefix);
  return errors[0] ? sayError(errors[0]) : value;
}

export type { SchemaIssue };

/** What a schema's issue means for the field labelled `label`, in a sentence (the shared `issueWords`). */
export function issueText(issue: SchemaIssue, label: string, options?: readonly ParamOption[]): string {
  return issueWords(issue, label, (v) => options?.find((o) => o.value === v)?.label ?? String(v));
}

/**
 * A schema's issues with the form's values (`raw`, fields under `prefix`), each put on the input it is
 * about: a list's entry by its row, a map's entry by its name (its name field when the name is refused).
 */
export function issueErrors(
  params: readonly Param[],
  raw: RawForm,
  prefix: string,
  issues: readonly SchemaIssue[],
): FieldError[] {
  return sayableIssues(issues).map((issue) => {
    let fields: readonly Param[] = params;
    let p: Param | undefined;
    let k = prefix;
    let where = '';
    let label = '';
    let row = false;
    const path = issue.path;
    for (let i = 0; i < path.length; i++) {
      const step = String(path[i]);
      const last = i === path.length - 1;
      if (!p || p.type === 'group') {
        const f = (p ? (p.fields ?? []) : fields).find((x) => x.name === step);
        if (!f) break;
        // A group's name joins the path; a row's is already there ("Weapons 2").
        if (p && !row) where = within(where, label);
        row = false;
        k = key(k, f.name);
        p = f;
        label = f.label;
        fields = f.fields ?? [];
      } else if (p.type === 'list') {
        const index = Number(step);
        const id = rowIds(raw, k)[index];
        if (id === undefined) break;
        where = within(where, `${p.label} ${index + 1}`);
        k = `${k}.${id}`;
        p = rowParam(p, id);
        label = p.label;
        row = true;
      } else if (p.type === 'map') {
        const id = rowIds(raw, k).find((x) => text(raw, nameKey(k, x)) === step);
        if (id === undefined) break;
        where = within(where, `${p.label} “${keyLabel(p, step)}”`);
        if (last && issue.code === 'invalid_key') {
          label = p.key?.label ?? 'Name';
          k = nameKey(k, id);
          p = p.key;
          break;
        }
        k = `${k}.${id}`;
        p = rowParam(p, id);
        label = p.label;
        row = true;
      } else break;
    }
    const at = p?.type === 'list' || p?.type === 'map' ? rowsKey(k) : k;
    return { key: at, message: issueText(issue, label || 'This', p?.options), where };
  });
}

/** The parameters a click cannot send without: required, with no default and no value given. */
export function missingParams(params: readonly Param[], given: Record<string, Json>): Param[] {
  return params.filter((p) => p.required && p.default === undefined && !Object.hasOwn(given, p.name));
}
