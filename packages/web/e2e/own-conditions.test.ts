import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd } from './harness.js';

/**
 * Players add their own conditions, per link (issue 33): the GM turns the switch on for Ana's link in
 * "Share & export"; Ana's phone then adds and removes a condition on her own character, Bren's (switch
 * off) offers none; classic's concentration reminder reaches the GM's log when Ana takes damage.
 */
const env = endToEnd();
/** A change reaches the pages over the server on a shared, loaded machine: a few seconds, not one. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const api = apiOf(() => env.server);

describe("a player's own conditions", () => {
  it('the GM allows it for one link; that player adds and removes on their character; the GM is reminded', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Own conditions',
      ruleset: 'classic',
      seed: 3,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
        { id: 'bren', name: 'Bren', side: 'pc', hp: 24 },
        { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string; players: Record<string, string> } };
    const id = encodeURIComponent(r.encounter.id);
    const url = (token: string) => `${env.server.url}/e/${id}?token=${encodeURIComponent(token)}`;
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const phones = await env.browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const gm = await ctx.newPage();
      await gm.goto(url(r.tokens.gm));
      await drawn(gm);
      await gm.getByRole('button', { name: 'Show links' }).click();
      const anaSwitch = gm.getByLabel('Ana may add and remove conditions on their own character');
      const brenSwitch = gm.getByLabel('Bren may add and remove conditions on their own character');
      await anaSwitch.waitFor();
      // Off by default.
      expect(await anaSwitch.isChecked()).toBe(false);
      // Checked once the server has stored it (the list of links comes back with it).
      await anaSwitch.click();
      await poll(() => anaSwitch.isChecked()).toBe(true);
      expect(await brenSwitch.isChecked()).toBe(false);

      const ana = await phones.newPage();
      await ana.goto(url(r.tokens.players.ana!));
      const field = ana.getByLabel('Condition', { exact: true });
      await field.waitFor();
      await field.fill('Concentrating: Bless');
      await ana.getByRole('button', { name: 'Add condition' }).click();
      const mine = ana.getByRole('region', { name: 'Conditions on Ana' });
      await poll(() => mine.textContent()).toContain('Concentrating: Bless');
      // The GM sees it on Ana's card, and is reminded of the save when Ana is hit.
      const gmCards = gm.getByTestId('combatants');
      await poll(() => gmCards.locator('li.card', { hasText: 'Ana' }).textContent()).toContain(
        'Concentrating',
      );
      await api('POST', `/api/encounters/${id}/commands`, r.tokens.gm, {
        command: { type: 'damage', combatant: 'ana', amount: 7 },
      });
      await poll(() => gm.locator('body').textContent()).toContain(
        'Ana took 7 damage while concentrating (Concentrating: Bless): Constitution save, DC 10, or it ends.',
      );

      await ana.getByRole('button', { name: 'Remove Concentrating: Bless' }).click();
      await poll(() => mine.textContent()).not.toContain('Concentrating: Bless');

      // Bren's link was not allowed: no condition form on Bren's phone.
      const bren = await phones.newPage();
      await bren.goto(url(r.tokens.players.bren!));
      await bren.getByRole('region', { name: 'Everyone' }).waitFor();
      expect(await bren.getByRole('button', { name: 'Add condition' }).count()).toBe(0);
    } finally {
      await ctx.close();
      await phones.close();
    }
  });

  it("the player's page follows the GM's switch live, without a reload", async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Live switch',
      ruleset: 'classic',
      seed: 4,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
        { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string; players: Record<string, string> } };
    const id = encodeURIComponent(r.encounter.id);
    const url = (token: string) => `${env.server.url}/e/${id}?token=${encodeURIComponent(token)}`;
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const phones = await env.browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const ana = await phones.newPage();
      await ana.goto(url(r.tokens.players.ana!));
      await drawn(ana);
      await poll(() => ana.getByTestId('connection').textContent()).toBe('live');
      const add = ana.getByRole('button', { name: 'Add condition' });
      expect(await add.count()).toBe(0);

      const gm = await ctx.newPage();
      await gm.goto(url(r.tokens.gm));
      await drawn(gm);
      await gm.getByRole('button', { name: 'Show links' }).click();
      const anaSwitch = gm.getByLabel('Ana may add and remove conditions on their own character');
      await anaSwitch.click();
      await poll(() => anaSwitch.isChecked()).toBe(true);
      // Ana's open page shows the form now; it was never reloaded.
      await poll(() => add.count()).toBe(1);
      await anaSwitch.click();
      await poll(() => anaSwitch.isChecked()).toBe(false);
      await poll(() => add.count()).toBe(0);
    } finally {
      await ctx.close();
      await phones.close();
    }
  });
});
