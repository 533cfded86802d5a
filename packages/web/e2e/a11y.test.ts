import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { drawn, endToEnd } from './harness.js';

/**
 * End to end, accessibility: every control has a label, text meets contrast on the dark theme, focus is
 * always drawn where it is, and the tracker works from the keyboard alone (the help dialog keeps the focus).
 */
const env = endToEnd();

async function clock(page: Page): Promise<string> {
  return (await page.getByTestId('clock').textContent()) ?? '';
}

async function setUp(page: Page): Promise<{ id: string; token: string }> {
  await page.goto(`${env.server.url}/`);
  const form = page.getByRole('region', { name: 'New encounter' });
  await form.getByLabel('Name').fill('Access');
  await form.getByLabel('Ruleset').selectOption('tara-corax');
  await form.getByRole('button', { name: 'Create encounter' }).click();
  await page.waitForURL(/\/e\/[^/?]+\?token=/);
  await drawn(page);
  const url = new URL(page.url());
  const id = decodeURIComponent(url.pathname.split('/')[2]!);
  const token = url.searchParams.get('token')!;
  for (const combatant of [
    { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
    { id: 'orc', name: 'Orc', side: 'npc', hp: 9, notes: 'weak to fire' },
  ]) {
    await fetch(`${env.server.url}/api/encounters/${id}/commands`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ command: { type: 'add-combatant', combatant } }),
    });
  }
  await expect.poll(() => page.getByTestId('combatants').locator('li.card').count()).toBe(2);
  return { id, token };
}

/** Controls with no accessible name: a label, aria-label(ledby), their text or a title. */
function unlabelled(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href]')) {
      const byIds = (el.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .map((i) => (i ? document.getElementById(i)?.textContent : ''))
        .join('');
      const labels =
        'labels' in el ? [...((el as HTMLInputElement).labels ?? [])].map((l) => l.textContent) : [];
      const name = [el.getAttribute('aria-label'), byIds, ...labels, el.textContent, el.getAttribute('title')]
        .join('')
        .trim();
      if (!name) out.push(el.outerHTML.slice(0, 120));
    }
    return out;
  });
}

/** Text (outside the timeline picture) whose contrast with what is behind it is below WCAG AA. */
function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type RGBA = [number, number, number, number];
    const parse = (c: string): RGBA => {
      const m = c.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0];
      return [m[0]!, m[1]!, m[2]!, m[3] ?? 1];
    };
    const over = (top: RGBA, under: RGBA): RGBA => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i]! * a + under[i]! * (1 - a)).concat(1) as RGBA;
    };
    const lum = (c: RGBA) => {
      const [r, g, b] = [0, 1, 2].map((i) => {
        const v = c[i]! / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const background = (el: Element): RGBA => {
      const layers: RGBA[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let c: RGBA = parse(getComputedStyle(document.body).backgroundColor);
      if (c[3] === 0) c = [11, 16, 32, 1];
      for (const l of layers.reverse()) c = over(l, c);
      return c;
    };
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !n.textContent?.trim()) continue;
      seen.add(el);
      if (el.closest('svg, .sr-only, option, [disabled], [aria-hidden="true"]')) continue;
      if (!el.checkVisibility({ opacityProperty: false, visibilityProperty: true })) continue;
      const style = getComputedStyle(el);
      let opacity = 1;
      for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      const bg = background(el);
      const fg = over([...parse(style.color).slice(0, 3), parse(style.color)[3] * opacity] as RGBA, bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = (hi! + 0.05) / (lo! + 0.05);
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        out.push(`${ratio.toFixed(2)} ${el.tagName}.${el.className}: ${n.textContent.trim().slice(0, 40)}`);
    }
    return out;
  });
}

