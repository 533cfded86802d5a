import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { drawn, endToEnd, removeDir, shots, startServer } from './harness.js';

/**
 * End to end: a real server process, Debian's Chromium, the production build of the web app.
 * For each ruleset: create an encounter from the home page, add combatants (a PC, an NPC group, a hidden
 * NPC with a GM note), start, run a full round from the GM's tracker and the player's controller with at
 * least one refused action whose reason is shown, check the player never sees GM-only data, reload.
 */
const RULESETS = ['classic', 'tara-corax', 'six-second', 'opend6', 'tempo', 'stamina'] as const;
const SECRET_NAME = 'Lurker';
const SECRET_NOTE = 'secret-ambush-note';

const env = endToEnd();

/**
 * A full-page screenshot with every card drawn: cards skip rendering off screen (content-visibility),
 * which a picture of the whole page would show as empty boxes.
 */
async function shoot(page: Page, file: string): Promise<void> {
  await page.addStyleTag({ content: '.card { content-visibility: visible !important; }' });
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  await page.screenshot({ path: join(shots, file), fullPage: true });
}

async function clock(page: Page): Promise<string> {
  return (await page.getByTestId('clock').textContent()) ?? '';
}
async function actorLine(page: Page): Promise<string> {
  return (await page.getByTestId('current-actor').textContent()) ?? '';
}
async function logCount(page: Page): Promise<number> {
  return page.getByTestId('log').locator('li').count();
}

async function createEncounter(page: Page, ruleset: string): Promise<{ id: string; token: string }> {
  await page.goto(`${env.server.url}/`);
  const form = page.getByRole('region', { name: 'New encounter' });
  await form.getByLabel('Name').fill(`E2E ${ruleset}`);
  await form.getByLabel('Ruleset').selectOption(ruleset);
  await form.getByRole('button', { name: 'Create encounter' }).click();
  await page.waitForURL(/\/e\/[^/?]+\?token=/);
  await drawn(page);
  await expect.poll(() => clock(page)).toContain('Not started');
  const url = new URL(page.url());
  return { id: decodeURIComponent(url.pathname.split('/')[2]!), token: url.searchParams.get('token')! };
}

async function addCombatant(
  page: Page,
  c: {
    name: string;
    side: 'pc' | 'npc';
    hp: number;
    count?: number;
    hidden?: boolean;
    notes?: string;
    /** Stats by their label in the form: a number or text, or true to tick a box. */
    stats?: Record<string, string | boolean>;
  },
): Promise<void> {
  const form = page.getByRole('region', { name: 'Add combatants' });
  await form.getByLabel('Name', { exact: true }).fill(c.name);
  await form.getByLabel('Side').selectOption(c.side);
  await form.getByLabel('HP').fill(String(c.hp));
  await form.getByLabel('How many').fill(String(c.count ?? 1));
  const hidden = form.getByLabel('Hidden from players');
  if ((await hidden.isChecked()) !== Boolean(c.hidden)) await hidden.click();
  for (const [label, value] of Object.entries(c.stats ?? {})) {
    const field = form.getByRole('group', { name: 'Stats' }).getByLabel(label, { exact: true });
    if (typeof value === 'boolean') {
      if ((await field.isChecked()) !== value) await field.click();
    } else await field.fill(value);
  }
  await form.getByLabel('GM notes').fill(c.notes ?? '');
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect.poll(() => page.getByTestId('status').textContent()).toContain(`× ${c.name}`);
}

async function playerUrl(id: string, gmToken: string, combatant: string): Promise<string> {
  const res = await fetch(`${env.server.url}/api/encounters/${id}/links`, {
    headers: { authorization: `Bearer ${gmToken}` },
  });
  const links = (await res.json()) as { players: { combatant: string; url: string; token: string }[] };
  const link = links.players.find((p) => p.combatant === combatant);
  if (!link) throw new Error(`No player link for ${combatant}`);
  return `${env.server.url}/e/${id}?token=${encodeURIComponent(link.token)}`;
}

