import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd, shots } from './harness.js';

/**
 * End to end, the GM's table as a GM runs a session: who is acting (the selection follows the turn, the
 * target belongs to its actor, shortcuts work on a focused list), editing the fight (HP typed on the card,
 * temporary HP, rename, reveal, remove, an add form that forgets group and hidden), conditions with every
 * duration and their time left, the table screen, the player's phone, words a person reads, the layout
 * of a laptop screen, and hostile text (right-to-left overrides, unbroken names, huge notes). At the three
 * screen sizes of the issue: 1280×720 (GM), 360×740 (player), 1920×1080 (table).
 */
const env = endToEnd();

const LAPTOP = { width: 1280, height: 720 };
const PHONE = { width: 360, height: 740 };
const TABLE = { width: 1920, height: 1080 };

interface Created {
  id: string;
  gm: string;
  table: string;
  players: Record<string, string>;
}

const api = apiOf(() => env.server);

async function create(
  ruleset: string,
  combatants: Record<string, unknown>[],
  initiative?: Record<string, number>,
  name = 'Session',
): Promise<Created> {
  const r = (await api('POST', '/api/encounters', null, {
    name,
    ruleset,
    seed: 3,
    combatants,
  })) as {
    encounter: { id: string };
    tokens: { gm: string; table: string; players: Record<string, string> };
  };
  const created = { id: r.encounter.id, ...r.tokens };
  if (initiative) await command(created, { type: 'start', initiative });
  return created;
}

/** A tempo fight of two: Ana (PC, with a player's link) and a Wolf. */
const TEMPO_PAIR = [
  { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { speed: 6 } },
  { id: 'wolf', name: 'Wolf', side: 'npc', hp: 11, stats: { speed: 8 } },
];

async function command(e: Created, cmd: Record<string, unknown>): Promise<void> {
  await api('POST', `/api/encounters/${e.id}/commands`, e.gm, { command: cmd });
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

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent()) ?? '';
const status = (page: Page) => text(page, 'status');
const actor = (page: Page) => text(page, 'current-actor');
/** The Mark the headline's clock shows (tara-corax), NaN when it shows none. */
const clockMark = async (page: Page) =>
  Number(/Mark (\d+)/.exec(await text(page, 'clock'))?.[1] ?? Number.NaN);

async function shoot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: join(shots, file) });
}

