import { z } from 'zod';
import { HP_SHOWN } from './hp-display.js';
import { issueWords, sayableIssues } from './issue-words.js';
import type { Fields } from './json.js';
import { lazySchemas } from './lazy.js';
import { issuesInWords } from './params.js';

/** Zod schemas of the engine's own commands. Ruleset commands are declared by each ruleset. */
const id = z.string().min(1).max(64);
const combatantId = id.regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, ".", "_" or "-"');
/** The combatant a GM's command changes: a player link may touch only its own (see `actsFor`). */
const changed = () => id.meta({ combatant: 'actor', label: 'Combatant', from: 'combatants' });
/** Whose turn a duration counts. */
const anchor = () => id.meta({ combatant: 'ref', label: 'Whose turn', from: 'combatants' });
/** A combatant a command only names (the source of an effect). */
const named = () => id.meta({ combatant: 'ref', label: 'Source', from: 'combatants' });

export const durationSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('until-turn-start'),
      combatant: anchor(),
      turns: z.number().int().min(1).max(1000).optional(),
    }),
    z.object({
      kind: z.literal('until-turn-end'),
      combatant: anchor(),
      turns: z.number().int().min(0).max(1000).optional(),
    }),
    z.object({ kind: z.literal('until-round-end'), round: z.number().int().min(0).optional() }),
    z.object({ kind: z.literal('for'), amount: z.number().int().min(1).max(100_000) }),
    z.object({
      kind: z.literal('until'),
      at: z.object({ round: z.number().int().min(0), at: z.array(z.number()).max(8) }),
    }),
    z.object({ kind: z.literal('indefinite') }),
  ])
  .meta({ label: 'Duration', duration: true });

const jsonObject = z.record(z.string(), z.json());

export const combatantInputSchema = z.object({
  id: combatantId.optional(),
  name: z.string().trim().min(1).max(80).meta({ label: 'Name' }),
  side: z
    .enum(['pc', 'npc'])
    .default('npc')
    .meta({ label: 'Side', choices: { pc: 'PC', npc: 'NPC' } }),
  player: z.string().min(1).max(80).optional(),
  hidden: z.boolean().default(false),
  group: z.string().min(1).max(80).optional().meta({ label: 'NPC group' }),
  hp: z
    .union([
      z.number().int().min(0).max(1_000_000),
      z.object({
        current: z.number().int().min(-1_000_000).max(1_000_000),
        max: z.number().int().min(0).max(1_000_000),
        temp: z.number().int().min(0).max(1_000_000).default(0),
      }),
    ])
    .optional()
    .meta({ label: 'HP' }),
  stats: jsonObject.default({}),
  notes: z.string().max(10_000).optional().meta({ label: 'GM notes' }),
});
export type CombatantInput = z.input<typeof combatantInputSchema>;

export const actionDefSchema = z.object({
  id: combatantId,
  name: z.string().trim().min(1).max(80),
  kind: z.string().min(1).max(40).default('custom'),
  cost: z.record(z.string(), z.number().finite()).default({}),
  tags: z.array(z.string().max(40)).max(20).default([]),
  text: z.string().max(2000).default(''),
  data: jsonObject.optional(),
  params: z
    .array(
      z.union([
        z.string().min(1).max(64),
        z.object({
          name: z.string().min(1).max(64),
          required: z.boolean().optional(),
          label: z.string().min(1).max(80).optional(),
          default: z.json().optional(),
          min: z.number().finite().optional(),
          max: z.number().finite().optional(),
          from: z
            .union([
              z.enum(['combatants', 'others', 'allies', 'enemies', 'actions']),
              z.templateLiteral(['stat:', z.string().regex(/^[A-Za-z0-9_]{1,40}$/)]),
            ])
            .optional(),
        }),
      ]),
    )
    .max(20)
    .optional()
    .describe('Fields of the act command this action takes (a target, a casting time…).'),
});

