import { type AnyRuleset, type Json, type Param, paramsOfSchema } from '@roundkeeper/engine';
import { type FieldError, issueErrors, type RawForm, readForm, type SchemaIssue, valuesOf } from './form.js';

/** What the options forms need of a ruleset: its options' schema. */
export type OptionsOf = Pick<AnyRuleset, 'optionsSchema'>;

/** A ruleset's options as form fields: labelled choices, numbers, checks, dice, tables for maps and lists. */
export function optionParams(rs: OptionsOf | undefined): Param[] {
  return rs ? paramsOfSchema(rs.optionsSchema) : [];
}

/** The ruleset's own value of each option, when nothing is chosen. */
export function optionDefaults(rs: OptionsOf): Record<string, Json> {
  return rs.optionsSchema.parse({}) as Record<string, Json>;
}

/** The form's values for a set of options (an encounter's, or the defaults of a new one). */
export function optionValues(params: readonly Param[], options: Record<string, unknown>): RawForm {
  return valuesOf(params, options);
}

/**
 * Every option as the form says it, checked by the ruleset's schema — or what is wrong, by the field it is
 * about. A check left unticked is "no" (not the default, which may be yes); a field emptied is the
 * ruleset's default (a cap back to none).
 */
export function readOptions(
  rs: OptionsOf,
  params: readonly Param[],
  raw: RawForm,
): { options: Record<string, Json> } | { errors: FieldError[] } {
  const read = readForm(params, raw, { round: 0 });
  if (read.errors.length) return { errors: read.errors };
  const defaults = optionDefaults(rs);
  const options: Record<string, Json> = {};
  for (const p of params) {
    if (p.type === 'boolean') options[p.name] = raw[p.name] === true;
    else if (Object.hasOwn(read.value, p.name)) options[p.name] = read.value[p.name]!;
    else if (Object.hasOwn(defaults, p.name)) options[p.name] = defaults[p.name]!;
  }
  const parsed = rs.optionsSchema.safeParse(options);
  if (!parsed.success)
    return { errors: issueErrors(params, raw, '', parsed.error.issues as readonly SchemaIssue[]) };
  return { options };
}

/** The options that differ from `now` (what "Change options" sends). */
export function changedOptions(
  options: Record<string, Json>,
  now: Record<string, unknown>,
): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(options).filter(([k, v]) => JSON.stringify(now[k] ?? null) !== JSON.stringify(v)),
  );
}
