import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, endToEnd, shots } from './harness.js';

/**
 * The turn timer on the GM's page, the table screen and the acting player's phone, with the browsers'
 * clocks under the test's control (Playwright's `clock`): it counts from the turn's start as the server
 * stamped it, a phone whose clock is ten minutes fast still reads the turn's own time (a page opened in
 * the middle of the turn as soon as a change has told it the clocks' offset), the GM's limit
 * (this browser's, so the table screen beside it follows it) turns it warm when passed, and it is not
 * shown before the fight, on another's turn on a phone, nor on the table during a hidden combatant's turn.
 */
/** The machine may be loaded: a change is waited for up to 10 s. */
const poll: typeof expect.poll = (f, options) => expect.poll(f, { timeout: 10_000, ...options });
const env = endToEnd();
const api = apiOf(() => env.server);

type Created = {
  encounter: { id: string };
  tokens: { gm: string; table: string; players: Record<string, string> };
};

describe('the turn timer', () => {
  it('counts the turn on three screens, corrects a fast clock, and signals the limit', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Timer',
      ruleset: 'classic',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
        { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
        { id: 'spy', name: 'Spy', side: 'npc', hp: 10, hidden: true },
      ],
    })) as Created;
    const command = (cmd: Record<string, unknown>) =>
      api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, { command: cmd });
    const url = (token: string) =>
      `${env.server.url}/e/${encodeURIComponent(r.encounter.id)}?token=${encodeURIComponent(token)}`;
    // The GM's laptop (the GM's page and the table screen on its second monitor) keeps good time; Ana's
    // phone is ten minutes fast.
    const laptop = await env.browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const phone = await env.browser.newContext({ viewport: { width: 360, height: 740 } });
    const contexts: BrowserContext[] = [laptop, phone];
    await laptop.clock.install({ time: Date.now() });
    await phone.clock.install({ time: Date.now() + 600_000 });
    try {
      const gm = await laptop.newPage();
      const table = await laptop.newPage();
      const ana = await phone.newPage();
      await gm.goto(url(r.tokens.gm));
      await table.goto(url(r.tokens.table));
      await ana.goto(url(r.tokens.players.ana!));
      for (const page of [gm, table, ana])
        await expect
          .poll(() => page.getByTestId('connection').textContent(), { timeout: 15_000 })
          .toBe('live');
      // Before the fight: no turn, no timer.
      for (const page of [gm, table, ana]) expect(await page.getByTestId('turn-timer').count()).toBe(0);
      await command({ type: 'start', initiative: { ana: 20, orc: 12, spy: 5 } });
      const time = (page: typeof gm) => page.getByTestId('turn-time').textContent();
      for (const page of [gm, table]) await poll(() => time(page)).toMatch(/^0:0[0-2]$/);
      // A second page on the phone, opened with the turn under way: it has seen nothing arrive yet, so it
      // takes its clock for the server's (ten minutes off), until the next change tells it the offset.
      const late = await phone.newPage();
      await late.goto(url(r.tokens.players.ana!));
      await poll(() => time(late), { timeout: 15_000 }).toMatch(/^10:/);
      await command({ type: 'damage', combatant: 'ana', amount: 1 });
      for (const page of [ana, late]) await poll(() => time(page)).toMatch(/^0:0[0-3]$/);
      expect(await ana.getByRole('timer', { name: 'Time of Ana’s turn' }).count()).toBe(1);
      // 65 seconds later, on every screen (the phone's ten minutes ahead are not counted).
      await laptop.clock.fastForward(65_000);
      await phone.clock.fastForward(65_000);
      for (const page of [gm, table]) await poll(() => time(page)).toMatch(/^1:0[5-7]$/);
      for (const page of [ana, late]) await poll(() => time(page)).toMatch(/^1:0[5-8]$/);
      // No limit yet: nothing warm. The GM picks one minute: past it, on the GM's page and the table's.
      expect(await gm.locator('.turn-timer.over').count()).toBe(0);
      await gm.getByLabel('Turn limit').selectOption({ label: '1 min' });
      for (const page of [gm, table]) {
        await poll(() => page.locator('.turn-timer.over').count()).toBe(1);
        expect(await page.getByTestId('turn-timer').textContent()).toContain('over the limit of 1 min');
      }
      expect(await ana.locator('.turn-timer.over').count()).toBe(0);
      await gm.screenshot({ path: join(shots, 'turn-timer-gm.png') });
      await table.screenshot({ path: join(shots, 'turn-timer-table.png') });
      await ana.screenshot({ path: join(shots, 'turn-timer-phone.png') });
      // The Orc's turn: the count starts again; Ana's phone shows nothing on another's turn.
      await command({ type: 'next' });
      for (const page of [gm, table]) {
        await poll(() => time(page)).toMatch(/^0:0[0-2]$/);
        expect(await page.locator('.turn-timer.over').count()).toBe(0);
      }
      await poll(() => ana.getByTestId('turn-timer').count()).toBe(0);
      await laptop.clock.fastForward(20_000);
      await poll(() => time(gm)).toMatch(/^0:2[0-2]$/);
      // The hidden spy's turn: the GM's page times it, the table shows no timer.
      await command({ type: 'next' });
      await poll(() => gm.getByRole('timer', { name: 'Time of Spy’s turn' }).count()).toBe(1);
      await poll(() => table.getByTestId('turn-timer').count()).toBe(0);
      // Back to Ana in round 2: her phone times her turn again, from its start.
      await command({ type: 'next' });
      await poll(() => time(ana)).toMatch(/^0:0[0-2]$/);
      // The fight ends: no turn, no timer.
      await command({ type: 'end' });
      for (const page of [gm, table, ana]) await poll(() => page.getByTestId('turn-timer').count()).toBe(0);
    } finally {
      for (const c of contexts) await c.close();
    }
  });
});
