import type { ReadyCreature } from '@roundkeeper/engine';

/**
 * Tara-Corax's ready creatures: the characters of the text's worked examples with the numbers it gives
 * them (the Mage with Initiative 14 and Land Speed 10, the Warrior 9 and 8, the Rogues 12/13 and 15/15, the
 * Combatant with three melee attacks, the Bowman with three shots, the Dwarf with three attacks), and the
 * foes the examples fight ("some big nasty monster that gets one big attack"). Hit points are the GM's.
 */
export const taraCreatures: ReadyCreature[] = [
  {
    name: 'Mage',
    side: 'pc',
    hp: 14,
    stats: { initiative: 14, landSpeed: 10 },
    notes: 'Casting in Combat: Combat Casting after Setting; spells may carry over.',
  },
  {
    name: 'Warrior',
    side: 'pc',
    hp: 24,
    stats: { initiative: 9, landSpeed: 8 },
    notes: 'Moving into Combat: moves into melee through his CAR; Charge and Counter are GM abilities.',
  },
  { name: 'Rogue', side: 'pc', hp: 16, stats: { initiative: 12, landSpeed: 13 } },
  {
    name: 'Kiting rogue',
    side: 'pc',
    hp: 16,
    stats: { initiative: 15, landSpeed: 15, rangedAttacks: 2 },
    notes: 'Kiting: moves, Sets and shoots; a full volley when not moved.',
  },
  { name: 'Combatant', side: 'pc', hp: 28, stats: { initiative: 15, meleeAttacks: 3, landSpeed: 10 } },
  { name: 'Wizard', side: 'pc', hp: 12, stats: { initiative: 15, landSpeed: 10 } },
  { name: 'Bowman', hp: 18, stats: { initiative: 12, rangedAttacks: 3 }, notes: 'Shots 5 Marks apart.' },
  {
    name: 'Dwarf',
    hp: 26,
    stats: { initiative: 8, meleeAttacks: 3, landSpeed: 8 },
    notes: 'Three attacks 5 Marks apart: on a low score the last is forfeited.',
  },
  { name: 'Big nasty monster', hp: 60, stats: { initiative: 7, meleeAttacks: 1, landSpeed: 12 } },
  { name: 'Ogre', hp: 40, stats: { initiative: 3 } },
  { name: 'Bandit', hp: 18, stats: { initiative: 8, meleeAttacks: 1 } },
  { name: 'Wolf', hp: 14, stats: { initiative: 12, landSpeed: 20 } },
];