export const coreCommandSchemas = lazySchemas({
  'add-combatant': () => z.object({ combatant: combatantInputSchema }),
  'update-combatant': () =>
    z.object({
      combatant: changed(),
      name: z.string().trim().min(1).max(80).optional(),
      side: z.enum(['pc', 'npc']).optional(),
      player: z.string().min(1).max(80).nullable().optional(),
      hidden: z.boolean().optional(),
      group: z.string().min(1).max(80).nullable().optional(),
      notes: z.string().max(10_000).optional(),
      stats: jsonObject.optional(),
    }),
  'remove-combatant': () => z.object({ combatant: changed() }),
  defeat: () => z.object({ combatant: changed() }),
  revive: () => z.object({ combatant: changed() }),
  damage: () => z.object({ combatant: changed(), amount: z.number().int().min(0).max(1_000_000) }),
  heal: () => z.object({ combatant: changed(), amount: z.number().int().min(0).max(1_000_000) }),
  'set-hp': () =>
    z.object({
      combatant: changed(),
      current: z.number().int().min(-1_000_000).max(1_000_000).optional(),
      max: z.number().int().min(0).max(1_000_000).optional(),
      temp: z.number().int().min(0).max(1_000_000).optional(),
    }),
  'add-effect': () =>
    z.object({
      target: changed(),
      name: z.string().trim().min(1).max(80),
      duration: durationSchema,
      source: named().optional(),
      note: z.string().max(2000).optional(),
      data: jsonObject.optional(),
    }),
  'remove-effect': () => z.object({ effect: id }),
  'define-action': () => z.object({ action: actionDefSchema }),
  'remove-action': () => z.object({ action: id }),
  'set-options': () => z.object({ options: jsonObject }),
  'set-hp-display': () =>
    z
      .object({
        pc: z.enum(HP_SHOWN).optional().describe('How the table and players see PC HP.'),
        npc: z.enum(HP_SHOWN).optional().describe('How the table and players see NPC HP.'),
      })
      .meta({ gm: true }),
  'add-timed-event': () =>
    z
      .object({
        name: z
          .string()
          .trim()
          .min(1)
          .max(80)
          .meta({ label: 'Name' })
          .describe('What it is ("Lair action").'),
        at: z
          .number()
          .int()
          .min(-1000)
          .max(1000)
          .meta({ label: 'At' })
          .describe("Where in every round, on the ruleset's clock: an initiative count, a Mark, a tempo."),
        note: z.string().trim().max(2000).optional().meta({ label: 'GM note' }).describe('What happens.'),
      })
      .meta({ gm: true }),
  'remove-timed-event': () => z.object({ id: z.string().min(1).max(80) }).meta({ gm: true }),
  note: () => z.object({ text: z.string().trim().min(1).max(10_000) }),
  end: () => z.object({}),
  undo: () => z.object({}),
  redo: () => z.object({}),
});

export type CoreCommandType = keyof typeof coreCommandSchemas;

/** The engine's own command types, as a set: asked of every command decided (the record is lazy). */
const CORE_COMMAND_TYPES: ReadonlySet<string> = new Set(Object.keys(coreCommandSchemas));

export function isCoreCommand(type: string): type is CoreCommandType {
  return CORE_COMMAND_TYPES.has(type);
}

/** A validated command of the engine's own (see `checkCommand`), with its fields typed. */
export function isEngineCommand(command: { type: string }): command is CoreCommand {
  return isCoreCommand(command.type);
}

/**
 * One sentence from zod issues: which field, what is wrong, in words (`issueWords`). With the schema, the
 * fields are named by their labels and fixed choices by theirs ("Round mode: choose Full Round…").
 */
