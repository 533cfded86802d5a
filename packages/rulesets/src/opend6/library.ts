import type { ReadyCreature } from '@roundkeeper/engine';

/**
 * OpenD6's ready creatures: the thug of the text's waiting example, the characters it describes (one with
 * Character Points to spend on initiative, a gunman whose semi-automatic suits quick multiple actions),
 * and the usual run of foes, each with Perception (initiative), Reflexes (tie-breaks) and a skill or two
 * as die codes.
 */
export const opend6Creatures: ReadyCreature[] = [
  {
    name: 'Thug',
    hp: 10,
    stats: { perception: '2D', reflexes: '2D+2', skills: { brawling: '3D' } },
    notes: 'The waiting example: surprised, he acts after the character who waited.',
  },
  {
    name: 'Hero',
    side: 'pc',
    hp: 15,
    stats: { perception: '3D+1', reflexes: '3D', characterPoints: 5, fatePoints: 1, skills: { dodge: '4D' } },
    notes: 'Spends Character Points for extra Wild Dice on initiative.',
  },
  {
    name: 'Gunman',
    side: 'pc',
    hp: 14,
    stats: { perception: '3D', reflexes: '3D+2', skills: { firearms: '5D' }, characterPoints: 3 },
    notes: 'A semi-automatic: several shots a round, −1D per extra action.',
  },
  {
    name: 'Scout',
    side: 'pc',
    hp: 12,
    stats: { perception: '4D', reflexes: '3D', skills: { search: '5D' } },
  },
  { name: 'Bandit', hp: 10, stats: { perception: '2D', reflexes: '2D+1' } },
  { name: 'Brute', hp: 14, stats: { perception: '2D+2', reflexes: '2D', skills: { 'melee combat': '4D' } } },
  { name: 'Guard', hp: 12, stats: { perception: '3D', reflexes: '2D', skills: { search: '4D' } } },
  { name: 'Sniper', hp: 11, stats: { perception: '4D', reflexes: '3D', skills: { marksmanship: '5D+1' } } },
  { name: 'Cultist', hp: 9, stats: { perception: '2D+1', reflexes: '2D', attributes: { will: '3D' } } },
  {
    name: 'Guard dog',
    hp: 8,
    stats: { perception: '3D+2', reflexes: '3D+1', attributes: { strength: '2D' } },
  },
  { name: 'Crime boss', hp: 16, stats: { perception: '3D+2', reflexes: '2D+2', characterPoints: 4 } },
  { name: 'Security robot', hp: 20, stats: { perception: '2D', reflexes: '2D', actionAllotment: 2 } },
];
