import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, endToEnd, shots } from './harness.js';

/**
 * End to end, the GM's table: a sheet's lists and named entries edited as rows (a tempo weapon added in
 * the combatant editor and offered as the weapon of the planned action; an opend6 skill changed, refused
 * beside its field, and one added), and a card dragged onto another's place in the order.
 */
const env = endToEnd();

const LAPTOP = { width: 1280, height: 720 };
const PHONE = { width: 360, height: 740 };

interface Created {
  id: string;
  gm: string;
  table: string;
  players: Record<string, string>;
}

const api = apiOf(() => env.server);

async function create(ruleset: string, combatants: Record<string, unknown>[]): Promise<Created> {
  const r = (await api('POST', '/api/encounters', null, { name: 'Sheet', ruleset, seed: 3, combatants })) as {
    encounter: { id: string };
    tokens: { gm: string; table: string; players: Record<string, string> };
  };
  return { id: r.encounter.id, ...r.tokens };
}

async function command(e: Created, cmd: Record<string, unknown>): Promise<void> {
  await api('POST', `/api/encounters/${e.id}/commands`, e.gm, { command: cmd });
}

async function statsOf(e: Created, id: string): Promise<Record<string, unknown>> {
  const r = (await api('GET', `/api/encounters/${e.id}`, e.gm)) as {
    state: { combatants: Record<string, { stats: Record<string, unknown> }> };
  };
  return r.state.combatants[id]!.stats;
}

