import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { drawn, endToEnd, shots } from './harness.js';

/**
 * A GM session, with the keyboard and the mouse only: create an encounter on the home page, add a PC and
 * two creatures from the library's examples, share links, roll initiative, run three rounds with damage
 * typed on a card, a condition lasting rounds, a late arrival and an undo, while the player acts from a
 * 360×740 page and the table screen (1920×1080) follows; then the fight exported as a scenario and replayed
 * on the server must reach the same state.
 */
const env = endToEnd();

const text = async (page: Page, id: string) => (await page.getByTestId(id).textContent()) ?? '';

/** The parts of a state a replay must reproduce (ids and names of the encounter itself aside). */
function essence(state: Record<string, unknown>): unknown {
  const { combatants, roster, round, current, effects, agenda, status, now } = state;
  return { combatants, roster, round, current, effects, agenda, status, now };
}

async function gmState(id: string, token: string): Promise<Record<string, unknown>> {
  const r = await fetch(`${env.server.url}/api/encounters/${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await r.json()) as { state: Record<string, unknown> }).state;
}

/**
 * A planning phase (secret plans before the round): the player plans from the phone with the first
 * available actions, the GM for each NPC by selecting its card, until the palette has nothing left to plan.
 */
async function planRound(gm: Page, phone: Page): Promise<void> {
  const planAll = async (page: Page) => {
    for (let i = 0; i < 4; i++) {
      const legal = page.locator('section.palette button.action:not(.unavailable)');
      if ((await legal.count()) === 0) return;
      const before = await text(page, 'status');
      await legal.first().click();
      await expect.poll(() => text(page, 'status')).not.toBe(before === '' ? 'x' : '');
      if ((await text(page, 'status')).startsWith('Refused')) return;
      await page.waitForTimeout(100);
    }
  };
  await planAll(phone);
  // The GM plans for everyone the phone does not (the library's examples may be PCs without a player).
  const cards = gm.getByTestId('combatants').locator('li.card:not([data-combatant="ana"])');
  for (let i = 0; i < (await cards.count()); i++) {
    await cards.nth(i).locator('button.card-name').click();
    await planAll(gm);
  }
}

const SESSIONS = ['classic', 'tara-corax', 'six-second', 'opend6', 'tempo', 'stamina'] as const;

describe('a GM session, end to end', () => {
  for (const ruleset of SESSIONS) {
    it(`${ruleset}: three rounds from the library, a player and the table, replayed from its export`, async () => {
      const gmCtx = await env.browser.newContext({
        viewport: { width: 1280, height: 720 },
        acceptDownloads: true,
      });
      const phoneCtx = await env.browser.newContext({
        viewport: { width: 360, height: 740 },
        isMobile: true,
      });
      const tableCtx = await env.browser.newContext({ viewport: { width: 1920, height: 1080 } });
      const gm = await gmCtx.newPage();
      const phone = await phoneCtx.newPage();
      const table = await tableCtx.newPage();
      try {
        await gm.goto(`${env.server.url}/`);
        const create = gm.getByRole('region', { name: 'New encounter' });
        await create.getByLabel('Name').fill(`Session ${ruleset}`);
        await create.getByLabel('Ruleset').selectOption(ruleset);
        await create.getByRole('button', { name: 'Create encounter' }).click();
        await gm.waitForURL(/\/e\/[^/?]+\?token=/);
        await drawn(gm);
        const url = new URL(gm.url());
        const id = decodeURIComponent(url.pathname.split('/')[2]!);
        const token = url.searchParams.get('token')!;

        // A PC by the form, two creatures from the library's examples.
        const add = gm.getByRole('region', { name: 'Add combatants' });
        await add.getByLabel('Name', { exact: true }).fill('Ana');
        await add.getByLabel('Side').selectOption('pc');
        await add.getByLabel('HP').fill('20');
        await add.getByRole('button', { name: 'Add', exact: true }).click();
        await expect.poll(() => text(gm, 'status')).toBe('Done: added 1 × Ana.');
        await add.locator('summary').filter({ hasText: 'Examples' }).click();
        await add.getByLabel('How many').fill('2');
        await add
          .getByRole('button', { name: /from the examples$/ })
          .first()
          .click();
        await expect.poll(() => gm.getByTestId('combatants').locator('li.card').count()).toBe(3);

        // Links from "Share & export": the player's phone and the table screen.
        const share = gm.getByRole('region', { name: 'Share and export' });
        await share.getByRole('button', { name: 'Show links' }).click();
        const playerHref = await share.locator('a[data-player="ana"]').getAttribute('href');
        const tableHref = await share.getByRole('link', { name: 'Table view' }).getAttribute('href');
        await phone.goto(playerHref!);
        await table.goto(tableHref!);
        await drawn(table);

        await gm.locator('body').press('i');
        await expect.poll(() => text(gm, 'clock')).toContain('Round 1');
        await expect.poll(() => text(table, 'clock')).toContain('Round 1');

        let damaged = false;
        let conditioned = false;
        let late = false;
        let undone = false;
        for (let step = 0; step < 40 && !(await text(gm, 'clock')).includes('Round 4'); step++) {
          const who = await text(gm, 'current-actor');
          let playerTurn = false;
          if (who.startsWith('Ana')) {
            // The player acts from the phone: the planned action where the rules plan them, else the first
            // available action; then ends the turn there, where the rules let a player do so.
            playerTurn = true;
            await expect.poll(() => text(phone, 'current-actor')).toContain('Ana');
            const take = phone.getByRole('region', { name: 'Take the planned action' });
            const legal = phone.locator('section.palette button.action:not(.unavailable)');
            if ((await take.count()) > 0) {
              await take.getByRole('button', { name: /^Take my action/ }).click();
              await expect.poll(() => text(phone, 'status')).toMatch(/^Done/);
            } else if ((await legal.count()) > 0) {
              await legal.first().click();
              await expect.poll(() => text(phone, 'status')).toMatch(/^(Done|Refused)/);
            }
            const end = phone.getByRole('button', { name: 'End my turn' });
            if ((await end.count()) > 0) {
              // The turn moves on: another actor, or Ana again first in the next round.
              const where = async () => `${await text(gm, 'clock')}|${await text(gm, 'current-actor')}`;
              const before = await where();
              await end.click();
              await expect.poll(where).not.toBe(before);
              continue;
            }
          }
          if (playerTurn) {
            // The GM counts on.
          } else if (!damaged) {
            // Damage typed on Ana's card.
            const card = gm.locator('li.card[data-combatant="ana"]');
            await card.getByRole('button', { name: /^HP of Ana/ }).click();
            await gm.keyboard.type('-3');
            await gm.keyboard.press('Enter');
            await expect.poll(() => card.textContent()).toContain('17/20');
            damaged = true;
          } else if (!conditioned) {
            const tools = gm.locator('section.gm-tools');
            const form = tools.getByRole('form', { name: /^Add a condition to / });
            await form.getByLabel('Condition').fill('Blessed');
            await form.getByLabel('Lasts').selectOption('rounds');
            await form.getByLabel('Rounds').fill('2');
            await form.getByRole('button', { name: 'Add condition' }).click();
            await expect.poll(() => text(gm, 'status')).toMatch(/^Done: Blessed on /);
            conditioned = true;
          } else if (!late) {
            // A late arrival, then damage to it taken back with undo.
            await add.getByLabel('Name', { exact: true }).fill('Latecomer');
            await add.getByLabel('Side').selectOption('npc');
            await add.getByLabel('HP').fill('9');
            await add.getByLabel('How many').fill('1');
            await add.getByRole('button', { name: 'Add', exact: true }).click();
            await expect.poll(() => text(gm, 'status')).toBe('Done: added 1 × Latecomer.');
            late = true;
            const card = gm.locator('li.card[data-combatant="latecomer"]');
            await card.getByRole('button', { name: /^HP of Latecomer/ }).click();
            await gm.keyboard.type('-5');
            await gm.keyboard.press('Enter');
            await expect.poll(() => card.textContent()).toContain('4/9');
            await gm.locator('body').press('u');
            await expect.poll(() => card.textContent()).toContain('9/9');
            await expect.poll(() => text(gm, 'status')).toMatch(/^Done: undo “Latecomer: HP 9 → 4/);
            undone = true;
          }
          if ((await text(gm, 'clock')).endsWith('· planning')) await planRound(gm, phone);
          const where = async () => `${await text(gm, 'clock')}|${await text(gm, 'current-actor')}`;
          const before = await where();
          const said = await text(gm, 'status');
          await gm.locator('body').press('n');
          await expect
            .poll(async () => {
              const now = await text(gm, 'status');
              return (await where()) !== before || (now !== said && now.startsWith('Refused'));
            })
            .toBe(true);
          const refused = await text(gm, 'status');
          if (refused.startsWith('Refused')) throw new Error(`Next was refused: ${refused}`);
        }
        expect(await text(gm, 'clock')).toContain('Round 4');
        expect([damaged, conditioned, late, undone]).toEqual([true, true, true, true]);
        // The table screen followed; the condition is shown with its time, or has run out with its rounds.
        await expect.poll(() => text(table, 'clock')).toContain('Round 4');
        await expect.poll(() => text(phone, 'clock')).toContain('Round 4');
        await gm.screenshot({ path: join(shots, `session-${ruleset}-gm-1280.png`) });
        await phone.screenshot({ path: join(shots, `session-${ruleset}-player-360.png`) });
        await table.screenshot({ path: join(shots, `session-${ruleset}-table-1920.png`) });

        // The exported scenario, replayed on the server, reaches the same state.
        const exported = await fetch(
          `${env.server.url}/api/encounters/${encodeURIComponent(id)}/export?format=json`,
          {
            headers: { authorization: `Bearer ${token}` },
          },
        );
        const scenario = (await exported.json()) as unknown;
        const replay = await fetch(`${env.server.url}/api/encounters`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ scenario }),
        });
        expect(replay.status).toBe(201);
        const copy = (await replay.json()) as { encounter: { id: string }; tokens: { gm: string } };
        const a = await gmState(id, token);
        const b = await gmState(copy.encounter.id, copy.tokens.gm);
        expect(essence(b)).toEqual(essence(a));
      } finally {
        await gmCtx.close();
        await phoneCtx.close();
        await tableCtx.close();
      }
    });
  }
});
