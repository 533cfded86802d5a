import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd, shots } from './harness.js';

/**
 * End to end, forms a GM can trust: the add form starts again from the ruleset's defaults after an add (and
 * keeps values only when asked), a refused add keeps what was typed and says the limit in words, and the
 * ruleset's options are chosen from labelled choices — on the new-encounter page and on the GM page.
 */
const env = endToEnd();
const api = apiOf(() => env.server);

const status = async (page: Page) => (await page.getByTestId('status').textContent()) ?? '';

/** Creates an encounter from the home page with `choose` filling its options; the GM page opens. */
async function create(
  page: Page,
  ruleset: string,
  choose?: (form: ReturnType<Page['getByRole']>) => Promise<void>,
) {
  await page.goto(`${env.server.url}/`);
  const form = page.getByRole('region', { name: 'New encounter' });
  await form.getByLabel('Name').fill(`Forms ${ruleset}`);
  await form.getByLabel('Ruleset').selectOption(ruleset);
  // The option fields come with the ruleset's chunk, just after the page.
  if (choose) await form.locator('fieldset.options label').first().waitFor();
  await choose?.(form);
  await form.getByRole('button', { name: 'Create encounter' }).click();
  await page.waitForURL(/\/e\/[^/?]+\?token=/);
  await drawn(page);
  const url = new URL(page.url());
  return { id: decodeURIComponent(url.pathname.split('/')[2]!), token: url.searchParams.get('token')! };
}

async function stateOf(e: { id: string; token: string }) {
  const r = (await api('GET', `/api/encounters/${encodeURIComponent(e.id)}`, e.token)) as {
    state: {
      options: Record<string, unknown>;
      roster: string[];
      combatants: Record<
        string,
        { name: string; side: string; hp: { current: number; max: number }; stats: Record<string, unknown> }
      >;
    };
  };
  return r.state;
}

