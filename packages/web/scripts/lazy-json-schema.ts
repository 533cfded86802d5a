import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

/**
 * zod's JSON-Schema export code (two modules, a fifth of zod in the bundle) as a chunk of its own.
 *
 * zod's classic API imports it statically for `.toJSONSchema()` and its processors, but a page needs it
 * only where it reads a schema as JSON Schema: forms and legal actions (`paramsOfSchema`, `jsonSchemaOf`),
 * which the table view has none of. In the build each of the two modules is replaced by a stand-in that
 * forwards every export to the real module, loaded by `loadJsonSchemaCode()` (src/store/json-schema.ts):
 * the GM's and the player's screens load it with their chunk, the home page's options form with the
 * ruleset, so nothing reads a schema before the code is there; a call before it would throw, never
 * answer wrongly. Tests, Node and the dev server import zod as it is.
 */
const NAMES = ['to-json-schema', 'json-schema-processors'];
const MODULES = /[\\/]zod[\\/]v4[\\/]core[\\/](to-json-schema|json-schema-processors)\.js$/;
const STAND_IN = '\0lazy-json-schema:';
const REAL = '\0lazy-json-schema-real';
/** The real modules' chunk by its key in the build's manifest (a virtual module's id without its `\0`). */
export const JSON_SCHEMA_CHUNK = REAL.slice(1);
/** The module that keeps the loader (the stand-ins register it there). */
const HOLDER = new URL('../src/store/json-schema.ts', import.meta.url).pathname;

/** The factories zod calls while it builds a schema: they answer a function that runs later. */
const FACTORIES = new Set(['createToJSONSchemaMethod', 'createStandardJSONSchemaMethod']);

export function lazyJsonSchema(): Plugin {
  const files = new Map<string, string>();
  return {
    name: 'roundkeeper:lazy-json-schema',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source === REAL) return REAL;
      if (!importer || importer === REAL || MODULES.test(importer) || importer.startsWith(STAND_IN))
        return null;
      if (!/json-schema/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !MODULES.test(resolved.id)) return null;
      const name = MODULES.exec(resolved.id)![1]!;
      files.set(name, resolved.id);
      return `${STAND_IN}${name}`;
    },
    async load(id) {
      if (id === REAL) {
        // Both modules, beside whichever stand-in was made first.
        const dir = dirname([...files.values()][0]!);
        return NAMES.map(
          (name) => `export * as ${name.replace(/-/g, '_')} from ${JSON.stringify(join(dir, `${name}.js`))};`,
        ).join('\n');
      }
      if (!id.startsWith(STAND_IN)) return null;
      const name = id.slice(STAND_IN.length);
      const file = files.get(name)!;
      const key = name.replace(/-/g, '_');
      const real = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const lines = [
        `import { jsonSchemaModule, registerJsonSchemaLoader } from ${JSON.stringify(HOLDER)};`,
        `registerJsonSchemaLoader(() => import(${JSON.stringify(REAL)}));`,
        `const code = jsonSchemaModule(${JSON.stringify(key)});`,
        'const call = (name) => (...a) => code()[name](...a);',
        'const make = (name) => (...a) => (...b) => code()[name](...a)(...b);',
      ];
      for (const [exported, value] of Object.entries(real)) {
        if (typeof value !== 'function') {
          // A table of functions (zod's JSON-Schema generator reads `allProcessors`): read through.
          lines.push(
            `export const ${exported} = /*@__PURE__*/ new Proxy({}, { get: (_, k) => code().${exported}[k], has: (_, k) => k in code().${exported}, ownKeys: () => Reflect.ownKeys(code().${exported}), getOwnPropertyDescriptor: (_, k) => Reflect.getOwnPropertyDescriptor(code().${exported}, k) });`,
          );
          continue;
        }
        lines.push(
          FACTORIES.has(exported)
            ? `export const ${exported} = make(${JSON.stringify(exported)});`
            : `export const ${exported} = call(${JSON.stringify(exported)});`,
        );
      }
      return lines.join('\n');
    },
  };
}
