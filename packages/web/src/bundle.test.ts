import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rulesets } from '@roundkeeper/rulesets';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What each page loads, from a production build's manifest: the entry holds no ruleset, each ruleset is
// its own chunk, and a page's first load (the entry, the chunks its first paint needs as the build lists
// them for the server to preload, and the encounter's ruleset) stays under its ceiling, gzipped.

interface Chunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * kB gzipped a page may load at first, with the largest ruleset (stamina): what each reaches, plus about
 * 2 kB so an ordinary change to the engine or a ruleset does not trip it, while a new library or a lost
 * chunk boundary does. The redesign's target is 150 for every page, and every page meets it since the runtime
 * is Preact's compat layer (docs/web.md, "Runtime"): React's runtime alone was 64 kB of the budget. An
 * encounter's page carries the entry with the runtime (11 kB), the engine with zod (46 kB), the encounter
 * page and its store (5 kB), its ruleset (up to 21 kB) and, with forms, zod's JSON-Schema code (7 kB);
 * the player's palette, card and forms take 20 kB more and the GM's cards, palette, quick tools and
 * timeline 28 kB (docs/web.md, "Bundle"). Lower these as the pages shed code; never above 150.
 */
const CEILING_KB: Record<string, number> = {
  home: 94,
  table: 93,
  player: 113,
  gm: 121,
};

/**
 * What each page draws its first paint with, as the build lists it for the server to preload
 * (`.vite/first-paint.json`, from `firstPaint` in vite.config.ts): the page's route, its role's screen,
 * and zod's JSON-Schema code for a page with forms.
 */
let firstPaint: Record<string, string[]>;

const rulesetSource = (id: string) => `../rulesets/src/${id}/index.ts`;

let out: string;
let manifest: Record<string, Chunk>;
const gz = new Map<string, number>();

function gzipped(file: string): number {
  let size = gz.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(out, file)), { level: 9 }).length;
    gz.set(file, size);
  }
  return size;
}

/** Every chunk a set of chunks loads with them: theirs and their static imports', once each. */
function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`no chunk ${key} in the build`);
    seen.add(key);
    for (const k of chunk.imports ?? []) visit(k);
  };
  for (const k of keys) visit(k);
  return seen;
}

/** The chunk holding zod's JSON-Schema code, found by one of its messages (scripts/lazy-json-schema.ts). */
function jsonSchemaKey(): string {
  const marker = 'BigInt cannot be represented in JSON Schema';
  const holders = Object.keys(manifest).filter((k) =>
    readFileSync(join(out, manifest[k]!.file), 'utf8').includes(marker),
  );
  expect(holders, "zod's JSON-Schema code is in one chunk").toHaveLength(1);
  return holders[0]!;
}

