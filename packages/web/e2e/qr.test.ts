import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import pngjs from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { api, type ServerProcess, startServerProcess } from '../../server/src/test-process.js';
import { ensureBuilt, launchBrowser, patient, shots } from './harness.js';

/**
 * End to end, players at the table: on a server started with --lan, the GM's page (open on the laptop at
 * 127.0.0.1) shows a QR code beside the table link and each player's link, and a QR reader finds the very
 * link in the pixels the screen shows — a link at the address phones reach, not the laptop's loopback.
 */

/**
 * What a phone's camera app reads: the QR code in a PNG of the screen, decoded by ZXing's C++ reader (the
 * decoder phone apps embed; the pure-JavaScript port misses some valid codes). The WebAssembly comes from
 * the installed package, not the network.
 */
async function readQrCode(png: Buffer): Promise<string> {
  const image = pngjs.PNG.sync.read(png);
  const found = await readBarcodes(
    { data: new Uint8ClampedArray(image.data), width: image.width, height: image.height, colorSpace: 'srgb' },
    { formats: ['QRCode'] },
  );
  expect(found.length, 'one QR code in the picture').toBe(1);
  return found[0]!.text;
}

let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  patient();
  ensureBuilt();
  const wasm = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
  prepareZXingModule({ overrides: { wasmBinary: readFileSync(wasm).buffer as ArrayBuffer } });
  server = await startServerProcess(undefined, ['--rate-limit', '0', '--lan']);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('share links as QR codes', () => {
  it('each link on the GM page has a QR code that decodes to that link, at an address phones reach', async () => {
    const created = (
      await api(server.url, 'POST', '/api/encounters', {
        name: 'Phones at the table',
        ruleset: 'classic',
        combatants: [
          { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 2 } },
          { id: 'bren', name: 'Bren', side: 'pc', stats: { initiative: 1 } },
          { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 } },
        ],
      })
    ).body as { encounter: { id: string }; tokens: { gm: string } };
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2 });
    await page.goto(`${server.url}/e/${created.encounter.id}?token=${created.tokens.gm}`);
    const share = page.getByRole('region', { name: 'Share and export' });
    await share.getByRole('button', { name: 'Show links' }).click();
    const items = share.getByTestId('links').locator('li');
    await expect.poll(() => items.count()).toBe(3);

    // Where phones go: the first address the server printed (the page itself is open at the loopback).
    const lanOrigin = /open: (http:\/\/\S+)/.exec(server.stdout())?.[1];
    const decoded: string[] = [];
    for (let i = 0; i < 3; i++) {
      const item = items.nth(i);
      const href = (await item.locator('a').getAttribute('href'))!;
      const code = item.getByRole('img', { name: /^QR code of / });
      await code.scrollIntoViewIfNeeded();
      const text = await readQrCode(await code.screenshot());
      expect(text).toBe(href);
      if (lanOrigin) expect(href.startsWith(`${lanOrigin}/e/`)).toBe(true);
      decoded.push(text);
    }
    expect(new Set(decoded).size).toBe(3);
    await share.screenshot({ path: join(shots, 'share-qr-codes.png') });
    await page.close();
  });
});
