import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd, repo } from './harness.js';

/**
 * The library on the page (issue 33): the GM searches the creature library by typing, moves through what
 * it finds with the arrow keys, and adds 4 goblins with Enter; with classic's "A group rolls once and acts
 * together", rolling initiative rolls once for the group and the 4 act one after another in the order.
 */
const env = endToEnd();
/** A change reaches the pages over the server on a shared, loaded machine: a few seconds, not one. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const api = apiOf(() => env.server);

describe('the creature library', () => {
  it('a GM adds a group of 4 goblins from the library; the group rolls once and acts together', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Library',
      ruleset: 'classic',
      seed: 5,
      options: { groupInitiative: 'group' },
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { initiative: 3 } },
        { id: 'bren', name: 'Bren', side: 'pc', hp: 24, stats: { initiative: 1 } },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string } };
    const id = encodeURIComponent(r.encounter.id);
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await ctx.newPage();
      await page.goto(`${env.server.url}/e/${id}?token=${encodeURIComponent(r.tokens.gm)}`);
      await drawn(page);
      const search = page.getByRole('combobox', { name: 'Search the library' });
      await search.waitFor();
      const selected = () => page.locator('[role="option"][aria-selected="true"]').textContent();
      // The examples come with the page's library: typing finds them, the arrows move through them.
      await search.fill('b');
      await poll(selected).toContain('Bandit');
      await search.press('ArrowDown');
      await poll(selected).toContain('Bandit captain');
      await search.press('ArrowUp');
      await poll(selected).not.toContain('captain');

      await page.getByLabel('How many').fill('4');
      await search.fill('gob');
      await poll(selected).toContain('Goblin');
      await search.press('Enter');
      const cards = page.getByTestId('combatants').locator('li.card .name');
      await poll(() => cards.count()).toBe(6);
      const names = await cards.allTextContents();
      for (const n of [1, 2, 3, 4]) expect(names).toContain(`Goblin ${n}`);

      await page.getByRole('button', { name: /^Roll initiative/ }).click();
      await poll(() => page.getByRole('button', { name: /^Next/ }).isEnabled()).toBe(true);
      // One roll for the group: Ana's, Bren's and the goblins'.
      const log = (await api('GET', `/api/encounters/${id}/events?after=0`, r.tokens.gm)) as {
        entries: Array<{ event: { type: string; purpose?: string } }>;
      };
      const rolls = log.entries.filter(
        (e) => e.event.type === 'dice/rolled' && e.event.purpose === 'initiative',
      );
      expect(rolls).toHaveLength(3);
      // The four act one after another in the order.
      const order = await cards.allTextContents();
      const at = order.indexOf('Goblin 1');
      expect(order.slice(at, at + 4)).toEqual(['Goblin 1', 'Goblin 2', 'Goblin 3', 'Goblin 4']);
    } finally {
      await ctx.close();
    }
  });

  it("imports Improved Initiative's export into the library, saying what did not map", async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Import',
      ruleset: 'classic',
      seed: 1,
    })) as {
      encounter: { id: string };
      tokens: { gm: string };
    };
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await ctx.newPage();
      await page.goto(
        `${env.server.url}/e/${encodeURIComponent(r.encounter.id)}?token=${encodeURIComponent(r.tokens.gm)}`,
      );
      await drawn(page);
      const file = page.getByLabel('Import creatures (JSON, Improved Initiative)');
      await file.waitFor({ state: 'attached' });
      await file.setInputFiles(join(repo, 'examples/improved-initiative/improved-initiative.json'));
      const status = async () => (await page.getByRole('status').allTextContents()).join(' ');
      await poll(status).toContain('imported 4 creatures from Improved Initiative into the library');
      expect(await status()).toContain('not mapped');
      await page.getByRole('combobox', { name: 'Search the library' }).fill('ogre');
      await poll(() => page.locator('[role="option"][aria-selected="true"]').textContent()).toContain(
        'library',
      );
    } finally {
      await ctx.close();
    }
  });
});
