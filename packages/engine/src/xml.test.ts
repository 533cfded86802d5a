import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeXml } from './xml.js';

describe('escapeXml', () => {
  it('escapes the five characters XML reserves', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;',
    );
  });

  it('leaves no markup character behind, and reads back to the same text', () => {
    const readBack = (s: string) =>
      s.replace(
        /&(amp|lt|gt|quot|apos);/g,
        (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e] ?? '',
      );
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = escapeXml(s);
        expect(out).not.toMatch(/[<>"']/);
        expect(out).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
        expect(readBack(out)).toBe(s);
      }),
    );
  });
});
