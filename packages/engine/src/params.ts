import { z } from 'zod';
import { issueAt } from './issue-words.js';
import type { Json } from './json.js';

/**
 * What a command or an action takes, described as data so any app can build a form for it: the web
 * palette, `roundkeeper play`, `rulesets --json`. Read from the zod schemas a ruleset already declares
 * (their `.meta()` labels, bounds, defaults and sources), so one declaration gives the form, the
 * validation and the refusal.
 */
export type ParamType =
  | 'integer'
  | 'number'
  | 'text'
  | 'dice'
  | 'boolean'
  | 'choice'
  /** One combatant id; its options come from `from`. */
  | 'combatant'
  /** Several combatant ids. */
  | 'combatants'
  /** A value per combatant (an initiative override, Character Points spent); `of` describes the value. */
  | 'per-combatant'
  /** Several fields together (a spell's difficulty and cost); `fields` describes them. */
  | 'group'
  /** How long an effect lasts (`Duration`): the apps' duration picker. */
  | 'duration'
  /** A list of entries (a sheet's weapons): `of` describes one entry; `min`/`max` bound how many. */
  | 'list'
  /** Entries by a name the GM writes (skills by name, each a die code): `key` the name, `of` the value. */
  | 'map'
  /** Anything else: entered as JSON. A schema that falls back here lacks a description. */
  | 'json';

/**
 * Where a parameter's choices come from. Combatant sources are resolved per actor: `others` leaves the
 * actor out, `allies` and `enemies` go by side. `stat:<field>` lists the actor's own sheet entries (their
 * weapons, their spells): strings, or objects with a `name` (and an `id`, used as the value if present).
 * `actions` lists the actor's catalog (an action to ready). `rules:<name>` lists what the ruleset's
 * `present.choices` gives for the actor (a tempo character's planned actions), in words.
 */
export type ParamSource =
  | 'combatants'
  | 'others'
  | 'allies'
  | 'enemies'
  | 'actions'
  | `stat:${string}`
  | `rules:${string}`;

export interface ParamOption {
  value: string | number | boolean;
  label: string;
}

export interface Param {
  /** The command field it fills. */
  name: string;
  /** What a GM reads: "Casting Time (Marks)". */
  label: string;
  type: ParamType;
  required: boolean;
  /** One sentence on what it means. */
  help?: string;
  default?: Json;
  min?: number;
  max?: number;
  /** The clock unit or measure it is in, when the label does not say it. */
  unit?: string;
  /** Fixed choices; for a combatant or a sheet source, the resolved ones (see `resolveParams`). */
  options?: ParamOption[];
  from?: ParamSource;
  /** A group's fields. */
  fields?: Param[];
  /** A per-combatant map's value, a map's value, a list's entry. */
  of?: Param;
  /** A map's entry name (its label, bounds on its length). */
  key?: Param;
}

/** The `.meta()` keys the SDK reads from a ruleset's schemas. */
export interface ParamMeta {
  label?: string;
  /** Marks a combatant id: `actor` is acted for (the server authorizes it), `ref` is only named. */
  combatant?: 'actor' | 'ref';
  from?: ParamSource;
  unit?: string;
  /** A string that holds a dice expression. */
  dice?: boolean;
  /** A `Duration` (the engine's `durationSchema` or a subset of its kinds). */
  duration?: boolean;
  /** A field the forms do not show (filled by the app, like the action picked from the palette). */
  hidden?: boolean;
  /** On a command's object schema: a GM's command, which player links may not send unless the GM allows. */
  gm?: boolean;
  /** On a fixed list of choices: what a person reads for each value ({ 'free-strike': 'Grant a free strike' }). */
  choices?: Record<string, string>;
  /**
   * On a command's object schema: what a player's button says that sends it for their own character, and
   * its help (`next` on a phone is "End my turn" unless the rules mean something else by it: tick's holds).
   */
  own?: CommandWords;
}

