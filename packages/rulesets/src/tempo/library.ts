import type { ReadyCreature } from '@roundkeeper/engine';

/**
 * Tempo's ready creatures: characters built on the text's weapon speeds (quick weapons attack at tempo 3,
 * standard at 5, slow at 7) and FOR (Maximum Exertion 2 + FOR), and NPCs with the GM-defined action sets
 * the text's Scan asks about ("What are the Action Sets of the target…").
 */
export const tempoCreatures: ReadyCreature[] = [
  {
    name: 'Duelist',
    side: 'pc',
    hp: 18,
    stats: { FOR: 1, speed: 6, weapons: [{ name: 'Rapier', speed: 'quick' }] },
    notes: 'Quick Attack at tempo 3.',
  },
  {
    name: 'Knight',
    side: 'pc',
    hp: 24,
    stats: {
      FOR: 3,
      speed: 5,
      weapons: [
        { name: 'Greatsword', speed: 'slow' },
        { name: 'Dagger', speed: 'quick' },
      ],
    },
    notes: 'Slow Attack at tempo 7; swaps to the dagger with Inventory.',
  },
  {
    name: 'Ranger',
    side: 'pc',
    hp: 18,
    stats: { FOR: 1, speed: 7, weapons: [{ name: 'Longbow', speed: 'standard' }] },
    notes: 'Mark at tempo 2, then Standard Attack at tempo 5.',
  },
  { name: 'Mystic', side: 'pc', hp: 14, stats: { FOR: 0, speed: 6 }, notes: 'Magic and Shift.' },
  { name: 'Orc', hp: 15, stats: { speed: 5, weapons: [{ name: 'Axe', speed: 'standard' }] } },
  { name: 'Wolf', hp: 11, stats: { speed: 8 } },
  { name: 'Cultist', hp: 10, stats: { FOR: 0, speed: 5 } },
  { name: 'Goblin skirmisher', hp: 8, stats: { speed: 7, weapons: [{ name: 'Knife', speed: 'quick' }] } },
  { name: 'Ogre', hp: 40, stats: { FOR: 4, speed: 4, weapons: [{ name: 'Club', speed: 'slow' }] } },
  {
    name: 'Bear',
    hp: 34,
    stats: {
      speed: 6,
      actionSets: [
        { name: 'Maul', tempo: 5, text: 'Two claws and a bite at one target.' },
        { name: 'Roar', tempo: 2, text: 'Each enemy in range is shaken until the end of the round.' },
      ],
    },
  },
  {
    name: 'Wyvern',
    hp: 60,
    stats: {
      speed: 10,
      actionSets: [
        { name: 'Dive', tempo: 4, text: 'Flies its speed and bites at the end.' },
        { name: 'Sting', tempo: 7, text: 'A poisoned sting.' },
      ],
    },
  },
  {
    name: 'Necromancer',
    hp: 26,
    stats: {
      speed: 5,
      actionSets: [
        { name: 'Raise', tempo: 1, text: 'A fallen foe rises as a zombie at tempo 9.' },
        { name: 'Bolt', tempo: 5, text: 'A ranged spell attack.' },
      ],
    },
  },
];
