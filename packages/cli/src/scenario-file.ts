import {
  type EncounterState,
  isRejection,
  type Json,
  parseScenario,
  type RulesetRegistry,
  runScenario,
  SCENARIO_SCHEMA,
  type Scenario,
  type ScenarioStep,
} from '@roundkeeper/engine';
import { stringify as toYaml } from 'yaml';
import { CliError, EXIT, loadScenarioFile, readData, writeOutput } from './load.js';

/** What a scenario file needs besides its commands. */
export interface ScenarioBase {
  name: string;
  description?: string;
  ruleset: string;
  options: Record<string, Json>;
  seed: number;
  dice?: number[];
  strictDice?: boolean;
  combatants: unknown[];
  actions: unknown[];
}

/**
 * A scenario file that replays to `state`: the setup, every accepted command in order (refused ones
 * changed nothing, so they are left out), and expectations on the final state so a replay checks itself.
 */
export function toScenario(
  base: ScenarioBase,
  commands: readonly ScenarioStep[],
  state: EncounterState,
): Record<string, unknown> {
  const file: Record<string, unknown> = { schema: SCENARIO_SCHEMA, name: base.name };
  if (base.description) file.description = base.description;
  file.ruleset = base.ruleset;
  if (Object.keys(base.options).length) file.options = base.options;
  file.seed = base.seed;
  if (base.dice) file.dice = base.dice;
  if (base.strictDice) file.strictDice = true;
  file.combatants = base.combatants;
  if (base.actions.length) file.actions = base.actions;
  file.commands = commands;
  file.expect = { status: state.status, round: state.round, current: state.current, seq: state.seq };
  return file;
}

/** JSON for a .json file name, YAML otherwise. */
export function scenarioText(data: unknown, file?: string): string {
  return file?.endsWith('.json') ? `${JSON.stringify(data, null, 2)}\n` : toYaml(data, { lineWidth: 0 });
}

function baseOf(scenario: Scenario): ScenarioBase {
  const base: ScenarioBase = {
    name: scenario.name,
    ruleset: scenario.ruleset,
    options: scenario.options,
    seed: scenario.seed,
    combatants: scenario.combatants,
    actions: scenario.actions,
  };
  if (scenario.description) base.description = scenario.description;
  if (scenario.dice) base.dice = scenario.dice;
  if (scenario.strictDice) base.strictDice = true;
  return base;
}

/** Replays a scenario file and returns its final encounter as a scenario file (the accepted commands). */
export function exportScenario(
  path: string,
  registry: RulesetRegistry,
): { data: Record<string, unknown>; state: EncounterState } {
  const { scenario, raw } = loadScenarioFile(path);
  if (!Object.hasOwn(registry, scenario.ruleset)) {
    throw new CliError(
      `${path} uses the ruleset "${scenario.ruleset}", which is not installed. Installed: ${Object.keys(registry).join(', ')}.`,
      EXIT.unreadable,
      'ruleset/unknown',
    );
  }
  const result = runScenario(scenario, registry, scenario.name);
  if (isRejection(result)) throw new CliError(`${path}: ${result.message}`, EXIT.refused, result.code);
  const commands: ScenarioStep[] = [];
  for (const step of result.steps) {
    if (step.rejection) continue;
    const { command, by } = scenario.commands[step.index]!;
    commands.push(by ? { command, by } : { command });
  }
  const data = toScenario(baseOf(scenario), commands, result.encounter.state);
  // The CLI's own sections travel with the fight.
  for (const key of ['simulate', 'analyze'] as const) if (raw[key] !== undefined) data[key] = raw[key];
  return { data, state: result.encounter.state };
}

/** `json`: print the scenario as JSON (and report a written file as JSON); errors are then JSON too. */
export function exportCommand(path: string, registry: RulesetRegistry, out?: string, json = false): string {
  const { data } = exportScenario(path, registry);
  const text = scenarioText(data, out ?? (json ? '-.json' : undefined));
  if (!out) return text.trimEnd();
  writeOutput(out, text);
  const commands = (data.commands as unknown[]).length;
  if (json) return JSON.stringify({ wrote: out, commands });
  return `Wrote ${out}: ${commands} commands; it replays to the same state (check: roundkeeper run ${out}).`;
}

