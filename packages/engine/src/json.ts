/** Plain JSON values: everything in an encounter's state, its commands and its events is one of these. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/**
 * An object type's declared fields, without the index signature `z.object({})` infers
 * (`Record<string, never>`, which no event with a `type` would satisfy). A `catchall` stays.
 */
export type Fields<T> = string extends keyof T
  ? [T[string]] extends [never]
    ? { [K in keyof T as string extends K ? never : K]: T[K] }
    : T
  : T;

/** True when `value` survives JSON.stringify/parse unchanged (no undefined, NaN, functions, classes…). */
export function isPlainJson(value: unknown): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (Array.isArray(value)) return value.every(isPlainJson);
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      return Object.values(value).every((v) => v === undefined || isPlainJson(v));
    }
    default:
      return false;
  }
}

/** Recursively freezes a value; tests use it to make any accidental mutation throw. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
