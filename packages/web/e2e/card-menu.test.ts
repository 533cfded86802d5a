import { describe, expect, it } from 'vitest';
import { endToEnd, openClassicGm } from './harness.js';

/**
 * Reach (issue 30): the GM renames or removes a combatant in two clicks from its card (its ⋯ menu, then
 * the choice), and Undo brings back what was removed.
 */
const env = endToEnd();

describe("the card's menu", () => {
  it('renames and removes in two clicks from the card; Undo brings a removed combatant back', async () => {
    const { ctx, page } = await openClassicGm(env, 'Menu', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 12 },
      { id: 'gob', name: 'Goblin', side: 'npc', hp: 7 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ]);
    try {
      const cards = page.getByTestId('combatants');
      const card = (name: string) => cards.locator('li.card', { hasText: name });
      await expect.poll(() => cards.locator('li.card').count()).toBe(3);

      // Rename: the menu, Rename…, then the name typed and Enter.
      await card('Goblin').getByLabel('More for Goblin: rename, remove').click();
      await card('Goblin').getByRole('button', { name: 'Rename…' }).click();
      await card('Goblin').getByLabel('New name').fill('Goblin chief');
      await card('Goblin').getByLabel('New name').press('Enter');
      await expect.poll(() => cards.locator('li.card .name').allTextContents()).toContain('Goblin chief');

      // Remove: the menu, then Remove.
      await card('Orc').getByLabel('More for Orc: rename, remove').click();
      await card('Orc').getByRole('button', { name: 'Remove Orc' }).click();
      await expect.poll(() => cards.locator('li.card').count()).toBe(2);
      await expect
        .poll(async () => (await page.getByRole('status').allTextContents()).join(' '))
        .toContain('Undo');

      await page.getByRole('button', { name: /^Undo/ }).click();
      await expect.poll(() => cards.locator('li.card .name').allTextContents()).toContain('Orc');
    } finally {
      await ctx.close();
    }
  });
});
