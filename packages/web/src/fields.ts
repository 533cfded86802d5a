import type { z } from 'zod';

/** A form field read from a zod schema, so any ruleset command or option gets a form without code. */
export interface FieldSpec {
  name: string;
  kind: 'string' | 'number' | 'boolean' | 'enum' | 'json';
  optional: boolean;
  options?: string[];
  description?: string;
  default?: unknown;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string>;
  defaultValue?: unknown;
}

function defOf(s: z.ZodType): Def {
  return (s as unknown as { _zod: { def: Def } })._zod.def;
}

function describe(s: z.ZodType): FieldSpec['kind'] | { enum: string[] } {
  const d = defOf(s);
  switch (d.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'int':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return { enum: Object.values(d.entries ?? {}) };
    default:
      return 'json';
  }
}

/** The fields of an object schema (unwrapping optional, default, nullable). */
export function fieldsOf(schema: z.ZodType): FieldSpec[] {
  const d = defOf(schema);
  if (d.type !== 'object' || !d.shape) return [];
  return Object.entries(d.shape).map(([name, field]) => {
    let s = field;
    let optional = false;
    let dflt: unknown;
    const description = (field as { description?: string }).description;
    for (let i = 0; i < 5; i++) {
      const fd = defOf(s);
      if ((fd.type === 'optional' || fd.type === 'default' || fd.type === 'nullable') && fd.innerType) {
        optional = true;
        if (fd.type === 'default') dflt = typeof fd.defaultValue === 'function' ? undefined : fd.defaultValue;
        s = fd.innerType;
      } else break;
    }
    const k = describe(s);
    const spec: FieldSpec =
      typeof k === 'string' ? { name, kind: k, optional } : { name, kind: 'enum', optional, options: k.enum };
    const desc = description ?? (s as { description?: string }).description;
    if (desc) spec.description = desc;
    if (dflt !== undefined) spec.default = dflt;
    return spec;
  });
}

/** Turns form strings into a command payload; returns an error sentence for a bad number or JSON. */
export function parseFields(
  fields: FieldSpec[],
  raw: Record<string, string | boolean>,
): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = raw[f.name];
    if (v === undefined || v === '' || (f.kind === 'boolean' && v === false && f.optional)) continue;
    switch (f.kind) {
      case 'boolean':
        out[f.name] = v === true || v === 'true';
        break;
      case 'number': {
        const n = Number(v);
        if (!Number.isFinite(n)) return `"${f.name}" must be a number.`;
        out[f.name] = n;
        break;
      }
      case 'json':
        try {
          out[f.name] = JSON.parse(String(v));
        } catch {
          return `"${f.name}" must be JSON, e.g. {"ana": 12} or ["ana"].`;
        }
        break;
      default:
        out[f.name] = v;
    }
  }
  return out;
}
