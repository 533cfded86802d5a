import { z } from 'zod';
import { actionDefSchema } from './commands.js';
import type { DiceRoll } from './dice/roll.js';
import { HP_SHOWN, HP_WORDS } from './hp-display.js';
import type { Fields } from './json.js';
import { lazySchemas, once } from './lazy.js';

/**
 * Schemas of the engine's own events. They say what each fact holds and, through `combatant` annotations
 * (see `params.ts`), whom it names: redaction reads those instead of guessing from field names, and a
 * property test generates every event of every schema to prove no hidden combatant survives a view.
 * A ruleset declares its own events the same way (`Ruleset.events`).
 */

/** A combatant id an event names. */
export const namedId = () => z.string().meta({ combatant: 'ref' });

const json = z.json();
const jsonObject = z.record(z.string(), z.json());
export const instantSchema = z.object({ round: z.number(), at: z.array(z.number()) });

export const hpDisplaySchema = () => z.object({ pc: z.enum(HP_SHOWN), npc: z.enum(HP_SHOWN) });

export const timedEventSchema = () =>
  z.object({
    id: z.string(),
    name: z.string(),
    at: z.array(z.number()),
    when: z.string(),
    note: z.string().optional(),
    fired: z.number(),
    every: z.number().optional(),
    restart: z.array(z.number()).optional(),
  });

export const combatantRecordSchema = z.object({
  id: namedId(),
  name: z.string(),
  side: z.enum(['pc', 'npc']),
  player: z.string().optional(),
  hidden: z.boolean(),
  group: z.string().optional(),
  hp: z.object({ current: z.number(), max: z.number(), temp: z.number() }).optional(),
  hpWord: z.enum(HP_WORDS).optional(),
  stats: jsonObject,
  cs: json,
  notes: z.string().optional(),
  turnsStarted: z.number(),
  turnsEnded: z.number(),
  active: z.boolean(),
});

/** A duration as stored: the anchors it counts name combatants. */
export const storedDurationSchema = z.union([
  z.object({
    kind: z.enum(['until-turn-start', 'until-turn-end']),
    combatant: namedId(),
    turns: z.number().optional(),
  }),
  z.object({ kind: z.literal('until-round-end'), round: z.number().optional() }),
  z.object({ kind: z.literal('for'), amount: z.number() }),
  z.object({ kind: z.literal('until'), at: instantSchema }),
  z.object({ kind: z.literal('indefinite') }),
]);

export const expirySchema = z.union([
  z.object({ on: z.enum(['turn-start', 'turn-end']), combatant: namedId(), turnsStarted: z.number() }),
  z.object({ on: z.literal('round-end'), round: z.number() }),
  z.object({ on: z.literal('instant'), at: instantSchema }),
  z.object({ on: z.literal('never') }),
]);

export const effectSchema = z.object({
  id: z.string(),
  name: z.string(),
  target: namedId(),
  source: namedId().optional(),
  duration: storedDurationSchema,
  expires: expirySchema,
  note: z.string().optional(),
  data: jsonObject.optional(),
});

export const agendaEntrySchema = z.object({
  id: z.string(),
  at: instantSchema,
  kind: z.string(),
  combatant: namedId().optional(),
  label: z.string(),
  secret: z.boolean().optional(),
  data: jsonObject.optional(),
});

export const hitPointsSchema = z.object({ current: z.number(), max: z.number(), temp: z.number() });

/** Where the encounter's dice are: a seeded generator's state, or scripted faces to use first. */
export const diceStateSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('seeded'), seed: z.number(), state: z.array(z.number()) }),
  z.object({
    mode: z.literal('scripted'),
    faces: z.array(z.number()),
    used: z.number(),
    // biome-ignore lint/suspicious/noThenProperty: the stored dice state's field (what comes after the script).
    then: z.union([z.literal('error'), z.object({ seed: z.number() })]),
    state: z.array(z.number()).optional(),
  }),
]);

/** A custom action as stored: the GM's definition with its defaults, marked custom. */
export const storedActionSchema = actionDefSchema.extend({ custom: z.boolean().optional() });

const dieResultSchema = () =>
  z.object({
    faces: z.array(z.number()),
    value: z.number(),
    dropped: z.literal(true).optional(),
    wild: z.literal(true).optional(),
  });

/** A dice roll as events keep it: every face, so replaying the log never rolls again (see `DiceRoll`). */
export const diceRollSchema = once(() =>
  z.object({
    notation: z.string(),
    total: z.number(),
    terms: z.array(
      z.discriminatedUnion('type', [
        z.object({
          type: z.literal('dice'),
          notation: z.string(),
          dice: z.array(dieResultSchema()),
          value: z.number(),
        }),
        z.object({
          type: z.literal('d6code'),
          notation: z.string(),
          dice: z.array(dieResultSchema()),
          value: z.number(),
          complication: z.boolean(),
        }),
        z.object({ type: z.literal('constant'), value: z.number() }),
        z.object({ type: z.literal('ref'), name: z.string(), value: z.number() }),
      ]),
    ),
    faces: z.array(z.number()),
    wild: z
      .object({
        faces: z.array(z.number()),
        complication: z.boolean(),
        mode: z.enum(['none', 'remove-highest', 'gm']),
      })
      .optional(),
    text: z.string(),
  }),
);

