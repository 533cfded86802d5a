import { describe, expect, it } from 'vitest';
import { endToEnd, openClassicGm } from './harness.js';

/**
 * Speed at the table (issue 30): ending the fight takes a confirmation, so one stray click does not end
 * it; Undo still restores an ended fight.
 */
const env = endToEnd();

describe('End the fight', () => {
  it('asks first: dismissed, the fight goes on; confirmed, it ends, and Undo restores it', async () => {
    const { ctx, page } = await openClassicGm(env, 'Ending', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 12 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ]);
    try {
      const clock = () => page.getByTestId('clock').textContent();
      await page.getByRole('button', { name: /^Roll initiative/ }).click();
      await expect.poll(clock).toContain('Round 1');
      const end = page.getByRole('button', { name: 'End the fight' });

      const asked: string[] = [];
      page.once('dialog', (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      await end.click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toContain('Undo restores it');
      await page.waitForTimeout(300);
      expect(await clock()).not.toContain('ended');
      expect(await end.isEnabled()).toBe(true);

      page.once('dialog', (d) => void d.accept());
      await end.click();
      await expect.poll(() => end.isEnabled()).toBe(false);
      await page.getByRole('button', { name: /^Undo/ }).click();
      await expect.poll(() => end.isEnabled()).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