/** What a button that sends a command says, and its help. */
export interface CommandWords {
  label: string;
  help?: string;
}

const ID_MAX = 64;

/** A combatant acting: the server checks that whoever sends the command may act for it. */
export function actorField(label = 'Who acts') {
  return z
    .string()
    .min(1)
    .max(ID_MAX)
    .meta({ combatant: 'actor', label, from: 'combatants' } satisfies ParamMeta);
}

/** A combatant a command names without acting for it (a target). */
export function combatantField(label = 'Target', from: ParamSource = 'others') {
  return z
    .string()
    .min(1)
    .max(ID_MAX)
    .meta({ combatant: 'ref', label, from } satisfies ParamMeta);
}

/** A dice expression field ("2d6+3"). */
export function diceField(label = 'Roll') {
  return z
    .string()
    .min(1)
    .max(200)
    .meta({ label, dice: true } satisfies ParamMeta);
}

// ---------------------------------------------------------------------------------------------------
// Reading a schema

/** The JSON Schema subset zod emits, with the SDK's meta keys. */
export interface JsonSchemaNode extends ParamMeta {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  additionalProperties?: JsonSchemaNode | boolean;
  propertyNames?: JsonSchemaNode;
  enum?: Json[];
  const?: Json;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  default?: Json;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
}

const jsonSchemas = new WeakMap<z.ZodType, JsonSchemaNode>();

/** A schema as JSON Schema (input side: defaults make a field optional), computed once per schema. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchemaNode {
  let out = jsonSchemas.get(schema);
  if (!out) {
    out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
    jsonSchemas.set(schema, out);
  }
  return out;
}

/** "castingTime" → "Casting time"; "bonusDice" → "Bonus dice". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A nullable or optional wrapper emitted as anyOf [x, null]: the non-null side. */
function unwrap(node: JsonSchemaNode): JsonSchemaNode {
  const alternatives = node.anyOf ?? node.oneOf;
  if (!alternatives) return node;
  const real = alternatives.filter((a) => a.type !== 'null');
  // One value or a list of them (a weapon, or several to ready at once): a form picks one.
  const one =
    real.length === 2 && real.some((a) => a.type === 'array')
      ? real.find((a) => a.type === 'string')
      : undefined;
  if (real.length !== 1 && !one) return node;
  // Keep the wrapper's own annotations (zod puts .meta() of a wrapper on the wrapper).
  const { anyOf: _a, oneOf: _o, ...own } = node;
  return { ...(one ?? real[0]), ...own };
}

const PRIMITIVE_LIMIT = Number.MAX_SAFE_INTEGER;