async function open(
  browser: Browser,
  e: Created,
  token: string,
  viewport: { width: number; height: number },
) {
  const ctx = await browser.newContext({ viewport, isMobile: viewport.width < 500 });
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/e/${encodeURIComponent(e.id)}?token=${encodeURIComponent(token)}`);
  await page.getByTestId('clock').waitFor();
  return { ctx, page };
}

const status = async (page: Page) => (await page.getByTestId('status').textContent()) ?? '';
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const label = el?.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
    return `${el?.tagName ?? ''}|${label?.textContent ?? el?.getAttribute('aria-label') ?? ''}`;
  });

async function shoot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: join(shots, file), fullPage: false });
}

describe('a sheet’s lists in the editor, and the order by drag and drop', () => {
  it('tempo: a weapon added in the editor (keyboard) is offered as the weapon of the planned action', async () => {
    const e = await create('tempo', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { speed: 6 } },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15, stats: { speed: 5 } },
    ]);
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      await page.locator('li.card[data-combatant="ana"] button.card-name').click();
      const tools = page.getByRole('region', { name: 'GM tools for Ana' });
      await tools.locator('summary').filter({ hasText: 'Edit' }).click();
      const editor = tools.getByRole('form', { name: 'Edit Ana' });
      const weapons = editor.getByRole('group', { name: 'Weapons', exact: true });
      expect(await weapons.textContent()).toContain('None yet.');
      // Add a row: its first field takes the focus; the GM types on with the keyboard.
      await weapons.getByRole('button', { name: 'Add to Weapons' }).click();
      await expect.poll(() => focused(page)).toBe('INPUT|Name *');
      await page.keyboard.type('Spear');
      // Sent without its Weapon Speed: refused beside that field, in the row it belongs to.
      await editor.getByRole('button', { name: 'Save changes' }).click();
      const row = weapons.getByRole('group', { name: 'Weapons 1' });
      const speed = row.getByLabel('Weapon Speed');
      await expect.poll(() => speed.getAttribute('aria-invalid')).toBe('true');
      expect(await row.locator('.field-error').textContent()).toBe('Fill in Weapon Speed.');
      expect(await status(page)).toContain('Weapons 1: Fill in Weapon Speed.');
      expect((await statsOf(e, 'ana')).weapons).toEqual([]);
      await speed.focus();
      await speed.selectOption('quick');
      expect(await row.locator('.field-error').count()).toBe(0);
      // A second row, then removed: the focus goes back to the Add button.
      await weapons.getByRole('button', { name: 'Add to Weapons' }).press('Enter');
      await expect.poll(() => weapons.getByRole('group', { name: 'Weapons 2' }).count()).toBe(1);
      await weapons.getByRole('button', { name: 'Remove Weapons 2' }).press('Enter');
      await expect.poll(() => focused(page)).toBe('BUTTON|');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add to Weapons');
      await shoot(page, 'sheet-weapons-1280.png');
      await editor.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => status(page)).toBe('Done: Ana changed.');
      expect((await statsOf(e, 'ana')).weapons).toEqual([{ name: 'Spear', speed: 'quick' }]);
    } finally {
      await ctx.close();
    }
    // On Ana's turn her phone offers it as the weapon of the planned Quick Attack.
    await command(e, { type: 'start' });
    await command(e, { type: 'plan', actor: 'ana', action: 'quick-attack' });
    await command(e, { type: 'plan', actor: 'ana', action: 'hide' });
    await command(e, { type: 'next' });
    const phone = await open(env.browser, e, e.players.ana!, PHONE);
    try {
      const take = phone.page.getByRole('region', { name: 'Take the planned action' });
      const weapon = take.getByLabel('Weapon');
      await expect.poll(() => weapon.locator('option').allTextContents()).toContain('Spear');
      await weapon.selectOption('Spear');
      await take.getByLabel('Target').selectOption('orc');
      await take.getByRole('button', { name: /^Take my action/ }).click();
      // The rules know the new weapon, and Ana holds it: her sheet was edited before the fight.
      await expect.poll(() => status(phone.page)).toBe('Done: Take my action for Ana.');
      await shoot(phone.page, 'sheet-weapon-player-360.png');
    } finally {
      await phone.ctx.close();
    }
  });

  it('opend6: a skill’s die code changed, refused beside its field in the rules’ words, and a skill added', async () => {
    const e = await create('opend6', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { skills: { dodge: '3D' } } },
      { id: 'thug', name: 'Thug', side: 'npc', hp: 10 },
    ]);
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      await page.locator('li.card[data-combatant="ana"] button.card-name').click();
      const tools = page.getByRole('region', { name: 'GM tools for Ana' });
      await tools.locator('summary').filter({ hasText: 'Edit' }).click();
      const editor = tools.getByRole('form', { name: 'Edit Ana' });
      const skills = editor.getByRole('group', { name: 'Skills', exact: true });
      const dodge = skills.getByRole('group', { name: 'Skills “dodge”' });
      expect(await dodge.getByLabel('Name').inputValue()).toBe('dodge');
      const code = dodge.getByLabel('Die code');
      expect(await code.inputValue()).toBe('3D');
      await code.fill('4d');
      await editor.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
      expect(await dodge.locator('.field-error').textContent()).toBe(
        'Die code: write a D6 die code like 3D, 3D+1 or 4D-1 (a capital D, pips after it).',
      );
      expect((await statsOf(e, 'ana')).skills).toEqual({ dodge: '3D' });
      await code.fill('4D+1');
      await skills.getByRole('button', { name: 'Add to Skills' }).click();
      const added = skills.getByRole('group', { name: 'Skills 2' });
      await added.getByLabel('Name').fill('search');
      await skills.getByRole('group', { name: 'Skills “search”' }).getByLabel('Die code').fill('2D+2');
      await shoot(page, 'sheet-skills-1280.png');
      await editor.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => status(page)).toBe('Done: Ana changed.');
      expect((await statsOf(e, 'ana')).skills).toEqual({ dodge: '4D+1', search: '2D+2' });
    } finally {
      await ctx.close();
    }
  });

  it('the add form shows the same rows: an NPC added with a skill', async () => {
    const e = await create('opend6', []);
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const add = page.getByRole('region', { name: 'Add combatants' });
      await add.getByLabel('Name', { exact: true }).fill('Raider');
      const skills = add.getByRole('group', { name: 'Skills', exact: true });
      await skills.getByRole('button', { name: 'Add to Skills' }).click();
      const row = skills.getByRole('group', { name: 'Skills 1' });
      await row.getByLabel('Name').fill('melee combat');
      await skills.getByRole('group', { name: 'Skills “melee combat”' }).getByLabel('Die code').fill('3D+1');
      // The rows fit the narrow column of the add form.
      await skills.screenshot({ path: join(shots, 'sheet-add-form-rows-1280.png') });
      const box = (await skills.boundingBox())!;
      const rowBox = (await skills.getByRole('group', { name: 'Skills “melee combat”' }).boundingBox())!;
      expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(box.x + box.width);
      await add.getByRole('button', { name: 'Add', exact: true }).click();
      await expect.poll(() => status(page)).toBe('Done: added 1 × Raider.');
      const r = (await api('GET', `/api/encounters/${e.id}`, e.gm)) as {
        state: { combatants: Record<string, { name: string; stats: { skills: Record<string, string> } }> };
      };
      const raider = Object.values(r.state.combatants).find((c) => c.name === 'Raider')!;
      expect(raider.stats.skills).toEqual({ 'melee combat': '3D+1' });
      await shoot(page, 'sheet-add-form-1280.png');
    } finally {
      await ctx.close();
    }
  });

  it('classic: a card dragged onto another’s place moves there in the order', async () => {
    const e = await create('classic', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
      { id: 'raven', name: 'Raven mage', side: 'npc', hp: 18 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ]);
    await command(e, { type: 'start', initiative: { ana: 20, raven: 15, orc: 10 } });
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    const order = () =>
      page
        .locator('[data-testid="combatants"] li.card')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-combatant')));
    try {
      // Ana is acting; the Orc (last) is dragged by its handle onto the Raven mage's place.
      expect(await order()).toEqual(['ana', 'raven', 'orc']);
      const orc = page.locator('li.card[data-combatant="orc"]');
      const raven = page.locator('li.card[data-combatant="raven"]');
      await orc.locator('.drag-handle').dragTo(raven);
      await expect.poll(() => status(page)).toBe('Done: Orc moved before Raven mage.');
      await expect.poll(order).toEqual(['ana', 'orc', 'raven']);
      expect(await orc.textContent()).toContain('Initiative16');
      // And down again, past the Raven mage.
      await orc.locator('.drag-handle').dragTo(raven);
      await expect.poll(() => status(page)).toBe('Done: Orc moved after Raven mage.');
      await expect.poll(order).toEqual(['ana', 'raven', 'orc']);
      expect(await orc.textContent()).toContain('Initiative14');
      // The keyboard's way stays: Alt+↑ on the selected card.
      await orc.locator('button.card-name').click();
      await page.locator('body').press('Alt+ArrowUp');
      await expect.poll(order).toEqual(['ana', 'orc', 'raven']);
      await shoot(page, 'sheet-drag-order-1280.png');
    } finally {
      await ctx.close();
    }
  });
});
