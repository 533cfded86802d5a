import type { JsonObject } from '@roundkeeper/engine';
import { z } from 'zod';

/** Classic's options, sheet and state. */
export const classicOptions = z.object({
  initiativeDice: z.string().default('1d20').describe('Dice rolled for initiative, before the modifier.'),
  rerollEachRound: z.boolean().default(false).describe('Roll initiative again at the start of every round.'),
});
export const classicStats = z.object({
  initiative: z
    .number()
    .int()
    .min(-20)
    .max(50)
    .default(0)
    .meta({ label: 'Initiative modifier' })
    .describe('Initiative modifier (Dexterity, feats…).'),
  armorClass: z
    .number()
    .int()
    .min(0)
    .max(50)
    .optional()
    .meta({ label: 'Armor Class (AC)' })
    .describe('What an attack roll must reach to hit; shown on the card for the GM to compare.'),
});

export interface ClassicCombatant {
  initiative: number | null;
  /** The order key: [−total, −modifier, −roll-off…]; a delayed turn appends to it. */
  key: number[] | null;
  delaying: boolean;
  readied: { action: string; trigger: string } | null;
  used: { action: boolean; bonus: boolean; reaction: boolean };
}

/** Classic keeps everything it needs on the combatants and the agenda. */
export type ClassicRound = Record<string, never>;

export interface ClassicTypes {
  options: z.output<typeof classicOptions>;
  stats: z.output<typeof classicStats>;
  rs: ClassicRound & JsonObject;
  cs: ClassicCombatant & JsonObject;
}