function paramOf(name: string, raw: JsonSchemaNode, required: boolean): Param {
  const node = unwrap(raw);
  const p: Param = { name, label: node.label ?? node.title ?? humanize(name), type: 'json', required };
  if (node.description) p.help = node.description;
  if (node.default !== undefined) p.default = node.default;
  if (node.unit) p.unit = node.unit;
  if (node.from) p.from = node.from;
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
  if (node.duration) {
    p.type = 'duration';
  } else if (node.combatant) {
    p.type = 'combatant';
    p.from ??= node.combatant === 'actor' ? 'combatants' : 'others';
  } else if (node.enum) {
    p.type = 'choice';
    const said = node.choices ?? {};
    p.options = node.enum
      .filter((v) => v !== null)
      .map((v) => ({ value: v as string, label: said[String(v)] ?? String(v) }));
  } else if (node.const !== undefined) {
    p.type = 'choice';
    p.options = [{ value: node.const as string, label: String(node.const) }];
  } else if (type === 'integer' || type === 'number') {
    p.type = type;
    const min = node.minimum ?? node.exclusiveMinimum;
    const max = node.maximum ?? node.exclusiveMaximum;
    if (min !== undefined && Math.abs(min) < PRIMITIVE_LIMIT) p.min = min;
    if (max !== undefined && Math.abs(max) < PRIMITIVE_LIMIT) p.max = max;
  } else if (type === 'boolean') {
    p.type = 'boolean';
  } else if (type === 'string') {
    p.type = node.dice ? 'dice' : p.from ? 'choice' : 'text';
  } else if (type === 'array' && node.items && unwrap(node.items).combatant) {
    p.type = 'combatants';
    p.from ??= unwrap(node.items).from ?? 'combatants';
  } else if (type === 'array' && node.items && paramOf('item', node.items, true).type !== 'json') {
    // A list of entries a form can describe (a sheet's weapons); a list of anything stays JSON.
    p.type = 'list';
    p.of = paramOf('item', node.items, true);
    if (node.minItems) p.min = node.minItems;
    if (node.maxItems !== undefined && node.maxItems < PRIMITIVE_LIMIT) p.max = node.maxItems;
  } else if (
    type === 'object' &&
    node.propertyNames?.combatant &&
    typeof node.additionalProperties === 'object'
  ) {
    p.type = 'per-combatant';
    p.from ??= node.propertyNames.from ?? 'combatants';
    p.of = paramOf('value', node.additionalProperties, true);
  } else if (
    type === 'object' &&
    !node.properties &&
    typeof node.additionalProperties === 'object' &&
    paramOf('value', node.additionalProperties, true).type !== 'json'
  ) {
    // A record by name (z.record(z.string(), …)): entries a GM names, each a value or a group of fields.
    p.type = 'map';
    p.of = paramOf('value', node.additionalProperties, true);
    p.key = { name: 'name', label: node.propertyNames?.label ?? 'Name', type: 'text', required: true };
  } else if (type === 'object' && node.properties) {
    p.type = 'group';
    p.fields = fieldsOf(node);
  }
  return p;
}

function fieldsOf(node: JsonSchemaNode): Param[] {
  const required = new Set(node.required ?? []);
  const out: Param[] = [];
  for (const [name, field] of Object.entries(node.properties ?? {})) {
    if (field.hidden) continue;
    out.push(paramOf(name, field, required.has(name)));
  }
  return out;
}

const paramLists = new WeakMap<z.ZodType, Param[]>();

/** The parameters of an object schema (a command's payload), in declaration order. */
export function paramsOfSchema(schema: z.ZodType): Param[] {
  let out = paramLists.get(schema);
  if (!out) {
    out = fieldsOf(jsonSchemaOf(schema));
    paramLists.set(schema, out);
  }
  return out;
}

/** A command's label and help, from the `.meta()` of its object schema. */
export function commandLabel(type: string, schema: z.ZodType): CommandWords & { own?: CommandWords } {
  const node = jsonSchemaOf(schema);
  return {
    label: node.label ?? node.title ?? humanize(type),
    ...(node.description ? { help: node.description } : {}),
    ...(node.own ? { own: node.own } : {}),
  };
}

/**
 * Where a validation issue is, as a person reads it: the labels of the fields on its path ("Check ›
 * Successes"), never the field names. A step with no property (a map's key, a list's index) is shown as is.
 */
export function labelPath(schema: z.ZodType, path: readonly PropertyKey[]): string {
  const root = jsonSchemaOf(schema);
  let node: JsonSchemaNode | undefined = root;
  const out: string[] = [];
  for (const step of path) {
    const key = String(step);
    const here: JsonSchemaNode | undefined = node ? unwrap(resolveRef(node, root)) : undefined;
    const field = here?.properties && Object.hasOwn(here.properties, key) ? here.properties[key] : undefined;
    if (field) {
      const f = unwrap(resolveRef(field, root));
      out.push(f.label ?? f.title ?? humanize(key));
      node = f;
      continue;
    }
    out.push(key);
    const items: JsonSchemaNode | undefined = here?.items;
    const values: JsonSchemaNode | boolean | undefined = here?.additionalProperties;
    node = items ?? (values && typeof values === 'object' ? values : undefined);
  }
  return out.join(' › ');
}

