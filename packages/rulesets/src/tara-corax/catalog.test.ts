import type { ActionDef } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { infoOf, TARA_CATALOG } from './catalog.js';

describe('infoOf', () => {
  it('reads each action definition once: the same definition gets the same answer', () => {
    for (const action of TARA_CATALOG) expect(infoOf(action)).toBe(infoOf(action));
  });

  it('reads an edited custom action anew (an edit is a new definition)', () => {
    const shove: ActionDef = {
      id: 'shove',
      name: 'Shove',
      kind: 'quarter',
      cost: {},
      tags: [],
      text: '',
      data: { reactive: false },
    };
    expect(infoOf(shove)).toMatchObject({ marks: 5, category: 'quarter', flags: { reactive: false } });
    const edited: ActionDef = { ...shove, cost: { marks: 10 }, data: { reactive: true } };
    expect(infoOf(edited)).toMatchObject({ marks: 10, category: 'half', flags: { reactive: true } });
    expect(infoOf(shove).flags.reactive).toBe(false);
  });
});
