import { once, parseDice } from '@roundkeeper/engine';
import { z } from 'zod';
import { SIX_SECOND_CATALOG } from './catalog.js';

/*
 * What the GM sets: the encounter's options and a combatant's sheet values. `parse({})` gives the defaults.
 */

const CATALOG_IDS = SIX_SECOND_CATALOG.map((a) => a.id);

/** A dice expression that must parse ("1d20", "2d10", "1d20+2"). */
const diceText = () =>
  z
    .string()
    .min(1)
    .max(100)
    .refine(
      (s) => {
        try {
          parseDice(s);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'is not dice notation (try "1d20" or "2d10+1")' },
    );

export const sixSecondOptions = once(() =>
  z.object({
    initiativeDice: diceText()
      .default('1d20')
      .describe('Dice of the Reflex check rolled for Initiative (Dexterity is added to it).'),
    groupInitiative: z
      .enum(['each', 'group'])
      .default('each')
      .meta({
        label: 'Group initiative',
        choices: { each: 'Everyone rolls', group: 'A group rolls once and acts together' },
      })
      .describe(
        'Combatants with the same NPC group make one Initiative check (the first of them) and take their turns one after another in that place.',
      ),
    turnSeconds: z
      .number()
      .int()
      .min(1)
      .max(60)
      .default(6)
      .describe('Seconds in each turn (a round represents this many seconds); set before the fight starts.'),
    zeroSecondCap: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .default(null)
      .describe(
        'Most zero-second actions (0SAs) one character may take in a turn; empty = no cap, the GM judges.',
      )
      .meta({ label: 'Zero-second actions per turn (cap)' }),
    carryOver: z
      .boolean()
      .default(true)
      .describe(
        'Whether an action longer than the seconds left may continue into the same character’s next turn.',
      ),
    actionSeconds: z
      .record(
        z.string().meta({
          label: 'Action',
          choices: Object.fromEntries(SIX_SECOND_CATALOG.map((a) => [a.id, a.name])),
        }),
        z.number().int().min(0).max(600).meta({ label: 'Seconds' }),
      )
      .superRefine((times, check) => {
        // A misspelt id would change nothing, silently: name the ids that can be timed.
        for (const id of Object.keys(times)) {
          if (CATALOG_IDS.includes(id)) continue;
          check.addIssue({
            code: 'custom',
            path: [id],
            message: `is not an action of the built-in catalog (${CATALOG_IDS.join(', ')}); a custom action takes its time from its own cost.seconds`,
          });
        }
      })
      .default({})
      .describe('GM overrides of the catalog’s times: an action and the seconds it takes in this encounter.'),
  }),
);

export const sixSecondStats = once(() =>
  z.object({
    dexterity: z
      .number()
      .int()
      .min(-20)
      .max(50)
      .default(0)
      .describe('The Dexterity ability, added to the Reflex check for Initiative.'),
    reflexDice: diceText()
      .optional()
      .describe('This character’s own Reflex check dice, if not the encounter’s (e.g. "1d20+2").'),
  }),
);

export type SixSecondOptions = z.output<ReturnType<typeof sixSecondOptions>>;
export type SixSecondStats = z.output<ReturnType<typeof sixSecondStats>>;