const entryKey = () => Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'rk-web-build-'));
  // The build the server serves: the production build, not the one a test process's NODE_ENV picks.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(import.meta.dirname, '..', 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { outDir: out, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  manifest = JSON.parse(readFileSync(join(out, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
  firstPaint = JSON.parse(readFileSync(join(out, '.vite', 'first-paint.json'), 'utf8')) as Record<
    string,
    string[]
  >;
}, 120_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('a page loads only its ruleset', () => {
  it('each ruleset is a chunk of its own, and nothing the entry loads holds one', () => {
    const entry = closure([entryKey()]);
    for (const [id, ruleset] of Object.entries(rulesets)) {
      const chunk = manifest[rulesetSource(id)];
      expect(chunk?.isDynamicEntry, `${id} is a chunk loaded on demand`).toBe(true);
      expect(entry.has(rulesetSource(id)), `${id} is not in the entry`).toBe(false);
      // The ruleset's own words mark it: found in its chunk, and in nothing the entry loads.
      const marker = ruleset.summary.slice(0, 40);
      expect(readFileSync(join(out, chunk!.file), 'utf8')).toContain(marker);
      for (const key of entry) {
        expect(readFileSync(join(out, manifest[key]!.file), 'utf8'), `${id} in ${key}`).not.toContain(marker);
      }
    }
  });

  it('the first paint of each page is listed: its route, its screen, and JSON-Schema code with forms', () => {
    expect(Object.keys(firstPaint).sort()).toEqual(['gm', 'home', 'player', 'table']);
    expect(firstPaint.home).toContain('src/screens/home/Home.tsx');
    const screens = { gm: 'gm/GmTracker', table: 'table/TableView', player: 'player/Player' };
    for (const [page, screen] of Object.entries(screens)) {
      expect(firstPaint[page]).toContain('src/screens/EncounterPage.tsx');
      expect(firstPaint[page]).toContain(`src/screens/${screen}.tsx`);
    }
    const key = jsonSchemaKey();
    expect(['home', 'gm', 'player'].filter((page) => firstPaint[page]!.includes(key))).toHaveLength(3);
  });

  it("the YAML parser and the QR encoder are not in the entry nor an encounter's screens", () => {
    for (const page of ['gm', 'table', 'player']) {
      const files = [...closure([entryKey(), ...firstPaint[page]!])].map((k) => manifest[k]!.src ?? k);
      expect(files.some((f) => f.includes('yaml') || f.includes('QrCode'))).toBe(false);
    }
  });

  it('what a page draws after its first paint is a chunk of its own, not part of its first load', () => {
    const after: Record<string, string[]> = {
      gm: [
        'src/forms/AddCombatant.tsx',
        'src/forms/OptionsForm.tsx',
        'src/gm-tools/Share.tsx',
        'src/gm-tools/HpShown.tsx',
        'src/gm-tools/CombatantEditor.tsx',
        'src/log/DicePanel.tsx',
      ],
      table: ['src/timeline/TimelineView.tsx'],
      player: ['src/screens/player/OwnConditions.tsx', 'src/timeline/TimelineView.tsx'],
    };
    // A module another page imports at once sits in a shared chunk named after it (the timeline).
    const chunkOf = (src: string) =>
      manifest[src]
        ? src
        : Object.keys(manifest).find(
            (k) => manifest[k]!.name === src.split('/').at(-1)!.replace(/\..*$/, ''),
          );
    for (const [page, parts] of Object.entries(after)) {
      const first = closure([entryKey(), ...firstPaint[page]!]);
      const onDemand = new Set([...first].flatMap((k) => manifest[k]!.dynamicImports ?? []));
      for (const src of parts) {
        const key = chunkOf(src);
        expect(key, `${src} has a chunk`).toBeDefined();
        expect(onDemand.has(key!), `${src} is loaded on demand by the ${page}'s page`).toBe(true);
        expect(first.has(key!), `${src} in the ${page}'s first load`).toBe(false);
      }
    }
  });

  it("zod's JSON-Schema code is a chunk of its own, which the table view does not load", () => {
    const key = jsonSchemaKey();
    expect(manifest[key]!.isDynamicEntry).toBe(true);
    for (const id of Object.keys(rulesets)) {
      expect(closure([entryKey(), ...firstPaint.table!, rulesetSource(id)]).has(key), id).toBe(false);
    }
  });

  it("the runtime is Preact's compat layer: React's own runtime is in no chunk (scripts/preact-alias.ts)", () => {
    const files = Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith('.js'));
    // React's production builds link every error to its decoder page; Preact hands its hooks to its DevTools.
    for (const file of files) {
      expect(readFileSync(join(out, file), 'utf8'), file).not.toContain('react.dev/errors');
    }
    const entry = [...closure([entryKey()])].map((k) => readFileSync(join(out, manifest[k]!.file), 'utf8'));
    expect(entry.some((code) => code.includes('__PREACT_DEVTOOLS__'))).toBe(true);
  });

  it('every page, with any ruleset, stays under its ceiling gzipped', () => {
    const totals: string[] = [];
    for (const [page, route] of Object.entries(firstPaint)) {
      let worst = 0;
      for (const id of Object.keys(rulesets)) {
        const keys = closure([entryKey(), ...route, rulesetSource(id)]);
        const bytes = [...keys].reduce((sum, k) => sum + gzipped(manifest[k]!.file), 0);
        worst = Math.max(worst, bytes);
      }
      totals.push(`${page} ${(worst / 1000).toFixed(1)} kB`);
      expect(worst / 1000, `${page}: ${totals.at(-1)}`).toBeLessThanOrEqual(CEILING_KB[page]!);
    }
    console.log(`first load, gzipped, with the largest ruleset: ${totals.join(', ')}`);
  });
});
