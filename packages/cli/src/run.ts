import {
  isRejection,
  type RulesetRegistry,
  renderTimelineAscii,
  runScenario,
  type ScenarioResult,
} from '@roundkeeper/engine';
import { CliError, EXIT, loadScenario } from './load.js';

export interface RunOptions {
  json?: boolean;
  timeline?: boolean;
}

/** Replays a scenario file; returns the text to print and the exit code. */
export function runCommand(
  path: string,
  registry: RulesetRegistry,
  opts: RunOptions,
): { out: string; code: number } {
  const scenario = loadScenario(path);
  if (!Object.hasOwn(registry, scenario.ruleset)) {
    throw new CliError(
      `${path} uses the ruleset "${scenario.ruleset}", which is not installed. Installed: ${Object.keys(registry).join(', ')}.`,
      EXIT.unreadable,
    );
  }
  const result = runScenario(scenario, registry, scenario.name);
  if (isRejection(result)) throw new CliError(`${path}: ${result.message}`, EXIT.refused);
  const code = result.failures.length ? EXIT.refused : EXIT.ok;
  if (opts.json) {
    const out = JSON.stringify(
      {
        scenario: scenario.name,
        ok: code === EXIT.ok,
        failures: result.failures,
        events: result.encounter.entries,
        state: result.encounter.state,
      },
      null,
      2,
    );
    return { out, code };
  }
  return { out: renderRun(result, registry, opts.timeline !== false), code };
}

function renderRun(result: ScenarioResult, registry: RulesetRegistry, withTimeline: boolean): string {
  const { scenario, encounter } = result;
  const ruleset = registry[scenario.ruleset]!;
  const lines: string[] = [`${scenario.name} — ${ruleset.name}`];
  if (scenario.description) lines.push(scenario.description);
  lines.push('');
  for (const step of result.steps) {
    const label = `${String(step.index + 1).padStart(3)}. ${step.command.type}${step.command.actor ? ` ${String(step.command.actor)}` : ''}`;
    if (step.rejection) {
      lines.push(`${label}: refused — ${step.rejection.message} [${step.rejection.code}]`);
    } else if (step.lines.length === 0) {
      lines.push(`${label}`);
    } else {
      lines.push(`${label}:`);
      for (const l of step.lines) lines.push(l.startsWith('—') ? `\n     ${l}` : `     ${l}`);
    }
    for (const f of step.failures) lines.push(`     ✗ ${f}`);
  }
  const state = encounter.state;
  if (withTimeline && state.status !== 'setup') {
    lines.push('', renderTimelineAscii(ruleset.timeline(state)));
  }
  lines.push('');
  const n = result.steps.length;
  if (result.failures.length === 0) lines.push(`✓ ${n} steps replayed; every expectation met.`);
  else {
    lines.push(`✗ ${result.failures.length} expectation(s) not met:`);
    for (const f of result.failures) lines.push(`  - ${f}`);
  }
  return lines.join('\n');
}
