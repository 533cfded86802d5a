import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { endToEnd } from './harness.js';

/**
 * A page whose scripts cannot be fetched (a dropped connection, or a server updated since the page was
 * opened) stayed blank. It says why and offers Reload, whether the app's entry failed (public/boot.js) or a
 * chunk of a screen did (screens/Failed.tsx); after Reload the page works.
 */
const env = endToEnd();

async function alertOf(page: Page): Promise<string> {
  return (await page.getByRole('alert').textContent()) ?? '';
}

describe('a page whose scripts cannot be fetched', () => {
  for (const [what, pattern, heading] of [
    ['the app itself', '**/assets/index-*.js', 'Roundkeeper could not be loaded'],
    ["a screen's chunk", '**/assets/Home-*.js', 'Part of Roundkeeper could not be loaded'],
  ] as const) {
    it(`says so and offers Reload when ${what} cannot be fetched`, async () => {
      // No service worker: requests go to the network, where the test cuts them.
      const ctx = await env.browser.newContext({ serviceWorkers: 'block' });
      try {
        const page = await ctx.newPage();
        await page.route(pattern, (route) => route.abort('connectionreset'));
        await page.goto(`${env.server.url}/`);
        await expect.poll(() => alertOf(page)).toContain(heading);
        expect(await alertOf(page)).toContain('Reloading fetches it again');
        await page.unroute(pattern);
        await page.getByRole('button', { name: 'Reload' }).click();
        await expect.poll(() => page.getByRole('region', { name: 'New encounter' }).count()).toBe(1);
        expect(await page.getByRole('alert').count()).toBe(0);
      } finally {
        await ctx.close();
      }
    });
  }
});
