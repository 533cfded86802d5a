import { once } from '@roundkeeper/engine';
import { z } from 'zod';

/** What the GM sets: the encounter's options, a combatant's sheet; and the uses of Exert a player picks. */

/** 003 "There are three Weapons Speeds: Slow, Standard, Quick." */
export const WEAPON_SPEEDS = ['quick', 'standard', 'slow'] as const;
export type WeaponSpeed = (typeof WEAPON_SPEEDS)[number];

export const tempoOptions = once(() =>
  z.object({
    actionsPerRound: z
      .number()
      .int()
      .min(1)
      .max(6)
      .default(2)
      .describe(
        'Actions (turns) each character plans per round; the rules: "Every player starts with 2 actions per round".',
      ),
    requireFullPlans: z
      .boolean()
      .default(true)
      .describe('The GM cannot start counting tempo until every PC has planned all their actions.'),
    recoverExertion: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(1)
      .describe(
        'Exertion removed by Recover (Shift after Rest in the same round); the text does not say how much.',
      ),
  }),
);

const weapon = () =>
  z.object({
    name: z.string().trim().min(1).max(60).describe('The weapon as the sheet names it.'),
    speed: z
      .enum(WEAPON_SPEEDS)
      .meta({ label: 'Weapon Speed', choices: { quick: 'Quick', standard: 'Standard', slow: 'Slow' } })
      .describe('Weapon Speed: quick, standard or slow.'),
  });

/** An NPC's GM-defined action set (003: "What are the Action Sets of the target…"). */
const actionSet = () =>
  z.object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/)
      .min(1)
      .max(64)
      .optional()
      .describe('Id used in plan commands; left empty, it is made from the name ("set-roar").'),
    name: z.string().trim().min(1).max(80).describe('The action set as the stat block names it.'),
    tempo: z.number().int().min(0).max(9).describe('The tempo it happens at.'),
    text: z.string().max(2000).default('').describe('What it does.'),
  });

export const tempoStats = once(() =>
  z.object({
    FOR: z
      .number()
      .int()
      .min(-10)
      .max(20)
      .default(0)
      .describe('FOR: Maximum Exertion is 2 + FOR (minimum 1).'),
    speed: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(6)
      .describe('Speed: the Normal Move of each turn and the Move action.'),
    weapons: z.array(weapon()).max(20).default([]).describe('Weapons carried, each with its Weapon Speed.'),
    held: z
      .array(z.string().min(1).max(60))
      .max(2)
      .optional()
      .describe('Weapons in hand at the start (default: the first weapon).'),
    actionSets: z
      .array(actionSet())
      .max(30)
      .default([])
      .describe('NPC action sets; an NPC with any acts only with these.'),
  }),
);

export type TempoOptions = z.output<ReturnType<typeof tempoOptions>>;
export type TempoStats = z.output<ReturnType<typeof tempoStats>>;

/** 003 "Exert": the uses the text lists. */
export const EXERT_USES = [
  'another-action',
  'change-tempo',
  'momentum',
  'clear-condition',
  'reclaim-mana',
  'retry',
  'prepared',
] as const;
export type ExertUse = (typeof EXERT_USES)[number];
