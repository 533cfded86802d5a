import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd } from './harness.js';

/**
 * What a change draws again (issue 29): the store keeps every unchanged combatant as the same object and a
 * card is drawn again only when what it shows changed, so a change to one combatant renders that one card.
 * Counted from the runtime's own renders, through the hook Preact DevTools use (`__PREACT_DEVTOOLS__`, to
 * which the production build hands Preact's `options`: `src/main.tsx`): `options.__r` is called as a
 * component renders, `options.diffed` once its element is diffed (its first DOM node then `__e`),
 * `options.__c` once per commit; a card's component is one whose first DOM node is its `li.card`. (These
 * are Preact's names for its plugin hooks, the ones @preact/signals and Preact's DevTools use.)
 */
const env = endToEnd();
const api = apiOf(() => env.server);

/**
 * Installed before the app loads: `window.__cards` lists, per commit, the cards whose component rendered;
 * `window.__parts`, the other parts by their first element's test id or accessible name (the headline's
 * "Whose turn", the status line's `status`).
 */
const COUNT_RENDERS = `(() => {
  window.__cards = [];
  window.__parts = [];
  let rendered = new Set();
  let cards = new Set();
  let parts = new Set();
  window.__PREACT_DEVTOOLS__ = {
    attachPreact(_version, options) {
      const render = options.__r, diffed = options.diffed, commit = options.__c;
      options.__r = (vnode) => { rendered.add(vnode); if (render) render(vnode); };
      options.diffed = (vnode) => {
        if (typeof vnode.type === 'function' && rendered.has(vnode)) {
          const el = vnode.__e;
          if (el instanceof HTMLLIElement && el.classList.contains('card')) cards.add(el.dataset.combatant);
          const named = el?.dataset?.testid ?? el?.getAttribute?.('aria-label');
          if (named) parts.add(named);
        }
        if (diffed) diffed(vnode);
      };
      options.__c = (root, queue) => {
        window.__cards.push([...cards]);
        window.__parts.push([...parts]);
        rendered = new Set();
        cards = new Set();
        parts = new Set();
        if (commit) commit(root, queue);
      };
    },
  };
})();`;

async function twelve(): Promise<{ id: string; gm: string; table: string }> {
  const combatants = Array.from({ length: 12 }, (_, i) => ({
    id: `c${i + 1}`,
    name: `Fighter ${i + 1}`,
    side: i < 4 ? 'pc' : 'npc',
    hp: 10 + i,
  }));
  const r = (await api('POST', '/api/encounters', null, {
    name: 'Renders',
    ruleset: 'classic',
    seed: 5,
    combatants,
  })) as { encounter: { id: string }; tokens: { gm: string; table: string } };
  const initiative = Object.fromEntries(combatants.map((c, i) => [c.id, 30 - i]));
  await api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, {
    command: { type: 'start', initiative },
  });
  return { id: r.encounter.id, gm: r.tokens.gm, table: r.tokens.table };
}

/** The parts (by test id) rendered since the last call, each once, sorted. */
async function partsRendered(page: Page): Promise<string[]> {
  const commits = (await page.evaluate('window.__parts.splice(0)')) as string[][];
  return [...new Set(commits.flat())].sort();
}

/** The cards rendered since the last call, each once, sorted. */
async function cardsRendered(page: Page): Promise<string[]> {
  const commits = (await page.evaluate('window.__cards.splice(0)')) as string[][];
  return [...new Set(commits.flat())].sort();
}

/**
 * Encounter `id`'s page opened with `token` in `ctx`, its renders counted from its first load, once live;
 * `seq` reads the change the page shows.
 */
async function openCounted(ctx: BrowserContext, id: string, token: string) {
  const page = await ctx.newPage();
  await page.addInitScript({ content: COUNT_RENDERS });
  await page.goto(`${env.server.url}/e/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`);
  await drawn(page);
  await expect.poll(() => page.getByTestId('connection').textContent()).toBe('live');
  const seq = async () => Number(await page.locator('.encounter-page').getAttribute('data-seq'));
  return { page, seq };
}

