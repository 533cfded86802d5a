import { type DecideContext, type EncounterState, type JsonObject, parseDice } from '@roundkeeper/engine';
import { z } from 'zod';
import { SIX_SECOND_CATALOG } from './catalog.js';

const CATALOG_IDS = SIX_SECOND_CATALOG.map((a) => a.id);

/** A dice expression that must parse ("1d20", "2d10", "1d20+2"). */
const diceText = z
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

export const sixSecondOptions = z.object({
  initiativeDice: diceText
    .default('1d20')
    .describe('Dice of the Reflex check rolled for Initiative (Dexterity is added to it).'),
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
      'Most zero-second actions (0SAs) one character may take in a turn; null = no cap, the GM judges.',
    ),
  carryOver: z
    .boolean()
    .default(true)
    .describe(
      'Whether an action longer than the seconds left may continue into the same character’s next turn.',
    ),
  actionSeconds: z
    .record(z.string(), z.number().int().min(0).max(600))
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
    .describe('GM overrides of the catalog’s times, by action id (e.g. {"melee-attack": 3}).'),
});

export const sixSecondStats = z.object({
  dexterity: z
    .number()
    .int()
    .min(-20)
    .max(50)
    .default(0)
    .describe('The Dexterity ability, added to the Reflex check for Initiative.'),
  reflexDice: diceText
    .optional()
    .describe('This character’s own Reflex check dice, if not the encounter’s (e.g. "1d20+2").'),
});

export type SixSecondOptions = z.output<typeof sixSecondOptions>;
export type SixSecondStats = z.output<typeof sixSecondStats>;

/** A delayed effect waiting for its second: counted in the acting character's own turn seconds. */
export type PendingEffect = {
  id: string;
  name: string;
  action: string;
  /** The delay in seconds, as declared. */
  delay: number;
  /** The character's turn number (see `turnNo`) and the second of that turn right after which it happens. */
  due: { turn: number; second: number };
};

/** An action that did not fit in the turn and continues at the start of the character's next turn. */
export type CarriedAction = {
  action: string;
  name: string;
  kind: string;
  total: number;
  secondsLeft: number;
  delay: number | null;
  effect: string | null;
};

/** One record of how a character spent seconds of one of their turns, for the timeline. */
export type SpentSeconds = {
  round: number;
  turn: number;
  from: number;
  to: number;
  kind: string;
  label: string;
};

export type SixSecondCombatant = {
  /** Initiative = Reflex check + Dexterity; null until rolled. */
  initiative: number | null;
  /** Initiative checks rolled again to break ties, in order. */
  rollOffs: number[];
  /** How many of this character's turns have begun: the clock their delayed effects count in. */
  turnNo: number;
  /** The instant prefix of the turn in progress (or paused by an interruption); second s is [...base, s]. */
  base: number[] | null;
  /** Seconds spent in the current turn: the d6 countdown shows turnSeconds − secondsUsed. */
  secondsUsed: number;
  /** Zero-second actions taken this turn. */
  zeroUsed: number;
  /** Skipped this turn to take it later ("Delay Initiative"). */
  delaying: boolean;
  carry: CarriedAction | null;
  pending: PendingEffect[];
  history: SpentSeconds[];
};

export type SixSecondRound = {
  /** Initiative order, highest first: a character's turn slot is its index + 1. */
  order: string[];
  /** Turns paused by a delayed turn, innermost last; each resumes when the turn that interrupted it ends. */
  interrupted: string[];
};

export interface SixSecondTypes {
  options: SixSecondOptions;
  stats: SixSecondStats & JsonObject;
  rs: SixSecondRound & JsonObject;
  cs: SixSecondCombatant & JsonObject;
}

export type State = EncounterState<SixSecondTypes>;
export type Ctx = DecideContext<SixSecondTypes>;

/** Agenda kinds of this ruleset. */
export const DELAYED_EFFECT = 'six-second/delayed-effect';
