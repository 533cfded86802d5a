import type { ReadyCreature } from '@roundkeeper/engine';

/**
 * Classic's ready creatures: the familiar stat blocks of the d20 family (hit points, Armor Class and the
 * initiative modifier, Dexterity's), a dozen from a goblin to a young dragon, and two characters.
 */
export const classicCreatures: ReadyCreature[] = [
  {
    name: 'Goblin',
    hp: 7,
    stats: { initiative: 2, armorClass: 15 },
    notes: 'Nimble Escape: Disengage or Hide as a bonus action.',
  },
  { name: 'Kobold', hp: 5, stats: { initiative: 2, armorClass: 12 }, notes: 'Pack Tactics.' },
  {
    name: 'Wolf',
    hp: 11,
    stats: { initiative: 2, armorClass: 13 },
    notes: 'Pack Tactics; bite knocks prone.',
  },
  { name: 'Skeleton', hp: 13, stats: { initiative: 2, armorClass: 13 } },
  { name: 'Zombie', hp: 22, stats: { initiative: -2, armorClass: 8 }, notes: 'Undead Fortitude.' },
  { name: 'Orc', hp: 15, stats: { initiative: 1, armorClass: 13 }, notes: 'Aggressive: bonus-action dash.' },
  { name: 'Bandit', hp: 11, stats: { initiative: 1, armorClass: 12 } },
  { name: 'Bandit captain', hp: 65, stats: { initiative: 3, armorClass: 15 }, notes: 'Parry (reaction).' },
  { name: 'Bugbear', hp: 27, stats: { initiative: 2, armorClass: 16 }, notes: 'Surprise Attack.' },
  { name: 'Ogre', hp: 59, stats: { initiative: -1, armorClass: 11 } },
  {
    name: 'Troll',
    hp: 84,
    stats: { initiative: 1, armorClass: 15 },
    notes: 'Regeneration 10 unless acid or fire.',
  },
  {
    name: 'Young red dragon',
    hp: 178,
    stats: { initiative: 0, armorClass: 18 },
    notes: 'Fire Breath (recharge 5–6).',
  },
  { name: 'Fighter', side: 'pc', hp: 12, stats: { initiative: 1, armorClass: 18 } },
  { name: 'Wizard', side: 'pc', hp: 8, stats: { initiative: 2, armorClass: 12 } },
];