describe('forms', () => {
  it('options are labelled choices on the new-encounter page and the GM page', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    try {
      const e = await create(page, 'tara-corax', async (form) => {
        const mode = form.getByLabel('Round mode');
        expect(await mode.locator('option').allTextContents()).toEqual(
          expect.arrayContaining(['Full Round', 'Simple Round', 'Very Simply']),
        );
        // Chosen by what the GM reads, never by the id.
        await mode.selectOption({ label: 'Simple Round' });
      });
      expect((await stateOf(e)).options.roundMode).toBe('simple');
      const options = page.locator('details.options');
      await options.locator('summary').click();
      const mode = options.getByLabel('Round mode');
      expect(await mode.locator('option:checked').textContent()).toBe('Simple Round');
      await mode.selectOption({ label: 'Very Simply' });
      await options.getByRole('button', { name: 'Change options' }).click();
      await expect.poll(() => status(page)).toMatch(/^Done/);
      expect((await stateOf(e)).options.roundMode).toBe('very-simply');

      // six-second's action seconds: a table of actions and their seconds, no JSON; a yes/no is a check.
      const s = await create(page, 'six-second', async (form) => {
        const table = form.getByRole('group', { name: 'Action seconds' });
        expect(await form.locator('input[value="{}"]').count()).toBe(0);
        expect(await form.getByLabel('Carry over').getAttribute('type')).toBe('checkbox');
        await table.getByRole('button', { name: 'Add to Action seconds' }).click();
        await table.getByLabel(/^Action( \*)?$/).selectOption({ label: 'Single Melee attack' });
        await table.getByLabel(/^Seconds( \*)?$/).fill('3');
        await form.screenshot({ path: join(shots, 'forms-new-encounter-options.png') });
      });
      expect((await stateOf(s)).options.actionSeconds).toEqual({ 'melee-attack': 3 });
    } finally {
      await ctx.close();
    }
  });

  it('the add form starts from the defaults after an add, keeps values only when asked, and keeps a refused add', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    try {
      const e = await create(page, 'opend6');
      const add = page.getByRole('region', { name: 'Add combatants' });
      const stats = add.getByRole('group', { name: 'Stats' });
      const points = stats.getByLabel('Character Points', { exact: true });
      const pressAdd = () => add.getByRole('button', { name: 'Add', exact: true }).click();

      // Jax with his Character Points: the next combatant gets none of it.
      await add.getByLabel('Name', { exact: true }).fill('Jax');
      await add.getByLabel('Side').selectOption('pc');
      await add.getByLabel('HP').fill('12');
      await points.fill('5');
      await pressAdd();
      await expect.poll(() => status(page)).toBe('Done: added 1 × Jax.');
      expect(await add.getByLabel('Name', { exact: true }).inputValue()).toBe('');
      expect(await add.getByLabel('Side').inputValue()).toBe('npc');
      expect(await add.getByLabel('HP').inputValue()).toBe('');
      expect(await points.inputValue()).toBe('0');

      // Refused: a too-big HP, said with its limit; everything typed stays, the name too.
      await add.getByLabel('Name', { exact: true }).fill('Thug');
      await add.getByLabel('HP').fill('99999999999999999999');
      await points.fill('2');
      await pressAdd();
      await expect.poll(() => status(page)).toContain('HP can be at most 1,000,000.');
      expect(await add.getByText('HP can be at most 1,000,000.').count()).toBe(1);
      expect(await add.getByLabel('Name', { exact: true }).inputValue()).toBe('Thug');
      expect(await points.inputValue()).toBe('2');
      await add.getByLabel('HP').fill('-4');
      await pressAdd();
      await expect.poll(() => status(page)).toContain('HP cannot be negative.');
      // How many above its limit is refused with the limit named, never clamped.
      await add.getByLabel('HP').fill('8');
      await add.getByLabel('How many').fill('60');
      await pressAdd();
      await expect.poll(() => status(page)).toContain('How many can be at most 50.');
      await add.getByLabel('HP').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, 'forms-add-refused-1280.png') });
      expect(await add.getByLabel('Name', { exact: true }).inputValue()).toBe('Thug');
      expect((await stateOf(e)).roster).toHaveLength(1);

      // Kept on purpose: side, HP and stats stay for the next add, the name does not.
      await add.getByLabel('How many').fill('1');
      await add.getByLabel('Keep values').check();
      await pressAdd();
      await expect.poll(() => status(page)).toBe('Done: added 1 × Thug.');
      expect(await add.getByLabel('Name', { exact: true }).inputValue()).toBe('');
      expect(await add.getByLabel('HP').inputValue()).toBe('8');
      expect(await points.inputValue()).toBe('2');
      const state = await stateOf(e);
      const thug = Object.values(state.combatants).find((c) => c.name === 'Thug')!;
      expect(thug.hp.max).toBe(8);
      expect(thug.stats.characterPoints).toBe(2);
    } finally {
      await ctx.close();
    }
  });

  it('stamina skill ranks are picked from a labelled list', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    try {
      const e = await create(page, 'stamina');
      const add = page.getByRole('region', { name: 'Add combatants' });
      const ranks = add.getByRole('group', { name: 'Ranks' });
      await add.getByLabel('Name', { exact: true }).fill('Kael');
      await ranks.getByRole('button', { name: 'Add to Ranks' }).click();
      await ranks.getByLabel(/^Skill( \*)?$/).selectOption({ label: 'Reckless attack' });
      await ranks.getByLabel(/^Rank( \*)?$/).fill('2');
      // A second row offers the skills not taken yet.
      await ranks.getByRole('button', { name: 'Add to Ranks' }).click();
      const second = ranks.getByRole('group', { name: 'Ranks 2' }).getByLabel(/^Skill( \*)?$/);
      const offered = await second.locator('option').allTextContents();
      expect(offered).toContain('Aim');
      expect(offered).not.toContain('Reckless attack');
      await ranks.getByRole('button', { name: 'Remove Ranks 2' }).click();
      await add.getByRole('button', { name: 'Add', exact: true }).click();
      await expect.poll(() => status(page)).toBe('Done: added 1 × Kael.');
      const kael = Object.values((await stateOf(e)).combatants).find((c) => c.name === 'Kael')!;
      expect(kael.stats.ranks).toEqual({ recklessAttack: 2 });
    } finally {
      await ctx.close();
    }
  });
});