/**
 * Another tracker's export read into a scenario by the ruleset that knows its format (`importers`:
 * classic reads Improved Initiative's), with what did not map; undefined when no ruleset knows the file
 * (a scenario file, or nothing at all).
 */
function fromOtherTracker(
  path: string,
  registry: RulesetRegistry,
  encounter?: string,
): { data: Record<string, unknown>; notMapped: string[]; format: string; ruleset: string } | undefined {
  const raw = readData(path);
  for (const ruleset of Object.values(registry)) {
    for (const importer of ruleset.importers ?? []) {
      let read: ReturnType<typeof importer.read>;
      try {
        read = importer.read(raw, encounter);
      } catch (error) {
        throw new CliError(`${path}: ${(error as Error).message}`, EXIT.refused);
      }
      if (read)
        return {
          data: read.scenario,
          notMapped: read.notMapped,
          format: importer.format,
          ruleset: ruleset.id,
        };
    }
  }
  return undefined;
}

/**
 * Reads a scenario file from elsewhere (a bug report, another table), checks that it replays with every
 * expectation met, and writes it normalized (defaults filled in) as YAML or JSON. An Improved Initiative
 * export is read into a classic scenario (`encounter` picks one of its saved encounters); what did not map
 * is returned in `notMapped`, one line each, for stderr.
 */
export function importCommand(
  path: string,
  registry: RulesetRegistry,
  out?: string,
  json = false,
  encounter?: string,
): { text: string; code: number; failures: string[]; notMapped: string[] } {
  const ii = fromOtherTracker(path, registry, encounter);
  if (!ii && encounter !== undefined)
    throw new CliError(
      `--encounter picks a saved encounter of another tracker's export (Improved Initiative); ${path} is a scenario file.`,
      EXIT.refused,
    );
  const notMapped = ii?.notMapped ?? [];
  let scenario: Scenario;
  let raw: Record<string, unknown>;
  if (ii) {
    const parsed = parseScenario(ii.data);
    if (isRejection(parsed)) throw new CliError(`${path}: ${parsed.message}`, EXIT.refused, parsed.code);
    scenario = parsed;
    raw = ii.data;
  } else ({ scenario, raw } = loadScenarioFile(path));
  if (!Object.hasOwn(registry, scenario.ruleset)) {
    throw new CliError(
      `${path} uses the ruleset "${scenario.ruleset}", which is not installed. Installed: ${Object.keys(registry).join(', ')}.`,
      EXIT.unreadable,
      'ruleset/unknown',
    );
  }
  const result = runScenario(scenario, registry, scenario.name);
  if (isRejection(result)) throw new CliError(`${path}: ${result.message}`, EXIT.refused, result.code);
  const data: Record<string, unknown> = { ...scenario };
  for (const key of ['simulate', 'analyze'] as const) if (raw[key] !== undefined) data[key] = raw[key];
  const problems = result.failures.length
    ? `\n${result.failures.length} expectation(s) not met:\n${result.failures.map((f) => `  - ${f}`).join('\n')}`
    : '';
  const code = result.failures.length ? EXIT.refused : EXIT.ok;
  const failures = result.failures;
  const text = scenarioText(data, out ?? (json ? '-.json' : undefined));
  if (json) {
    if (out) writeOutput(out, text);
    const summary = { combatants: scenario.combatants.length, commands: scenario.commands.length };
    return {
      text: out ? JSON.stringify({ wrote: out, ...summary, failures, notMapped }) : text.trimEnd(),
      code,
      failures,
      notMapped,
    };
  }
  if (!out)
    return {
      text: `${text.trimEnd()}${problems ? `\n#${problems.replace(/\n/g, '\n# ')}` : ''}`,
      code,
      failures,
      notMapped,
    };
  writeOutput(out, text);
  const from = ii ? ` (${ii.format} → ${ii.ruleset}, "${scenario.name}")` : '';
  return {
    failures,
    notMapped,
    text: `Imported ${path}${from} → ${out}: ${scenario.combatants.length} combatants, ${scenario.commands.length} commands; ${code === 0 ? 'every expectation met' : 'but'}${problems}`,
    code,
  };
}
