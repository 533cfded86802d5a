import type { Json, Param } from '@roundkeeper/engine';

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

/**
 * The starting values of a form: each field's default; a required duration until the actor's next turn, an
 * optional one left to the rules (nothing sent, so the ruleset's own default applies).
 */
export function initialValues(params: readonly Param[], ctx: FormContext, prefix = ''): RawForm {
  const out: RawForm = {};
  for (const p of params) {
    const k = key(prefix, p.name);
    if (p.type === 'group' && p.fields) Object.assign(out, initialValues(p.fields, ctx, k));
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
  if (p.min !== undefined && n < p.min) return `${p.label} must be at least ${p.min}.`;
  if (p.max !== undefined && n > p.max) return `${p.label} must be at most ${p.max}.`;
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
 * The payload the form makes, or a sentence saying which field is wrong (by its label). Empty optional
 * fields are left out, so the rules' defaults apply.
 */
export function payloadOf(
  params: readonly Param[],
  raw: RawForm,
  ctx: FormContext,
  prefix = '',
): Record<string, Json> | string {
  const out: Record<string, Json> = {};
  for (const p of params) {
    const k = key(prefix, p.name);
    let value: Json | undefined;
    switch (p.type) {
      case 'group': {
        const inner = payloadOf(p.fields ?? [], raw, ctx, k);
        if (typeof inner === 'string') return inner;
        if (Object.keys(inner).length) value = inner;
        break;
      }
      case 'duration': {
        // An optional duration left as the rules have it is not sent.
        if (!p.required && text(raw, `${k}.kind`) === '') break;
        const d = durationOf(raw, k, ctx);
        if (typeof d === 'string') return `${p.label}: ${d}`;
        value = d;
        break;
      }
      case 'boolean':
        if (raw[k] === true) value = true;
        else if (p.required) value = false;
        break;
      case 'combatants': {
        const picked = (p.options ?? [])
          .filter((o) => raw[`${k}.${String(o.value)}`] === true)
          .map((o) => String(o.value));
        if (picked.length) value = picked;
        break;
      }
      case 'per-combatant': {
        const map: Record<string, Json> = {};
        for (const o of p.options ?? []) {
          const t = text(raw, `${k}.${String(o.value)}`);
          if (!t) continue;
          const of = p.of ?? { name: 'value', label: p.label, type: 'number', required: true };
          const n =
            of.type === 'integer' || of.type === 'number' ? numberOf({ ...of, label: o.label }, t) : t;
          if (typeof n === 'string' && (of.type === 'integer' || of.type === 'number')) return n;
          // A choice keeps its option's own value (a number stays a number).
          map[String(o.value)] =
            of.type === 'choice' ? (of.options?.find((x) => String(x.value) === t)?.value ?? t) : n;
        }
        if (Object.keys(map).length) value = map;
        break;
      }
      case 'integer':
      case 'number': {
        const t = text(raw, k);
        if (!t) break;
        const n = numberOf(p, t);
        if (typeof n === 'string') return n;
        value = n;
        break;
      }
      case 'choice': {
        const t = text(raw, k);
        if (!t) break;
        const o = p.options?.find((x) => String(x.value) === t);
        value = o ? o.value : t;
        break;
      }
      case 'json': {
        const t = text(raw, k);
        if (!t) break;
        try {
          value = JSON.parse(t) as Json;
        } catch {
          return `${p.label} is not readable: write it as the rules text gives it.`;
        }
        break;
      }
      default: {
        const t = text(raw, k);
        if (t) value = t;
      }
    }
    if (value === undefined) {
      if (p.required) return `Fill in ${p.label}.`;
      continue;
    }
    out[p.name] = value;
  }
  return out;
}

/** The parameters a click cannot send without: required, with no default and no value given. */
export function missingParams(params: readonly Param[], given: Record<string, Json>): Param[] {
  return params.filter((p) => p.required && p.default === undefined && !Object.hasOwn(given, p.name));
}
