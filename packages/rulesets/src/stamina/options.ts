import { once } from '@roundkeeper/engine';
import { z } from 'zod';
import { STAMINA_CATALOG } from './catalog.js';

/** What the GM sets: the encounter's options, a combatant's sheet, and the conditions of the text. */

export const staminaOptions = once(() =>
  z.object({
    initiativeDice: z
      .string()
      .min(1)
      .max(200)
      .default('1d10+@initiative')
      .describe('Dice for an initiative check (refs: any stat or rank, e.g. @initiative, @reflexes).'),
    recheckInitiative: z
      .boolean()
      .default(true)
      .describe('Recheck everyone\'s initiative before each new round ("recheck everyones initiative").'),
    groupInitiative: z
      .enum(['each', 'group'])
      .default('each')
      .meta({
        label: 'Group initiative',
        choices: { each: 'Everyone checks', group: 'A group checks once and acts together' },
      })
      .describe(
        'Combatants with the same NPC group check initiative once (the first of them) and take their turns one after another in that place.',
      ),
    allowNegative: z
      .boolean()
      .default(false)
      .describe(
        'Let an action be taken without the stamina or defense to pay for it (resources go negative).',
      ),
    successDice: z
      .string()
      .min(1)
      .max(200)
      .default('1d4-1')
      .describe('Dice for the successes of a skill check when the GM does not enter them.'),
    npcNumbersShown: z
      .boolean()
      .default(false)
      .describe(
        "The table and players see NPCs' Stamina and Defense (otherwise only the GM does; a player always sees their own).",
      ),
    wind: z
      .number()
      .int()
      .min(0)
      .max(5)
      .default(0)
      .describe('Penalty dice wind adds to ranged attack checks (0–5).'),
  }),
);

/** One weapon on the sheet, by name ("Bow", "Dagger"): what the text's actions need to know of it. */
export const weaponSchema = () =>
  z.object({
    kind: z
      .enum(['melee', 'ranged', 'throwing'])
      .default('melee')
      .describe('melee, ranged (loosed, needs loading) or throwing (thrown by Throw Weapon).')
      .meta({ choices: { melee: 'Melee', ranged: 'Ranged (loosed, needs loading)', throwing: 'Throwing' } }),
    offHand: z.boolean().default(false).describe('Wielded in the off hand (Off-hand attack).'),
    readied: z.boolean().default(false).describe('Readied when combat starts.'),
    loaded: z.boolean().default(false).describe('Loaded when combat starts (ranged weapons).'),
    loadStamina: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe("Stamina to load it (the weapon's description); the sheet's loadStamina if left out."),
    loadTurnRequirement: z
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .describe("Turn requirement to load it; the sheet's loadTurnRequirement if left out."),
    parry: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(0)
      .describe('Parry bonus to melee defense while it is readied.'),
    block: z
      .number()
      .int()
      .min(0)
      .max(9)
      .default(0)
      .describe("A shield's block bonus while it is readied: it counts as a piece of cover."),
  });
export type Weapon = z.output<ReturnType<typeof weaponSchema>>;

const rankName = () => z.string().regex(/^[a-z][A-Za-z]*$/, 'use camelCase letters, e.g. regainComposure');

/**
 * The skills a rank is kept for, by the name the rules read it under, with what a GM reads: every action of
 * the catalog ("Reckless attack" is `recklessAttack`) and the skills the rules use that are not actions.
 */
export const SKILLS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    STAMINA_CATALOG.map((a) => [a.id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()), a.name]),
  ),
  arcaneAptitude: 'Arcane Aptitude',
  balance: 'Balance',
  personalDefense: 'Personal Defense',
  regainComposure: 'Regain Composure',
};

export const staminaStats = once(() =>
  z.object({
    stamina: z.number().int().min(0).max(1000).default(10).describe('Stamina when rested (the maximum).'),
    defense: z.number().int().min(0).max(1000).default(10).describe('Defense when composed (the maximum).'),
    initiative: z.number().int().min(-50).max(100).default(0).describe('Added to the initiative check.'),
    reflexes: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(0)
      .describe('Reflexes stat (a flat footed character loses this much defense).'),
    baseMovement: z.number().int().min(0).max(100).default(6).describe('Base movement in meters.'),
    reach: z.number().int().min(0).max(100).default(0).describe("Reach of the character's melee attack."),
    meleeDefenseBonus: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(0)
      .describe('Melee defense bonus (doubled by Defensive Stance), over defense against melee attacks.'),
    rangedDefenseBonus: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(0)
      .describe('Ranged defense bonus (doubled by Dodge), over defense against ranged attacks.'),
    arcane: z.boolean().default(false).describe('Has an arcane trait (needed for magic actions).'),
    loadStamina: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(0)
      .describe("Stamina to load the readied weapon (the weapon's description)."),
    loadTurnRequirement: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(1)
      .describe("Turn requirement to load the readied weapon (the weapon's description)."),
    weapons: z
      .record(z.string().min(1).max(64), weaponSchema())
      .default({})
      .describe('Weapons by name, e.g. {"Bow": {"kind": "ranged", "readied": true, "loaded": true}}.'),
    ranks: z
      .record(
        rankName().meta({ label: 'Skill', choices: SKILLS }),
        z.number().int().min(0).max(20).meta({ label: 'Rank' }),
      )
      .default({})
      .describe(
        'Skill ranks: a skill (an action such as Reckless attack or Aim, or Arcane Aptitude, Personal Defense…) and its rank.',
      ),
  }),
);

/** The text's "Combat Modifiers" a GM can put on a combatant, as conditions. */
export const CONDITIONS = ['kneeling', 'prone', 'cover', 'concealed', 'flanked', 'surprised'] as const;
export type ConditionName = (typeof CONDITIONS)[number];

/** The encounter's options, as the options schema gives them. */
export type StaminaOptions = z.output<ReturnType<typeof staminaOptions>>;
/** A combatant's sheet, as the stats schema gives it. */
export type StaminaStats = z.output<ReturnType<typeof staminaStats>>;
/** The numbers dice expressions may refer to: stats and ranks. */
const REFS = new WeakMap<StaminaStats, Readonly<Record<string, number>>>();

/** The references dice notation may name, made once per stat block (a sheet is replaced, never changed). */
export function refsOf(stats: StaminaStats): Readonly<Record<string, number>> {
  let refs = REFS.get(stats);
  if (refs === undefined) {
    refs = refsFrom(stats);
    REFS.set(stats, refs);
  }
  return refs;
}

function refsFrom(stats: StaminaStats): Record<string, number> {
  return {
    ...stats.ranks,
    stamina: stats.stamina,
    defense: stats.defense,
    initiative: stats.initiative,
    reflexes: stats.reflexes,
    baseMovement: stats.baseMovement,
    reach: stats.reach,
  };
}

export function rank(stats: StaminaStats, name: string): number {
  return Object.hasOwn(stats.ranks, name) ? (stats.ranks[name] ?? 0) : 0;
}

/**
 * The reach of the attack being made, after the action changes it (004): Half-Sword "treat the weapon's
 * reach as half of its base value" (rounded down); Lunge "treating the character's … reach as double its
 * standard value for this attack plus the character's rank in the lunge secondary skill". Any other attack
 * reaches as far as the sheet's `reach`. The reach penalty compares the target's reach with this.
 */
export function attackReach(stats: StaminaStats, actionId: string): number {
  if (actionId === 'half-sword') return Math.floor(stats.reach / 2);
  if (actionId === 'lunge') return 2 * stats.reach + rank(stats, 'lunge');
  return stats.reach;
}