/** Clicks an unavailable action in the palette: the server refuses it and the reason is shown. */
async function refusedAction(page: Page): Promise<string> {
  const palette = page.locator('section.palette');
  // The current actor may have every action open (six seconds to spend): look at someone else's.
  for (let i = 0; i < 4 && (await palette.locator('button.action.unavailable').count()) === 0; i++) {
    await page.locator('body').press('j');
  }
  // Unavailable actions are folded under the available ones.
  const folded = palette.getByTestId('unavailable-actions');
  if (!(await folded.getAttribute('open'))) await folded.locator('summary').click();
  const unavailable = palette.locator('button.action.unavailable').first();
  await unavailable.click();
  await expect.poll(() => page.getByTestId('status').textContent()).toMatch(/^Refused: .{10,}/);
  return (await page.getByTestId('status').textContent()) ?? '';
}

/** The player takes the first legal non-free action of their palette; the GM sees it in the log. */
async function playerActs(player: Page, gm: Page): Promise<void> {
  const before = await logCount(gm);
  const legal = player.locator('section.palette button.action:not(.unavailable)');
  const n = await legal.count();
  for (let i = 0; i < n; i++) {
    await legal.nth(i).click();
    await expect.poll(() => player.getByTestId('status').textContent()).toMatch(/^(Done|Refused)/);
    if ((await player.getByTestId('status').textContent())?.startsWith('Done')) break;
  }
  await expect.poll(() => logCount(gm), { timeout: 5000 }).toBeGreaterThan(before);
}

