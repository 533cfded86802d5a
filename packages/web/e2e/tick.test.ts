import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { apiOf, drawn, endToEnd, repo, shots } from './harness.js';

/**
 * The seventh ruleset, `tick`, played on the web page. Its worked example `casting.yaml`, imported on the
 * home page without its steps and played with clicks and typing only (casting and aiming times in the
 * actions' forms, a condition for 3 ticks, an interrupt from the command form), ends in the state
 * `roundkeeper run` reaches. And a fight from scratch: an
 * encounter created on the home page, a PC and a creature from the library's examples, the fight
 * started with the keyboard, a spell cast with its casting time entered in the palette's form, attacks
 * clicked, Next (the acting combatant waits) and Act now from the command form; the exported scenario,
 * replayed on the server, reaches the same state.
 */
const env = endToEnd();

const text = async (page: Page, id: string) => (await page.getByTestId(id).textContent()) ?? '';

async function gmState(id: string, token: string): Promise<Record<string, unknown>> {
  const r = await fetch(`${env.server.url}/api/encounters/${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await r.json()) as { state: Record<string, unknown> }).state;
}

function essence(state: Record<string, unknown>): unknown {
  const { combatants, roster, round, current, effects, agenda, status, now } = state;
  return { combatants, roster, round, current, effects, agenda, status, now };
}

/** The tick the clock reads ("Tick 7"). */
async function tickOf(page: Page): Promise<number> {
  const m = /^Tick (\d+)/.exec(await text(page, 'clock'));
  if (!m) throw new Error(`The clock does not read a tick: ${await text(page, 'clock')}`);
  return Number(m[1]);
}

/** The acting combatant's name, from the headline ("Ana's turn"). */
async function actor(page: Page): Promise<string> {
  return (await text(page, 'current-actor')).replace(/'s turn$/, '');
}

/** Picks the palette's target (no target: ''), for the actions that aim at someone. */
async function aimAt(page: Page, name: string): Promise<void> {
  await page.locator('section.palette .panel-head select').selectOption({ label: name });
}

/** Clicks an action of the palette and waits for the answer. */
async function click(page: Page, action: string): Promise<void> {
  const before = `${await text(page, 'clock')}|${await actor(page)}|${await page.getByTestId('log').textContent()}`;
  await page.locator(`section.palette button.action[data-action="${action}"]`).click();
  await expect
    .poll(
      async () =>
        `${await text(page, 'clock')}|${await actor(page)}|${await page.getByTestId('log').textContent()}`,
    )
    .not.toBe(before);
  expect(await text(page, 'status')).toMatch(/^Done/);
}

/** Opens an action's form, enters its ticks and sends it. */
async function withTicks(page: Page, action: string, field: string, ticks: number): Promise<void> {
  const who = await actor(page);
  await page
    .locator('section.palette')
    .getByRole('button', { name: `${action} with details` })
    .click();
  const form = page.getByRole('form', { name: `${action} for ${who}` });
  await form.getByLabel(field).fill(String(ticks));
  await form.getByRole('button', { name: action, exact: true }).click();
  await expect.poll(() => text(page, 'status')).toMatch(/^Done/);
}

describe('tick on the web page', () => {
  it('plays examples/tick/casting.yaml with clicks and typing only, to the state `roundkeeper run` reaches', async () => {
    const file = join(repo, 'examples/tick/casting.yaml');
    // The same fight set up (its combatants and scripted dice), imported on the home page; then every
    // accepted step played on the page. The refused steps change nothing and have no button to press.
    const setup = { ...(parse(readFileSync(file, 'utf8')) as Record<string, unknown>), commands: [] };
    const ran = JSON.parse(
      execFileSync(process.execPath, [join(repo, 'packages/cli/dist/main.js'), 'run', file, '--json'], {
        encoding: 'utf8',
      }),
    ) as { ok: boolean; state: Record<string, unknown> };
    expect(ran.ok).toBe(true);
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
    const gm = await ctx.newPage();
    try {
      await gm.goto(`${env.server.url}/`);
      await gm
        .getByRole('region', { name: 'New encounter' })
        .getByLabel('Import scenario (JSON or YAML)')
        .setInputFiles({
          name: 'casting.yaml',
          mimeType: 'application/yaml',
          buffer: Buffer.from(stringify(setup)),
        });
      await gm.waitForURL(/\/e\/[^/?]+\?token=/);
      await drawn(gm);
      const url = new URL(gm.url());
      const id = decodeURIComponent(url.pathname.split('/')[2]!);
      const token = url.searchParams.get('token')!;

      // The page is up and its live socket open before the GM's first key.
      await expect.poll(() => gm.getByTestId('connection').textContent()).toBe('live');
      await gm.locator('body').press('i');
      await expect.poll(() => text(gm, 'clock')).toBe('Tick 2');
      // The mage casts for 8 ticks at the goblin.
      await aimAt(gm, 'Goblin');
      await withTicks(gm, 'Cast a spell', 'Casting time (ticks)', 8);
      await expect.poll(() => actor(gm)).toBe('Goblin');
      // The goblin stabs the mage.
      await aimAt(gm, 'Mage');
      await click(gm, 'attack');
      // Behind cover for 3 ticks.
      const condition = gm
        .locator('section.gm-tools')
        .getByRole('form', { name: 'Add a condition to Goblin' });
      await condition.getByLabel('Condition').fill('Behind cover');
      await condition.getByLabel('Lasts').selectOption('units');
      await condition.getByLabel('ticks').fill('3');
      await condition.getByRole('button', { name: 'Add condition' }).click();
      await expect.poll(() => text(gm, 'status')).toMatch(/^Done: Behind cover on /);
      await click(gm, 'move');
      await expect.poll(() => actor(gm)).toBe('Mage');
      await aimAt(gm, 'Goblin');
      await click(gm, 'attack');
      // The goblin aims at the mage for 5 ticks; the GM interrupts it.
      await aimAt(gm, 'Mage');
      await withTicks(gm, 'Aim', 'Aim for (ticks)', 5);
      await expect.poll(() => actor(gm)).toBe('Mage');
      await gm
        .getByTestId('combatants')
        .locator('li.card', { hasText: 'Goblin' })
        .locator('button.card-name')
        .click();
      const other = gm.getByRole('form', { name: 'Other commands' });
      await other.getByTestId('command-type').selectOption({ label: 'Interrupt' });
      await other.getByRole('button', { name: 'Interrupt for Goblin' }).click();
      await expect.poll(() => text(gm, 'status')).toMatch(/^Done: Interrupt for Goblin/);
      await gm.getByRole('button', { name: 'Back to the acting combatant' }).click();
      await click(gm, 'move');
      await expect.poll(() => text(gm, 'clock')).toBe('Tick 17');

      expect(essence(await gmState(id, token))).toEqual(essence(ran.state));
    } finally {
      await ctx.close();
    }
  });

  it('a player holds from the phone: Next in the rules’ words for their own turn, not "End my turn"', async () => {
    const api = apiOf(() => env.server);
    const created = (await api('POST', '/api/encounters', null, {
      name: 'Hold',
      ruleset: 'tick',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
        { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string; players: Record<string, string> } };
    const id = created.encounter.id;
    // The GM sets the first ticks: Ana acts first.
    await api('POST', `/api/encounters/${id}/commands`, created.tokens.gm, {
      command: { type: 'start', initiative: { ana: 1, orc: 5 } },
    });
    const ctx = await env.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const phone = await ctx.newPage();
    try {
      await phone.goto(`${env.server.url}/e/${id}?token=${created.tokens.players.ana}`);
      await drawn(phone);
      await expect.poll(() => actor(phone)).toBe('Ana');
      expect(await phone.getByRole('button', { name: 'End my turn' }).count()).toBe(0);
      const hold = phone.getByRole('button', { name: 'Hold (wait)' });
      expect(await hold.getAttribute('title')).toBe(
        'Leave the timeline without spending ticks; step in later with Act now.',
      );
      await hold.click();
      await expect.poll(() => text(phone, 'status')).toBe('Done: Hold (wait) for Ana.');
      await expect.poll(() => actor(phone)).toBe('Orc');
      const state = await gmState(id, created.tokens.gm);
      const ana = (state.combatants as Record<string, { cs: { waiting?: boolean; at?: number | null } }>)
        .ana!;
      expect(ana.cs.waiting).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it('a fight on the tick timeline: casting time, attacks, waiting and stepping in, replayed from its export', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
    const gm = await ctx.newPage();
    try {
      await gm.goto(`${env.server.url}/`);
      const create = gm.getByRole('region', { name: 'New encounter' });
      await create.getByLabel('Name').fill('Ticks');
      await create.getByLabel('Ruleset').selectOption('tick');
      await create.getByRole('button', { name: 'Create encounter' }).click();
      await gm.waitForURL(/\/e\/[^/?]+\?token=/);
      await drawn(gm);
      const url = new URL(gm.url());
      const id = decodeURIComponent(url.pathname.split('/')[2]!);
      const token = url.searchParams.get('token')!;

      const add = gm.getByRole('region', { name: 'Add combatants' });
      await add.getByLabel('Name', { exact: true }).fill('Ana');
      await add.getByLabel('Side').selectOption('pc');
      await add.getByLabel('HP').fill('20');
      await add.getByRole('button', { name: 'Add', exact: true }).click();
      await expect.poll(() => text(gm, 'status')).toBe('Done: added 1 × Ana.');
      await add.locator('summary').filter({ hasText: 'Examples' }).click();
      await add.getByLabel('How many').fill('1');
      await add
        .getByRole('button', { name: /from the examples$/ })
        .first()
        .click();
      await expect.poll(() => gm.getByTestId('combatants').locator('li.card').count()).toBe(2);

      await gm.locator('body').press('i');
      await expect.poll(() => text(gm, 'clock')).toMatch(/^Tick \d+$/);
      const start = await tickOf(gm);

      // Rule 5: whoever acts first casts, with the casting time entered in the action's form.
      const caster = await actor(gm);
      const palette = gm.locator('section.palette');
      await palette.getByRole('button', { name: 'Cast a spell with details' }).click();
      const form = gm.getByRole('form', { name: `Cast a spell for ${caster}` });
      await form.getByLabel('Casting time (ticks)').fill('8');
      await form.getByRole('button', { name: 'Cast a spell', exact: true }).click();
      await expect.poll(() => text(gm, 'status')).toMatch(/^Done/);
      const card = gm.locator('li.card', { hasText: caster }).first();
      await expect.poll(() => card.textContent()).toContain(`until tick ${start + 8}`);

      // Rule 4: attacks clicked in the palette until the spell completes (the caster acts again).
      for (let i = 0; i < 10 && (await actor(gm)) !== caster; i++) {
        // Every action moves the counter on or hands the turn over.
        const where = async () => `${await text(gm, 'clock')}|${await actor(gm)}`;
        const before = await where();
        await gm.locator('section.palette button.action[data-action="attack"]').click();
        await expect.poll(where).not.toBe(before);
        expect(await text(gm, 'status')).toMatch(/^Done/);
      }
      expect(await actor(gm)).toBe(caster);
      expect(await tickOf(gm)).toBe(start + 8);
      await expect
        .poll(() => gm.getByTestId('log').textContent())
        .toContain(`${caster} completes Cast a spell.`);

      // Rule 5: Next makes the acting combatant wait; Act now, from the command form, steps back in.
      const waiter = await actor(gm);
      await gm.locator('body').press('n');
      await expect.poll(() => actor(gm)).not.toBe(waiter);
      await gm
        .getByTestId('combatants')
        .locator('li.card', { hasText: waiter })
        .locator('button.card-name')
        .click();
      const other = gm.getByRole('form', { name: 'Other commands' });
      await other.getByTestId('command-type').selectOption({ label: 'Act now' });
      await other.getByRole('button', { name: `Act now for ${waiter}` }).click();
      await expect.poll(() => actor(gm)).toBe(waiter);

      // Rule 6: a condition lasts a number of ticks; a clock without rounds offers no rounds.
      const condition = gm.locator('section.gm-tools').getByRole('form', { name: /^Add a condition to / });
      const lasts = condition.getByLabel('Lasts');
      expect(await lasts.locator('option').allTextContents()).not.toContain('for a number of rounds');
      await condition.getByLabel('Condition').fill('Dazed');
      await lasts.selectOption('units');
      await condition.getByLabel('ticks').fill('3');
      await condition.getByRole('button', { name: 'Add condition' }).click();
      await expect.poll(() => text(gm, 'status')).toMatch(/^Done: Dazed on /);
      await gm.screenshot({ path: join(shots, 'tick-gm-1280.png') });
      const timeline = gm.getByRole('region', { name: 'Timeline' });
      await timeline.scrollIntoViewIfNeeded();
      await timeline.screenshot({ path: join(shots, 'tick-timeline.png') });

      // The exported scenario, replayed on the server, reaches the same state.
      const exported = await fetch(
        `${env.server.url}/api/encounters/${encodeURIComponent(id)}/export?format=json`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const replay = await fetch(`${env.server.url}/api/encounters`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scenario: (await exported.json()) as unknown }),
      });
      expect(replay.status).toBe(201);
      const copy = (await replay.json()) as { encounter: { id: string }; tokens: { gm: string } };
      expect(essence(await gmState(copy.encounter.id, copy.tokens.gm))).toEqual(
        essence(await gmState(id, token)),
      );

      // The home page lists the fight by its tick (it has no round to name).
      await gm.goto(`${env.server.url}/`);
      await expect.poll(() => gm.getByTestId('fight').first().textContent()).toMatch(/^Tick \d+$/);
    } finally {
      await ctx.close();
    }
  });
});
