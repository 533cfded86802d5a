import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { drawn, endToEnd, repo } from './harness.js';

/**
 * End to end, the home page and the tracker's tools: the combatant library (kept across a reload), adding
 * several combatants at once in an NPC group, exporting the scenario (JSON and YAML) and importing it on the
 * home page, and the `k` / `1`–`9` shortcuts that select combatants.
 */
const env = endToEnd();

async function clock(page: Page): Promise<string> {
  return (await page.getByTestId('clock').textContent()) ?? '';
}

async function status(page: Page): Promise<string> {
  return (await page.getByTestId('status').textContent()) ?? '';
}

async function createEncounter(page: Page, name: string, ruleset = 'classic'): Promise<string> {
  await page.goto(`${env.server.url}/`);
  const form = page.getByRole('region', { name: 'New encounter' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Ruleset').selectOption(ruleset);
  await form.getByRole('button', { name: 'Create encounter' }).click();
  await page.waitForURL(/\/e\/[^/?]+\?token=/);
  await drawn(page);
  await expect.poll(() => clock(page)).toContain('Not started');
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
}

interface NewCombatant {
  name: string;
  side?: 'pc' | 'npc';
  hp?: number;
  count?: number;
  group?: string;
}

async function fillForm(page: Page, c: NewCombatant): Promise<void> {
  const form = page.getByRole('region', { name: 'Add combatants' });
  await form.getByLabel('Name', { exact: true }).fill(c.name);
  await form.getByLabel('Side').selectOption(c.side ?? 'npc');
  await form.getByLabel('HP').fill(c.hp === undefined ? '' : String(c.hp));
  await form.getByLabel('How many').fill(String(c.count ?? 1));
  await form.getByLabel('NPC group').fill(c.group ?? '');
}

async function addCombatant(page: Page, c: NewCombatant): Promise<void> {
  await fillForm(page, c);
  await page
    .getByRole('region', { name: 'Add combatants' })
    .getByRole('button', { name: 'Add', exact: true })
    .click();
  await expect.poll(() => status(page)).toBe(`Done: added ${c.count ?? 1} × ${c.name}.`);
}

/** The cards of the GM tracker, in order: id and the text of the card's name button. */
async function cards(page: Page): Promise<{ id: string; name: string }[]> {
  const items = page.getByTestId('combatants').locator('li.card');
  const out: { id: string; name: string }[] = [];
  for (let i = 0; i < (await items.count()); i++) {
    const li = items.nth(i);
    out.push({
      id: (await li.getAttribute('data-combatant')) ?? '',
      name: ((await li.getByRole('button').first().textContent()) ?? '').trim(),
    });
  }
  return out;
}

/** The combatant whose card is pressed (selected); exactly one must be. */
async function selectedId(page: Page): Promise<string> {
  const pressed = page.getByTestId('combatants').getByRole('button', { pressed: true });
  const n = await pressed.count();
  if (n !== 1) return `${n} selected`;
  return (await pressed.locator('xpath=ancestor::li[1]').getAttribute('data-combatant')) ?? '';
}

async function withContext<T>(fn: (ctx: BrowserContext, page: Page) => Promise<T>): Promise<T> {
  const ctx = await env.browser.newContext({
    viewport: { width: 1440, height: 1000 },
    acceptDownloads: true,
  });
  try {
    return await fn(ctx, await ctx.newPage());
  } finally {
    await ctx.close();
  }
}

describe('home page and tracker tools end to end', () => {
  it('saves a combatant to the library, keeps it across a reload, adds it from there', async () => {
    await withContext(async (_ctx, page) => {
      await createEncounter(page, 'Library');
      const panel = page.getByRole('region', { name: 'Add combatants' });
      await fillForm(page, { name: 'Ogre Chief', side: 'npc', hp: 42 });
      await panel.getByRole('button', { name: 'Save to library' }).click();
      await expect.poll(() => status(page)).toBe('Done: saved Ogre Chief to the library.');
      // Saved, not added.
      expect(await page.getByTestId('combatants').locator('li.card').count()).toBe(0);

      await page.reload();
      await expect.poll(() => clock(page)).toContain('Not started');
      const fromLibrary = panel.getByRole('button', { name: 'Add Ogre Chief from the library' });
      await expect.poll(() => fromLibrary.count()).toBe(1);
      await expect.poll(() => panel.getByLabel('Name', { exact: true }).inputValue()).toBe('');
      await fromLibrary.click();
      await expect.poll(() => status(page)).toBe('Done: added 1 × Ogre Chief.');
      await expect.poll(() => cards(page)).toEqual([{ id: 'ogre-chief', name: 'NPC Ogre Chief' }]);
      const card = page.getByTestId('combatants').locator('li.card[data-combatant="ogre-chief"]');
      expect(await card.locator('dl.resources').textContent()).toContain('HP42/42');

      // The library belongs to the browser: another encounter offers it too, and it can be removed.
      await createEncounter(page, 'Library 2');
      await expect.poll(() => fromLibrary.count()).toBe(1);
      await panel.getByRole('button', { name: 'Remove Ogre Chief from the library' }).click();
      await expect.poll(() => fromLibrary.count()).toBe(0);
      await page.reload();
      await expect.poll(() => clock(page)).toContain('Not started');
      expect(await fromLibrary.count()).toBe(0);
    });
  });

  it('adds several at once: numbered names, one NPC group, unique ids', async () => {
    await withContext(async (_ctx, page) => {
      await createEncounter(page, 'Many');
      // An empty roster says where combatants come from (classic has ready ones under Examples).
      const empty = page.getByTestId('no-combatants');
      expect(await empty.textContent()).toMatch(/under Add combatants .*How many.*Examples.*JSON file/);
      await addCombatant(page, { name: 'Goblin', hp: 7, count: 3, group: 'Ambushers' });
      await expect.poll(() => empty.count()).toBe(0);
      // Before the start, the palette's reason names the button that starts the fight.
      await expect
        .poll(() => page.getByTestId('palette-reason').textContent())
        .toContain('press Roll initiative');
      expect(await page.getByRole('button', { name: /^Roll initiative/ }).count()).toBe(1);
      await expect
        .poll(() => cards(page))
        .toEqual([
          { id: 'goblin-1', name: 'NPC Goblin 1 · Ambushers' },
          { id: 'goblin-2', name: 'NPC Goblin 2 · Ambushers' },
          { id: 'goblin-3', name: 'NPC Goblin 3 · Ambushers' },
        ]);
      for (const id of ['goblin-1', 'goblin-2', 'goblin-3']) {
        const card = page.getByTestId('combatants').locator(`li.card[data-combatant="${id}"]`);
        expect(await card.locator('dl.resources').textContent()).toContain('HP7/7');
      }
      // Without a group name, the NPCs are grouped under their own name; ids never collide, and a second
      // wave's numbers go on where the first stopped (names stay distinct).
      await addCombatant(page, { name: 'Goblin', hp: 5, count: 2 });
      const all = await cards(page);
      expect(all).toHaveLength(5);
      expect(new Set(all.map((c) => c.id)).size).toBe(5);
      expect(all.slice(3).map((c) => c.name)).toEqual(['NPC Goblin 4 · Goblin', 'NPC Goblin 5 · Goblin']);
      // A PC added alone keeps its name and has no group.
      await addCombatant(page, { name: 'Ana', side: 'pc', hp: 20 });
      expect((await cards(page)).at(-1)).toEqual({ id: 'ana', name: 'PC Ana' });
    });
  });

  it('exports the scenario as JSON and YAML; importing either on the home page recreates it', async () => {
    await withContext(async (_ctx, page) => {
      const id = await createEncounter(page, 'Exported fight', 'tara-corax');
      await addCombatant(page, { name: 'Ana', side: 'pc', hp: 20 });
      await addCombatant(page, { name: 'Wolf', hp: 9, count: 2 });
      await page.locator('body').press('i');
      await expect.poll(() => clock(page)).toContain('Round 1');
      const before = await cards(page);
      expect(before).toHaveLength(3);
      const headlineBefore = await clock(page);

      const share = page.getByRole('region', { name: 'Share and export' });
      const [jsonFile] = await Promise.all([
        page.waitForEvent('download'),
        share.getByRole('button', { name: 'Export JSON' }).click(),
      ]);
      expect(jsonFile.suggestedFilename()).toBe(`${id}.json`);
      const jsonPath = await jsonFile.path();
      const scenario = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
        name: string;
        ruleset: string;
        commands: { command: { type: string } }[];
      };
      expect(scenario.name).toBe('Exported fight');
      expect(scenario.ruleset).toBe('tara-corax');
      expect(scenario.commands.map((c) => c.command.type)).toEqual([
        'add-combatant',
        'add-combatant',
        'add-combatant',
        'start',
      ]);

      const [yamlFile] = await Promise.all([
        page.waitForEvent('download'),
        share.getByRole('button', { name: 'Export YAML' }).click(),
      ]);
      expect(yamlFile.suggestedFilename()).toBe(`${id}.yaml`);
      const yaml = readFileSync(await yamlFile.path(), 'utf8');
      expect(yaml.trimStart().startsWith('{')).toBe(false);
      expect(yaml).toMatch(/^name: .*Exported fight/m);
      expect(yaml).toMatch(/^ruleset: .*tara-corax/m);
      for (const name of ['Ana', 'Wolf 1', 'Wolf 2']) expect(yaml).toContain(name);

      await page.goto(`${env.server.url}/`);
      await page
        .getByRole('region', { name: 'New encounter' })
        .getByLabel('Import scenario (JSON or YAML)')
        .setInputFiles(jsonPath);
      await page.waitForURL((u) => u.pathname.startsWith('/e/') && !u.pathname.includes(id));
      await drawn(page);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Exported fight');
      await expect.poll(() => cards(page)).toEqual(before);
      expect(await clock(page)).toBe(headlineBefore);

      // The YAML export imports the same way (scenario files are JSON or YAML).
      await page.goto(`${env.server.url}/`);
      await page
        .getByRole('region', { name: 'New encounter' })
        .getByLabel('Import scenario (JSON or YAML)')
        .setInputFiles({ name: `${id}.yaml`, mimeType: 'application/yaml', buffer: Buffer.from(yaml) });
      await page.waitForURL((u) => u.pathname.startsWith('/e/') && !u.pathname.includes(id));
      await drawn(page);
      await expect.poll(() => cards(page)).toEqual(before);
      expect(await clock(page)).toBe(headlineBefore);

      // All three encounters are now listed on the home page.
      await page.goto(`${env.server.url}/`);
      const listed = page.getByTestId('encounters').getByRole('link', { name: 'Exported fight' });
      await expect.poll(() => listed.count()).toBe(3);
    });
  });

  it('waits for the rulesets before Create can be pressed, and says so when they cannot be loaded', async () => {
    await withContext(async (_ctx, page) => {
      // The catalog held back: the form is drawn, its button waits (a quick click was refused before).
      let release = () => {};
      const held = new Promise<void>((ok) => {
        release = ok;
      });
      await page.route('**/api/rulesets', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${env.server.url}/`);
      const form = page.getByRole('region', { name: 'New encounter' });
      const create = form.getByRole('button', { name: 'Create encounter' });
      await expect.poll(() => create.isDisabled()).toBe(true);
      expect(await form.getByLabel('Ruleset').textContent()).toBe('Loading rulesets…');
      release();
      await expect.poll(() => create.isEnabled()).toBe(true);
      await page.unroute('**/api/rulesets');

      // The catalog cannot be had: the page says why and what to do, the button stays off.
      await page.route('**/api/rulesets', (route) => route.abort('connectionrefused'));
      await page.reload();
      await expect
        .poll(() => page.getByRole('alert').first().textContent())
        .toMatch(/^The rulesets could not be loaded \(.+\)\. Reload the page to try again\.$/);
      expect(await create.isDisabled()).toBe(true);
    });
  });

  it('shows why an unreadable scenario file is refused', async () => {
    await withContext(async (_ctx, page) => {
      await page.goto(`${env.server.url}/`);
      await page
        .getByRole('region', { name: 'New encounter' })
        .getByLabel('Import scenario (JSON or YAML)')
        .setInputFiles({
          name: 'broken.json',
          mimeType: 'application/json',
          buffer: Buffer.from('{"nope":'),
        });
      await expect
        .poll(() => page.getByRole('region', { name: 'New encounter' }).getByRole('alert').textContent())
        .toMatch(/^The scenario could not be imported: .+/);
      expect(new URL(page.url()).pathname).toBe('/');
    });
  });

  it('imports an Improved Initiative export as a new classic encounter, what did not map in a GM note', async () => {
    await withContext(async (_ctx, page) => {
      await page.goto(`${env.server.url}/`);
      const file = join(repo, 'examples/improved-initiative/improved-initiative.json');
      await page
        .getByRole('region', { name: 'New encounter' })
        .getByLabel('Import scenario (JSON or YAML)')
        .setInputFiles({
          name: 'improved-initiative.json',
          mimeType: 'application/json',
          buffer: readFileSync(file),
        });
      await page.waitForURL(/\/e\/[^/?]+\?token=/);
      await drawn(page);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Goblin ambush');
      await expect
        .poll(() => cards(page).then((c) => c.map((x) => x.name)))
        .toEqual(['NPC Goblin 1', 'NPC Goblin 2']);
      await expect
        .poll(() => page.getByTestId('log').textContent())
        .toMatch(/GM note: Imported from Improved Initiative\. Not mapped: .*Fire Bolt/);
    });
  });

  it('asks which saved encounter to import when an Improved Initiative export holds several', async () => {
    await withContext(async (_ctx, page) => {
      await page.goto(`${env.server.url}/`);
      const data = JSON.parse(
        readFileSync(join(repo, 'examples/improved-initiative/improved-initiative.json'), 'utf8'),
      ) as Record<string, unknown>;
      const ambush = data['SavedEncounters.ambush'] as { Combatants: unknown[] };
      data['SavedEncounters.camp'] = {
        ...ambush,
        Id: 'camp',
        Name: 'Ogre camp',
        Combatants: ambush.Combatants.slice(0, 1),
      };
      const form = page.getByRole('region', { name: 'New encounter' });
      await form.getByLabel('Import scenario (JSON or YAML)').setInputFiles({
        name: 'two-fights.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(data)),
      });
      const pick = form.getByRole('group', { name: 'Which saved encounter' });
      await expect
        .poll(() => pick.getByRole('option').allTextContents())
        .toEqual(['Goblin ambush', 'Ogre camp']);
      expect(await pick.textContent()).toContain('two-fights.json holds 2 saved encounters: which one?');
      expect(new URL(page.url()).pathname).toBe('/');
      await pick.getByLabel('Saved encounter').selectOption('Ogre camp');
      await pick.getByRole('button', { name: 'Import this encounter' }).click();
      await page.waitForURL(/\/e\/[^/?]+\?token=/);
      await drawn(page);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Ogre camp');
      await expect.poll(() => cards(page).then((c) => c.length)).toBe(1);
    });
  });

  it('selects combatants with k and 1–9, not while typing in a field', async () => {
    await withContext(async (_ctx, page) => {
      await createEncounter(page, 'Keys');
      await addCombatant(page, { name: 'Ana', side: 'pc', hp: 20 });
      await addCombatant(page, { name: 'Bo', side: 'pc', hp: 20 });
      await addCombatant(page, { name: 'Cy', side: 'npc', hp: 9 });
      await expect.poll(() => cards(page).then((c) => c.map((x) => x.id))).toEqual(['ana', 'bo', 'cy']);
      const body = page.locator('body');
      const gmTools = (name: string) => page.getByRole('region', { name: `GM tools for ${name}` });

      // Before the fight the first combatant is selected.
      await expect.poll(() => selectedId(page)).toBe('ana');
      await body.press('3');
      await expect.poll(() => selectedId(page)).toBe('cy');
      expect(await gmTools('Cy').count()).toBe(1);
      expect(await page.getByRole('region', { name: 'Actions of Cy' }).count()).toBe(1);
      await body.press('k');
      await expect.poll(() => selectedId(page)).toBe('bo');
      await body.press('k');
      await expect.poll(() => selectedId(page)).toBe('ana');
      // k wraps around from the first to the last.
      await body.press('k');
      await expect.poll(() => selectedId(page)).toBe('cy');
      await body.press('1');
      await expect.poll(() => selectedId(page)).toBe('ana');
      // A number beyond the roster changes nothing.
      await body.press('9');
      await body.press('2');
      await expect.poll(() => selectedId(page)).toBe('bo');
      expect(await gmTools('Bo').count()).toBe(1);

      // Typing a digit into a field does not select.
      const amount = gmTools('Bo').getByLabel('Amount');
      await amount.click();
      await page.keyboard.press('3');
      expect(await amount.inputValue()).toBe('3');
      await page.keyboard.press('k');
      expect(await selectedId(page)).toBe('bo');
      await amount.blur();

      // Once the fight runs, the numbers follow the turn order (rolled), 1 being the acting combatant.
      await body.press('i');
      await expect.poll(() => clock(page)).toContain('Round 1');
      const acting = page.getByTestId('combatants').locator('li.card.current');
      await expect.poll(() => acting.count()).toBe(1);
      const current = (await acting.getAttribute('data-combatant')) ?? '';
      const order = (await cards(page)).map((c) => c.id);
      expect(order).toHaveLength(3);
      expect(order[0]).toBe(current);
      // The roll starts a turn: the selection follows the acting combatant. Pick a position that holds
      // someone else.
      await expect.poll(() => selectedId(page)).toBe(current);
      const other = 1;
      await body.press(String(other + 1));
      await expect.poll(() => selectedId(page)).toBe(order[other]);
      await body.press('1');
      await expect.poll(() => selectedId(page)).toBe(current);
      await body.press('k');
      await expect.poll(() => selectedId(page)).toBe(order[2]);
    });
  });
});