describe('web app end to end', () => {
  for (const ruleset of RULESETS) {
    it(`${ruleset}: create, add, run a round with a refusal, GM and player live, no leaks, reload`, async () => {
      const gmCtx = await env.browser.newContext({ viewport: { width: 1440, height: 1000 } });
      const playerCtx = await env.browser.newContext({
        viewport: { width: 360, height: 780 },
        isMobile: true,
      });
      const gm = await gmCtx.newPage();
      const player = await playerCtx.newPage();
      try {
        const { id, token } = await createEncounter(gm, ruleset);
        const pcStats: Record<string, boolean> = ruleset === 'stamina' ? { Arcane: true } : {};
        await addCombatant(gm, { name: 'Ana', side: 'pc', hp: 20, stats: pcStats });
        await addCombatant(gm, { name: 'Goblin', side: 'npc', hp: 7, count: 2 });
        await addCombatant(gm, { name: SECRET_NAME, side: 'npc', hp: 9, hidden: true, notes: SECRET_NOTE });
        await expect.poll(() => gm.getByTestId('combatants').locator('li.card').count()).toBe(4);

        await player.goto(await playerUrl(id, token, 'ana'));
        await drawn(player);
        await expect.poll(() => clock(player)).toContain('Not started');

        // Roll initiative with the keyboard shortcut; the player sees it live.
        await gm.locator('body').press('i');
        await expect.poll(() => clock(gm)).toContain('Round 1');
        await expect.poll(() => clock(player), { timeout: 3000 }).toContain('Round 1');

        // A refused action, with the rule's reason shown.
        const refusal = await refusedAction(gm);
        expect(refusal.length).toBeGreaterThan(20);

        if (ruleset === 'tempo') {
          // Planning: the player plans Ana's two actions; the GM plans for the goblins.
          await playerActs(player, gm);
          await playerActs(player, gm);
          await gm.locator('body').press('j');
        }

        let playerActed = ruleset === 'tempo';
        for (let step = 0; step < 16 && !(await clock(gm)).includes('Round 2'); step++) {
          if (!playerActed && (await actorLine(gm)).startsWith('Ana')) {
            await expect.poll(() => actorLine(player)).toContain('Ana');
            if (ruleset === 'opend6') {
              const declare = player.getByRole('form', { name: 'Declare actions' });
              await declare.getByLabel('Actions this round').fill('1');
              await declare.getByRole('button', { name: 'Declare actions for Ana' }).click();
              await expect.poll(() => player.getByTestId('status').textContent()).toContain('Done');
            }
            await playerActs(player, gm);
            playerActed = true;
          }
          const before = `${await clock(gm)}|${await actorLine(gm)}|${await logCount(gm)}`;
          await gm.locator('body').press('n');
          await expect
            .poll(async () => `${await clock(gm)}|${await actorLine(gm)}|${await logCount(gm)}`)
            .not.toBe(before);
        }
        expect(await clock(gm)).toContain('Round 2');
        expect(playerActed).toBe(true);
        await expect.poll(() => clock(player), { timeout: 3000 }).toContain('Round 2');

        // The player never sees GM-only data.
        for (const page of [player]) {
          const html = await page.content();
          expect(html).not.toContain(SECRET_NAME);
          expect(html).not.toContain(SECRET_NOTE);
        }
        const gmHtml = await gm.content();
        expect(gmHtml).toContain(SECRET_NAME);

        await shoot(gm, `${ruleset}-gm-tracker.png`);
        await shoot(player, `${ruleset}-player.png`);

        // Undo and redo with the keyboard, then reload: everything is kept.
        const beforeUndo = `${await clock(gm)}|${await actorLine(gm)}`;
        await gm.locator('body').press('u');
        await expect.poll(async () => `${await clock(gm)}|${await actorLine(gm)}`).not.toBe(beforeUndo);
        await gm.locator('body').press('r');
        await expect.poll(async () => `${await clock(gm)}|${await actorLine(gm)}`).toBe(beforeUndo);
        // The log follows the headline in a second render: counted once it shows the redo.
        await expect.poll(() => gm.getByTestId('log').locator('li').first().textContent()).toMatch(/^Redo/);

        const lines = await logCount(gm);
        await gm.reload();
        await player.reload();
        await expect.poll(() => clock(gm)).toBe(beforeUndo.split('|')[0]);
        await expect.poll(() => actorLine(gm)).toBe(beforeUndo.split('|')[1]);
        await expect.poll(() => logCount(gm)).toBe(lines);
        await expect.poll(() => clock(player)).toContain('Round 2');
      } finally {
        await gmCtx.close();
        await playerCtx.close();
      }
    });
  }

  it('home lists the encounters of this browser; the help overlay opens with ?', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    try {
      await createEncounter(page, 'classic');
      await page.locator('body').press('?');
      await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(1);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      await page.goto(`${env.server.url}/`);
      await expect.poll(() => page.getByTestId('encounters').locator('li').count()).toBeGreaterThan(0);
      await shoot(page, 'home.png');
    } finally {
      await ctx.close();
    }
  });

  it('a reason every unavailable action shares is said once, not under each button', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    try {
      await createEncounter(page, 'opend6');
      await addCombatant(page, { name: 'Ana', side: 'pc', hp: 20 });
      await addCombatant(page, { name: 'Orc', side: 'npc', hp: 9 });
      await page.locator('body').press('i');
      await expect.poll(() => clock(page)).toContain('Round 1');
      // D6: nothing but free actions until the actor declares how many actions they take.
      const palette = page.locator('section.palette');
      await expect.poll(() => palette.getByTestId('palette-reason').count()).toBe(1);
      expect(await palette.getByTestId('palette-reason').textContent()).toMatch(/^Declare how many actions/);
      expect(await palette.locator('.palette-group .reason').count()).toBe(0);
      // Each unavailable button still carries it for screen readers.
      const off = palette.locator('button.action.unavailable').first();
      // (after what its group's heading says all its buttons share, when they share something).
      const ids = ((await off.getAttribute('aria-describedby')) ?? '').split(' ');
      expect(await page.locator(`[id="${ids.at(-1)}"]`).textContent()).toMatch(/^Declare how many actions/);
      // Its own sentence is its title once the pointer or the focus reaches it (not redrawn every turn).
      expect(await off.getAttribute('title')).toBeNull();
      await palette.getByTestId('unavailable-actions').locator('summary').click();
      await off.hover();
      expect(await off.getAttribute('title')).toMatch(/^Not now: Declare how many actions/);
      const second = palette.locator('button.action.unavailable').nth(1);
      await second.focus();
      expect(await second.getAttribute('title')).toMatch(/^Not now: Declare how many actions/);
      // Once declared, the actions open and the sentence goes.
      const other = page.getByRole('form', { name: 'Other commands' });
      await other.getByLabel('Command').selectOption('declare');
      await other.getByLabel('Actions this round').fill('1');
      await other.getByRole('button', { name: /^Declare actions for / }).click();
      await expect.poll(() => palette.getByTestId('palette-reason').count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  it('exports the timeline as SVG and PNG; the table view shows no hidden combatant', async () => {
    const ctx = await env.browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await ctx.newPage();
    try {
      const { id, token } = await createEncounter(page, 'tara-corax');
      await addCombatant(page, { name: 'Ana', side: 'pc', hp: 20 });
      await addCombatant(page, { name: SECRET_NAME, side: 'npc', hp: 9, hidden: true, notes: SECRET_NOTE });
      await page.locator('body').press('i');
      await expect.poll(() => clock(page)).toContain('Round 1');
      const timeline = page.getByRole('region', { name: 'Timeline' });

      const [svgFile] = await Promise.all([
        page.waitForEvent('download'),
        timeline.getByRole('button', { name: 'Export SVG' }).click(),
      ]);
      expect(svgFile.suggestedFilename()).toMatch(/timeline\.svg$/);
      const svg = readFileSync(await svgFile.path(), 'utf8');
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg).toContain('Round 1 · now');
      expect(svg).toContain('data-lane="ana"');

      const [pngFile] = await Promise.all([
        page.waitForEvent('download'),
        timeline.getByRole('button', { name: 'Export PNG' }).click(),
      ]);
      expect(pngFile.suggestedFilename()).toMatch(/timeline\.png$/);
      const png = readFileSync(await pngFile.path());
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      // Twice the SVG's size (drawn at 2×): width and height from the IHDR chunk.
      const width = png.readUInt32BE(16);
      const svgWidth = Number(/width="(\d+)"/.exec(svg)![1]);
      expect(width).toBe(svgWidth * 2);

      // The table view: order, current actor and timeline, without the hidden NPC or the GM's notes.
      const res = await fetch(`${env.server.url}/api/encounters/${id}/links`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const links = (await res.json()) as { table: string };
      const table = await ctx.newPage();
      await table.goto(links.table.startsWith('http') ? links.table : `${env.server.url}${links.table}`);
      await drawn(table);
      await expect.poll(() => clock(table)).toContain('Round 1');
      await expect.poll(() => table.getByRole('region', { name: 'Order' }).textContent()).toContain('Ana');
      const html = await table.content();
      expect(html).not.toContain(SECRET_NAME);
      expect(html).not.toContain(SECRET_NOTE);
      expect(await table.getByRole('button').count()).toBe(0);
      await shoot(table, 'tara-corax-table.png');
    } finally {
      await ctx.close();
    }
  });

  it('reconnects by itself after a server restart and resumes', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const own = await startServer();
    try {
      await page.goto(`${own.url}/`);
      const form = page.getByRole('region', { name: 'New encounter' });
      await form.getByLabel('Name').fill('Reconnect');
      await form.getByRole('button', { name: 'Create encounter' }).click();
      await page.waitForURL(/\/e\//);
      await drawn(page);
      await expect.poll(() => page.getByTestId('connection').textContent()).toBe('live');
      const url = new URL(page.url());
      const id = url.pathname.split('/')[2]!;
      const token = url.searchParams.get('token')!;
      // The parts drawn after the first paint (the add form, then its library: a chunk each, one after the
      // other) are loaded before the server goes. A chunk asked for while it is down shows "Part of
      // Roundkeeper could not be loaded" instead of the page: failed-load.test.ts's case, not this one's.
      await page.getByRole('combobox', { name: 'Search the library' }).waitFor();
      await own.stop();
      await expect.poll(() => page.getByTestId('connection').textContent()).toContain('reconnecting');
      const again = await startServer(own.dataDir, own.port);
      try {
        await expect
          .poll(() => page.getByTestId('connection').textContent(), { timeout: 10_000 })
          .toBe('live');
        // A change made elsewhere reaches the page over the resumed socket.
        await fetch(`${again.url}/api/encounters/${id}/commands`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            command: { type: 'add-combatant', combatant: { name: 'Late', side: 'npc' } },
          }),
        });
        await expect.poll(() => page.getByTestId('combatants').textContent()).toContain('Late');
      } finally {
        await again.stop();
      }
    } finally {
      await ctx.close();
      removeDir(own.dataDir);
    }
  });
});
