import { describe, expect, it } from 'vitest';
import { endToEnd, LOADED_MS, openClassicGm } from './harness.js';

/**
 * Hotkeys for what GMs do most (issue 33): `d` damage and `h` heal the selected combatant through a small
 * number prompt, `c` goes to the condition field, `x` removes after asking (Undo brings them back), `u`
 * undoes; none of them fires while the GM types in a text field.
 */
const env = endToEnd();
/** A change reaches the pages over the server on a shared, loaded machine: a few seconds, not one. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

describe('the GM hotkeys', () => {
  it('damage, heal, a condition, remove and undo from the keyboard; nothing while typing', async () => {
    const { ctx, page } = await openClassicGm(
      env,
      'Keys',
      [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 12 },
        { id: 'gob', name: 'Goblin', side: 'npc', hp: 7 },
        { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
      ],
      { width: 1280, height: 900 },
    );
    try {
      const cards = page.getByTestId('combatants');
      const goblin = cards.locator('li.card', { hasText: 'Goblin' });
      // The tracker's chunk loads after the page: its cards come first.
      await cards.locator('li.card').first().waitFor();
      await poll(() => cards.locator('li.card').count()).toBe(3);
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('2');
      await poll(() => page.getByTestId('acting-for').textContent()).toContain('Goblin');

      // d: the prompt, an amount, Enter.
      await page.keyboard.press('d');
      const damage = page.getByRole('dialog', { name: 'Damage to Goblin' });
      await damage.getByLabel('Amount').fill('4');
      await damage.getByLabel('Amount').press('Enter');
      await poll(() => goblin.textContent()).toContain('3/7');
      expect(await damage.count()).toBe(0);

      // h, then Escape closes it without a change.
      await page.keyboard.press('h');
      const heal = page.getByRole('dialog', { name: 'Healing for Goblin' });
      await heal.getByLabel('Amount').fill('9');
      await page.keyboard.press('Escape');
      expect(await heal.count()).toBe(0);
      await page.keyboard.press('h');
      await heal.getByLabel('Amount').fill('1');
      await heal.getByLabel('Amount').press('Enter');
      await poll(() => goblin.textContent()).toContain('4/7');

      // c: the condition field of the GM tools, typed in and sent with Enter. The GM tools load as a chunk
      // of their own: on a loaded machine they may come after the cards, so the key waits for their form.
      await page
        .getByRole('form', { name: 'Add a condition to Goblin' })
        .getByLabel('Condition')
        .waitFor({ state: 'attached', timeout: LOADED_MS });
      await page.keyboard.press('c');
      await page.keyboard.type('Prone');
      await page.keyboard.press('Enter');
      await poll(() => goblin.textContent()).toContain('Prone');

      // Typing in a text field: the letters are text, no shortcut fires.
      const condition = page.getByRole('form', { name: 'Add a condition to Goblin' }).getByLabel('Condition');
      await condition.click();
      await page.keyboard.type('dhxcnu2');
      expect(await condition.inputValue()).toBe('dhxcnu2');
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(await goblin.textContent()).toContain('4/7');
      expect(await page.getByTestId('acting-for').textContent()).toContain('Goblin');
      await condition.fill('');

      // x: asks first; Enter removes; u brings the goblin back.
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('x');
      const remove = page.getByRole('dialog', { name: 'Remove Goblin from the fight?' });
      await remove.waitFor();
      // The dialog takes the focus on its Remove button: Enter presses it.
      await poll(() =>
        remove.getByRole('button', { name: 'Remove Goblin' }).evaluate((b) => b === document.activeElement),
      ).toBe(true);
      await page.keyboard.press('Enter');
      await poll(() => cards.locator('li.card').count()).toBe(2);
      await page.keyboard.press('u');
      await poll(() => cards.locator('li.card').count()).toBe(3);
      await poll(() => goblin.textContent()).toContain('4/7');
    } finally {
      await ctx.close();
    }
  });
});
