import type { WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiOf, drawn, endToEnd } from './harness.js';

/**
 * End to end, the web app's live view: each `change` carries a delta of the view the page holds; a change
 * that does not follow it (one missed, or a delta that does not fit) makes the page reconnect from the
 * view it holds, which sends the whole view again.
 */
const env = endToEnd();

const api = apiOf(() => env.server);

describe('live updates in the web app', () => {
  it('a missed change or a delta that does not fit: the page asks for the whole view again and shows the turn', async () => {
    const r = (await api('POST', '/api/encounters', null, {
      name: 'Gaps',
      ruleset: 'classic',
      seed: 3,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', hp: 24 },
        { id: 'raven', name: 'Raven mage', side: 'npc', hp: 18 },
        { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
      ],
    })) as { encounter: { id: string }; tokens: { gm: string; table: string } };
    const id = r.encounter.id;
    const command = (cmd: Record<string, unknown>) =>
      api('POST', `/api/encounters/${id}/commands`, r.tokens.gm, { command: cmd });
    await command({ type: 'start', initiative: { ana: 20, raven: 15, orc: 10 } });
    const ctx = await env.browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await ctx.newPage();
    // Between the page and the server: the first connection loses its first change, the second one
    // gets its first change's delta spoiled; the third is left alone.
    let connections = 0;
    const received: string[] = [];
    await page.routeWebSocket(/\/live\?/, (ws: WebSocketRoute) => {
      const n = ++connections;
      let changes = 0;
      const server = ws.connectToServer();
      server.onMessage((message) => {
        const text = String(message);
        if (text.startsWith('{"type":"change"')) {
          changes++;
          if (n === 1 && changes === 1) return;
          if (n === 2 && changes === 1) {
            const m = JSON.parse(text) as Record<string, unknown>;
            ws.send(JSON.stringify({ ...m, delta: { combatants: { nobody: { hp: [1] } } } }));
            return;
          }
        }
        received.push(text.slice(0, 40));
        ws.send(message);
      });
      ws.onMessage((message) => server.send(message));
    });
    const actor = async () => (await page.getByTestId('current-actor').textContent()) ?? '';
    try {
      await page.goto(
        `${env.server.url}/e/${encodeURIComponent(id)}?token=${encodeURIComponent(r.tokens.table)}`,
      );
      await drawn(page);
      await expect.poll(actor).toContain('Ana');
      // The page is live (its socket said hello) before the GM goes on.
      await expect.poll(() => received.length).toBe(1);
      await command({ type: 'next' }); // the Raven mage: lost on the way
      await command({ type: 'next' }); // the Orc: does not follow the view held, so the page reconnects
      await expect.poll(actor, { timeout: 10_000 }).toContain('Orc');
      expect(connections).toBe(2);
      await command({ type: 'next' }); // Round 2, Ana: a delta that does not fit, so again
      await expect.poll(actor, { timeout: 10_000 }).toContain('Ana');
      expect(connections).toBe(3);
      await command({ type: 'next' }); // the Raven mage, by its delta on the third connection
      await expect.poll(actor).toContain('Raven');
      expect(connections).toBe(3);
      expect(received.filter((t) => t.startsWith('{"type":"hello"'))).toHaveLength(3);
    } finally {
      await ctx.close();
    }
  });
});
