import { z } from 'zod';
import { actionDefSchema, combatantInputSchema, explainZodError } from './commands.js';
import { describeEvent } from './describe.js';
import { scriptedDice, seededDice } from './dice/rng.js';
import { rulesetFor } from './engine.js';
import type { Json } from './json.js';
import { once } from './lazy.js';
import { EncounterLog } from './log.js';
import type { RulesetRegistry } from './ruleset.js';
import type { Timeline } from './timeline.js';
import { type Command, isRejection, type LogEntry, type Rejection, reject } from './types.js';

/**
 * The version of the scenario file format. 2: a step holds its command under `command`, apart from the
 * step's own keys (`expect`, `expectLog`, `reject`, `by`, `note`), so a command's own `note` (an effect's,
 * an Exert's) is the command's. 1: the command's fields and the step's keys side by side (still read: a
 * `note` there is the reader's comment).
 */
export const SCENARIO_SCHEMA = 2;

const viewerSchema = () =>
  z.discriminatedUnion('role', [
    z.object({ role: z.literal('gm') }),
    z.object({ role: z.literal('table') }),
    z.object({ role: z.literal('player'), combatants: z.array(z.string()) }),
  ]);

/** A step's own keys: what must follow, who sends it, a comment. */
const stepKeys = () => ({
  /** Dot paths into the GM state after this step, and the values they must have. */
  expect: z.record(z.string(), z.json()).optional(),
  /** Text each expected in one of this step's log lines (of a refused step: in the refusal's sentence). */
  expectLog: z.array(z.string()).optional(),
  /**
   * Rows the ruleset's timeline shows after this step: `"<label>"` (the row is there), or
   * `"<label> @ <round>: <span>, …"` (its spans in that round, by label, in order).
   */
  expectTimeline: z.array(z.string()).optional(),
  /** This step must be refused with this code. */
  reject: z.string().optional(),
  /** Who sends the command (default: the GM). */
  by: viewerSchema().optional(),
  /** A comment for readers of the file; quoting the rules text is encouraged. */
  note: z.string().optional(),
});

const commandSchema = () => z.object({ type: z.string().min(1) }).catchall(z.json());

const stepSchema = () => z.strictObject({ command: commandSchema(), ...stepKeys() });

/** Schema 1: the command's fields and the step's keys mixed; read into the schema 2 shape. */
const flatStepSchema = () =>
  z
    .object({ type: z.string().min(1), ...stepKeys() })
    .catchall(z.json())
    .transform(({ expect, expectLog, expectTimeline, reject, by, note, ...command }) => {
      const step: z.output<ReturnType<typeof stepSchema>> = { command };
      if (expect) step.expect = expect;
      if (expectLog) step.expectLog = expectLog;
      if (expectTimeline) step.expectTimeline = expectTimeline;
      if (reject) step.reject = reject;
      if (by) step.by = by;
      if (note) step.note = note;
      return step;
    });

const scenarioFields = () => ({
  name: z.string().min(1),
  description: z.string().optional(),
  ruleset: z.string().min(1),
  options: z.record(z.string(), z.json()).default({}),
  /** Seed of the encounter's dice (default 1). */
  seed: z.number().int().default(1),
  /** Scripted die faces, used in order before the seed takes over (or instead of it, with strictDice). */
  dice: z.array(z.number().int()).optional(),
  /** When true, running out of scripted faces is an error rather than falling back to the seed. */
  strictDice: z.boolean().default(false),
  combatants: z.array(combatantInputSchema).default([]),
  actions: z.array(actionDefSchema).default([]),
  /** Expectations on the final state. */
  expect: z.record(z.string(), z.json()).optional(),
});

export const scenarioSchema = once(() =>
  z.discriminatedUnion('schema', [
    z.object({
      schema: z.literal(SCENARIO_SCHEMA),
      ...scenarioFields(),
      commands: z.array(stepSchema()).default([]),
    }),
    z.object({ schema: z.literal(1), ...scenarioFields(), commands: z.array(flatStepSchema()).default([]) }),
  ]),
);

/** One step of a scenario: a command and what the step asserts about it. */
export type ScenarioStep = z.output<ReturnType<typeof stepSchema>>;

export type Scenario = z.output<ReturnType<typeof scenarioSchema>>;
export type ScenarioInput = z.input<ReturnType<typeof scenarioSchema>>;

export interface StepResult {
  index: number;
  command: Command;
  entries: LogEntry[];
  rejection?: Rejection;
  lines: string[];
  failures: string[];
}

export interface ScenarioResult {
  scenario: Scenario;
  encounter: EncounterLog;
  steps: StepResult[];
  failures: string[];
}

export function parseScenario(data: unknown): Scenario | Rejection {
  const parsed = scenarioSchema().safeParse(data);
  if (!parsed.success) return reject('scenario/invalid', explainZodError(parsed.error, 'scenario file'));
  return parsed.data;
}

