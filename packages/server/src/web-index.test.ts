import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesets } from '@roundkeeper/rulesets';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { MemoryStorage } from './storage/memory.js';
import { tempDir } from './test-process.js';
import { readWebIndex } from './web-index.js';

// An encounter's page names its ruleset's chunks for the browser to preload: the server knows the
// ruleset from the link, the chunks from the web build's manifest (read once at start-up).

const INDEX =
  '<!doctype html><html><head><title>the web app</title>' +
  '<script type="module" crossorigin src="/assets/index-E.js"></script></head><body></body></html>';

/** A build's manifest in Vite's shape: the entry, a shared engine chunk, two rulesets and a screen. */
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
  },
};

function webRoot(manifest: unknown = MANIFEST): string {
  const web = tempDir();
  writeFileSync(join(web, 'index.html'), INDEX);
  if (manifest) {
    mkdirSync(join(web, '.vite'));
    writeFileSync(join(web, '.vite', 'manifest.json'), JSON.stringify(manifest));
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

  it('serves the page as built for no ruleset, an unknown one, or a build without a manifest', () => {
    const web = readWebIndex(webRoot())!;
    expect(web.page()).toBe(INDEX);
    expect(web.page('no-such-ruleset')).toBe(INDEX);
    expect(readWebIndex(webRoot(null))!.page('classic')).toBe(INDEX);
    expect(readWebIndex(tempDir())).toBeUndefined();
  });
});

describe("the server preloads an encounter's ruleset with its page", () => {
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

  it("on the GM's, the table's and a player's page", async () => {
    const player = Object.values(tokens.players)[0]!;
    for (const token of [tokens.gm, tokens.table, player]) {
      expect(await get(`/e/${id}?token=${token}`)).toEqual([
        '/assets/tempo-T.js',
        '/assets/engine-X.js',
        '/assets/agenda-A.js',
      ]);
    }
  });

  it('not for a link that is not valid for the encounter, nor on a page that is not an encounter', async () => {
    expect(await get(`/e/${id}?token=${'x'.repeat(32)}`)).toEqual([]);
    expect(await get(`/e/${id}`)).toEqual([]);
    expect(await get(`/e/another-one?token=${tokens.gm}`)).toEqual([]);
    expect(await get('/somewhere')).toEqual([]);
  });
});
