import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd } from './harness.js';

/**
 * HP as the GM chooses (issue 33): the GM sets how the table and players see NPC HP; the server sends the
 * table only what the choice allows (a word for a hurt goblin, no number), and the GM keeps the numbers.
 */
const env = endToEnd();
/** A change reaches the pages over the server on a shared, loaded machine: a few seconds, not one. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const api = apiOf(() => env.server);

describe('HP for the table and players', () => {
  it('NPC HP as descriptors: the table reads "bloodied" and no number, the GM still 3/7', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Hp shown',
      ruleset: 'classic',
      seed: 3,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 12 },
        { id: 'gob', name: 'Goblin', side: 'npc', hp: 7 },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string; table: string } };
    const id = encodeURIComponent(r.encounter.id);
    await api('POST', `/api/encounters/${id}/commands`, r.tokens.gm, {
      command: { type: 'damage', combatant: 'gob', amount: 4 },
    });
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const gm = await ctx.newPage();
      await gm.goto(`${env.server.url}/e/${id}?token=${encodeURIComponent(r.tokens.gm)}`);
      const table = await ctx.newPage();
      await table.goto(`${env.server.url}/e/${id}?token=${encodeURIComponent(r.tokens.table)}`);
      await drawn(table);
      const goblinRow = table.locator('li[data-combatant="gob"]');
      const npcField = gm.getByLabel('NPC HP', { exact: true });
      await npcField.waitFor();

      // NPC HP as numbers: the table reads them.
      await npcField.selectOption('numbers');
      await poll(() => goblinRow.textContent()).toContain('3/7');

      // As descriptors: a word, and the number is not on the table page at all.
      await npcField.selectOption('descriptors');
      await poll(() => goblinRow.textContent()).toContain('bloodied');
      expect(await table.locator('body').textContent()).not.toContain('3/7');
      // The PC's own numbers are still the table's, and the GM still sees the goblin's.
      expect(await table.locator('li[data-combatant="ana"]').textContent()).toContain('12/12');
      const gmCard = gm.getByTestId('combatants').locator('li.card', { hasText: 'Goblin' });
      await poll(() => gmCard.textContent()).toContain('3/7');

      // Hidden: neither a number nor a word.
      await npcField.selectOption('hidden');
      await poll(() => goblinRow.textContent()).not.toContain('bloodied');
      expect(await goblinRow.textContent()).not.toContain('3/7');
      expect(await gm.getByLabel('PC HP', { exact: true }).inputValue()).toBe('numbers');
    } finally {
      await ctx.close();
    }
  });
});
