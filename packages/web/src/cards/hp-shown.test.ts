import type { Combatant } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { hurtWords } from '../screen/screen.js';
import { npcNumbers, shownHp } from './hp-shown.js';

const goblin: Combatant = {
  id: 'g',
  name: 'Goblin',
  side: 'npc',
  hidden: false,
  stats: {},
  cs: null,
  turnsStarted: 0,
  turnsEnded: 0,
  active: true,
};

describe('HP as the table and players read it', () => {
  it('the GM’s choice once made; before it, NPC numbers only on a table link that asks', () => {
    expect(npcNumbers({}, false)).toBe(false);
    expect(npcNumbers({}, true)).toBe(true);
    expect(npcNumbers({ hpDisplay: { pc: 'numbers', npc: 'numbers' } }, false)).toBe(true);
    expect(npcNumbers({ hpDisplay: { pc: 'numbers', npc: 'descriptors' } }, true)).toBe(false);
    expect(shownHp(undefined)).toEqual({ pc: 'numbers', npc: 'descriptors' });
    expect(shownHp({ pc: 'hidden', npc: 'numbers' })).toEqual({ pc: 'hidden', npc: 'numbers' });
  });

  it('the word the server sent in place of the numbers, or nothing when hidden', () => {
    expect(hurtWords({ ...goblin, hpWord: 'bloodied' })).toBe('bloodied');
    expect(hurtWords({ ...goblin })).toBeNull();
    expect(hurtWords({ ...goblin, hp: { current: 3, max: 7, temp: 0 } })).toBe('bloodied');
    expect(hurtWords({ ...goblin, active: false, hpWord: 'hurt' })).toBe('down');
  });
});
