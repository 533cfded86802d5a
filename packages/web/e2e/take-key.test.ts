import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd } from './harness.js';

/**
 * Speed at the table (issue 30): on a tempo NPC's turn the GM takes its planned action with one key (`t`)
 * instead of a click on "Take my action" for each NPC; a Strike by an NPC with one weapon uses it.
 */
const env = endToEnd();
const api = apiOf(() => env.server);

describe('the planned action in one key', () => {
  it('t takes the acting NPC’s planned action; the count then goes on with n', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Keys',
      ruleset: 'tempo',
      seed: 3,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { speed: 6 } },
        {
          id: 'orc',
          name: 'Orc',
          side: 'npc',
          hp: 15,
          stats: { speed: 5, weapons: [{ name: 'Club', speed: 'standard' }], held: ['Club'] },
        },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string } };
    const send = (command: unknown) =>
      api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, { command });
    await send({ type: 'start' });
    await send({ type: 'plan', actor: 'ana', action: 'rest' });
    await send({ type: 'plan', actor: 'ana', action: 'hide' });
    await send({ type: 'plan', actor: 'orc', action: 'standard-attack' });
    await send({ type: 'plan', actor: 'orc', action: 'move' });
    await send({ type: 'next' }); // Ana's Rest at tempo 1
    await send({ type: 'next' }); // the Orc's Move at tempo 4
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const page = await ctx.newPage();
      await page.goto(
        `${env.server.url}/e/${encodeURIComponent(r.encounter.id)}?token=${encodeURIComponent(r.tokens.gm)}`,
      );
      await drawn(page);
      await expect.poll(() => page.getByTestId('current-actor').textContent()).toContain('Orc');
      const log = page.getByTestId('log');
      // The key works once the page shows the planned action's panel (its heading says "t").
      const takeHint = page.getByTitle(/^Press t to take it/);
      await takeHint.first().waitFor();
      // Not taken before the key (read before it: the answer may come back within the key press itself).
      expect(await log.textContent()).not.toContain('Orc: Move.');
      await page.locator('body').press('t');
      await expect.poll(() => log.textContent()).toContain('Orc: Move.');
      await page.locator('body').press('n');
      await expect.poll(() => page.getByTestId('clock').textContent()).toContain('tempo 5');
      await page.getByLabel('Target').last().selectOption({ label: 'Ana' });
      await takeHint.first().waitFor();
      await page.locator('body').press('t');
      await expect.poll(() => log.textContent()).toContain('Orc: Standard Attack with Club → Ana.');
    } finally {
      await ctx.close();
    }
  });
});
