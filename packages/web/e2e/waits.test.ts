import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOADED_MS, patient } from './harness.js';

/**
 * The browser tests wait for what they read, not vitest's 1 s: on a loaded machine a page's first draw
 * or its drawing of a change takes longer, and a poll that gives up after 1 s fails a sound page.
 */
const files = readdirSync(import.meta.dirname).filter((f) => f.endsWith('.test.ts') && f !== 'waits.test.ts');

describe('e2e waits', () => {
  it('every file that polls the page waits as long as a loaded machine needs', () => {
    const impatient = files.filter((f) => {
      const src = readFileSync(`${import.meta.dirname}/${f}`, 'utf8');
      return src.includes('expect.poll(') && !/\bendToEnd\(\)|\bpatient\(\)/.test(src);
    });
    expect(impatient).toEqual([]);
  });

  it('after patient(), a poll outlasts vitest’s 1 s default', async () => {
    patient();
    const ready = Date.now() + 1_500;
    await expect.poll(() => Date.now() >= ready).toBe(true);
    expect(LOADED_MS).toBeGreaterThanOrEqual(10_000);
  });
});
