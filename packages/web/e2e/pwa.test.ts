import { mkdtempSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, drawn, ensureBuilt, patient, removeDir, type Server, startServer } from './harness.js';

/**
 * End to end, the installable app (docs/web.md, "Installable app"): Chromium finds the manifest and no
 * installability error, the service worker controls the page, the shell opens with the server gone, and the
 * encounter page says it is reconnecting (its data not shown as live) until the server is back.
 */
let server: Server;
/** Another loopback origin whose page frames the table's screen, as a stream scene or a virtual tabletop does. */
let embedder: HttpServer;
let embedderOrigin: string;
let profile: string;
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  patient();
  ensureBuilt();
  embedder = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><title>scene</title><iframe id="f" src="${src.replace(/"/g, '&quot;')}"></iframe>`,
    );
  });
  await new Promise<void>((ok) => embedder.listen(0, '127.0.0.1', () => ok()));
  embedderOrigin = `http://127.0.0.1:${(embedder.address() as AddressInfo).port}`;
  // The server processes (the first, and the one restarted on its port) let that origin frame the table.
  process.env.RK_FRAME_ANCESTORS = embedderOrigin;
  server = await startServer();
  // A profile on disk, as a browser someone installs from has: Chromium never offers to install from an
  // off-the-record context (a plain `newContext`), and says so among the installability errors.
  profile = mkdtempSync(join(tmpdir(), 'roundkeeper-pwa-'));
  ctx = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  page = ctx.pages()[0] ?? (await ctx.newPage());
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await server?.stop();
  if (server) removeDir(server.dataDir);
  if (profile) removeDir(profile);
  embedder?.close();
  delete process.env.RK_FRAME_ANCESTORS;
});

async function api(method: string, path: string, token: string | null, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(data)}`);
  return data;
}

const controlled = () => page.evaluate(() => navigator.serviceWorker.controller !== null);

describe('the installable app', () => {
  it('has a manifest Chromium reads with no installability error, and a service worker controlling the page', async () => {
    await page.goto(`${server.url}/`);
    await expect.poll(controlled, { timeout: 15_000 }).toBe(true);
    const cdp = await ctx.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string; critical: number }[];
      data?: string;
    };
    expect(manifest.url).toBe(`${server.url}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const data = JSON.parse(manifest.data ?? '{}') as {
      name?: string;
      short_name?: string;
      display?: string;
      start_url?: string;
      icons?: { sizes: string; purpose?: string }[];
    };
    expect(data).toMatchObject({ name: 'Roundkeeper', short_name: 'Roundkeeper', display: 'standalone' });
    expect(data.icons?.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    // The icons the manifest names are real PNGs of their sizes.
    for (const [path, size] of [
      ['/icons/icon-192.png', 192],
      ['/icons/icon-512.png', 512],
      ['/icons/maskable-512.png', 512],
    ] as const) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
    }
    const res = await fetch(`${server.url}/manifest.webmanifest`);
    expect(res.headers.get('content-type')).toBe('application/manifest+json');
  });

  it('opens offline from the cache, says it is reconnecting without showing old data as live, and is live again when the server returns', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Offline',
      ruleset: 'classic',
      seed: 3,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
        { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string; table: string } };
    const id = r.encounter.id;
    await api('POST', `/api/encounters/${id}/commands`, r.tokens.gm, {
      command: { type: 'start', initiative: { ana: 20, orc: 10 } },
    });
    const actor = async () => (await page.getByTestId('current-actor').textContent()) ?? '';
    const banner = page.getByTestId('reconnecting');
    const badge = page.getByTestId('connection');
    await page.goto(`${server.url}/e/${id}?token=${r.tokens.table}`);
    await drawn(page);
    await expect.poll(actor).toContain('Ana');
    await expect.poll(() => badge.textContent()).toBe('live');
    expect(await banner.count()).toBe(0);
    expect(await controlled()).toBe(true);

    // The server goes away: the page keeps what it had but says it is not live.
    const { dataDir, port } = server;
    await server.stop();
    await banner.waitFor({ timeout: 10_000 });
    expect(await banner.textContent()).toContain('Reconnecting…');
    expect(await badge.textContent()).toBe('reconnecting…');

    // Reopened with the server still gone: the shell comes from the service worker's cache and says so.
    await page.reload();
    await banner.waitFor({ timeout: 10_000 });
    expect(await banner.textContent()).toContain('may be out of date');
    expect(await page.getByText('Loading the encounter…').count()).toBe(1);
    const home = await ctx.newPage();
    await home.goto(`${server.url}/`);
    expect(await home.getByRole('heading', { level: 1 }).textContent()).toBe('Roundkeeper');
    await home.close();

    // Back on the same address, and the fight went on meanwhile: the page loads it, goes live and shows it.
    server = await startServer(dataDir, port);
    await api('POST', `/api/encounters/${id}/commands`, r.tokens.gm, { command: { type: 'next' } });
    // Try now, while it is offered: the page's own back-off runs on, and may reconnect first (the button
    // then goes as it is clicked; that it does not wait is encounter-store.test.ts's).
    await page
      .getByRole('button', { name: 'Try now' })
      .click({ timeout: 3_000 })
      .catch(async (error: unknown) => {
        if (await banner.count()) throw error;
      });
    await expect.poll(actor, { timeout: 10_000 }).toContain('Orc');
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe('live');
    expect(await banner.count()).toBe(0);
  });

  it('a table page framed by an origin the GM listed comes from the server, not the cached shell, so it may still be framed', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Scene',
      ruleset: 'classic',
      combatants: [{ id: 'ana', name: 'Ana', side: 'pc', hp: 24 }],
    })) as { encounter: { id: string }; tokens: { gm: string; table: string } };
    await api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, {
      command: { type: 'start', initiative: { ana: 12 } },
    });
    const table = `${server.url}/e/${r.encounter.id}?token=${r.tokens.table}`;
    const scene = await ctx.newPage();
    try {
      await scene.goto(`${embedderOrigin}/?src=${encodeURIComponent(table)}`);
      const framed = () => scene.frameLocator('#f').getByTestId('current-actor').textContent();
      await expect.poll(framed, { timeout: 10_000 }).toContain('Ana');
      // The worker (of this scene's partition) takes control of the framed page; the scene opened again
      // must still show it, with the framing policy the server gives that page.
      const frame = () => scene.frames().find((f) => f.url().startsWith(server.url));
      await expect
        .poll(() => frame()?.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 })
        .toBe(true);
      await scene.reload();
      await expect.poll(framed, { timeout: 10_000 }).toContain('Ana');
    } finally {
      await scene.close();
    }
  });
});