/** A command that failed validation, said with its label and its fields' labels. */
export function explainCommandError(error: z.ZodError, type: string, schema: z.ZodType): string {
  const parts = error.issues.slice(0, 3).map((i) => {
    const where = i.path.length ? labelPath(schema, i.path) : 'the input';
    return issueAt(where, i);
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return `${commandLabel(type, schema).label} was not taken: ${parts.join('; ')}${more}.`;
}

// ---------------------------------------------------------------------------------------------------
// Combatant references: who a command acts for, whom a fact names

export type PathStep = string | { each: 'item' } | { each: 'value' } | { each: 'key' };
export interface RefPath {
  role: 'actor' | 'ref';
  path: PathStep[];
}

function refPathsOf(
  node: JsonSchemaNode,
  prefix: PathStep[],
  out: RefPath[],
  depth: number,
  root: JsonSchemaNode,
): void {
  if (depth > 12) return;
  const n = resolveRef(node, root);
  if (n.combatant) {
    out.push({ role: n.combatant, path: prefix });
    return;
  }
  for (const alt of n.anyOf ?? n.oneOf ?? []) refPathsOf(alt, prefix, out, depth + 1, root);
  for (const [k, v] of Object.entries(n.properties ?? {}))
    refPathsOf(v, [...prefix, k], out, depth + 1, root);
  if (n.items) refPathsOf(n.items, [...prefix, { each: 'item' }], out, depth + 1, root);
  if (n.propertyNames?.combatant)
    out.push({ role: n.propertyNames.combatant, path: [...prefix, { each: 'key' }] });
  if (n.additionalProperties && typeof n.additionalProperties === 'object') {
    refPathsOf(n.additionalProperties, [...prefix, { each: 'value' }], out, depth + 1, root);
  }
}

/** A `$ref` into the root's `$defs` (zod emits recursive schemas such as `z.json()` that way). */
export function resolveRef(node: JsonSchemaNode, root: JsonSchemaNode): JsonSchemaNode {
  const ref = (node as { $ref?: string }).$ref;
  if (!ref?.startsWith('#/$defs/')) return node;
  const defs = (root as { $defs?: Record<string, JsonSchemaNode> }).$defs ?? {};
  return defs[ref.slice(8)] ?? {};
}

const refPathCache = new WeakMap<z.ZodType, RefPath[]>();

/** Where a schema's values hold combatant ids (annotated with `combatant: 'actor' | 'ref'`). */
export function refPaths(schema: z.ZodType): readonly RefPath[] {
  let out = refPathCache.get(schema);
  if (!out) {
    out = [];
    const root = jsonSchemaOf(schema);
    refPathsOf(root, [], out, 0, root);
    refPathCache.set(schema, out);
  }
  return out;
}

function collect(value: unknown, path: readonly PathStep[], i: number, into: string[]): void {
  if (value === null || value === undefined) return;
  if (i === path.length) {
    if (typeof value === 'string') into.push(value);
    return;
  }
  const step = path[i]!;
  if (typeof step === 'string') {
    if (typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, step)) {
      collect((value as Record<string, unknown>)[step], path, i + 1, into);
    }
    return;
  }
  if (step.each === 'item') {
    if (Array.isArray(value)) for (const v of value) collect(v, path, i + 1, into);
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) return;
  if (step.each === 'key') {
    for (const k of Object.keys(value)) into.push(k);
    return;
  }
  for (const v of Object.values(value)) collect(v, path, i + 1, into);
}

/** The combatant ids a value names where its schema says so; `role` keeps only actors or only refs. */
export function combatantsIn(schema: z.ZodType, value: unknown, role?: 'actor' | 'ref'): string[] {
  const out: string[] = [];
  for (const p of refPaths(schema)) if (!role || p.role === role) collect(value, p.path, 0, out);
  return out;
}
