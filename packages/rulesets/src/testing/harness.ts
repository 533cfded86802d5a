import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AnyRuleset,
  type Command,
  deepFreeze,
  EncounterLog,
  type EncounterState,
  isPlainJson,
  isRejection,
  type LogEntry,
  parseScenario,
  type Rejection,
  type RulesetRegistry,
  type RulesetTypes,
  reduce,
  runScenario,
  seededDice,
  view,
} from '@roundkeeper/engine';
import { parse as parseYaml } from 'yaml';
import { rulesets } from '../index.js';

/** A registry for tests: the shipped rulesets plus any under test. */
export function registryWith(...extra: AnyRuleset[]): RulesetRegistry {
  const r: Record<string, AnyRuleset> = { ...rulesets };
  for (const x of extra) r[x.id] = x;
  return r;
}

export interface Setup {
  ruleset: string;
  options?: Record<string, unknown>;
  seed?: number;
  combatants: Array<Record<string, unknown>>;
}

/** Creates an encounter and adds its combatants; throws if setup is refused (a test bug). */
export function encounter(setup: Setup, registry: RulesetRegistry = rulesets): EncounterLog {
  const enc = EncounterLog.create(
    {
      id: 'test',
      name: 'Test',
      ruleset: setup.ruleset,
      options: setup.options ?? {},
      dice: seededDice(setup.seed ?? 1),
    },
    registry,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of setup.combatants) must(enc, { type: 'add-combatant', combatant });
  return enc;
}

/** Runs a command that must be accepted. */
export function must(enc: EncounterLog, command: Command): LogEntry[] {
  const r = enc.execute(command);
  if (isRejection(r)) throw new Error(`${command.type} was refused: [${r.code}] ${r.message}`);
  return r;
}

/** Runs a command that must be refused, and returns the refusal. */
export function refused(enc: EncounterLog, command: Command): Rejection {
  const before = JSON.stringify(enc.state);
  const r = enc.execute(command);
  if (!isRejection(r)) throw new Error(`${command.type} was accepted but should have been refused`);
  if (JSON.stringify(enc.state) !== before) throw new Error('a refused command changed the state');
  return r;
}

/**
 * The invariants every ruleset keeps, checked after a command sequence:
 * fold(log) equals the live state; the state is plain JSON; views never carry the dice state.
 */
export function checkInvariants(enc: EncounterLog): void {
  const folded = reduce(enc.entries, enc.registry);
  const live = enc.state;
  if (JSON.stringify(folded) !== JSON.stringify(live))
    throw new Error('fold(log) differs from the live state');
  if (!isPlainJson(live)) throw new Error('state is not plain JSON');
  const ruleset = enc.registry[live.ruleset]!;
  for (const viewer of [{ role: 'table' as const }, { role: 'player' as const, combatants: [] }]) {
    if (view(live, viewer, ruleset).dice !== null) throw new Error('a non-GM view carries the dice state');
  }
}

/** Runs commands on a frozen state so any mutation in decide/evolve throws. */
export function runFrozen(enc: EncounterLog, commands: unknown[]): Array<LogEntry[] | Rejection> {
  const out: Array<LogEntry[] | Rejection> = [];
  for (const c of commands) {
    deepFreeze(enc.state);
    for (const e of enc.entries) deepFreeze(e);
    out.push(enc.execute(c));
  }
  return out;
}

export type { EncounterState };

/** The live state typed with a ruleset's own types, for assertions. */
export function stateOf<T extends RulesetTypes>(enc: EncounterLog): EncounterState<T> {
  return enc.state as unknown as EncounterState<T>;
}

/**
 * Loads a scenario file (YAML or JSON) or another tracker's export a ruleset imports, runs it, and returns
 * its failures (empty when it passes).
 */
export function runScenarioFile(path: string, registry: RulesetRegistry = rulesets): string[] {
  const text = readFileSync(path, 'utf8');
  const raw: unknown = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  // Another tracker's export (examples/improved-initiative/) runs as the scenario its importer makes.
  const imported = Object.values(registry)
    .flatMap((r) => r.importers ?? [])
    .map((i) => i.read(raw))
    .find((r) => r !== undefined);
  const scenario = parseScenario(imported ? imported.scenario : raw);
  if (isRejection(scenario)) return [`${path}: ${scenario.message}`];
  const result = runScenario(scenario, registry);
  if (isRejection(result)) return [`${path}: [${result.code}] ${result.message}`];
  return result.failures.map((f) => `${path}: ${f}`);
}

/** Every scenario file under a folder, for a test that runs them all. */
export function scenarioFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .map((f) => join(dir, f))
    .sort();
}
