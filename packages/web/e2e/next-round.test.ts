import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd } from './harness.js';

/**
 * "Next round: …" on the GM's page and the table screen where the rules already fix the next round's order
 * (classic: the same initiative), names told apart and the hidden combatant left out on the table; and
 * nothing where it is rolled again (tara-corax rolls every Round).
 */
/** The machine may be loaded: a change is waited for up to 10 s. */
const poll: typeof expect.poll = (f, options) => expect.poll(f, { timeout: 10_000, ...options });
const env = endToEnd();
const api = apiOf(() => env.server);

type Created = { encounter: { id: string }; tokens: { gm: string; table: string } };

/** The line as read (the names' isolating marks taken out), or null when there is none. */
const said = async (page: import('playwright-core').Page) => {
  const line = page.getByTestId('next-round');
  if (!(await line.count())) return null;
  return ((await line.textContent()) ?? '').replace(/[\u2066-\u2069]/g, '');
};

describe('next round’s order', () => {
  it('classic: the same order, on the GM page and (without the hidden spy) on the table screen', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Preview',
      ruleset: 'classic',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
        { id: 'g1', name: 'Goblin', side: 'npc', hp: 7 },
        { id: 'g2', name: 'Goblin', side: 'npc', hp: 7 },
        { id: 'spy', name: 'Spy', side: 'npc', hp: 9, hidden: true },
      ],
    })) as Created;
    const command = (cmd: Record<string, unknown>) =>
      api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, { command: cmd });
    const url = (token: string) =>
      `${env.server.url}/e/${encodeURIComponent(r.encounter.id)}?token=${encodeURIComponent(token)}`;
    const ctx = await env.browser.newContext({ viewport: { width: 1600, height: 1000 } });
    try {
      const gm = await ctx.newPage();
      const table = await ctx.newPage();
      await gm.goto(url(r.tokens.gm));
      await table.goto(url(r.tokens.table));
      await drawn(table);
      for (const page of [gm, table])
        await expect
          .poll(() => page.getByTestId('connection').textContent(), { timeout: 15_000 })
          .toBe('live');
      // Before the fight nobody has a place: nothing.
      expect(await said(gm)).toBeNull();
      await command({ type: 'start', initiative: { ana: 12, g1: 15, g2: 9, spy: 20 } });
      await poll(() => said(gm)).toBe('Next round: Spy, Goblin, Ana, Goblin 2');
      await poll(() => said(table)).toBe('Next round: Goblin, Ana, Goblin 2');
      // Ana delays: she has no place in the next round until she comes back.
      await command({ type: 'next' });
      await command({ type: 'next' });
      await command({ type: 'delay', actor: 'ana' });
      await poll(() => said(table)).toBe('Next round: Goblin, Goblin 2');
      await command({ type: 'end' });
      await poll(() => gm.getByTestId('clock').textContent()).toMatch(/ended/i);
      await poll(() => said(gm)).toBeNull();
    } finally {
      await ctx.close();
    }
  });

  it('tara-corax: rolled every Round, so nothing is said', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Marks',
      ruleset: 'tara-corax',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 10 } },
        { id: 'bo', name: 'Bo', side: 'npc', stats: { initiative: 5 } },
      ],
    })) as Created;
    await api('POST', `/api/encounters/${r.encounter.id}/commands`, r.tokens.gm, {
      command: { type: 'start' },
    });
    const ctx = await env.browser.newContext({ viewport: { width: 1600, height: 1000 } });
    try {
      const gm = await ctx.newPage();
      await gm.goto(
        `${env.server.url}/e/${encodeURIComponent(r.encounter.id)}?token=${encodeURIComponent(r.tokens.gm)}`,
      );
      await poll(() => gm.getByTestId('turn-timer').count(), { timeout: 15_000 }).toBe(1);
      expect(await said(gm)).toBeNull();
    } finally {
      await ctx.close();
    }
  });
});
