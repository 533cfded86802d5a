import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

/** What each page draws its first paint with: chunks by their key in the build's manifest. */
export type FirstPaint = Record<string, readonly string[]>;

/** Where the build writes it, beside Vite's manifest (the server reads both). */
export const FIRST_PAINT_FILE = '.vite/first-paint.json';

/**
 * Writes which chunks each page needs for its first paint (`.vite/first-paint.json`): for an encounter's
 * page, the encounter page and the role's screen, and zod's JSON-Schema code for a screen with forms. The
 * server reads it with the manifest and preloads them, with the encounter's ruleset, in the page it
 * serves for an encounter's link (packages/server/src/web-index.ts), so the browser fetches them all
 * with the page instead of one after the other; `src/bundle.test.ts` counts each page's first load from
 * it. A name that is no chunk of the build (a file moved) fails the build.
 */
export function firstPaint(pages: FirstPaint): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'roundkeeper:first-paint',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle() {
      const dir = resolve(config.root, config.build.outDir);
      const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      // A virtual module's key is its id relative to the root as the build's working folder sees it
      // (`lazy-json-schema-real`, or `../../lazy-json-schema-real` from the repository's root): matched by
      // its end.
      const keyOf = (page: string, name: string): string => {
        if (manifest[name]) return name;
        const found = Object.keys(manifest).filter((k) => k.endsWith(`/${name}`));
        if (found.length !== 1) this.error(`first paint of ${page}: ${name} is no chunk of the build`);
        return found[0]!;
      };
      const keys = Object.fromEntries(
        Object.entries(pages).map(([page, names]) => [page, names.map((name) => keyOf(page, name))]),
      );
      writeFileSync(join(dir, FIRST_PAINT_FILE), `${JSON.stringify(keys, null, 2)}\n`);
    },
  };
}
