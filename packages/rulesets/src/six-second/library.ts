import type { ReadyCreature } from '@roundkeeper/engine';

/**
 * Six-second's ready creatures: the characters the text's examples act with (a spellcaster whose 4-second
 * casts and delayed spells fill the turn, a character who moves and draws in one-second steps, a combo
 * fighter, a late arrival) and a dozen foes, each with Dexterity and, where its Reflex check differs from
 * the encounter's, its own dice.
 */
export const sixSecondCreatures: ReadyCreature[] = [
  {
    name: 'Spellcaster',
    side: 'pc',
    hp: 14,
    stats: { dexterity: 1 },
    notes:
      'Casting most spells takes 4 seconds; a spell with a delay goes off later, on a next turn if need be.',
  },
  {
    name: 'Combo fighter',
    side: 'pc',
    hp: 22,
    stats: { dexterity: 2, reflexDice: '1d20+2' },
    notes: 'A combo takes 4 seconds: two combos fill a turn.',
  },
  {
    name: 'Scout',
    side: 'pc',
    hp: 16,
    stats: { dexterity: 3 },
    notes: 'Moving or drawing a weapon takes 1 second: six moves in a full turn.',
  },
  { name: 'Thug', hp: 12, stats: { dexterity: 0 } },
  { name: 'Archer', hp: 12, stats: { dexterity: 3 }, notes: 'Aims (1 second) before a ranged attack.' },
  { name: 'Guard', hp: 15, stats: { dexterity: 1 } },
  { name: 'Assassin', hp: 16, stats: { dexterity: 3 }, notes: 'Delays, then interrupts another turn.' },
  { name: 'Hedge mage', hp: 10, stats: { dexterity: 1 }, notes: 'Casts a spell with an 11-second delay.' },
  { name: 'Wolf', hp: 11, stats: { dexterity: 2 } },
  { name: 'Giant spider', hp: 26, stats: { dexterity: 3 } },
  { name: 'Troll', hp: 40, stats: { dexterity: 1 } },
  { name: 'Stone golem', hp: 60, stats: { dexterity: -1, reflexDice: '1d20-2' } },
  {
    name: 'Late arrival',
    hp: 14,
    stats: { dexterity: 2 },
    notes: 'Rolls initiative on arrival (Late Arrivals).',
  },
];
