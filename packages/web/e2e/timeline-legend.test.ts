import { describe, expect, it } from 'vitest';
import { apiOf, endToEnd, shots } from './harness.js';

/**
 * The timeline's legend is whole at every size: on the table screen of a stamina fight of three (a narrow
 * picture, whose legend drawn in it was cut at its right end at 1920×1080, and scrolled away with the
 * picture on a phone), every entry ends inside the screen, from 1920 px wide down to 390.
 */
const env = endToEnd();
const api = apiOf(() => env.server);

describe('the timeline legend', () => {
  it('ends inside the screen at 1920, 1280, 768 and 390 px wide', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Legend',
      ruleset: 'stamina',
      seed: 3,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
        { id: 'bren', name: 'Bren', side: 'pc', hp: 20 },
        { id: 'gob', name: 'Goblin', side: 'npc', hp: 7 },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string; table: string } };
    const id = r.encounter.id;
    await api('POST', `/api/encounters/${id}/commands`, r.tokens.gm, { command: { type: 'start' } });
    for (const [width, height] of [
      [1920, 1080],
      [1280, 720],
      [768, 1024],
      [390, 844],
    ] as const) {
      const ctx = await env.browser.newContext({ viewport: { width, height } });
      try {
        const page = await ctx.newPage();
        await page.goto(
          `${env.server.url}/e/${encodeURIComponent(id)}?token=${encodeURIComponent(r.tokens.table)}`,
        );
        const legend = page.getByRole('list', { name: 'Legend' });
        await legend.waitFor();
        const entries = await legend
          .locator('li')
          .evaluateAll((els) =>
            els.map(
              (el) =>
                [el.textContent, el.getBoundingClientRect().left, el.getBoundingClientRect().right] as const,
            ),
          );
        expect(entries.map(([t]) => t)).toContain('turn');
        expect(entries.length).toBe(10);
        for (const [label, left, right] of entries) {
          expect(left, `${label} at ${width} px`).toBeGreaterThanOrEqual(0);
          expect(right, `${label} at ${width} px`).toBeLessThanOrEqual(width);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: `${shots}/timeline-legend-${width}.png` });
      } finally {
        await ctx.close();
      }
    }
  });
});
