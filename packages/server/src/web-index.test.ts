import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesets } from '@roundkeeper/rulesets';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { MemoryStorage } from './storage/memory.js';
import { tempDir } from './test-process.js';
import { readWebIndex } from './web-index.js';

// An encounter's page names its ruleset's chunks and its role's first paint for the browser to preload:
// the server knows the ruleset and the role from the link, the chunks from the web build's manifest and
// its first-paint list (read once at start-up).

const INDEX =
  '<!doctype html><html><head><title>the web app</title>' +
  '<script type="module" crossorigin src="/assets/index-E.js"></script></head><body></body></html>';

/**
 * A build's manifest in Vite's shape: the entry, a shared engine chunk, two rulesets, the encounter page,
 * the three roles' screens (two sharing a palette chunk), a chunk one loads later, and zod's JSON-Schema code.
 */
const MANIFEST = {
  'index.html': { file: 'assets/index-E.js', src: 'index.html', isEntry: true, dynamicImports: [] },
  '_engine-X.js': { file: 'assets/engine-X.js', name: 'engine', imports: ['index.html'] },
  '_agenda-A.js': { file: 'assets/agenda-A.js', name: 'agenda', imports: ['_engine-X.js'] },
  '../rulesets/src/classic/index.ts': {
    file: 'assets/classic-C.js',
    src: '../rulesets/src/classic/index.ts',
    isDynamicEntry: true,
    imports: ['_engine-X.js', '_agenda-A.js'],
  },
  '../rulesets/src/tempo/index.ts': {
    file: 'assets/tempo-T.js',
    src: '../rulesets/src/tempo/index.ts',
    isDynamicEntry: true,
    imports: ['_engine-X.js', '_agenda-A.js'],
  },
  'src/screens/EncounterPage.tsx': {
    file: 'assets/EncounterPage-P.js',
    src: 'src/screens/EncounterPage.tsx',
    isDynamicEntry: true,
    imports: ['index.html', '_engine-X.js'],
    dynamicImports: ['src/screens/gm/GmTracker.tsx', 'src/screens/table/TableView.tsx'],
  },
  '_Palette-L.js': { file: 'assets/Palette-L.js', imports: ['index.html', '_engine-X.js'] },
  'src/screens/gm/GmTracker.tsx': {
    file: 'assets/GmTracker-G.js',
    src: 'src/screens/gm/GmTracker.tsx',
    isDynamicEntry: true,
    imports: ['index.html', '_Palette-L.js', 'src/screens/EncounterPage.tsx'],
    dynamicImports: ['src/gm-tools/QrCode.tsx'],
  },
  'src/gm-tools/QrCode.tsx': {
    file: 'assets/QrCode-Q.js',
    src: 'src/gm-tools/QrCode.tsx',
    isDynamicEntry: true,
    imports: ['index.html'],
  },
  'src/screens/table/TableView.tsx': {
    file: 'assets/TableView-V.js',
    src: 'src/screens/table/TableView.tsx',
    isDynamicEntry: true,
    imports: ['index.html', '_engine-X.js'],
  },
  'src/screens/player/Player.tsx': {
    file: 'assets/Player-Y.js',
    src: 'src/screens/player/Player.tsx',
    isDynamicEntry: true,
    imports: ['_Palette-L.js', 'src/screens/EncounterPage.tsx'],
  },
  'lazy-json-schema-real': {
    file: 'assets/_lazy-json-schema-real-J.js',
    src: 'lazy-json-schema-real',
    isDynamicEntry: true,
    imports: ['index.html', '_engine-X.js'],
  },
};

/** What each page draws its first paint with, as the web build writes it (`.vite/first-paint.json`). */
const FIRST_PAINT = {
  home: ['src/screens/home/Home.tsx'],
  gm: ['src/screens/EncounterPage.tsx', 'src/screens/gm/GmTracker.tsx', 'lazy-json-schema-real'],
  table: ['src/screens/EncounterPage.tsx', 'src/screens/table/TableView.tsx'],
  player: ['src/screens/EncounterPage.tsx', 'src/screens/player/Player.tsx', 'lazy-json-schema-real'],
};

/** The chunks each role's page preloads before its ruleset's: its first paint, each chunk once. */
const ROLE_FILES = {
  gm: [
    'assets/EncounterPage-P.js',
    'assets/engine-X.js',
    'assets/GmTracker-G.js',
    'assets/Palette-L.js',
    'assets/_lazy-json-schema-real-J.js',
  ],
  table: ['assets/EncounterPage-P.js', 'assets/engine-X.js', 'assets/TableView-V.js'],
  player: [
    'assets/EncounterPage-P.js',
    'assets/engine-X.js',
    'assets/Player-Y.js',
    'assets/Palette-L.js',
    'assets/_lazy-json-schema-real-J.js',
  ],
};

