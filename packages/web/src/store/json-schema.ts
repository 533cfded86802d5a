/**
 * zod's JSON-Schema code, which the web build moves to a chunk of its own (scripts/lazy-json-schema.ts).
 * A form is drawn from a schema's JSON Schema, and the engine reads legal actions and who may send a
 * command the same way: a page with forms (home, GM, player) loads it with its screen; the table view,
 * which has none, never does. Where zod is whole (tests, Node, the dev server) no loader is registered
 * and the code is there already.
 */
type Modules = Record<string, Record<string, unknown>>;

let loader: (() => Promise<Modules>) | undefined;
let loaded: Promise<void> | undefined;
let modules: Modules | undefined;

/** Called by the build's stand-ins for zod's JSON-Schema modules when zod loads. */
export function registerJsonSchemaLoader(load: () => Promise<Modules>): void {
  loader ??= load;
}

/** One of zod's JSON-Schema modules, for its stand-in: throws until it is loaded. */
export function jsonSchemaModule(name: string): () => Record<string, unknown> {
  return () => {
    const module = modules?.[name];
    if (!module) throw new Error("zod's JSON-Schema code is not loaded yet (loadJsonSchemaCode)");
    return module;
  };
}

/** Resolves once zod's JSON-Schema code is loaded (at once where it is part of zod). */
export function loadJsonSchemaCode(): Promise<void> {
  loaded ??= (loader?.() ?? Promise.resolve(undefined)).then(
    (m) => {
      modules = m ?? {};
    },
    (error: unknown) => {
      // A chunk that failed to load (the network dropped) is asked for again next time.
      loaded = undefined;
      throw error;
    },
  );
  return loaded;
}

/** Whether schemas can be read as JSON Schema now. */
export function jsonSchemaReady(): boolean {
  return !loader || modules !== undefined;
}
