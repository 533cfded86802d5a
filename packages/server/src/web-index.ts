import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from './storage/storage.js';

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
 * told at once (`<link rel="modulepreload">`, from the build's manifest): the chunks of its ruleset, and
 * what the link's role draws its first paint with (the encounter page, the role's screen and, for a
 * screen with forms, zod's JSON-Schema code: the build's `.vite/first-paint.json`, written by
 * packages/web/scripts/first-paint.ts). So the browser fetches them all with the page, in parallel,
 * instead of one after the other as each import is reached (the entry, then the encounter page, then,
 * once the encounter's REST answer named them, the ruleset, the screen and its imports).
 */
export interface WebIndex {
  /** The page, with the ruleset's and the role's chunks preloaded where they are known and built. */
  page(ruleset?: string, role?: Role): string;
  /** The chunk files (from the web root) an encounter's page preloads: the role's first, then the ruleset's. */
  preloads(ruleset: string | undefined, role?: Role): readonly string[];
}

function readJson<T>(file: string, empty: T): T {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : empty;
}

/** Reads the built web app's index and manifest; undefined when the app is not built. */
export function readWebIndex(webRoot: string): WebIndex | undefined {
  const indexFile = join(webRoot, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const html = readFileSync(indexFile, 'utf8');
  const manifest = readJson<Record<string, ManifestChunk>>(join(webRoot, '.vite', 'manifest.json'), {});
  const firstPaint = readJson<Partial<Record<string, string[]>>>(
    join(webRoot, '.vite', 'first-paint.json'),
    {},
  );
  const closure = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const k of manifest[key].imports ?? []) closure(k, into);
  };
  // What index.html loads already: the entry and its static imports.
  const entry = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, entry);
  const rulesetKeys = new Map<string, string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const id = RULESET_SOURCE.exec(chunk.src ?? key)?.[1];
    if (id && chunk.isDynamicEntry) rulesetKeys.set(id, key);
  }
  const roles: readonly Role[] = ['gm', 'table', 'player'];
  const pages = new Map<string, { files: string[]; page: string }>();
  const preloaded = (ruleset: string | undefined, role: Role | undefined) => {
    const rulesetKey = ruleset !== undefined ? rulesetKeys.get(ruleset) : undefined;
    const roleKeys = role !== undefined && roles.includes(role) ? (firstPaint[role] ?? []) : [];
    const name = `${rulesetKey ?? ''}/${roleKeys.length ? role : ''}`;
    const known = pages.get(name);
    if (known) return known;
    const roots = [...roleKeys, ...(rulesetKey ? [rulesetKey] : [])];
    const keys = new Set<string>(entry);
    for (const key of roots) closure(key, keys);
    const files = [...keys].filter((k) => !entry.has(k)).map((k) => manifest[k]!.file);
    const links = files
      .map((f) => `<link rel="modulepreload" crossorigin href="/${f.split('"').join('')}">`)
      .join('');
    const made = { files, page: files.length ? html.replace('</head>', `${links}</head>`) : html };
    // One page per built ruleset and role: a handful, each made at its first request.
    pages.set(name, made);
    return made;
  };
  return {
    page: (ruleset, role) => preloaded(ruleset, role).page,
    preloads: (ruleset, role) => preloaded(ruleset, role).files,
  };
}