/** Tabs through the page: every focused control must show the 3 px outline, on something visible. */
async function focusShown(page: Page, steps: number): Promise<string[]> {
  const out: string[] = [];
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < steps; i++) {
    await page.keyboard.press('Tab');
    const bad = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      // A visually hidden control (the scenario file input) shows its focus on its visible label.
      const shown = el.classList.contains('sr-only') ? ((el as HTMLInputElement).labels?.[0] ?? el) : el;
      const s = getComputedStyle(shown);
      const r = shown.getBoundingClientRect();
      const ok =
        s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) >= 2 && r.width > 4 && r.height > 4;
      return ok ? null : `${el.tagName} ${el.textContent?.trim().slice(0, 30) ?? ''} (${el.className})`;
    });
    if (bad) out.push(bad);
  }
  return out;
}

/**
 * Regions that scroll (content beyond their box, overflow auto or scroll) that the keyboard cannot reach:
 * neither focusable themselves (with a name) nor holding anything focusable (axe: scrollable-region-focusable).
 */
function unreachableScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const st = getComputedStyle(el);
      const scrolls =
        (/auto|scroll/.test(st.overflowY) && el.scrollHeight > el.clientHeight + 1) ||
        (/auto|scroll/.test(st.overflowX) && el.scrollWidth > el.clientWidth + 1);
      if (!scrolls || !el.checkVisibility()) continue;
      const named = Boolean(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby'));
      const inside = el.querySelector(
        'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])',
      );
      if ((el.tabIndex >= 0 && named) || inside) continue;
      out.push(`${el.tagName.toLowerCase()}.${el.className}`);
    }
    return out;
  });
}

