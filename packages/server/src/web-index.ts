import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A chunk of the web build, as Vite's manifest (`.vite/manifest.json`) names it. */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}

/** A ruleset's chunk by its source in the web build: `../rulesets/src/<id>/index.ts`. */
const RULESET_SOURCE = /(?:^|\/)rulesets\/src\/([^/]+)\/index\.ts$/;

/**
 * The web app's `index.html`, read once when the server starts, with what an encounter's page can be
 * told at once: the chunks of its ruleset (`<link rel="modulepreload">`, from the build's manifest), so
 * the browser fetches them with the page instead of after the encounter's REST answer named the ruleset.
 */
export interface WebIndex {
  /** The page, with the ruleset's chunks preloaded when the ruleset is known and built. */
  page(ruleset?: string): string;
  /** The chunk files (from the web root) a ruleset's page preloads. */
  preloads(ruleset: string): readonly string[];
}

/** Reads the built web app's index and manifest; undefined when the app is not built. */
export function readWebIndex(webRoot: string): WebIndex | undefined {
  const indexFile = join(webRoot, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const html = readFileSync(indexFile, 'utf8');
  const manifestFile = join(webRoot, '.vite', 'manifest.json');
  const manifest: Record<string, ManifestChunk> = existsSync(manifestFile)
    ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>)
    : {};
  const closure = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const k of manifest[key].imports ?? []) closure(k, into);
  };
  // What index.html loads already: the entry and its static imports.
  const entry = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, entry);
  const byRuleset = new Map<string, { files: string[]; page: string }>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const id = RULESET_SOURCE.exec(chunk.src ?? key)?.[1];
    if (!id || !chunk.isDynamicEntry) continue;
    const keys = new Set<string>();
    closure(key, keys);
    const files = [...keys].filter((k) => !entry.has(k)).map((k) => manifest[k]!.file);
    const links = files
      .map((f) => `<link rel="modulepreload" crossorigin href="/${f.split('"').join('')}">`)
      .join('');
    byRuleset.set(id, { files, page: html.replace('</head>', `${links}</head>`) });
  }
  return {
    page: (ruleset) => (ruleset !== undefined ? byRuleset.get(ruleset)?.page : undefined) ?? html,
    preloads: (ruleset) => byRuleset.get(ruleset)?.files ?? [],
  };
}
