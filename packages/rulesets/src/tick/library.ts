import type { ReadyCreature } from '@roundkeeper/engine';

/**
 * Tick's ready creatures: each with its initiative and the speed, in ticks, of the weapon in hand — the
 * stats' own scale: a dagger 5, a sword 6, a greataxe 7 — so a fast fighter comes round again sooner.
 */
export const tickCreatures: ReadyCreature[] = [
  { name: 'Duelist', side: 'pc', hp: 20, stats: { initiative: 5, weaponSpeed: 5 }, notes: 'Dagger.' },
  { name: 'Swordsman', side: 'pc', hp: 24, stats: { initiative: 3, weaponSpeed: 6 }, notes: 'Sword.' },
  { name: 'Berserker', side: 'pc', hp: 28, stats: { initiative: 2, weaponSpeed: 7 }, notes: 'Greataxe.' },
  { name: 'Goblin', hp: 12, stats: { initiative: 3, weaponSpeed: 5 } },
  { name: 'Orc', hp: 20, stats: { initiative: 1, weaponSpeed: 7 } },
  { name: 'Wolf', hp: 15, stats: { initiative: 4, weaponSpeed: 6 } },
  { name: 'Rat swarm', hp: 10, stats: { initiative: 6, weaponSpeed: 4 } },
  { name: 'Bandit', hp: 16, stats: { initiative: 2, weaponSpeed: 6 } },
  { name: 'Crossbowman', hp: 14, stats: { initiative: 2, weaponSpeed: 10 }, notes: 'Reloading is slow.' },
  { name: 'Knight', hp: 30, stats: { initiative: 1, weaponSpeed: 8 } },
  { name: 'Ogre', hp: 45, stats: { initiative: 0, weaponSpeed: 9 } },
  { name: 'Giant spider', hp: 26, stats: { initiative: 5, weaponSpeed: 5 } },
  { name: 'Troll', hp: 60, stats: { initiative: 1, weaponSpeed: 8 } },
];