function webRoot(manifest: unknown = MANIFEST, firstPaint: unknown = FIRST_PAINT): string {
  const web = tempDir();
  writeFileSync(join(web, 'index.html'), INDEX);
  if (manifest) {
    mkdirSync(join(web, '.vite'));
    writeFileSync(join(web, '.vite', 'manifest.json'), JSON.stringify(manifest));
    if (firstPaint) writeFileSync(join(web, '.vite', 'first-paint.json'), JSON.stringify(firstPaint));
  }
  return web;
}

const preloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('readWebIndex', () => {
  it("preloads a ruleset's chunk and the chunks it imports, in the head, not what the entry loads", () => {
    const web = readWebIndex(webRoot())!;
    expect(web.preloads('classic')).toEqual([
      'assets/classic-C.js',
      'assets/engine-X.js',
      'assets/agenda-A.js',
    ]);
    const page = web.page('classic');
    expect(preloads(page)).toEqual(['/assets/classic-C.js', '/assets/engine-X.js', '/assets/agenda-A.js']);
    expect(page.indexOf('modulepreload')).toBeLessThan(page.indexOf('</head>'));
    expect(preloads(web.page('tempo'))[0]).toBe('/assets/tempo-T.js');
  });

  it("preloads what the role's first paint needs, then its ruleset's chunks that are not among them", () => {
    const web = readWebIndex(webRoot())!;
    for (const role of ['gm', 'table', 'player'] as const) {
      const files = [...ROLE_FILES[role], 'assets/tempo-T.js', 'assets/agenda-A.js'];
      expect(web.preloads('tempo', role), role).toEqual(files);
      expect(preloads(web.page('tempo', role)), role).toEqual(files.map((f) => `/${f}`));
    }
    // Not what the screen loads later (the GM's QR code), nor what the entry loads (index.html).
    expect(web.preloads('tempo', 'gm')).not.toContain('assets/QrCode-Q.js');
    expect(web.preloads('tempo', 'gm')).not.toContain('assets/index-E.js');
    // The table's screen has no form: no JSON-Schema code.
    expect(web.preloads('tempo', 'table')).not.toContain('assets/_lazy-json-schema-real-J.js');
    // A build without the first-paint list preloads the ruleset's chunks alone.
    expect(readWebIndex(webRoot(MANIFEST, null))!.preloads('tempo', 'gm')).toEqual([
      'assets/tempo-T.js',
      'assets/engine-X.js',
      'assets/agenda-A.js',
    ]);
  });

  it('serves the page as built for no ruleset, an unknown one, or a build without a manifest', () => {
    const web = readWebIndex(webRoot())!;
    expect(web.page()).toBe(INDEX);
    expect(web.page('no-such-ruleset')).toBe(INDEX);
    expect(readWebIndex(webRoot(null))!.page('classic')).toBe(INDEX);
    expect(readWebIndex(webRoot(null))!.page('classic', 'gm')).toBe(INDEX);
    expect(readWebIndex(tempDir())).toBeUndefined();
  });
});

describe("the server preloads an encounter's ruleset and its role's screen with its page", () => {
  let app: FastifyInstance;
  let id: string;
  let tokens: { gm: string; table: string; players: Record<string, string> };
  beforeAll(async () => {
    ({ app } = await buildApp({
      storage: new MemoryStorage(),
      registry: rulesets,
      rateLimit: 0,
      logLevel: 'silent',
      webRoot: webRoot(),
    }));
    const r = await app.inject({
      method: 'POST',
      url: '/api/encounters',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Ford', ruleset: 'tempo', combatants: [{ name: 'Ana', side: 'pc' }] }),
    });
    ({
      encounter: { id },
      tokens,
    } = r.json() as { encounter: { id: string }; tokens: typeof tokens });
  });
  afterAll(async () => {
    await app.close();
  });

  const get = async (url: string) => {
    const r = await app.inject({ method: 'GET', url });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/html');
    return preloads(r.body);
  };

  it("on the GM's, the table's and a player's page, each its own role's", async () => {
    const player = Object.values(tokens.players)[0]!;
    for (const [role, token] of [
      ['gm', tokens.gm],
      ['table', tokens.table],
      ['player', player],
    ] as const) {
      expect(await get(`/e/${id}?token=${token}`), role).toEqual(
        [...ROLE_FILES[role], 'assets/tempo-T.js', 'assets/agenda-A.js'].map((f) => `/${f}`),
      );
    }
  });

  it('not for a link that is not valid for the encounter, nor on a page that is not an encounter', async () => {
    expect(await get(`/e/${id}?token=${'x'.repeat(32)}`)).toEqual([]);
    expect(await get(`/e/${id}`)).toEqual([]);
    expect(await get(`/e/another-one?token=${tokens.gm}`)).toEqual([]);
    expect(await get('/somewhere')).toEqual([]);
  });
});
