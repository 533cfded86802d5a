import type { BrowserContext, Page, Route, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, endToEnd } from './harness.js';

/**
 * A part drawn after the first paint whose chunk cannot be fetched (a dropped connection, or a server
 * updated since the page loaded) fails in its place: a small box says what could not be loaded, with
 * Retry, and the rest of the page works on; it is tried again by itself once the store is live again after
 * a reconnect; where the server no longer has the chunk (404: its name changed with an update), a failed
 * retry reloads the page. Only the app's own entry and its pages replace the whole page
 * (failed-load.test.ts).
 */
const env = endToEnd();
const api = apiOf(() => env.server);

async function encounter(): Promise<{ id: string; gm: string; table: string }> {
  const r = (await api('POST', '/api/encounters', null, {
    name: 'Lazy parts',
    ruleset: 'classic',
    seed: 3,
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ],
  })) as { encounter: { id: string }; tokens: { gm: string; table: string } };
  await api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, {
    command: { type: 'start' },
  });
  return { id: r.encounter.id, gm: r.tokens.gm, table: r.tokens.table };
}

/**
 * A browser context whose requests go to the network (no service worker), where `pattern`'s chunk is cut
 * while `cut(request)` says so; counts the chunk's requests by method.
 */
async function cutting(
  pattern: string,
  cut: (method: string, n: number) => 'abort' | 404 | false,
): Promise<{ ctx: BrowserContext; page: Page; asked: string[] }> {
  const ctx = await env.browser.newContext({
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
  });
  const page = await ctx.newPage();
  const asked: string[] = [];
  await page.route(pattern, (route: Route) => {
    const method = route.request().method();
    asked.push(method);
    const how = cut(method, asked.length);
    if (how === 'abort') return route.abort('internetdisconnected');
    if (how === 404) return route.fulfill({ status: 404, body: 'Not found' });
    return route.continue();
  });
  return { ctx, page, asked };
}

const url = (id: string, token: string) =>
  `${env.server.url}/e/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;

const boxes = (page: Page) => page.locator('.part-failed');

describe('a lazy part that cannot be fetched', () => {
  it('says so in its place, the page working on, and Retry loads it', async () => {
    const e = await encounter();
    const { ctx, page, asked } = await cutting('**/assets/TimelineView-*.js', (_, n) =>
      n === 1 ? 'abort' : false,
    );
    try {
      await page.goto(url(e.id, e.table));
      const box = boxes(page);
      await expect.poll(() => box.textContent()).toContain('The timeline could not be loaded.');
      // Only the part: the headline and the order are drawn, and the page is not replaced.
      expect(await page.getByTestId('clock').textContent()).toContain('Round 1');
      expect(await page.getByText('Part of Roundkeeper could not be loaded').count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Timeline' }).count()).toBe(0);
      await box.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('region', { name: 'Timeline' }).locator('svg').first().waitFor();
      expect(await boxes(page).count()).toBe(0);
      // The retried import fetched the chunk again.
      expect(asked.filter((m) => m === 'GET').length).toBe(2);
    } finally {
      await ctx.close();
    }
  });

  it('is tried again by itself when the store is live again after a reconnect', async () => {
    const e = await encounter();
    const { ctx, page } = await cutting('**/assets/Share-*.js', (_, n) => (n === 1 ? 'abort' : false));
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/live\?/, (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    try {
      await page.goto(url(e.id, e.gm));
      await expect.poll(() => boxes(page).textContent()).toContain('The share links could not be loaded.');
      await expect.poll(() => page.getByTestId('connection').textContent()).toBe('live');
      // The socket drops: the store reconnects, and once it is live again the part is loaded, no click.
      await sockets[0]!.close();
      await expect.poll(() => sockets.length).toBeGreaterThan(1);
      await expect.poll(() => page.getByTestId('connection').textContent()).toBe('live');
      await expect.poll(() => boxes(page).count()).toBe(0);
      await page.getByRole('region', { name: 'Share and export' }).waitFor();
    } finally {
      await ctx.close();
    }
  });

  it('reloads the page when a retry finds the chunk gone from the server (updated since)', async () => {
    const e = await encounter();
    // The chunk answers 404 until the retry's check of its address (HEAD) has: then the page reloads, and
    // the new page's chunk is there.
    let gone = true;
    const { ctx, page } = await cutting('**/assets/TimelineView-*.js', (method) => {
      if (!gone) return false;
      if (method === 'HEAD') gone = false;
      return 404;
    });
    try {
      await page.goto(url(e.id, e.table));
      await expect.poll(() => boxes(page).textContent()).toContain('The timeline could not be loaded.');
      await page.evaluate(() => {
        (window as unknown as { before?: boolean }).before = true;
      });
      await boxes(page).getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('region', { name: 'Timeline' }).locator('svg').first().waitFor();
      expect(gone).toBe(false);
      // A new page: what the old one held is gone.
      expect(await page.evaluate(() => (window as unknown as { before?: boolean }).before ?? false)).toBe(
        false,
      );
      expect(await boxes(page).count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