export function explainZodError(error: z.ZodError, what: string, schema?: z.ZodType): string {
  if (schema) return `The ${what} is not valid — ${issuesInWords(error, schema)}`;
  const issues = sayableIssues(error.issues);
  const parts = issues.slice(0, 3).map((i) => {
    const where = i.path.length ? `"${i.path.join('.')}"` : 'The input';
    return issueWords(i, where).replace(/\.$/, '');
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `The ${what} is not valid — ${parts.join('; ')}${more}.`;
}

/**
 * Options a ruleset does not have, named: zod would drop them silently, and a GM who typed
 * "roundmode" would never learn why the round mode did not change.
 */
export function unknownOptions(schema: z.ZodType, input: unknown, rulesetName: string): string | undefined {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape || typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const unknown = Object.keys(input).filter((k) => !Object.hasOwn(shape, k));
  if (unknown.length === 0) return undefined;
  const list = unknown.map((k) => `"${k}"`).join(', ');
  return `${rulesetName} has no option ${list}. Its options: ${Object.keys(shape).join(', ') || 'none'}.`;
}

/**
 * The commands a record of schemas declares, as a union discriminated by `type`, each with its fields as
 * validated (defaults applied): what `decide` receives after the engine has checked the command.
 */
export type CommandOf<S extends Record<string, z.ZodType>> = {
  [K in keyof S & string]: { type: K } & Fields<z.output<S[K]>>;
}[keyof S & string];

/** One of the engine's own commands, validated. */
export type CoreCommand = CommandOf<typeof coreCommandSchemas>;

/**
 * A command's payload checked by the schema of its type: the one place where untyped input becomes a
 * typed command. The schema for `type` accepted the payload, so together they are that branch of the union.
 */
export function checkCommand<S extends Record<string, z.ZodType>>(
  schemas: S,
  type: keyof S & string,
  payload: unknown,
): { command: CommandOf<S> } | { error: z.ZodError; schema: z.ZodType } {
  const schema = schemas[type];
  if (!schema) throw new Error(`No schema for the command "${type}".`);
  // A payload of plain JSON that this schema accepted before gives what it gave then: a simulation sends
  // the same few commands (`next`, a policy's attack) millions of times, and the schema is a pure function
  // of its input. The remembered output is frozen, so no command can change another's fields.
  // Only short payloads are kept (a note's text or a whole combatant is parsed each time), at most
  // ACCEPTED_MAX per schema: about a quarter of a megabyte per command type at worst, in a server too.
  const text = jsonKey(payload);
  const key = text !== undefined && text.length <= ACCEPTED_KEY_MAX ? text : undefined;
  let known = key === undefined ? undefined : ACCEPTED.get(schema);
  const seen = key === undefined ? undefined : known?.get(key);
  if (seen !== undefined) return { command: Object.assign({ type }, seen) as CommandOf<S> };
  const parsed = schema.safeParse(payload);
  if (!parsed.success) return { error: parsed.error, schema };
  if (key !== undefined) {
    if (!known) {
      known = new Map();
      ACCEPTED.set(schema, known);
    }
    if (known.size >= ACCEPTED_MAX) known.clear();
    known.set(key, deepFreeze(parsed.data));
  }
  return { command: Object.assign({ type }, parsed.data) as CommandOf<S> };
}

/**
 * `checkCommand` for a whole command (`type` and payload together) that is deeply frozen, remembered by
 * the object itself: a caller that sends the same frozen command again and again (a simulator's `next`,
 * a policy's attack, made once and frozen) has it checked once, with no JSON key made per send. A frozen
 * command cannot change, so what the schema made of it then is what it would make now. A command that is
 * not deeply frozen is checked as `checkCommand` checks it.
 */
export function checkFrozenCommand<S extends Record<string, z.ZodType>>(
  schemas: S,
  command: { type: keyof S & string },
): { command: CommandOf<S> } | { error: z.ZodError; schema: z.ZodType } {
  const known = FROZEN.get(command);
  // Checked against this very record, whose entry for the type can no longer change: no lookup of the
  // schema by name (a record of lazily built schemas is slow to index), the common case of a simulator.
  if (known !== undefined && known.fixedIn === schemas) return { command: known.command as CommandOf<S> };
  const schema = schemas[command.type];
  if (known !== undefined && schema !== undefined && known.schema === schema) {
    return { command: known.command as CommandOf<S> };
  }
  const { type, ...payload } = command;
  const checked = checkCommand(schemas, type, payload);
  if ('command' in checked && deeplyFrozen(command, 0)) {
    const entry = Object.getOwnPropertyDescriptor(schemas, type);
    const fixed = entry !== undefined && 'value' in entry && !entry.writable && !entry.configurable;
    FROZEN.set(command, {
      schema: schema!,
      fixedIn: fixed ? schemas : undefined,
      command: deepFreeze(checked.command),
    });
  }
  return checked;
}

/**
 * A deeply frozen command already checked against a schema record whose entry for its type can no longer
 * change (`fixedIn`), with what the check made of it; undefined for any other. The engine's hot path asks
 * this first: such a command needs no lookup of its type nor of its schema.
 */
export function checkedFrozen(
  command: object,
): { readonly fixedIn: object; readonly command: unknown } | undefined {
  const known = FROZEN.get(command);
  return known?.fixedIn === undefined ? undefined : (known as { fixedIn: object; command: unknown });
}

/**
 * Deeply frozen commands already checked, with the schema that checked them, the record it was read from
 * when that record's entry can never change (a built `lazySchemas` entry, a frozen record), and its
 * output (frozen).
 */
const FROZEN = new WeakMap<object, { schema: z.ZodType; fixedIn: object | undefined; command: unknown }>();

function deeplyFrozen(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (depth > 8 || !Object.isFrozen(v)) return false;
  for (const x of Object.values(v)) if (!deeplyFrozen(x, depth + 1)) return false;
  return true;
}

/** Payloads each command schema accepted, by their JSON text, with what it made of them. */
const ACCEPTED = new WeakMap<z.ZodType, Map<string, unknown>>();
const ACCEPTED_MAX = 256;
const ACCEPTED_KEY_MAX = 400;

/**
 * The JSON text of a value that JSON represents exactly — strings, finite numbers (not -0), booleans,
 * null, arrays without holes and plain objects of those — or undefined for anything else (undefined
 * fields, NaN, dates, class instances), which is never looked up: two payloads with one text are then
 * the same input to a schema.
 */
export function jsonKey(value: unknown): string | undefined {
  return plainJson(value, 0) ? JSON.stringify(value) : undefined;
}

function plainJson(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (v === null) return true;
      if (depth > 8) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!(i in v) || !plainJson(v[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const k in v) {
        if (!Object.hasOwn(v, k) || !plainJson((v as Record<string, unknown>)[k], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}