describe('a change draws again only what it changed', () => {
  it('damage to one of twelve renders its card alone; a turn that passes, the two whose turn it was and is', async () => {
    const e = await twelve();
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const { page, seq } = await openCounted(ctx, e.id, e.gm);
      // The first load drew every card: the count starts now.
      expect((await cardsRendered(page)).length).toBe(12);

      let at = await seq();
      await api('POST', `/api/encounters/${e.id}/commands`, e.gm, {
        command: { type: 'damage', combatant: 'c7', amount: 3 },
      });
      await drawn(page, at + 1);
      await expect
        .poll(() => page.locator('[data-combatant="c7"] dd').first().textContent())
        .toContain('13/16');
      expect(await cardsRendered(page)).toEqual(['c7']);

      // Fighter 1 acts first (initiative 30); Next passes the turn to Fighter 2: their two cards change
      // (who is acting, who is selected), the other ten stay as they were.
      at = await seq();
      await api('POST', `/api/encounters/${e.id}/commands`, e.gm, { command: { type: 'next' } });
      await drawn(page, at + 1);
      await expect.poll(() => page.locator('li.card.current').getAttribute('data-combatant')).toBe('c2');
      expect(await cardsRendered(page)).toEqual(['c1', 'c2']);
    } finally {
      await ctx.close();
    }
  });

  it('the headline and the status line are drawn when their words change, not with every change; the GM tools come after the headline', async () => {
    const e = await twelve();
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const { page, seq } = await openCounted(ctx, e.id, e.gm);
      // The GM's own Next: the headline moves on and the status line says it was done.
      await page.evaluate('window.__parts.splice(0)');
      let at = await seq();
      await page.locator('body').press('n');
      await drawn(page, at + 1);
      await expect.poll(() => page.getByTestId('status').textContent()).toMatch(/next turn/i);
      await expect.poll(() => page.getByRole('region', { name: 'GM tools for Fighter 2' }).count()).toBe(1);
      const commits = (await page.evaluate('window.__parts.splice(0)')) as string[][];
      const moved = [...new Set(commits.flat())];
      expect(moved).toContain('Whose turn');
      expect(moved).toContain('status');
      // The headline, the cards and the palette are committed first; the GM tools and "Other commands"
      // under the palette follow in a commit of their own (`LaterTools`).
      const first = commits.findIndex((c) => c.includes('Whose turn'));
      expect(commits[first]).not.toContain('GM tools for Fighter 2');
      expect(commits[first]).not.toContain('Other commands');
      expect(commits.slice(first + 1).flat()).toContain('GM tools for Fighter 2');

      // Damage to a combatant whose turn it is not: neither the clock, whose turn it is, nor what the status
      // line says changed, so neither is drawn (its card is).
      at = await seq();
      await api('POST', `/api/encounters/${e.id}/commands`, e.gm, {
        command: { type: 'damage', combatant: 'c9', amount: 2 },
      });
      await drawn(page, at + 1);
      await expect
        .poll(() => page.locator('[data-combatant="c9"] dd').first().textContent())
        .toContain('16/18');
      const after = await partsRendered(page);
      expect(after).not.toContain('Whose turn');
      expect(after).not.toContain('status');
      expect(await cardsRendered(page)).toContain('c9');
    } finally {
      await ctx.close();
    }
  });

  it("the table's status list is drawn when the order or whose turn it is changes, not with every change", async () => {
    const e = await twelve();
    const ctx = await env.browser.newContext({ viewport: { width: 1920, height: 1080 } });
    try {
      const { page, seq } = await openCounted(ctx, e.id, e.table);
      const row = (id: string) => page.locator(`ol.order > li[data-combatant="${id}"] .order-status`);
      // The parts in chunks of their own are drawn once loaded: the count starts after.
      await expect.poll(() => page.getByTestId('next-round').count()).toBe(1);
      await expect.poll(() => page.getByTestId('timeline').count()).toBe(1);
      await page.evaluate('window.__parts.splice(0)');

      // Damage to a PC (its HP is shown) whose turn it is not: the order and whose turn it is stay, so
      // the list is not drawn (the screen around it is, with the new view).
      let at = await seq();
      await api('POST', `/api/encounters/${e.id}/commands`, e.gm, {
        command: { type: 'damage', combatant: 'c3', amount: 2 },
      });
      await drawn(page, at + 1);
      await expect.poll(() => row('c3').textContent()).toContain('10/12');
      const damaged = await partsRendered(page);
      expect(damaged).not.toContain('status-list');
      // Nor the next round's order, which reads its own slice too.
      expect(damaged).not.toContain('next-round');

      // Next: whose turn it is changes, and the list is drawn.
      at = await seq();
      await api('POST', `/api/encounters/${e.id}/commands`, e.gm, { command: { type: 'next' } });
      await drawn(page, at + 1);
      await expect
        .poll(() => page.locator('ol.order > li.current').getAttribute('data-combatant'))
        .toBe('c2');
      expect(await partsRendered(page)).toContain('status-list');
    } finally {
      await ctx.close();
    }
  });
});