describe('accessibility end to end', () => {
  it('labels every control, meets contrast and draws focus on the home page, the tracker and the player page', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const phone = await env.browser.newContext({ viewport: { width: 360, height: 780 }, isMobile: true });
    try {
      const page = await ctx.newPage();
      await page.goto(`${env.server.url}/`);
      expect(await unlabelled(page)).toEqual([]);
      expect(await lowContrast(page)).toEqual([]);
      expect(await focusShown(page, 8)).toEqual([]);

      const { id, token } = await setUp(page);
      await page.locator('body').press('i');
      await expect.poll(() => clock(page)).toContain('Round 1');
      expect(await unlabelled(page)).toEqual([]);
      expect(await lowContrast(page)).toEqual([]);
      expect(await focusShown(page, 40)).toEqual([]);

      const res = await fetch(`${env.server.url}/api/encounters/${id}/links`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const links = (await res.json()) as { players: { combatant: string; token: string }[] };
      const player = await phone.newPage();
      const ana = links.players.find((p) => p.combatant === 'ana')!;
      await player.goto(`${env.server.url}/e/${id}?token=${encodeURIComponent(ana.token)}`);
      await drawn(player);
      await expect.poll(() => clock(player)).toContain('Round 1');
      expect(await unlabelled(player)).toEqual([]);
      expect(await lowContrast(player)).toEqual([]);
      expect(await focusShown(player, 12)).toEqual([]);
    } finally {
      await ctx.close();
      await phone.close();
    }
  });

  it('a defeated card meets contrast; a long log scrolls by keyboard (GM and player pages)', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1440, height: 1000 } });
    try {
      const page = await ctx.newPage();
      const { id, token } = await setUp(page);
      await page.locator('body').press('i');
      await expect.poll(() => clock(page)).toContain('Round 1');
      const send = (command: unknown) =>
        fetch(`${env.server.url}/api/encounters/${id}/commands`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ command }),
        });
      for (let i = 0; i < 24; i++) {
        await send({ type: 'damage', combatant: 'ana', amount: 1 });
        await send({ type: 'heal', combatant: 'ana', amount: 1 });
      }
      expect((await send({ type: 'defeat', combatant: 'orc' })).status).toBe(200);
      await expect.poll(() => page.locator('li.card.out').count(), { timeout: 10_000 }).toBe(1);
      await expect
        .poll(() => page.getByTestId('log').evaluate((el) => el.scrollHeight > el.clientHeight))
        .toBe(true);
      expect(await lowContrast(page)).toEqual([]);
      expect(await unreachableScroll(page)).toEqual([]);
      const res = await fetch(`${env.server.url}/api/encounters/${id}/links`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const links = (await res.json()) as { players: { combatant: string; token: string }[] };
      const ana = links.players.find((p) => p.combatant === 'ana')!;
      const player = await ctx.newPage();
      await player.goto(`${env.server.url}/e/${id}?token=${encodeURIComponent(ana.token)}`);
      await drawn(player);
      await expect.poll(() => clock(player)).toContain('Round 1');
      expect(await lowContrast(player)).toEqual([]);
      expect(await unreachableScroll(player)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('the line naming the selected combatant never hides the control that has the focus', async () => {
    // The column scrolls under a sticky "Acting: …" line on a laptop; the page does on a narrower screen.
    for (const viewport of [
      { width: 1280, height: 720 },
      { width: 900, height: 700 },
    ]) {
      const ctx = await env.browser.newContext({ viewport });
      try {
        const page = await ctx.newPage();
        await setUp(page);
        await page.keyboard.press('i');
        await expect.poll(() => clock(page)).toContain('Round 1');
        // From the bottom of the GM tools back up through the palette with Shift+Tab: the column scrolls
        // each control into view, below the line.
        await page.locator('section.gm-tools details.editor summary').focus();
        let worst = 0;
        let seen = 0;
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Shift+Tab');
          const under = await page.evaluate(() => {
            const focused = document.activeElement;
            const bar = document.querySelector('[data-testid="acting-for"]');
            if (!focused || !bar || !focused.closest('.col.wide') || bar.contains(focused)) return null;
            return bar.getBoundingClientRect().bottom - focused.getBoundingClientRect().top;
          });
          if (under === null) continue;
          seen++;
          worst = Math.max(worst, under);
        }
        expect(seen).toBeGreaterThan(10);
        expect(worst, `${viewport.width}×${viewport.height}`).toBeLessThanOrEqual(0);
      } finally {
        await ctx.close();
      }
    }
  });

  it('works without a mouse: Tab to an action, Enter takes it; the help dialog keeps the focus', async () => {
    const ctx = await env.browser.newContext({ viewport: { width: 1440, height: 1000 } });
    try {
      const page = await ctx.newPage();
      await setUp(page);
      await page.keyboard.press('i');
      await expect.poll(() => clock(page)).toContain('Round 1');
      // Tab until an available palette action has the focus, then press Enter.
      let found = false;
      for (let i = 0; i < 80 && !found; i++) {
        await page.keyboard.press('Tab');
        found = await page.evaluate(
          () => document.activeElement?.matches('section.palette button.action:not(.unavailable)') ?? false,
        );
      }
      expect(found).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('status').textContent()).toMatch(/^Done: /);

      // `?` opens the help; Tab cycles inside it; Esc closes it and gives the focus back.
      // A quick Tab right after `?` (nothing waited for in between) already lands inside the dialog.
      await page.keyboard.press('?');
      await page.keyboard.press('Tab');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect.poll(() => dialog.count()).toBe(1);
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role=dialog]')))).toBe(true);
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role=dialog]')))).toBe(
          true,
        );
        await page.keyboard.press('Shift+Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role=dialog]')))).toBe(
          true,
        );
      }
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.matches('button.action') ?? false)).toBe(true);

      // The dialog takes the focus in the commit that draws it, before any frame: the runtime runs plain
      // effects only after the next frame, by when a quick keystroke may have moved the focus elsewhere.
      const focusedBeforeAFrame = await page.evaluate(async () => {
        window.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }));
        for (let i = 0; i < 10; i++) await Promise.resolve();
        return Boolean(document.activeElement?.closest('[role=dialog]'));
      });
      expect(focusedBeforeAFrame).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
