/**
 * Renders the app's PNG icons from their SVG sources with Chromium (playwright-core), at the sizes the
 * web app manifest names: `node packages/web/scripts/icons.ts` after changing an SVG in public/icons/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const dir = join(import.meta.dirname, '../public/icons');
const renders: { svg: string; size: number; out: string }[] = [
  { svg: 'icon.svg', size: 192, out: 'icon-192.png' },
  { svg: 'icon.svg', size: 512, out: 'icon-512.png' },
  { svg: 'icon.svg', size: 180, out: 'apple-touch-icon.png' },
  { svg: 'maskable.svg', size: 512, out: 'maskable-512.png' },
];

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  for (const { svg, size, out } of renders) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const data = Buffer.from(readFileSync(join(dir, svg))).toString('base64');
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}img{display:block}</style><img src="data:image/svg+xml;base64,${data}" width="${size}" height="${size}">`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    writeFileSync(join(dir, out), await page.screenshot({ omitBackground: true }));
    await page.close();
  }
} finally {
  await browser.close();
}
