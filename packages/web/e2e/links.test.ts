import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type ServerProcess, startServerProcess } from '../../server/src/test-process.js';
import { drawn, ensureBuilt, launchBrowser, patient, shots } from './harness.js';

/**
 * End to end, the GM revokes and replaces a player's link from the share panel: the phone holding the old
 * link is told so and stops, the new link works, and the GM's own link can be replaced too (the page moves
 * to the new one).
 */
let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  patient();
  ensureBuilt();
  server = await startServerProcess(undefined, ['--rate-limit', '0']);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('revoking and replacing links from the GM page', () => {
  it('revokes a player link (the phone is told), gives a new one that works, and replaces the GM link', async () => {
    const created = (
      await api(server.url, 'POST', '/api/encounters', {
        name: 'Lost phone',
        ruleset: 'classic',
        combatants: [
          { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 2 } },
          { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 } },
        ],
      })
    ).body as { encounter: { id: string }; tokens: { gm: string; players: Record<string, string> } };
    const id = created.encounter.id;
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await phone.goto(`${server.url}/e/${id}?token=${created.tokens.players.ana}`);
    await drawn(phone);
    await expect.poll(() => phone.getByText('Ana').first().isVisible()).toBe(true);

    const gm = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    gm.on('dialog', (d) => void d.accept());
    await gm.goto(`${server.url}/e/${id}?token=${created.tokens.gm}`);
    const share = gm.getByRole('region', { name: 'Share and export' });
    await share.getByRole('button', { name: 'Show links' }).click();
    const ana = share.getByTestId('links').locator('li', { hasText: 'Ana' });
    await ana.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => ana.textContent()).toContain('revoked');

    // The phone with the old link is told, and the old token opens nothing.
    await expect
      .poll(() => phone.getByText('The GM revoked this link').isVisible(), { timeout: 10_000 })
      .toBe(true);
    const old = await api(server.url, 'GET', `/api/encounters/${id}`, undefined, created.tokens.players.ana);
    expect(old.status).toBe(401);

    // A new link replaces it and opens Ana's page.
    await ana.getByRole('button', { name: 'New link' }).click();
    const fresh = ana.getByRole('link', { name: 'Player: Ana' });
    await expect.poll(() => fresh.isVisible()).toBe(true);
    const href = (await fresh.getAttribute('href'))!;
    expect(href).not.toContain(created.tokens.players.ana);
    const phone2 = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await phone2.goto(href);
    await drawn(phone2);
    await expect.poll(() => phone2.getByRole('heading', { name: /Ana/ }).first().isVisible()).toBe(true);
    await share.screenshot({ path: join(shots, 'links-revoked-and-replaced.png') });

    // The GM link: the page moves to the new one; the old GM token opens nothing.
    await share.getByRole('button', { name: /New GM link/ }).click();
    await expect.poll(() => gm.url()).not.toContain(created.tokens.gm);
    const oldGm = await api(server.url, 'GET', `/api/encounters/${id}`, undefined, created.tokens.gm);
    expect(oldGm.status).toBe(401);
    await expect.poll(() => gm.getByRole('region', { name: 'Share and export' }).isVisible()).toBe(true);
  });
});
