import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, endToEnd } from './harness.js';

/**
 * Reach (issue 30): Next and whose turn stay in sight at every size (the top bar sticks where the page
 * scrolls as a whole), and on a laptop the roster brings the acting card into view when the turn passes.
 */
const env = endToEnd();
const api = apiOf(() => env.server);

/** A classic fight of twelve, started in roster order. */
async function twelve(): Promise<{ id: string; gm: string }> {
  const combatants = Array.from({ length: 12 }, (_, i) => ({
    id: `c${i + 1}`,
    name: `Fighter ${i + 1}`,
    side: i < 4 ? 'pc' : 'npc',
    hp: 10 + i,
  }));
  const r = (await api('POST', '/api/encounters', null, {
    name: 'Reach',
    ruleset: 'classic',
    seed: 5,
    combatants,
  })) as {
    encounter: { id: string };
    tokens: { gm: string };
  };
  const initiative = Object.fromEntries(combatants.map((c, i) => [c.id, 30 - i]));
  await api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, {
    command: { type: 'start', initiative },
  });
  return { id: r.encounter.id, gm: r.tokens.gm };
}

async function open(e: { id: string; gm: string }, viewport: { width: number; height: number }) {
  const ctx = await env.browser.newContext({ viewport });
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/e/${encodeURIComponent(e.id)}?token=${encodeURIComponent(e.gm)}`);
  await page.getByTestId('clock').waitFor();
  return { ctx, page };
}

const actor = async (page: Page) => (await page.getByTestId('current-actor').textContent()) ?? '';

describe('Next and whose turn in reach', () => {
  it('a tablet’s top bar stays in sight as the page scrolls: Next and the headline', async () => {
    const e = await twelve();
    for (const viewport of [
      { width: 768, height: 1024 },
      { width: 360, height: 740 },
    ]) {
      const { ctx, page } = await open(e, viewport);
      try {
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        expect(
          await page.evaluate(() => window.scrollY),
          `${viewport.width}: the page scrolls`,
        ).toBeGreaterThan(300);
        const bar = await page.locator('header.topbar').boundingBox();
        expect(Math.abs(bar!.y), `${viewport.width}: the bar at the top`).toBeLessThan(2);
        const next = page.getByRole('button', { name: /^Next/ });
        expect(await next.isVisible()).toBe(true);
        const box = await next.boundingBox();
        expect(box!.y + box!.height).toBeLessThanOrEqual(bar!.y + bar!.height + 1);
        expect(await page.getByTestId('clock').isVisible()).toBe(true);
        const before = await actor(page);
        await next.click();
        await expect.poll(() => actor(page)).not.toBe(before);
      } finally {
        await ctx.close();
      }
    }
  });

  it('on a laptop the roster brings the acting card into view as the turn passes', async () => {
    const e = await twelve();
    const { ctx, page } = await open(e, { width: 1280, height: 720 });
    try {
      const column = page.locator('.tracker-grid > .col.roster-col');
      let scrolled = false;
      for (let i = 2; i <= 12; i++) {
        await page.locator('body').press('n');
        await expect.poll(() => actor(page)).toMatch(new RegExp(`Fighter ${i}\\b`));
        const inView = async () => {
          const c = await page.locator(`[data-combatant="c${i}"]`).boundingBox();
          const col = await column.boundingBox();
          return c !== null && col !== null && c.y >= col.y - 1 && c.y + c.height <= col.y + col.height + 1;
        };
        await expect.poll(inView, { message: `Fighter ${i}'s card in view` }).toBe(true);
        if ((await column.evaluate((el) => el.scrollTop)) > 0) scrolled = true;
      }
      expect(scrolled, 'twelve cards do not fit: the roster scrolled').toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