/** Ana (PC), a Raven mage and an Orc in classic, started in that order. */
async function trio(): Promise<Created> {
  return create(
    'classic',
    [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
      { id: 'raven', name: 'Raven mage', side: 'npc', hp: 18 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ],
    { ana: 20, raven: 15, orc: 10 },
  );
}

describe('the GM’s table, end to end', () => {
  it('who is acting: the selection follows the turn unless pinned; the target is the actor’s own', async () => {
    const e = await trio();
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const palette = page.locator('section.palette');
      await expect.poll(() => palette.getAttribute('aria-label')).toContain('Ana');
      // Select the Orc, then Next: the tools follow the turn to the Raven mage.
      await page.locator('body').press('3');
      await expect.poll(() => palette.getAttribute('aria-label')).toContain('Orc');
      await page.locator('body').press('n');
      await expect.poll(() => actor(page)).toContain('Raven mage');
      await expect.poll(() => palette.getAttribute('aria-label')).toContain('Raven mage');
      await expect.poll(() => text(page, 'acting-for')).toContain('Acting: Raven mage');
      // The acting card says so in its name ("· acting" comes with its class), and only that card.
      const cardNames = page.getByTestId('combatants').locator('button.card-name');
      expect(await cardNames.filter({ has: page.locator('.now-tag') }).count()).toBe(3);
      expect(await page.getByRole('button', { name: /· acting/ }).count()).toBe(1);
      expect(await page.getByRole('button', { name: /^NPC Raven mage · acting$/ }).count()).toBe(1);
      // The column names the actor once, in a line that stays in sight as it scrolls; the panels' headings
      // do not repeat it, and "Other commands" says whom it acts for in its button's name.
      expect(await palette.locator('h2').textContent()).toBe('Actions');
      expect(await page.locator('section.gm-tools h2').textContent()).toBe('GM tools');
      expect(await page.getByTestId('acting-for').evaluate((el) => getComputedStyle(el).position)).toBe(
        'sticky',
      );
      const other = page.getByRole('form', { name: 'Other commands' });
      expect(await other.locator('h2').textContent()).toBe('Other commands');
      // The form follows the turn one render after the headline (`LaterTools`).
      await expect.poll(() => other.getByRole('button', { name: / for Raven mage$/ }).count()).toBe(1);
      await other.locator('button[type="submit"]').scrollIntoViewIfNeeded();
      expect(await page.getByTestId('acting-for').isVisible()).toBe(true);
      const bar = await page.getByTestId('acting-for').boundingBox();
      const wide = page.locator('.tracker-grid > .col.wide');
      expect(await wide.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      const column = await wide.boundingBox();
      expect(Math.abs(bar!.y - column!.y)).toBeLessThan(2);
      // The target never offers the actor; chosen from the list, it keeps the focus, and `n` still advances.
      const target = palette.getByLabel('Target');
      // (Every active combatant has an option; the actor's is hidden and disabled, so a turn changes two
      // attributes instead of taking one option out and putting another in.)
      const offered = 'option:not([hidden]):not([disabled])';
      expect(await target.locator(offered).allTextContents()).not.toContain('Raven mage');
      expect(await target.locator(offered).allTextContents()).toContain('Orc');
      await target.selectOption('orc');
      await target.focus();
      await page.keyboard.press('n');
      await expect.poll(() => actor(page)).toContain('Orc');
      // The next actor starts with no target (the Raven mage's choice was the Orc itself).
      await expect.poll(() => palette.getAttribute('aria-label')).toContain('Orc');
      expect(await palette.getByLabel('Target').inputValue()).toBe('');
      expect(await palette.getByLabel('Target').locator(offered).allTextContents()).not.toContain('Orc');
      // An action's form offers the targets of this actor: from the Raven mage's turn to the Orc's, the
      // Attack button was not drawn again, and its form still must not offer the Orc itself.
      await palette.getByRole('button', { name: 'Attack with details' }).click();
      const attack = page.getByRole('form', { name: /^Attack for / });
      await attack.getByLabel('Target').waitFor();
      const targets = await attack.getByLabel('Target').locator('option').allTextContents();
      expect(targets).toContain('Ana');
      expect(targets).not.toContain('Orc');
      await attack.getByLabel('Target').press('Escape');
      await expect.poll(() => attack.count()).toBe(0);
      // Pinned, a selection stays when the turn moves on.
      await page.locator('body').press('1');
      await page.locator('body').press('p');
      await page.locator('body').press('n');
      await expect.poll(() => actor(page)).toContain('Ana');
      await page.locator('body').press('n');
      await expect.poll(() => actor(page)).toContain('Raven mage');
      expect(await palette.getAttribute('aria-label')).toContain('Ana');
      expect(await page.getByRole('button', { name: /^Pinned/ }).count()).toBe(1);
      await shoot(page, 'table-who-acts-1280.png');
    } finally {
      await ctx.close();
    }
  });

  it('another combatant selected starts afresh: no target, the folds closed, nothing typed in the GM tools or chosen in Other commands', async () => {
    const e = await trio();
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const palette = page.locator('section.palette');
      const tools = page.locator('section.gm-tools');
      const fold = palette.getByTestId('unavailable-actions');
      const editor = tools.locator('details.editor');
      // The Orc (not acting): its actions wait, folded; unfold them, pick a target, type an amount, open the editor.
      await page.locator('body').press('3');
      await expect.poll(() => palette.getAttribute('aria-label')).toContain('Orc');
      await fold.locator('summary').click();
      await expect.poll(() => fold.getAttribute('open')).not.toBeNull();
      await palette.getByLabel('Target').selectOption('ana');
      await tools.getByLabel('Amount').fill('5');
      await tools.getByRole('textbox', { name: 'Condition' }).fill('Frightened');
      await tools.getByLabel('Turn', { exact: true }).fill('3');
      const other = page.getByRole('form', { name: 'Other commands' });
      const firstCommand = await other.getByLabel('Command').inputValue();
      const lastCommand = await other.getByLabel('Command').locator('option').last().getAttribute('value');
      expect(lastCommand).not.toBe(firstCommand);
      await other.getByLabel('Command').selectOption(lastCommand!);
      await editor.locator('summary').click();
      await expect.poll(() => editor.getByLabel('Name').count()).toBe(1);
      // The Raven mage: nothing of that is carried over.
      await page.locator('body').press('2');
      await expect.poll(() => palette.getAttribute('aria-label')).toContain('Raven mage');
      expect(await fold.getAttribute('open')).toBeNull();
      expect(await palette.getByLabel('Target').inputValue()).toBe('');
      expect(await tools.getByLabel('Amount').inputValue()).toBe('');
      expect(await tools.getByRole('textbox', { name: 'Condition' }).inputValue()).toBe('');
      expect(await tools.getByLabel('Turn', { exact: true }).inputValue()).toBe('1');
      expect(await other.getByLabel('Command').inputValue()).toBe(firstCommand);
      expect(await editor.getAttribute('open')).toBeNull();
      // Back to the Orc: it starts afresh too, as if never selected.
      await page.locator('body').press('3');
      await expect.poll(() => palette.getAttribute('aria-label')).toContain('Orc');
      expect(await palette.getByLabel('Target').inputValue()).toBe('');
      expect(await fold.getAttribute('open')).toBeNull();
      expect(await tools.getByLabel('Amount').inputValue()).toBe('');
    } finally {
      await ctx.close();
    }
  });

  it('an action with a required field opens its form; Enter sends it', async () => {
    const e = await trio();
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const other = page.getByRole('form', { name: 'Other commands' });
      await other.getByLabel('Command').selectOption({ label: 'Ready an action' });
      // Labels, not field names; the action to ready is picked from the catalog by name.
      await other.getByLabel('Action to ready').selectOption({ label: 'Attack' });
      await other.getByLabel('Trigger').fill('the orc moves');
      await other.getByLabel('Trigger').press('Enter');
      await expect.poll(() => status(page)).toBe('Done: Ready an action for Ana.');
      // A palette action whose details are optional sends on a click; `⋯` opens its form.
      await page.getByRole('button', { name: 'Attack with details' }).click();
      const form = page.getByRole('form', { name: /^Attack for / });
      await form.getByLabel('Target').selectOption({ label: 'Orc' });
      await form.getByLabel('Roll (dice)').fill('1d20+5');
      await form.getByLabel('Roll (dice)').press('Enter');
      await expect.poll(() => status(page)).toMatch(/^(Done: .+: Attack\.|Refused: )/);
      // The log renders just after the rest of the page.
      await expect.poll(() => page.getByTestId('log').textContent()).toContain('Orc');
    } finally {
      await ctx.close();
    }
  });

  it('editing the fight: HP typed on the card, temporary HP, rename, reveal, remove; the add form forgets', async () => {
    const e = await create('classic', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
      { id: 'spy', name: 'Spy', side: 'npc', hp: 10, hidden: true },
    ]);
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const ana = page.locator('li.card[data-combatant="ana"]');
      await ana.getByRole('button', { name: /^HP of Ana/ }).click();
      await page.keyboard.type('-7');
      await page.keyboard.press('Enter');
      await expect.poll(() => ana.textContent()).toContain('17/24');
      await ana.getByRole('button', { name: /^HP of Ana/ }).click();
      await page.keyboard.type('+5');
      await page.keyboard.press('Enter');
      await expect.poll(() => ana.textContent()).toContain('22/24');
      await ana.getByRole('button', { name: /^HP of Ana/ }).click();
      await page.keyboard.type('t4');
      await page.keyboard.press('Enter');
      await expect.poll(() => ana.textContent()).toContain('22/24 +4 temp');
      // An empty amount is no damage: the buttons wait for a number.
      const tools = page.getByRole('region', { name: 'GM tools for Ana' });
      expect(await tools.getByRole('button', { name: 'Damage' }).isDisabled()).toBe(true);
      // Rename and a new max HP from the editor.
      await tools.locator('summary').filter({ hasText: 'Edit' }).click();
      const editor = tools.getByRole('form', { name: 'Edit Ana' });
      await editor.getByLabel('Name', { exact: true }).fill('Ana the Bold');
      await editor.getByLabel('Max HP').fill('30');
      await editor.getByLabel('Initiative').fill('3');
      await editor.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => ana.textContent()).toContain('Ana the Bold');
      await expect.poll(() => ana.textContent()).toContain('/30');
      // Reveal the hidden spy, then remove it.
      await page
        .locator('li.card[data-combatant="spy"]')
        .getByRole('button', { pressed: false })
        .first()
        .click();
      const spyTools = page.getByRole('region', { name: 'GM tools for Spy' });
      await spyTools.locator('summary').filter({ hasText: 'Edit' }).click();
      await spyTools.getByRole('button', { name: 'Reveal to players' }).click();
      await expect
        .poll(() => page.locator('li.card[data-combatant="spy"]').textContent())
        .not.toContain('hidden');
      await spyTools.getByRole('button', { name: 'Remove from the fight…' }).click();
      await spyTools.getByRole('button', { name: 'Remove Spy for good' }).click();
      await expect.poll(() => page.locator('li.card[data-combatant="spy"]').count()).toBe(0);
      // The add form does not keep a group or "hidden" from one add to the next.
      const add = page.getByRole('region', { name: 'Add combatants' });
      await add.getByLabel('Name', { exact: true }).fill('Scout');
      await add.getByLabel('NPC group').fill('Ambushers');
      await add.getByLabel('Hidden from players').check();
      await add.getByRole('button', { name: 'Add', exact: true }).click();
      await expect.poll(() => status(page)).toBe('Done: added 1 × Scout.');
      expect(await add.getByLabel('NPC group').inputValue()).toBe('');
      expect(await add.getByLabel('Hidden from players').isChecked()).toBe(false);
      // Stats are the ruleset's fields, by label, not JSON.
      expect(await add.getByRole('group', { name: 'Stats' }).getByLabel('Initiative').count()).toBe(1);
      await shoot(page, 'table-editing-1280.png');
    } finally {
      await ctx.close();
    }
  });

  it('conditions: N rounds, a named combatant’s Nth turn, and the time left on the card', async () => {
    const e = await trio();
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const tools = page.getByRole('region', { name: 'GM tools for Ana' });
      const form = tools.getByRole('form', { name: 'Add a condition to Ana' });
      await form.getByLabel('Condition').fill('Blessed');
      await form.getByLabel('Lasts').selectOption('rounds');
      await form.getByLabel('Rounds').fill('3');
      await form.getByRole('button', { name: 'Add condition' }).click();
      const ana = page.locator('li.card[data-combatant="ana"]');
      await expect
        .poll(() => ana.textContent())
        .toContain('Blessed until the end of round 3 (2 more rounds)');
      await form.getByLabel('Condition').fill('Marked');
      await form.getByLabel('Lasts').selectOption('turn-end');
      await form.getByLabel('Turn').fill('2');
      await form.getByLabel('of').selectOption({ label: 'Orc' });
      await form.getByRole('button', { name: 'Add condition' }).click();
      await expect
        .poll(() => ana.textContent())
        .toContain("Marked until the end of Orc's turn, 2 turns from now");
    } finally {
      await ctx.close();
    }
  });

  it('the table screen: the round’s order at its last turn, status and conditions, no past turn during a hidden one', async () => {
    const e = await create(
      'classic',
      [
        { id: 'orc', name: 'Orc', side: 'npc', hp: 20 },
        { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
        { id: 'lurker', name: 'Lurker', side: 'npc', hp: 9, hidden: true },
        { id: 'bren', name: 'Bren', side: 'pc', hp: 30 },
      ],
      { ana: 20, lurker: 15, bren: 12, orc: 5 },
    );
    await command(e, { type: 'damage', combatant: 'orc', amount: 12 });
    await command(e, { type: 'add-effect', target: 'bren', name: 'Prone', duration: { kind: 'indefinite' } });
    await command(e, { type: 'next' }); // the lurker's turn, which the table may not see
    const { ctx, page } = await open(env.browser, e, e.table, TABLE);
    try {
      await expect.poll(() => text(page, 'clock')).toContain('Round 1');
      expect(await actor(page)).not.toContain('Ana');
      expect(await text(page, 'clock')).not.toContain('Ana');
      await command(e, { type: 'next' });
      await command(e, { type: 'next' }); // the Orc, last of the round
      await expect.poll(() => actor(page)).toContain('Orc');
      const order = page.getByRole('region', { name: 'Order' });
      const ids = await order
        .locator('ol.order > li')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-combatant')));
      expect(ids).toEqual(['ana', 'bren', 'orc']);
      const orcLine = order.locator('li[data-combatant="orc"]');
      expect(await orcLine.textContent()).toContain('bloodied');
      expect(await orcLine.textContent()).not.toContain('8/20');
      expect(await order.locator('li[data-combatant="bren"]').textContent()).toContain('30/30 HP');
      expect(await order.locator('li[data-combatant="bren"]').textContent()).toContain('Prone until removed');
      // The timeline fills the screen beside the order (its own column, two thirds of the screen and more, so
      // the whole of it shows under the headline: layout.test.ts); the headline is big enough for two metres.
      const [svgWidth, columnWidth] = await page
        .getByTestId('timeline')
        .evaluate((el) => [
          el.querySelector('svg')!.getBoundingClientRect().width,
          el.getBoundingClientRect().width,
        ]);
      expect(svgWidth).toBeGreaterThanOrEqual(columnWidth! * 0.95);
      expect(svgWidth).toBeGreaterThan((1920 * 2) / 3);
      const size = await page
        .getByTestId('clock')
        .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
      expect(size).toBeGreaterThanOrEqual(48);
      await shoot(page, 'table-screen-1920.png');
      // The GM's other table link shows NPCs' HP as numbers.
      await page.goto(
        `${env.server.url}/e/${encodeURIComponent(e.id)}?token=${encodeURIComponent(e.table)}&hp=all`,
      );
      await drawn(page);
      await expect
        .poll(() =>
          page.getByRole('region', { name: 'Order' }).locator('li[data-combatant="orc"]').textContent(),
        )
        .toContain('8/20 HP');
    } finally {
      await ctx.close();
    }
  });

  it('the player’s phone: available actions first, their sheet, everyone’s status, no command numbers', async () => {
    const e = await trio();
    await command(e, { type: 'damage', combatant: 'orc', amount: 3 });
    await command(e, { type: 'undo' });
    const { ctx, page } = await open(env.browser, e, e.players.ana!, PHONE);
    try {
      const palette = page.locator('section.palette');
      await expect.poll(() => palette.locator('button.action').count()).toBeGreaterThan(0);
      expect(await palette.locator('button.action').first().getAttribute('class')).toBe('action');
      // The unavailable ones wait, folded, below.
      expect(await palette.getByTestId('unavailable-actions').getAttribute('open')).toBeNull();
      const everyone = page.getByRole('region', { name: 'Everyone' });
      expect(await everyone.textContent()).toContain('Raven mage');
      const log = await text(page, 'log');
      expect(log).not.toMatch(/command \d+/);
      expect(log).toContain('Undone');
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(PHONE.width);
      await shoot(page, 'table-player-360.png');
    } finally {
      await ctx.close();
    }
  });

  it('words: undo says what it undid; options have labels, not field names', async () => {
    const e = await trio();
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      await page
        .locator('li.card[data-combatant="orc"]')
        .getByRole('button', { name: /^HP of Orc/ })
        .click();
      await page.keyboard.type('-4');
      await page.keyboard.press('Enter');
      await expect.poll(() => status(page)).toBe('Done: 4 damage to Orc.');
      await page.locator('body').press('u');
      await expect.poll(() => status(page)).toMatch(/^Done: undo “Orc: HP 15 → 11/);
      await page.goto(`${env.server.url}/`);
      const form = page.getByRole('region', { name: 'New encounter' });
      await form.getByLabel('Ruleset').selectOption('classic');
      // The option fields come with the ruleset's chunk, just after the page.
      await expect.poll(() => form.locator('fieldset label').count()).toBeGreaterThan(0);
      const labels = await form.locator('fieldset label').allTextContents();
      expect(labels.length).toBeGreaterThan(0);
      for (const l of labels) expect(l).not.toMatch(/[a-z][A-Z]/);
    } finally {
      await ctx.close();
    }
  });

  it('the GM’s main loop fits a 1280×720 laptop: acting, actions, damage and Next without scrolling', async () => {
    const e = await create(
      'classic',
      Array.from({ length: 8 }, (_, i) => ({
        id: `c${i}`,
        name: `Fighter ${i + 1}`,
        side: i < 3 ? 'pc' : 'npc',
        hp: 20,
      })),
      Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`c${i}`, 20 - i])),
    );
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const within = async (loc: ReturnType<Page['locator']>) => {
        const box = await loc.boundingBox();
        return box !== null && box.y >= 0 && box.y + box.height <= LAPTOP.height;
      };
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(
        LAPTOP.height,
      );
      expect(await within(page.getByRole('button', { name: /^Next/ }))).toBe(true);
      expect(await within(page.getByTestId('current-actor'))).toBe(true);
      expect(await within(page.locator('section.palette button.action').first())).toBe(true);
      expect(await within(page.getByRole('button', { name: 'Damage' }))).toBe(true);
      expect(await within(page.getByTestId('log'))).toBe(true);
      await shoot(page, 'table-gm-1280.png');
    } finally {
      await ctx.close();
    }
  });

  it('headings keep the case of what they name: an action form for “van Helsing” does not say “Van Helsing”', async () => {
    const e = await create('classic', [{ id: 'vh', name: 'van Helsing', side: 'pc', hp: 20 }], { vh: 10 });
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      await page.getByRole('button', { name: 'Attack with details' }).click();
      const form = page.getByRole('form', { name: /^Attack for / });
      // biome-ignore lint/performance/useDomNodeTextContent: the text as drawn (text-transform included) is what is tested.
      expect(await form.locator('h3').innerText()).toBe('Attack · van Helsing');
    } finally {
      await ctx.close();
    }
  });

  it('a checkbox’s help goes under its label on a phone, so the label never breaks inside a word', async () => {
    const e = await create('tempo', TEMPO_PAIR);
    await command(e, { type: 'start' });
    const { ctx, page } = await open(env.browser, e, e.players.ana!, PHONE);
    try {
      const form = page.getByRole('form', { name: /Other commands/ });
      await form.getByRole('combobox', { name: 'Command' }).selectOption({ label: 'Plan an action' });
      const label = form.locator('.field.check label', { hasText: 'Strike consumable' });
      const box = await label.boundingBox();
      const line = await label.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight) || 20);
      expect(box!.height).toBeLessThan(line * 1.5);
      // Its help is still there, under it.
      const help = form.locator('.field.check small', { hasText: 'Drawn and consumed' });
      expect((await help.boundingBox())!.y).toBeGreaterThan(box!.y + box!.height - 1);
    } finally {
      await ctx.close();
    }
  });

  it('the top bar keeps the clock whole on a laptop: the encounter’s and the ruleset’s names give way first', async () => {
    const name = 'The long night at the Bridge of Sighs, second attempt';
    const e = await create('tempo', TEMPO_PAIR, undefined, name);
    await command(e, { type: 'start' });
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      for (const width of [LAPTOP.width, 1101]) {
        await page.setViewportSize({ width, height: LAPTOP.height });
        const clock = page.getByTestId('clock');
        await expect.poll(() => clock.textContent()).toBe('Round 1 · planning');
        // Not cut short: the clock's box holds all of its text.
        const cut = await clock.evaluate((el) => el.scrollWidth > el.clientWidth);
        expect(cut, `the clock at ${width} px`).toBe(false);
        // The encounter's name was cut instead, and its title says it whole.
        const h1 = page.locator('header.topbar h1');
        expect(await h1.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
        expect(await h1.getAttribute('title')).toBe(name);
        expect(await page.locator('header.topbar .ruleset-name').getAttribute('title')).toBe('Tempo');
        // One line still: the buttons stay on it.
        const bar = await page.locator('header.topbar').boundingBox();
        expect(bar!.height).toBeLessThan(70);
      }
    } finally {
      await ctx.close();
    }
  });

  it('hostile text: an RTL override stays inside its name, long names wrap, long notes fold', async () => {
    const rlo = 'Evil\u202Eeman\u202C';
    const long = 'X'.repeat(80);
    const e = await create(
      'classic',
      [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
        { id: 'evil', name: rlo, side: 'npc', hp: 9, notes: 'note '.repeat(2000) },
        { id: 'long', name: long, side: 'pc', hp: 9 },
      ],
      { ana: 20, evil: 15, long: 10 },
    );
    await command(e, { type: 'damage', combatant: 'evil', amount: 2 });
    const gm = await open(env.browser, e, e.gm, LAPTOP);
    const phone = await open(env.browser, e, e.players.long!, PHONE);
    const table = await open(env.browser, e, e.table, TABLE);
    try {
      // Every log line is isolated, so the override cannot reorder the words around the name.
      await expect.poll(() => gm.page.getByTestId('log').locator('li').count()).toBeGreaterThan(0);
      const isolated = await gm.page
        .getByTestId('log')
        .locator('li bdi')
        .evaluateAll((els) => els.map((el) => getComputedStyle(el).unicodeBidi));
      expect(isolated.length).toBeGreaterThan(0);
      expect(new Set(isolated)).toEqual(new Set(['isolate']));
      // Inside a line, the name is isolated on its own: the words after it keep their order.
      const named = await gm.page
        .getByTestId('log')
        .locator('li bdi bdi')
        .evaluateAll((els) => els.map((el) => el.textContent));
      expect(named).toContain(rlo);
      const card = gm.page.locator('li.card[data-combatant="evil"]');
      expect(await card.locator('bdi.name').evaluate((el) => getComputedStyle(el).unicodeBidi)).toBe(
        'isolate',
      );
      // 10,000 characters of notes fold: the card stays small.
      const box = await card.boundingBox();
      expect(box?.height ?? 0).toBeLessThan(200);
      // An 80-character name wraps on the phone and in the table's order.
      const wide = await phone.page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(PHONE.width);
      // The table's "Next:" line is one text: each name between isolate marks, as <bdi> would hold it.
      await expect
        .poll(() => table.page.getByTestId('up-next').textContent())
        .toBe(`Next: \u2068${rlo}\u2069, \u2068${long}\u2069`);
      const clipped = await table.page
        .getByRole('region', { name: 'Order' })
        .locator('li[data-combatant="long"] .order-name')
        .evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      expect(clipped).toBe(false);
      await shoot(gm.page, 'hostile-gm-1280.png');
      await shoot(phone.page, 'hostile-player-360.png');
      await shoot(table.page, 'hostile-table-1920.png');
    } finally {
      await gm.ctx.close();
      await phone.ctx.close();
      await table.ctx.close();
    }
  });

  it('encounters: dates, status and round; duplicate, reset to before the fight, archive and restore', async () => {
    const ctx = await env.browser.newContext({ viewport: LAPTOP });
    const page = await ctx.newPage();
    try {
      await page.goto(`${env.server.url}/`);
      const form = page.getByRole('region', { name: 'New encounter' });
      await form.getByLabel('Name').fill('Tavern brawl');
      await form.getByLabel('Ruleset').selectOption('classic');
      await form.getByRole('button', { name: 'Create encounter' }).click();
      await page.waitForURL(/\/e\/[^/?]+\?token=/);
      await drawn(page);
      const url = new URL(page.url());
      const e: Created = {
        id: decodeURIComponent(url.pathname.split('/')[2]!),
        gm: url.searchParams.get('token')!,
        table: '',
        players: {},
      };
      await command(e, { type: 'add-combatant', combatant: { id: 'ana', name: 'Ana', side: 'pc', hp: 20 } });
      await command(e, { type: 'add-combatant', combatant: { id: 'orc', name: 'Orc', side: 'npc', hp: 9 } });
      await command(e, { type: 'start', initiative: { ana: 10, orc: 5 } });
      await command(e, { type: 'next' });
      await command(e, { type: 'next' });
      await page.goto(`${env.server.url}/`);
      const list = page.getByTestId('encounters');
      const item = list.locator(`li[data-encounter="${e.id}"]`);
      await expect.poll(() => item.getByTestId('fight').textContent()).toBe('round 2');
      expect(await item.textContent()).toMatch(/created .*\d/);
      // Duplicate: a second entry, told apart by its name.
      await page.getByRole('button', { name: 'Duplicate Tavern brawl' }).click();
      await expect.poll(() => list.getByText('Tavern brawl (copy)').count()).toBe(1);
      // Reset: a copy from before the fight; the fought one goes to the archive.
      await page.getByRole('button', { name: 'Reset Tavern brawl to before the fight' }).click();
      await expect.poll(() => page.getByTestId('archived-encounters').locator('li').count()).toBe(1);
      const fresh = list
        .locator('li')
        .filter({ has: page.getByRole('link', { name: 'Tavern brawl', exact: true }) });
      await expect.poll(() => fresh.getByTestId('fight').textContent()).toBe('not started');
      await fresh.getByRole('link').click();
      await expect.poll(() => page.getByTestId('combatants').locator('li.card').count()).toBe(2);
      await page.goto(`${env.server.url}/`);
      // Restore from the archive.
      await page.locator('details.archived summary').click();
      await page
        .getByTestId('archived-encounters')
        .getByRole('button', { name: 'Restore Tavern brawl' })
        .click();
      await expect.poll(() => page.getByTestId('archived-encounters').count()).toBe(0);
      await expect.poll(() => list.locator('li').count()).toBe(3);
      await shoot(page, 'table-encounters-1280.png');
    } finally {
      await ctx.close();
    }
  });

  it('the creature library: per ruleset, on the server, with examples, importable from a file', async () => {
    const six = await create('six-second', []);
    const d6 = await create('opend6', []);
    const ctx = await env.browser.newContext({ viewport: LAPTOP });
    const page = await ctx.newPage();
    const go = async (e: Created) => {
      await page.goto(`${env.server.url}/e/${encodeURIComponent(e.id)}?token=${encodeURIComponent(e.gm)}`);
      await page.getByTestId('clock').waitFor();
    };
    try {
      await go(six);
      const add = page.getByRole('region', { name: 'Add combatants' });
      await add.locator('summary').filter({ hasText: 'Examples' }).click();
      await add.getByRole('button', { name: 'Add Thug from the examples' }).click();
      await expect.poll(() => status(page)).toBe('Done: added 1 × Thug.');
      await expect.poll(() => page.getByTestId('combatants').textContent()).toContain('Thug');
      // Saved with its stats, by label.
      await add.getByLabel('Name', { exact: true }).fill('Knife thug');
      await add.getByRole('group', { name: 'Stats' }).getByLabel('Dexterity').fill('2');
      await add.getByRole('button', { name: 'Save to library' }).click();
      await expect.poll(() => status(page)).toBe('Done: saved Knife thug to the library.');
      await expect
        .poll(() => add.getByRole('button', { name: 'Add Knife thug from the library' }).count())
        .toBe(1);
      // Another ruleset has its own library and examples: the six-second thug is not offered there.
      await go(d6);
      await expect.poll(() => add.locator('summary').filter({ hasText: 'Examples' }).count()).toBe(1);
      expect(await add.getByRole('button', { name: 'Add Knife thug from the library' }).count()).toBe(0);
      // A file of creatures: a six-second one is refused by name, a D6 one is imported.
      const file = add.locator('input[type="file"]');
      await file.setInputFiles({
        name: 'thugs.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify([{ name: 'Knife thug', stats: { dexterity: 2 } }])),
      });
      await expect.poll(() => status(page)).toMatch(/has no stat "dexterity"/);
      await file.setInputFiles({
        name: 'bandits.json',
        mimeType: 'application/json',
        buffer: Buffer.from(
          JSON.stringify({ creatures: [{ name: 'Raider', hp: 9, stats: { perception: '3D' } }] }),
        ),
      });
      await expect.poll(() => status(page)).toBe('Done: imported 1 creature into the library.');
      await expect
        .poll(() => add.getByRole('button', { name: 'Add Raider from the library' }).count())
        .toBe(1);
      await shoot(page, 'table-library-1280.png');
    } finally {
      await ctx.close();
    }
  });

  it('reorders with the keyboard or the card’s arrows where the rules let the GM set the order', async () => {
    const e = await trio();
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const orc = page.locator('li.card[data-combatant="orc"]');
      await orc.locator('button.card-name').click();
      await page.locator('body').press('Alt+ArrowUp');
      await expect.poll(() => status(page)).toBe('Done: Orc moved up the order.');
      await expect.poll(() => orc.textContent()).toContain('Initiative16');
      await page.getByRole('button', { name: 'Move Orc up the order' }).click();
      await expect.poll(() => orc.textContent()).toContain('Initiative21');
      expect(await page.getByRole('button', { name: 'Move Orc up the order' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Move Ana down the order' }).click();
      await expect
        .poll(() => page.locator('li.card[data-combatant="ana"]').textContent())
        .toContain('Initiative14');
    } finally {
      await ctx.close();
    }
  });

  it('a timeline scrolled away keeps its drawing until it comes near; what it is read as follows every change', async () => {
    // Twelve in tara-corax: the palette fills the laptop's middle column and the timeline sits well below.
    const roster: Record<string, unknown>[] = [];
    for (let i = 1; i <= 4; i++)
      roster.push({ id: `pc-${i}`, name: `Hero ${i}`, side: 'pc', hp: 30, stats: { initiative: 8 + i } });
    for (const [g, group] of ['Goblin', 'Wolf'].entries())
      for (let i = 1; i <= 4; i++)
        roster.push({
          id: `${group.toLowerCase()}-${i}`,
          name: `${group} ${i}`,
          side: 'npc',
          group,
          hp: 7,
          stats: { initiative: 2 + ((i + g) % 7) },
        });
    const e = await create('tara-corax', roster);
    await command(e, { type: 'start' });
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const timeline = page.getByRole('region', { name: 'Timeline' });
      const drawnNow = () => timeline.locator('g.now title').textContent();
      const said = () => timeline.locator('svg desc').textContent();
      const mark = () => clockMark(page);
      await expect.poll(mark).toBeGreaterThan(0);
      const far = await timeline.evaluate((el) => {
        const col = el.closest('.col')!.getBoundingClientRect();
        // Farther than the 200 px within which the picture is drawn (`NEAR_PX`).
        return el.getBoundingClientRect().top - col.bottom > 200;
      });
      expect(far).toBe(true);
      const before = await drawnNow();
      expect(before).toContain(`Mark ${await mark()}`);
      const turn = async () => `${await text(page, 'clock')} ${await actor(page)}`;
      for (let i = 0; i < 3; i++) {
        const was = await turn();
        await command(e, { type: 'next' });
        await expect.poll(turn).not.toBe(was);
      }
      expect(await mark()).not.toBe(Number(/Mark (\d+)/.exec(before ?? '')?.[1]));
      const now = await mark();
      // Read: the description follows every change. Drawn: the picture waits, scrolled away.
      await expect.poll(said).toContain(`Mark ${now}`);
      expect(await drawnNow()).toBe(before);
      await timeline.scrollIntoViewIfNeeded();
      await expect.poll(drawnNow).toContain(`Mark ${now}`);
      // In view, a turn that passes moves the highlight to the next lane; the lanes' names, lines and markers
      // stay the same elements (each keyed by its tag, class and rank), they are not taken out and put back.
      const lanes = timeline.locator('g.lane');
      const lit = () => lanes.evaluateAll((gs) => gs.filter((g) => g.querySelector('rect.highlight')).length);
      expect(await lit()).toBeGreaterThan(0);
      await lanes.evaluateAll((gs) => {
        for (const g of gs)
          for (const c of g.querySelectorAll(':scope > text, :scope > line'))
            (c as Element & { kept?: boolean }).kept = true;
      });
      const was = await turn();
      await command(e, { type: 'next' });
      await expect.poll(turn).not.toBe(was);
      await expect.poll(drawnNow).toContain(`Mark ${await mark()}`);
      const replaced = await lanes.evaluateAll(
        (gs) =>
          gs
            .flatMap((g) => [...g.querySelectorAll(':scope > text, :scope > line')])
            .filter((c) => !(c as Element & { kept?: boolean }).kept).length,
      );
      expect(replaced).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('the palette says once what a group’s buttons share: a turn passing changes its heading, not its buttons', async () => {
    const e = await create('tara-corax', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { initiative: 9 } },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 9, stats: { initiative: 3 } },
    ]);
    await command(e, { type: 'start' });
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const palette = page.locator('section.palette');
      const quarter = palette
        .locator('.palette-group')
        .filter({ has: page.locator('h3', { hasText: /^Quarter/ }) });
      const heading = () => quarter.locator('h3').textContent();
      const set = quarter.getByRole('button', { name: 'Set', exact: true });
      const mark = () => clockMark(page);
      await expect.poll(mark).toBeGreaterThan(5);
      const first = await mark();
      // Every Quarter action costs 5 Marks and lands at the same place: the heading says so once.
      await expect.poll(heading).toBe(`Quarter5 marks each→ Mark ${first} → Mark ${first - 5}`);
      expect(await set.textContent()).toBe('Set');
      // The button is described by that line, so a screen reader still hears what it costs and where it lands.
      const described = await set.evaluate((b) =>
        (b.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' | '),
      );
      expect(described).toContain(`5 marks each→ Mark ${first} → Mark ${first - 5}`);
      // A lone action of its kind says its own cost and preview.
      expect(await palette.locator('button.action', { hasText: /^Move/ }).textContent()).toBe(
        `Move1 mark→ Mark ${first} → Mark ${first - 1}`,
      );
      await page.locator('body').press('n');
      await expect.poll(mark).not.toBe(first);
      const second = await mark();
      await expect
        .poll(heading)
        .toBe(`Quarter5 marks each→ Mark ${second} → Mark ${Math.max(0, second - 5)}`);
      expect(await set.textContent()).toBe('Set');
    } finally {
      await ctx.close();
    }
  });

  it('a page loaded after some turns words each log line at its own turn’s Mark', async () => {
    const e = await create('tara-corax', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { initiative: 9 } },
      { id: 'bo', name: 'Bo', side: 'pc', hp: 20, stats: { initiative: 6 } },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 9, stats: { initiative: 3 } },
    ]);
    await command(e, { type: 'start' });
    await command(e, { type: 'next' });
    await command(e, { type: 'next' });
    const { ctx, page } = await open(env.browser, e, e.gm, LAPTOP);
    try {
      const acts = async () =>
        (await page.getByTestId('log').locator('li').allTextContents()).filter((l) => l.endsWith(' acts.'));
      await expect.poll(async () => (await acts()).length).toBe(3);
      const marks = (await acts()).map((l) => Number(/^Mark (\d+):/.exec(l)?.[1]));
      // Newest first, each turn at its own Mark: the countdown read back up, not three times the last one.
      expect(new Set(marks).size).toBe(3);
      expect([...marks].sort((a, b) => a - b)).toEqual(marks);
      expect(marks[0]).toBe(await clockMark(page));
    } finally {
      await ctx.close();
    }
  });
});