/** Reads a dot path ("combatants.mage.cs.marksLeft", "agenda.0.kind") out of a JSON value. */
/** Paths split before: a simulation reads the same few paths (`roll.total`) millions of times. */
const PATHS = new Map<string, readonly string[]>();

function keysOf(path: string): readonly string[] {
  let keys = PATHS.get(path);
  if (keys === undefined) {
    keys = path.split('.');
    if (PATHS.size >= 1000) PATHS.clear();
    PATHS.set(path, keys);
  }
  return keys;
}

export function readPath(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const key of keysOf(path)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function check(state: unknown, expect: Record<string, Json> | undefined, where: string): string[] {
  if (!expect) return [];
  const out: string[] = [];
  for (const [path, want] of Object.entries(expect)) {
    const got = readPath(state, path);
    if (!sameJson(got, want)) {
      out.push(`${where}: expected ${path} = ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  return out;
}

/** Replays a scenario: creates the encounter, adds combatants and custom actions, runs each command. */
export function runScenario(
  scenario: Scenario,
  registry: RulesetRegistry,
  id = 'scenario',
): ScenarioResult | Rejection {
  const dice = scenario.dice
    ? scriptedDice(scenario.dice, scenario.strictDice ? 'error' : { seed: scenario.seed })
    : seededDice(scenario.seed);
  const enc = EncounterLog.create(
    { id, name: scenario.name, ruleset: scenario.ruleset, options: scenario.options, dice },
    registry,
  );
  if (isRejection(enc)) return enc;
  const setup: Command[] = [
    ...scenario.combatants.map((combatant) => ({ type: 'add-combatant', combatant })),
    ...scenario.actions.map((action) => ({ type: 'define-action', action })),
  ];
  for (const command of setup) {
    const r = enc.execute(command);
    if (isRejection(r)) return { ...r, message: `Setting up the scenario failed: ${r.message}` };
  }
  const ruleset = rulesetFor(enc.state, registry);
  if (isRejection(ruleset)) return ruleset;
  const steps: StepResult[] = [];
  const failures: string[] = [];
  scenario.commands.forEach((step, index) => {
    const { command, expect, expectLog, expectTimeline, reject: wantReject, by } = step;
    const where = `step ${index + 1} (${command.type})`;
    const result = enc.execute(command, by ? { by } : {});
    const stepFailures: string[] = [];
    let lines: string[] = [];
    let entries: LogEntry[] = [];
    let rejection: Rejection | undefined;
    if (isRejection(result)) {
      rejection = result;
      if (!wantReject) stepFailures.push(`${where} was refused: [${result.code}] ${result.message}`);
      else if (wantReject !== result.code) {
        stepFailures.push(`${where}: expected refusal ${wantReject}, got [${result.code}] ${result.message}`);
      }
    } else {
      entries = result;
      lines = result
        .map((e) => describeEvent(e.event, enc.state, ruleset))
        .filter((l): l is string => l !== null);
      if (wantReject) stepFailures.push(`${where}: expected refusal ${wantReject}, but it was accepted`);
    }
    stepFailures.push(...check(enc.state, expect, where));
    const said = rejection ? [rejection.message] : lines;
    for (const text of expectLog ?? []) {
      if (!said.some((l) => l.includes(text))) {
        const what = rejection ? 'a refusal containing' : 'a log line containing';
        stepFailures.push(`${where}: expected ${what} "${text}"; got: ${said.join(' | ') || '(none)'}`);
      }
    }
    if (expectTimeline)
      stepFailures.push(...checkTimeline(ruleset.timeline(enc.state), expectTimeline, where));
    const s: StepResult = { index, command: command as Command, entries, lines, failures: stepFailures };
    if (rejection) s.rejection = rejection;
    steps.push(s);
    failures.push(...stepFailures);
  });
  failures.push(...check(enc.state, scenario.expect, 'final state'));
  return { scenario, encounter: enc, steps, failures };
}

/**
 * Each expected row of the timeline: `"<label>"` (the row is there) or `"<label> @ <round>: <span>, …"`
 * (the row's spans in that round, by label, in order).
 */
function checkTimeline(timeline: Timeline, rows: readonly string[], where: string): string[] {
  const failures: string[] = [];
  for (const row of rows) {
    const at = row.lastIndexOf(' @ ');
    const label = at < 0 ? row : row.slice(0, at);
    const lane = timeline.lanes.find((l) => l.label === label);
    if (!lane) {
      failures.push(
        `${where}: expected a timeline row "${label}"; the rows are: ${timeline.lanes.map((l) => l.label).join(' | ')}`,
      );
      continue;
    }
    if (at < 0) continue;
    const [round, spans = ''] = row.slice(at + 3).split(/:\s*/, 2);
    const want = spans
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
      .join(', ');
    const got = lane.spans
      .filter((x) => String(x.round) === round?.trim())
      .map((x) => x.label)
      .join(', ');
    if (got !== want)
      failures.push(
        `${where}: timeline row "${label}" in round ${round}: expected ${want || '(none)'}; got ${got || '(none)'}`,
      );
  }
  return failures;
}
