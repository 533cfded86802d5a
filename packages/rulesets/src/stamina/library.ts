import type { ReadyCreature } from '@roundkeeper/engine';

/**
 * Stamina's ready creatures: the fighters the text's actions ask for (a sword-and-board fighter whose
 * shield blocks as cover, an archer who must load, a thrower, an off-hand duelist, an arcane caster, a
 * long-reach spearman) and foes, each with stamina, defense, initiative, reflexes and weapons by name.
 */
export const staminaCreatures: ReadyCreature[] = [
  {
    name: 'Shield fighter',
    side: 'pc',
    hp: 20,
    stats: {
      stamina: 12,
      defense: 12,
      initiative: 1,
      reflexes: 2,
      meleeDefenseBonus: 2,
      weapons: {
        Sword: { kind: 'melee', readied: true, parry: 1 },
        Shield: { readied: true, offHand: true, block: 3 },
      },
    },
  },
  {
    name: 'Archer',
    side: 'pc',
    hp: 14,
    stats: {
      stamina: 10,
      defense: 8,
      initiative: 3,
      reflexes: 3,
      rangedDefenseBonus: 2,
      weapons: {
        Bow: { kind: 'ranged', readied: true, loaded: true, loadStamina: 1, loadTurnRequirement: 1 },
      },
      ranks: { aim: 2 },
    },
  },
  {
    name: 'Duelist',
    side: 'pc',
    hp: 16,
    stats: {
      stamina: 12,
      defense: 10,
      initiative: 4,
      reflexes: 4,
      weapons: { Rapier: { readied: true, parry: 2 }, Dagger: { readied: true, offHand: true } },
      ranks: { offHandAttack: 2, quickAttack: 1 },
    },
  },
  {
    name: 'Arcanist',
    side: 'pc',
    hp: 12,
    stats: { stamina: 8, defense: 6, initiative: 2, reflexes: 2, arcane: true, ranks: { arcaneAptitude: 3 } },
  },
  {
    name: 'Spearman',
    hp: 16,
    stats: { stamina: 10, defense: 10, reach: 2, weapons: { Spear: { readied: true } }, ranks: { lunge: 1 } },
  },
  {
    name: 'Knife thrower',
    hp: 12,
    stats: {
      stamina: 8,
      defense: 8,
      initiative: 3,
      weapons: { Knives: { kind: 'throwing', readied: true } },
    },
  },
  { name: 'Wolf', hp: 12, stats: { stamina: 6, reflexes: 3, baseMovement: 12 } },
  { name: 'Bandit', hp: 14, stats: { stamina: 8, weapons: { Club: { readied: true } } } },
  { name: 'Brute', hp: 20, stats: { stamina: 12, defense: 8, ranks: { recklessAttack: 2 } } },
  {
    name: 'Crossbowman',
    hp: 14,
    stats: {
      stamina: 8,
      loadStamina: 2,
      loadTurnRequirement: 2,
      weapons: { Crossbow: { kind: 'ranged', readied: true, loaded: true } },
    },
  },
  {
    name: 'Veteran',
    hp: 22,
    stats: { stamina: 14, defense: 14, initiative: 2, reflexes: 3, ranks: { personalDefense: 2 } },
  },
  { name: 'Ogre', hp: 40, stats: { stamina: 20, defense: 6, reach: 2, baseMovement: 8 } },
];
