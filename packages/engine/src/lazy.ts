/**
 * Schemas built when first used, not when their module loads. A zod schema costs 1–8 KB of memory (an
 * object schema with its fields the most), and a server loads seven rulesets' schemas of which a table
 * plays one; built at import, they were a quarter of the server's JavaScript heap at start.
 */

/** The value `build` returns, built on the first call and the same object on every call after. */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

/** A record whose values are built one by one, each on its first read. */
export type LazyRecord<B extends Record<string, () => unknown>> = {
  readonly [K in keyof B]: ReturnType<B[K]>;
};

/**
 * A record of schemas by name (a ruleset's commands, its events) whose every key is there from the start
 * (`Object.keys`, `Object.hasOwn` and `in` see them without building anything) and whose value is built
 * on its first read, then kept: reading it again gives the same schema. `Object.entries` builds them all.
 */
export function lazySchemas<B extends Record<string, () => unknown>>(builders: B): LazyRecord<B> {
  const record = {};
  for (const [key, build] of Object.entries(builders)) {
    Object.defineProperty(record, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = build();
        Object.defineProperty(record, key, { value, enumerable: true, configurable: false, writable: false });
        return value;
      },
    });
  }
  return record as LazyRecord<B>;
}

/**
 * `read` answered once per object and kept as long as the object lives (a `WeakMap`), for objects never
 * changed in place — an action's definition, a view, a legal action — whose answer a page asks for again
 * on every change. An answer of `undefined` or `null` is kept too.
 */
export function perObject<K extends object, V>(read: (key: K) => V): (key: K) => V {
  const known = new WeakMap<K, V>();
  return (key) => {
    if (known.has(key)) return known.get(key) as V;
    const value = read(key);
    known.set(key, value);
    return value;
  };
}
