import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd, shots } from './harness.js';

/**
 * Timed events (lair actions) on the page: the GM adds one in the GM's tools — its moment read back in the
 * ruleset's words as it is typed — and removes it; the GM's timeline and the table screen's show it on
 * their "Timed events" row, the table screen announces it when it fires, and it is never a combatant card
 * nor in the order. Classic (initiative 20, losing ties) and tick (every 6 ticks).
 */
/** The machine may be loaded: a change is waited for up to 10 s. */
const poll: typeof expect.poll = (f, options) => expect.poll(f, { timeout: 10_000, ...options });
const env = endToEnd();
const api = apiOf(() => env.server);

type Created = { encounter: { id: string }; tokens: { gm: string; table: string } };

async function create(body: Record<string, unknown>): Promise<Created> {
  return (await api('POST', '/api/encounters', null, body)) as Created;
}

const url = (r: Created, token: string) =>
  `${env.server.url}/e/${encodeURIComponent(r.encounter.id)}?token=${encodeURIComponent(token)}`;

/** Fills the GM's form and adds the timed event, checking the moment it reads back first. */
async function addTimed(gm: Page, at: string, words: string): Promise<void> {
  const form = gm.getByRole('form', { name: 'Add a timed event' });
  await form.getByLabel('Name').fill('Lair action');
  await form.getByLabel(/^At\b/).fill(at);
  await form.getByLabel('GM note').fill('the ceiling cracks');
  await poll(() => gm.getByTestId('timed-moment').textContent()).toBe(`When: ${words}`);
  await form.getByRole('button', { name: 'Add timed event' }).click();
  await poll(() => gm.getByTestId('timed-list').textContent()).toContain('Lair action');
}

const timedMarkers = (page: Page) =>
  page.getByTestId('timeline').locator('.marker-timed title').allTextContents();

