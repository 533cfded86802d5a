import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type ServerProcess, startServerProcess, tempDir } from './test-process.js';

// Issue 32: the table's and players' pages may be framed by the origins a GM lists
// (`--frame-ancestors`); by default, and for the GM's page always, nothing may frame any page. Checked
// in Chromium with a page on another loopback origin, both ways.

interface Created {
  encounter: { id: string };
  tokens: { gm: string; table: string; players: Record<string, string> };
}

const MARKER = 'framed roundkeeper page';
let embedder: Server;
let embedderOrigin: string;
let browser: Browser;
let listed: ServerProcess;
let plain: ServerProcess;

beforeAll(async () => {
  embedder = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><title>scene</title><iframe id="f" src="${src.replace(/"/g, '&quot;')}"></iframe>`,
    );
  });
  await new Promise<void>((r) => embedder.listen(0, '127.0.0.1', () => r()));
  embedderOrigin = `http://127.0.0.1:${(embedder.address() as AddressInfo).port}`;
  const web = tempDir();
  writeFileSync(join(web, 'index.html'), `<!doctype html><title>${MARKER}</title><p>${MARKER}</p>`);
  const base = ['--rate-limit', '0', '--web-root', web];
  listed = await startServerProcess(undefined, [
    ...base,
    '--frame-ancestors',
    `${embedderOrigin},https://vtt.example`,
  ]);
  plain = await startServerProcess(undefined, base);
  browser = await chromium.launch({
    executablePath: ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p)),
    args: ['--no-sandbox'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await listed?.stop();
  await plain?.stop();
  embedder?.close();
});

async function create(server: ServerProcess): Promise<Created> {
  const r = await api(server.url, 'POST', '/api/encounters', {
    name: 'Scene',
    ruleset: 'classic',
    combatants: [{ id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 } }],
  });
  return r.body as Created;
}

/** Whether Chromium shows the page `src` inside the embedder's frame. */
async function shownInFrame(src: string): Promise<boolean> {
  const page = await browser.newPage();
  try {
    await page.goto(`${embedderOrigin}/?src=${encodeURIComponent(src)}`, { waitUntil: 'load' });
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (!frame) return false;
    await frame.waitForLoadState('load').catch(() => undefined);
    const text = await frame
      .locator('body')
      .textContent({ timeout: 2_000 })
      .catch(() => '');
    return (text ?? '').includes(MARKER);
  } finally {
    await page.close();
  }
}

describe('--frame-ancestors', () => {
  it("lets a listed origin frame the table's and a player's pages, never the GM's", async () => {
    const c = await create(listed);
    const page = (token: string) => `${listed.url}/e/${c.encounter.id}?token=${token}`;
    expect(await shownInFrame(page(c.tokens.table))).toBe(true);
    expect(await shownInFrame(page(c.tokens.players.ana!))).toBe(true);
    expect(await shownInFrame(page(c.tokens.gm))).toBe(false);
    expect(await shownInFrame(`${listed.url}/`)).toBe(false);
    // A table token for another encounter's page does not open the frame either.
    const other = await create(listed);
    expect(await shownInFrame(`${listed.url}/e/${other.encounter.id}?token=${c.tokens.table}`)).toBe(false);
  });

  it('names the listed origins in the header, and leaves out X-Frame-Options only there', async () => {
    const c = await create(listed);
    const table = await fetch(`${listed.url}/e/${c.encounter.id}?token=${c.tokens.table}`);
    expect(table.headers.get('content-security-policy')).toContain(
      `frame-ancestors ${embedderOrigin} https://vtt.example`,
    );
    expect(table.headers.get('x-frame-options')).toBeNull();
    const gm = await fetch(`${listed.url}/e/${c.encounter.id}?token=${c.tokens.gm}`);
    expect(gm.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(gm.headers.get('x-frame-options')).toBe('DENY');
  });

  it('by default no page may be framed, the table’s neither', async () => {
    const c = await create(plain);
    expect(await shownInFrame(`${plain.url}/e/${c.encounter.id}?token=${c.tokens.table}`)).toBe(false);
    const r = await fetch(`${plain.url}/e/${c.encounter.id}?token=${c.tokens.table}`);
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
