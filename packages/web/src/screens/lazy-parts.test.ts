import { describe, expect, it } from 'vitest';
import { chunkUrl, partName } from './lazy-parts.js';
import { isLoadFailure } from './load-failure.js';

describe('a failed lazy part', () => {
  const chromium = new TypeError(
    'Failed to fetch dynamically imported module: http://localhost:8080/assets/CardMenu-D6ijboSo.js',
  );
  const firefox = new TypeError(
    'error loading dynamically imported module: https://rk.example/assets/TimelineView-Bu7SJMGw.js',
  );
  const safari = new TypeError('Importing a module script failed.');

  it('is a load failure in each browser’s words, and another error is not', () => {
    for (const e of [chromium, firefox, safari]) expect(isLoadFailure(e)).toBe(true);
    expect(isLoadFailure(new Error('Cannot read properties of undefined'))).toBe(false);
  });

  it('names the chunk’s address where the message gives it', () => {
    expect(chunkUrl(chromium)).toBe('http://localhost:8080/assets/CardMenu-D6ijboSo.js');
    expect(chunkUrl(firefox)).toBe('https://rk.example/assets/TimelineView-Bu7SJMGw.js');
    expect(chunkUrl(safari)).toBeUndefined();
  });

  it('says which part by its chunk’s name, else "This part of the page"', () => {
    expect(partName(chromium)).toBe('This card’s menu');
    expect(partName(firefox)).toBe('The timeline');
    expect(partName(safari)).toBe('This part of the page');
    expect(
      partName(
        new TypeError('Failed to fetch dynamically imported module: http://h/assets/help-dialog-VH0wnTAc.js'),
      ),
    ).toBe('The keyboard help');
    expect(
      partName(
        new TypeError('Failed to fetch dynamically imported module: http://h/assets/KeyPrompt-UiIp-JUZ.js'),
      ),
    ).toBe('The key prompt');
    expect(
      partName(
        new TypeError('Failed to fetch dynamically imported module: http://h/assets/storage-CIDOKZnG.js'),
      ),
    ).toBe('This part of the page');
  });
});