describe('timed events on the page', () => {
  it('classic: a lair action at initiative 20, losing ties — added, shown, announced, removed', async () => {
    const r = await create({
      name: 'Lair',
      ruleset: 'classic',
      seed: 3,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
        { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
      ],
    });
    const command = (cmd: Record<string, unknown>) =>
      api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, { command: cmd });
    const ctx = await env.browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const gm = await ctx.newPage();
    const table = await ctx.newPage();
    try {
      await gm.goto(url(r, r.tokens.gm));
      await poll(() => gm.getByTestId('connection').textContent(), { timeout: 15_000 }).toBe('live');
      // A number the clock does not have is refused in the ruleset's words before it is sent.
      const form = gm.getByRole('form', { name: 'Add a timed event' });
      await form.getByLabel(/^At\b/).fill('900');
      await expect
        .poll(() => gm.getByTestId('timed-moment').textContent())
        .toContain('from -100 to 200, not 900');
      await addTimed(gm, '20', 'initiative 20, losing ties, every round');
      expect(await gm.getByTestId('timed-list').textContent()).toContain('the ceiling cracks');
      await command({ type: 'start', initiative: { ana: 22, orc: 12 } });
      await table.goto(url(r, r.tokens.table));
      for (const page of [gm, table]) {
        await expect
          .poll(() => timedMarkers(page))
          .toEqual(['timed: Lair action (initiative 20, losing ties) (planned)']);
        expect(await page.getByTestId('timeline').locator('svg').textContent()).toContain('Timed events');
      }
      await poll(() => gm.getByTestId('timed-fired').count()).toBe(0);
      await command({ type: 'next' }); // Ana's turn ends: the count passes 20, then the Orc's turn.
      await expect
        .poll(() => table.getByTestId('timed-fired').textContent())
        .toBe('Lair action (initiative 20, losing ties)');
      // The GM's page says the note; the table's never does.
      await expect
        .poll(() => gm.getByTestId('timed-fired').textContent())
        .toBe('Lair action: the ceiling cracks (initiative 20, losing ties)');
      expect(await table.locator('main').textContent()).not.toContain('ceiling');
      await table.screenshot({ path: join(shots, 'timed-table.png') });
      await gm.screenshot({ path: join(shots, 'timed-gm.png'), fullPage: true });
      await expect
        .poll(() => timedMarkers(table))
        .toEqual(['timed: Lair action (initiative 20, losing ties)']);
      // Never a combatant: two cards, two in the table's order.
      expect(await gm.getByTestId('combatants').locator(':scope > li').count()).toBe(2);
      expect(await table.getByRole('region', { name: 'Order' }).textContent()).not.toContain('Lair');
      // Round 2: Ana's turn, the announcement is gone until the count passes 20 again.
      await command({ type: 'next' });
      await poll(() => table.getByTestId('timed-fired').count()).toBe(0);
      await gm.getByRole('button', { name: 'Remove Lair action' }).click();
      await poll(() => gm.getByTestId('timed-list').count()).toBe(0);
      await poll(() => timedMarkers(table)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('tick: every 6 ticks — announced as the counter reaches tick 6, before anyone acts there', async () => {
    const r = await create({
      name: 'Ticking lair',
      ruleset: 'tick',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc' },
        { id: 'bren', name: 'Bren', side: 'pc' },
      ],
    });
    const command = (cmd: Record<string, unknown>) =>
      api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, { command: cmd });
    const ctx = await env.browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const gm = await ctx.newPage();
    const table = await ctx.newPage();
    try {
      await gm.goto(url(r, r.tokens.gm));
      await poll(() => gm.getByTestId('connection').textContent(), { timeout: 15_000 }).toBe('live');
      await addTimed(gm, '6', 'every 6 ticks');
      await command({ type: 'start', initiative: { ana: 3, bren: 4 } });
      await table.goto(url(r, r.tokens.table));
      await poll(() => timedMarkers(table)).toEqual(['timed: Lair action (every 6 ticks) (planned)']);
      // Ana moves (tick 3 → 6), then Bren (tick 4 → 7): the counter reaches 6, the lair action fires.
      await command({ type: 'act', actor: 'ana', action: 'move' });
      await poll(() => table.getByTestId('timed-fired').count()).toBe(0);
      await command({ type: 'act', actor: 'bren', action: 'move' });
      await expect
        .poll(() => table.getByTestId('timed-fired').textContent())
        .toBe('Lair action (every 6 ticks)');
      await poll(() => table.getByTestId('current-actor').textContent()).toContain('Ana');
      // Its next moment: tick 12, on the table's timeline.
      await poll(() => timedMarkers(table)).toEqual(['timed: Lair action (every 6 ticks) (planned)']);
      expect(await table.getByRole('region', { name: 'Order' }).textContent()).not.toContain('Lair');
    } finally {
      await ctx.close();
    }
  });
  it('tara-corax: Mark 10 each round — fires as the count passes Mark 10, on the timeline, the table and the phone', async () => {
    // Ana: Initiative 10 + 5 = Score 15; Bo: 5 + 3 = Score 8 (the d10s rolled at the table).
    const r = (await create({
      name: 'Tara lair',
      ruleset: 'tara-corax',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 10 } },
        { id: 'bo', name: 'Bo', side: 'npc', stats: { initiative: 5 } },
      ],
    })) as Created & { tokens: { players: Record<string, string> } };
    const command = (cmd: Record<string, unknown>) =>
      api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, { command: cmd });
    const ctx = await env.browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const phones = await env.browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const gm = await ctx.newPage();
      await gm.goto(url(r, r.tokens.gm));
      await drawn(gm);
      await poll(() => gm.getByTestId('connection').textContent(), { timeout: 15_000 }).toBe('live');
      // Said once: the Mark's words already say how often.
      await addTimed(gm, '10', 'Mark 10 each round');
      await command({ type: 'start', rolls: { ana: 5, bo: 3 } });
      const table = await ctx.newPage();
      await table.goto(url(r, r.tokens.table));
      const phone = await phones.newPage();
      await phone.goto(url(r, r.tokens.players.ana!));
      for (const page of [gm, table, phone]) {
        await drawn(page);
        await poll(() => timedMarkers(page)).toEqual(['timed: Lair action (Mark 10 each round) (planned)']);
      }
      expect(await phone.getByTestId('timed-fired').count()).toBe(0);
      // Ana acts at Mark 15; next is Bo at Mark 8: the count passes Mark 10 and the lair action fires.
      await command({ type: 'next' });
      for (const page of [table, phone]) {
        await poll(() => page.getByTestId('timed-fired').textContent()).toBe(
          'Lair action (Mark 10 each round)',
        );
        await poll(() => timedMarkers(page)).toEqual(['timed: Lair action (Mark 10 each round)']);
      }
      await poll(() => gm.getByTestId('timed-fired').textContent()).toBe(
        'Lair action: the ceiling cracks (Mark 10 each round)',
      );
      expect(await phone.locator('main').textContent()).not.toContain('ceiling');
      await poll(() => table.getByTestId('current-actor').textContent()).toContain('Bo');
    } finally {
      await ctx.close();
      await phones.close();
    }
  });
});
