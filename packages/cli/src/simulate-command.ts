import { writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { isRejection, type RulesetRegistry } from '@roundkeeper/engine';
import { CliError, EXIT, loadScenarioFile, parseSection } from './load.js';
import {
  checkPlan,
  HIST_MAX,
  METRICS,
  type Metric,
  mergeTally,
  rosterOf,
  runTrials,
  type SimPlan,
  type SimTally,
  simulateSectionSchema,
} from './simulate.js';
import { type Estimate, estimate, formatEstimate } from './stats.js';
import { barChartSvg, type Panel } from './svg.js';

export interface SimulateOptions {
  trials: number;
  seed: number;
  workers: number;
  rounds?: number;
  json?: boolean;
  plot?: string;
  progress?: boolean;
}

/** Reads a scenario's `simulate:` section (absent: defaults) into a plan, checked against the roster. */
export function loadPlan(path: string, registry: RulesetRegistry, rounds?: number): SimPlan {
  const { scenario, raw } = loadScenarioFile(path);
  if (!Object.hasOwn(registry, scenario.ruleset)) {
    throw new CliError(
      `${path} uses the ruleset "${scenario.ruleset}", which is not installed. Installed: ${Object.keys(registry).join(', ')}.`,
      EXIT.unreadable,
    );
  }
  const sim = parseSection(simulateSectionSchema, raw.simulate, path, 'simulate');
  if (rounds !== undefined) sim.rounds = rounds;
  const plan: SimPlan = { scenario, sim };
  const roster = rosterOf(plan, registry);
  if (isRejection(roster)) throw new CliError(`${path}: ${roster.message}`, EXIT.unreadable);
  const problem = checkPlan(plan, roster);
  if (problem) throw new CliError(`${path}: ${problem}`, EXIT.unreadable);
  return plan;
}

/**
 * Runs `trials` trials, split over `workers` threads (contiguous ranges of trial numbers). Each trial's
 * seed comes from (seed, trial number) alone, so the tally is the same for any number of workers.
 */
export async function runSimulation(
  plan: SimPlan,
  registry: RulesetRegistry,
  opts: { trials: number; seed: number; workers: number; onProgress?: (done: number) => void },
): Promise<SimTally> {
  const { trials, seed } = opts;
  const workers = Math.max(1, Math.min(opts.workers, trials));
  if (workers === 1) {
    const t = runTrials(plan, registry, seed, 0, trials, opts.onProgress);
    if (isRejection(t)) throw new CliError(t.message, EXIT.refused);
    return t;
  }
  const done = new Array<number>(workers).fill(0);
  const ranges = Array.from({ length: workers }, (_, k) => [
    Math.floor((k * trials) / workers),
    Math.floor(((k + 1) * trials) / workers),
  ]);
  const tallies = await Promise.all(
    ranges.map(
      ([from, to], k) =>
        new Promise<SimTally>((resolve, reject) => {
          const worker = new Worker(new URL('./simulate-worker.js', import.meta.url), {
            workerData: { plan, seed, from, to },
          });
          worker.on(
            'message',
            (m: { progress?: number; tally?: SimTally; rejection?: { message: string } }) => {
              if (m.progress !== undefined) {
                done[k] = m.progress;
                opts.onProgress?.(done.reduce((a, b) => a + b, 0));
              } else if (m.tally) resolve(m.tally);
              else if (m.rejection) reject(new CliError(m.rejection.message, EXIT.refused));
            },
          );
          worker.on('error', reject);
          worker.on('exit', (code) => {
            if (code !== 0) reject(new Error(`a simulation worker stopped with exit code ${code}`));
          });
        }),
    ),
  );
  const total = tallies[0]!;
  for (const t of tallies.slice(1)) mergeTally(total, t);
  return total;
}

export interface SimSummary {
  scenario: string;
  ruleset: string;
  trials: number;
  seed: number;
  rounds: number;
  combatantRounds: number;
  /** Per combatant: each metric per round, with its 95% confidence interval. */
  combatants: Array<{ id: string; name: string } & Record<Metric, Estimate>>;
  events: Array<{ name: string; perRound: Estimate }>;
  questions: Array<{ name: string; order: string[]; per: 'round' | 'trial'; p: Estimate }>;
  refused: Record<string, number>;
  attackHistogram: Record<string, number[]>;
}

export function summarize(plan: SimPlan, tally: SimTally, seed: number): SimSummary {
  const names = new Map(plan.scenario.combatants.map((c) => [c.id, c.name] as const));
  return {
    scenario: plan.scenario.name,
    ruleset: plan.scenario.ruleset,
    trials: tally.trials,
    seed,
    rounds: tally.rounds,
    combatantRounds: tally.combatantRounds,
    combatants: Object.entries(tally.metrics).map(([id, m]) => {
      const row = { id, name: names.get(id) ?? id } as { id: string; name: string } & Record<
        Metric,
        Estimate
      >;
      for (const k of METRICS) row[k] = estimate(m[k], tally.trials);
      return row;
    }),
    events: Object.entries(tally.events).map(([name, s]) => ({ name, perRound: estimate(s, tally.trials) })),
    questions: plan.sim.questions.map((q, i) => ({
      name: q.name,
      order: q.order,
      per: q.per,
      p: estimate(tally.questions[i]!, tally.trials),
    })),
    refused: tally.refused,
    attackHistogram: tally.attackHistogram,
  };
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

export function renderSummary(s: SimSummary): string {
  const what = s.trials === 1 ? 'trial' : 'trials';
  const lines = [
    `${s.scenario} — ${s.ruleset}: ${s.trials} ${what}, seed ${s.seed}, ${s.rounds} rounds, ${s.combatantRounds} combatant-rounds`,
    'Per round, mean ± half-width of the 95% confidence interval:',
    '',
    ...table([
      ['combatant', 'turns', 'actions', 'attacks', 'forfeited', 'acts first'],
      ...s.combatants.map((c) => [
        c.name,
        formatEstimate(c.turns, 2),
        formatEstimate(c.actions, 2),
        formatEstimate(c.attacks, 2),
        formatEstimate(c.forfeits, 2),
        formatEstimate(c.first, 3),
      ]),
    ]),
  ];
  if (s.events.length) {
    lines.push(
      '',
      ...table([['event', 'per round'], ...s.events.map((e) => [e.name, formatEstimate(e.perRound, 3)])]),
    );
  }
  if (s.questions.length) {
    lines.push(
      '',
      ...table([
        ['question', 'probability', 'per'],
        ...s.questions.map((q) => [q.name, formatEstimate(q.p, 4), q.per]),
      ]),
    );
  }
  const refusals = Object.entries(s.refused);
  if (refusals.length) {
    lines.push(
      '',
      `Choices the rules refused (a policy asked for something the ruleset would not do): ${refusals.map(([c, n]) => `${c} ×${n}`).join(', ')}`,
    );
  }
  return lines.join('\n');
}

export function simulationSvg(s: SimSummary): string {
  const panels: Panel[] = s.combatants.map((c) => {
    const h = s.attackHistogram[c.id] ?? [];
    const total = h.reduce((a, b) => a + b, 0) || 1;
    return {
      title: `${c.name}: attacks per round (share of rounds)`,
      bars: h.map((n, k) => ({ label: k === HIST_MAX ? `${k}+` : String(k), value: n / total })),
    };
  });
  if (s.questions.length) {
    panels.push({
      title: 'Questions (probability, 95% CI)',
      max: 1,
      bars: s.questions.map((q) => ({
        label: q.name.slice(0, 24),
        value: q.p.mean,
        low: q.p.low,
        high: q.p.high,
      })),
    });
  }
  return barChartSvg(`${s.scenario}: ${s.trials} trials`, panels);
}

/** A progress bar on stderr, redrawn in place. */
export function progressBar(total: number): (done: number) => void {
  let last = -1;
  return (done) => {
    const pct = Math.floor((100 * done) / total);
    if (pct === last) return;
    last = pct;
    const filled = Math.round((30 * done) / total);
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${pct}% (${done}/${total} trials)`,
    );
    if (done >= total) process.stderr.write('\n');
  };
}

export async function simulateCommand(
  path: string,
  registry: RulesetRegistry,
  opts: SimulateOptions,
): Promise<string> {
  const plan = loadPlan(path, registry, opts.rounds);
  const onProgress = opts.progress ? progressBar(opts.trials) : undefined;
  const tally = await runSimulation(plan, registry, {
    trials: opts.trials,
    seed: opts.seed,
    workers: opts.workers,
    ...(onProgress ? { onProgress } : {}),
  });
  const summary = summarize(plan, tally, opts.seed);
  if (opts.plot) writeFileSync(opts.plot, simulationSvg(summary));
  return opts.json ? JSON.stringify(summary, null, 2) : renderSummary(summary);
}
