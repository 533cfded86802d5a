import { isValidElement } from 'react';
import { describe, expect, it } from 'vitest';
import { breakable } from './ActionItem.js';

describe('breakable', () => {
  it('allows a line break after each slash of a name, and adds no text', () => {
    const out = breakable('Ready/stow weapon/ammo') as unknown[];
    expect(out.filter((p) => typeof p === 'string').join('')).toBe('Ready/stow weapon/ammo');
    const breaks = out.filter((p) => isValidElement(p));
    expect(breaks.map((b) => (isValidElement(b) ? b.type : null))).toEqual(['wbr', 'wbr']);
    // Each break right after its slash.
    expect(out.indexOf(breaks[0])).toBe(out.indexOf('/') + 1);
    // Keys that differ, so React can tell the breaks apart.
    expect(new Set(breaks.map((b) => (isValidElement(b) ? b.key : null))).size).toBe(2);
  });

  it('leaves a name without a slash as it is', () => {
    expect(breakable('Cast a Spell')).toBe('Cast a Spell');
  });
});
