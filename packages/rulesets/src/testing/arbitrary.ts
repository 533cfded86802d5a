import { type JsonSchemaNode, jsonSchemaOf, resolveRef } from '@roundkeeper/engine';
import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Values of a schema for property tests, generated from its JSON Schema: every field a declaration has,
 * combatant ids (fields marked `combatant`) drawn from `ids`, free text from a few short words that can
 * never be mistaken for an id. Depth and sizes stay small: the point is every shape, not big values.
 */
export function arbitraryOf(
  schema: z.ZodType,
  ids: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const root = jsonSchemaOf(schema);
  return of(root, root, ids, 0) as fc.Arbitrary<Record<string, unknown>>;
}

const WORDS = ['a', 'b', 'Mark 3', ''];
const plainJson = fc.constantFrom<unknown>(null, 1, 'a', true, {}, []);

function of(
  raw: JsonSchemaNode,
  root: JsonSchemaNode,
  ids: readonly string[],
  depth: number,
): fc.Arbitrary<unknown> {
  const node = resolveRef(raw, root);
  if (depth > 8) return plainJson;
  if (node.combatant) return fc.constantFrom(...ids);
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => of(a, root, ids, depth + 1)));
  if (node.enum) return fc.constantFrom(...node.enum);
  if (node.const !== undefined) return fc.constant(node.const);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string':
      return fc.constantFrom(...WORDS);
    case 'integer':
      return fc.integer({ min: node.minimum ?? -3, max: Math.min(node.maximum ?? 40, 40) });
    case 'number':
      return fc.integer({ min: -3, max: 40 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return node.items ? fc.array(of(node.items, root, ids, depth + 1), { maxLength: 3 }) : fc.constant([]);
    case 'object': {
      if (node.properties) {
        const required = new Set(node.required ?? []);
        const fields: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, v] of Object.entries(node.properties)) fields[k] = of(v, root, ids, depth + 1);
        return fc.record(fields, { requiredKeys: [...required].filter((k) => k in fields) });
      }
      const value =
        node.additionalProperties && typeof node.additionalProperties === 'object'
          ? of(node.additionalProperties, root, ids, depth + 1)
          : plainJson;
      const key = node.propertyNames?.combatant ? fc.constantFrom(...ids) : fc.constantFrom('k', 'l');
      return fc.dictionary(key, value, { maxKeys: 3 });
    }
    default:
      return plainJson;
  }
}
