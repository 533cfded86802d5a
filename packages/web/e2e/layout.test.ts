import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, endToEnd } from './harness.js';

/**
 * Layout (issue 30): the GM's top bar on a laptop cuts neither the ruleset's name nor whose turn it is
 * (the encounter's name gives up its room first, and never to a letter); the table screen at 1920×1080
 * shows its whole timeline without scrolling, a dozen combatants included.
 */
const env = endToEnd();
const api = apiOf(() => env.server);

/** A tempo fight of twelve with a long name, on Ana's turn at tempo 2. */
async function twelve(): Promise<{ id: string; gm: string; table: string }> {
  const combatants = [
    { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { speed: 6 } },
    { id: 'bren', name: 'Bren', side: 'pc', hp: 20, stats: { speed: 6 } },
    { id: 'thorn', name: 'Thorngrim', side: 'pc', hp: 20, stats: { speed: 6 } },
    { id: 'wolf', name: 'Wolf', side: 'npc', hp: 11, stats: { speed: 8 } },
    { id: 'troll', name: 'Troll', side: 'npc', hp: 30, stats: { speed: 4 } },
    { id: 'tusk', name: 'Tusker', side: 'npc', hp: 30, stats: { speed: 4 } },
    ...Array.from({ length: 6 }, (_, i) => ({ id: `g${i}`, name: `Goblin ${i + 1}`, side: 'npc', hp: 7 })),
  ];
  const r = (await api('POST', '/api/encounters', null, {
    name: 'The Tempo Trial at the Ford',
    ruleset: 'tempo',
    seed: 3,
    combatants,
  })) as { encounter: { id: string }; tokens: { gm: string; table: string } };
  const send = (command: unknown) =>
    api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, { command });
  await send({ type: 'start' });
  for (const c of combatants) {
    await send({ type: 'plan', actor: c.id, action: 'move' });
    await send({ type: 'plan', actor: c.id, action: 'scan' });
  }
  await send({ type: 'next' });
  return { id: r.encounter.id, gm: r.tokens.gm, table: r.tokens.table };
}

async function open(id: string, token: string, viewport: { width: number; height: number }) {
  const ctx = await env.browser.newContext({ viewport });
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/e/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`);
  await page.getByTestId('clock').waitFor();
  return { ctx, page };
}

/** How much of an element's text its box hides (0: all of it shows). */
const hidden = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.scrollWidth - el.clientWidth);

describe('layout', () => {
  it('the top bar at 1280×720 keeps the ruleset and whose turn whole; the table at 1920×1080 its timeline', async () => {
    const e = await twelve();
    const gm = await open(e.id, e.gm, { width: 1280, height: 720 });
    try {
      await expect.poll(() => gm.page.getByTestId('current-actor').textContent()).toContain('Ana');
      expect(await hidden(gm.page, '.topbar .ruleset-name')).toBeLessThanOrEqual(0);
      expect(await hidden(gm.page, '.topbar .headline-actor')).toBeLessThanOrEqual(0);
      // The encounter's name may give up room, not down to a letter.
      const h1 = await gm.page.locator('.topbar h1').boundingBox();
      expect(h1!.width).toBeGreaterThanOrEqual(70);
      const next = await gm.page.getByRole('button', { name: /^Next/ }).boundingBox();
      expect(next!.x + next!.width).toBeLessThanOrEqual(1280);
    } finally {
      await gm.ctx.close();
    }
    const table = await open(e.id, e.table, { width: 1920, height: 1080 });
    try {
      const timeline = table.page.getByRole('region', { name: 'Timeline' });
      await timeline.locator('svg').first().waitFor();
      const box = await timeline.locator('svg').first().boundingBox();
      expect(box!.y + box!.height, 'the timeline ends inside the screen').toBeLessThanOrEqual(1080);
      expect(await table.page.evaluate(() => window.scrollY)).toBe(0);
    } finally {
      await table.ctx.close();
    }
  });
});