/** What `combatant/updated` may change on a combatant. */
export const combatantPatchSchema = once(() =>
  z.object({
    name: z.string().optional(),
    side: z.enum(['pc', 'npc']).optional(),
    player: z.string().nullable().optional(),
    hidden: z.boolean().optional(),
    group: z.string().nullable().optional(),
    notes: z.string().optional(),
    stats: jsonObject.optional(),
    /** The ruleset's state for the combatant, made again from a sheet edited before the fight. */
    cs: json.optional(),
  }),
);

/** A whole encounter state, as `encounter/created` records it (see `EncounterState`). */
export const encounterStateSchema = once(() =>
  z.object({
    schema: z.literal(1),
    id: z.string(),
    name: z.string(),
    ruleset: z.string(),
    rulesetVersion: z.number(),
    options: jsonObject,
    status: z.enum(['setup', 'running', 'ended']),
    round: z.number(),
    now: instantSchema.nullable(),
    current: namedId().nullable(),
    combatants: z.record(z.string(), combatantRecordSchema),
    roster: z.array(namedId()),
    agenda: z.array(agendaEntrySchema),
    effects: z.array(effectSchema),
    customActions: z.array(storedActionSchema),
    dice: diceStateSchema,
    gmNotes: z.array(z.string()),
    history: z.object({
      undoable: z.array(z.number()),
      redoable: z.array(z.number()),
      lastGroup: z.number(),
    }),
    seq: z.number(),
    rs: json,
    hpDisplay: hpDisplaySchema().optional(),
    timed: z.array(timedEventSchema()).optional(),
  }),
);

export const coreEventSchemas = lazySchemas({
  'encounter/created': () => z.object({ state: encounterStateSchema() }),
  'encounter/started': () => z.object({}),
  'encounter/ended': () => z.object({ round: z.number() }),
  'combatant/added': () => z.object({ combatant: combatantRecordSchema }),
  'combatant/updated': () => z.object({ combatant: namedId(), patch: combatantPatchSchema() }),
  'combatant/removed': () => z.object({ combatant: namedId(), name: z.string() }),
  'combatant/defeated': () => z.object({ combatant: namedId() }),
  'combatant/revived': () => z.object({ combatant: namedId() }),
  'hp/changed': () => z.object({ combatant: namedId(), from: hitPointsSchema, hp: hitPointsSchema }),
  /** In a view only: an `hp/changed` the viewer sees as a descriptor ("Orc is bloodied"). */
  'hp/described': () => z.object({ combatant: namedId(), word: z.enum(HP_WORDS) }),
  'hp-display/set': () => z.object({ display: hpDisplaySchema(), previous: hpDisplaySchema() }),
  'timed/added': () => z.object({ timed: timedEventSchema() }),
  'timed/removed': () => z.object({ id: z.string(), name: z.string() }),
  'timed/fired': () =>
    z.object({
      id: z.string(),
      name: z.string(),
      when: z.string(),
      round: z.number(),
      note: z.string().optional(),
      /** A periodic one's next moment. */
      next: z.array(z.number()).optional(),
    }),
  'effect/added': () => z.object({ effect: effectSchema }),
  'effect/expired': () => z.object({ effect: z.string(), name: z.string(), target: namedId() }),
  'effect/removed': () => z.object({ effect: z.string(), name: z.string(), target: namedId() }),
  'action/defined': () => z.object({ action: storedActionSchema }),
  'action/removed': () => z.object({ action: z.string() }),
  'options/set': () => z.object({ options: jsonObject, previous: jsonObject }),
  'note/added': () => z.object({ text: z.string() }),
  'round/started': () => z.object({ round: z.number() }),
  'round/ended': () => z.object({ round: z.number() }),
  'turn/started': () => z.object({ combatant: namedId() }),
  'turn/ended': () => z.object({ combatant: namedId() }),
  'clock/advanced': () => z.object({ to: instantSchema }),
  'agenda/scheduled': () => z.object({ entry: agendaEntrySchema }),
  'agenda/scheduled-many': () => z.object({ entries: z.array(agendaEntrySchema).min(1) }),
  'agenda/removed': () => z.object({ entry: z.string(), reason: z.string() }),
  'dice/rolled': () =>
    z
      .object({ combatant: namedId().optional(), purpose: z.string().optional(), roll: diceRollSchema() })
      // A ruleset may say more about a roll (opend6: the skill, its code and penalty).
      .catchall(json),
  'dice/state': () => z.object({ dice: diceStateSchema }),
  undo: () => z.object({ group: z.number() }),
  redo: () => z.object({ group: z.number() }),
});

export type CoreEventSchemas = typeof coreEventSchemas;

/**
 * The events a record of schemas declares, as a union discriminated by `type`: what a ruleset's `evolve`,
 * `react` and `describeEvent` switch on, each branch with its fields typed by its schema.
 */
export type EventOf<S extends Record<string, z.ZodType>> = {
  [K in keyof S & string]: { type: K } & Fields<z.output<S[K]>>;
}[keyof S & string];

/** One of the engine's own events. */
export type CoreEvent = EventOf<CoreEventSchemas>;

/** A roll as the log keeps it (every face), for the table to see: the `dice/rolled` fact. */
export function rolled(combatant: string | undefined, purpose: string, roll: DiceRoll): CoreEvent {
  return combatant === undefined
    ? { type: 'dice/rolled', purpose, roll }
    : { type: 'dice/rolled', combatant, purpose, roll };
}
