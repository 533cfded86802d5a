import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { isRejection, type RulesetRegistry } from '@roundkeeper/engine';
import { CliError, EXIT, loadScenarioFile, parseSection, writeOutput } from './load.js';
import {
  checkPlan,
  HIST_MAX,
  METRICS,
  type Metric,
  mergeTally,
  rosterOf,
  runShare,
  type ShareData,
  type SimPath,
  type SimPlan,
  type SimTally,
  simulateSectionSchema,
} from './simulate.js';
import { reportHtml, summaryTables, textTables, varyHeader, varySvg, varyTables } from './simulate-report.js';
import { parseVary, runVaried } from './simulate-vary.js';
import { type Estimate, estimate, formatEstimate, perTrial, type Sums } from './stats.js';
import { barChartSvg, type Panel } from './svg.js';

export interface SimulateOptions {
  trials: number;
  seed: number;
  workers: Workers;
  rounds?: number;
  json?: boolean;
  plot?: string;
  progress?: boolean;
  /** Run every trial through the engine even when the compiled kernel fits. */
  engine?: boolean;
  /** `<option or stat>=a,b,c`: the same fights under each value, compared (see simulate-vary.ts). */
  vary?: string;
  /** Write one self-contained HTML page of the tables and plots. */
  report?: string;
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

/** A number of threads, or `auto`: this one alone for a short run, every core for a long one. */
export type Workers = number | 'auto';

/** `auto` times this thread on the first trials for this long before it decides. */
const PROBE_MS = 50;
/** `auto` brings in the other cores when the rest of the run would take this thread longer than this. */
const AUTO_MIN_MS = 1000;

/**
 * Runs `trials` trials on `workers` threads: this one and `workers − 1` worker threads, all taking
 * chunks of trial numbers from a shared counter until none are left (see `runShare`). Each trial's
 * seed comes from (seed, trial number) alone and every tally is a sum of whole numbers, so the result
 * is the same for any number of workers and any way the chunks fall — which is also what lets `auto`
 * start alone and add worker threads part-way, once the first trials show the run is long enough to
 * repay their start-up (about 0.3 s each).
 */
export async function runSimulation(
  plan: SimPlan,
  registry: RulesetRegistry,
  opts: {
    trials: number;
    seed: number;
    workers: Workers;
    engine?: boolean;
    onProgress?: (done: number) => void;
    /** Told how many threads the run uses, once it knows (at once, or after `auto`'s first trials). */
    onThreads?: (threads: number) => void;
  },
): Promise<SimTally> {
  const { trials, seed } = opts;
  const cores = availableParallelism();
  const most = Math.max(1, Math.min(opts.workers === 'auto' ? cores : opts.workers, trials));
  const engine = opts.engine === true;
  // Chunks small enough to even out the threads' finishing times, big enough to cost nothing to hand out.
  const chunk = Math.max(1, Math.min(65_536, Math.ceil(trials / (most * 256))));
  const data: ShareData = {
    plan,
    seed,
    trials,
    chunk,
    engine,
    counters: new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT),
  };
  const counters = new Int32Array(data.counters);
  const report = () => opts.onProgress?.(Math.min(trials, Atomics.load(counters, 1)));
  let first: SimTally | undefined;
  let workers = most;
  if (opts.workers === 'auto' && most > 1) {
    const started = performance.now();
    const probe = runShare(data, registry, report, () => performance.now() - started >= PROBE_MS);
    if (isRejection(probe)) throw new CliError(probe.message, EXIT.refused);
    first = probe;
    const done = Atomics.load(counters, 1);
    const rest = ((performance.now() - started) / Math.max(1, done)) * (trials - done);
    if (rest < AUTO_MIN_MS) workers = 1;
  }
  opts.onThreads?.(workers);
  const threads: Worker[] = [];
  const results = Array.from(
    { length: workers - 1 },
    () =>
      new Promise<SimTally>((resolve, reject) => {
        const worker = new Worker(new URL('./simulate-worker.js', import.meta.url), { workerData: data });
        threads.push(worker);
        worker.on('message', (m: { progress?: true; tally?: SimTally; rejection?: { message: string } }) => {
          if (m.progress) report();
          else if (m.tally) resolve(m.tally);
          else if (m.rejection) reject(new CliError(m.rejection.message, EXIT.refused));
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (code !== 0) reject(new Error(`a simulation worker stopped with exit code ${code}`));
        });
      }),
  );
  // This thread takes its share too while the workers start up.
  const own = runShare(data, registry, report);
  if (isRejection(own)) {
    for (const t of threads) void t.terminate();
    throw new CliError(own.message, EXIT.refused);
  }
  const tallies = await Promise.all(results);
  if (first) mergeTally(own, first);
  for (const t of tallies) mergeTally(own, t);
  report();
  return own;
}

export interface SimSummary {
  scenario: string;
  ruleset: string;
  trials: number;
  seed: number;
  rounds: number;
  combatantRounds: number;
  /**
   * What figures are kept per: `round`, or for a roundless clock the stretch of time standing in for one
   * (`ClockSpec.periods`: a tick timeline's "10 ticks"); `rounds` counts those.
   */
  per: string;
  /**
   * Which simulator ran: `kernel`, the ruleset's compiled round (same dice, same results as the
   * engine, proven by a property test), or `engine`, every command decided by the rules; `reason` says
   * why the kernel did not fit.
   */
  path: SimPath;
  reason?: string;
  /** The ruleset's name, as its compiled round is called ("Tara-Corax"). */
  rulesetName: string;
  /** Per combatant: each metric per round, with its 95% confidence interval. */
  combatants: Array<{ id: string; name: string } & Record<Metric, Estimate>>;
  /** Each named event per round and per fight (trial), with intervals. */
  events: Array<{ name: string; perRound: Estimate; perFight: Estimate }>;
  /** Rounds a fight lasted (with `until: end`, where it varies). */
  fightRounds: Estimate;
  /** Each followed resource, per combatant: spent per round, P(ran out), P(ran out first) per fight. */
  resources: Array<{
    name: string;
    id: string;
    combatant: string;
    spent: Estimate;
    out: Estimate;
    first: Estimate;
  }>;
  questions: Array<{ name: string; order: string[]; per: 'round' | 'trial'; p: Estimate }>;
  refused: Record<string, number>;
  /** The same by the policy rule that asked, with the rules' own words (the first in sort order). */
  refusedRules: Array<{ rule: string; code: string; count: number; message: string }>;
  attackHistogram: Record<string, number[]>;
}

/** Each trial's rounds, as sums over trials (from any per-round figure's denominators). */
function fightLength(tally: SimTally): Sums {
  const any = Object.values(tally.metrics)[0]?.turns;
  // Σr and Σr² are the rounds' sum and sum of squares over trials.
  return any ? [any[3], any[4], 0, 0, 0] : [0, 0, 0, 0, 0];
}

export function summarize(
  plan: SimPlan,
  tally: SimTally,
  seed: number,
  per = 'round',
  rulesetName = plan.scenario.ruleset,
): SimSummary {
  const names = new Map(plan.scenario.combatants.map((c) => [c.id, c.name] as const));
  return {
    scenario: plan.scenario.name,
    ruleset: plan.scenario.ruleset,
    rulesetName,
    trials: tally.trials,
    seed,
    rounds: tally.rounds,
    combatantRounds: tally.combatantRounds,
    per,
    path: tally.path,
    ...(tally.reason ? { reason: tally.reason } : {}),
    combatants: Object.entries(tally.metrics).map(([id, m]) => {
      const row = { id, name: names.get(id) ?? id } as { id: string; name: string } & Record<
        Metric,
        Estimate
      >;
      for (const k of METRICS) row[k] = estimate(m[k], tally.trials);
      return row;
    }),
    events: Object.entries(tally.events).map(([name, s]) => ({
      name,
      perRound: estimate(s, tally.trials),
      perFight: perTrial(s, tally.trials),
    })),
    fightRounds: perTrial(fightLength(tally), tally.trials),
    resources: Object.entries(tally.resources).flatMap(([name, byId]) =>
      Object.entries(byId).map(([id, r]) => ({
        name,
        id,
        combatant: names.get(id) ?? id,
        spent: estimate(r.spent, tally.trials),
        out: estimate(r.out, tally.trials),
        first: estimate(r.first, tally.trials),
      })),
    ),
    questions: plan.sim.questions.map((q, i) => ({
      name: q.name,
      order: q.order,
      per: q.per,
      p: estimate(tally.questions[i]!, tally.trials),
    })),
    refused: tally.refused,
    refusedRules: Object.entries(tally.refusedRules)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, r]) => {
        const at = key.lastIndexOf(': ');
        return { rule: key.slice(0, at), code: key.slice(at + 2), count: r.count, message: r.message };
      }),
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

/** How a summary's rounds read: "12 rounds", or for a roundless clock "12 stretches of 10 ticks". */
function roundsOf(s: SimSummary, n: number, combatant = false): string {
  if (s.per === 'round') return `${n} ${combatant ? 'combatant-' : ''}round${n === 1 ? '' : 's'}`;
  return `${n} ${combatant ? 'combatant-' : ''}stretch${n === 1 ? '' : 'es'} of ${s.per}`;
}

export function renderSummary(s: SimSummary): string {
  const what = s.trials === 1 ? 'trial' : 'trials';
  const lines = [
    `${s.scenario} — ${s.ruleset}: ${s.trials} ${what}, seed ${s.seed}, ${roundsOf(s, s.rounds)}, ${roundsOf(s, s.combatantRounds, true)}`,
    s.path === 'kernel'
      ? `Simulator: the compiled ${s.rulesetName} round (the same dice and results as the engine).`
      : `Simulator: the engine, every command decided by the rules (${s.reason ?? 'asked for'}).`,
    ...(s.fightRounds.high > s.fightRounds.low
      ? [
          `A fight lasted ${formatEstimate(s.fightRounds, 2)} ${s.per === 'round' ? 'rounds' : `stretches of ${s.per}`}.`,
        ]
      : []),
    `Per ${s.per}, mean ± half-width of the 95% confidence interval:`,
    '',
    ...table([
      ['combatant', 'turns', 'actions', 'attacks', 'forfeited attacks', 'acts first', 'carry-over'],
      ...s.combatants.map((c) => [
        c.name,
        formatEstimate(c.turns, 2),
        formatEstimate(c.actions, 2),
        formatEstimate(c.attacks, 2),
        formatEstimate(c.forfeits, 2),
        formatEstimate(c.first, 3),
        formatEstimate(c.carry, 3),
      ]),
    ]),
  ];
  if (s.events.length) {
    lines.push(
      '',
      ...table([
        ['event', `per ${s.per}`, 'per fight'],
        ...s.events.map((e) => [e.name, formatEstimate(e.perRound, 3), formatEstimate(e.perFight, 3)]),
      ]),
    );
  }
  if (s.resources.length) {
    lines.push(
      '',
      ...table([
        ['resource', `spent per ${s.per}`, 'runs out (per fight)', 'runs out first'],
        ...s.resources.map((r) => [
          `${r.combatant}: ${r.name}`,
          formatEstimate(r.spent, 3),
          formatEstimate(r.out, 3),
          formatEstimate(r.first, 3),
        ]),
      ]),
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
      ...s.refusedRules.map((r) => `  ${r.rule}: ${r.code} ×${r.count} — ${r.message}`),
    );
  }
  return lines.join('\n');
}

export function simulationSvg(s: SimSummary): string {
  const panels: Panel[] = s.combatants.map((c) => {
    const h = s.attackHistogram[c.id] ?? [];
    const total = h.reduce((a, b) => a + b, 0) || 1;
    return {
      title:
        s.per === 'round'
          ? `${c.name}: attacks per round (share of rounds)`
          : `${c.name}: attacks per ${s.per} (share of stretches)`,
      bars: h.map((n, k) => ({ label: k === HIST_MAX ? `${k}+` : String(k), value: n / total })),
    };
  });
  if (s.events.length) {
    panels.push({
      title: `Named events per ${s.per} (95% CI)`,
      bars: s.events.map((e) => ({
        label: e.name.slice(0, 24),
        value: e.perRound.mean,
        low: e.perRound.low,
        high: e.perRound.high,
      })),
    });
  }
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
/** A progress bar on stderr; `threads` adds how many threads run, once the run knows. */
export function progressBar(total: number): {
  progress: (done: number) => void;
  threads: (n: number) => void;
} {
  let last = -1;
  let on = '';
  return {
    progress(done) {
      const pct = Math.floor((100 * done) / total);
      if (pct === last) return;
      last = pct;
      const filled = Math.round((30 * done) / total);
      process.stderr.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${pct}% (${done}/${total} trials${on})`,
      );
      if (done >= total) process.stderr.write('\n');
    },
    threads(n) {
      on = `, ${n} thread${n === 1 ? '' : 's'}`;
    },
  };
}

export async function simulateCommand(
  path: string,
  registry: RulesetRegistry,
  opts: SimulateOptions,
): Promise<string> {
  const plan = loadPlan(path, registry, opts.rounds);
  const periods = registry[plan.scenario.ruleset]?.clock.periods;
  if (opts.vary !== undefined) {
    const r = runVaried(plan, registry, parseVary(opts.vary), opts.trials, opts.seed, {
      engine: opts.engine === true,
    });
    const header = varyHeader(r, plan.scenario.name, plan.scenario.ruleset, opts.seed);
    const tables = varyTables(r, periods?.name ?? 'round');
    const svg = varySvg(r, plan.scenario.name);
    if (opts.plot) writeOutput(opts.plot, svg);
    if (opts.report) writeOutput(opts.report, reportHtml(plan.scenario.name, [header], tables, [svg]));
    if (opts.json) {
      return JSON.stringify(
        {
          scenario: plan.scenario.name,
          ruleset: plan.scenario.ruleset,
          seed: opts.seed,
          key: r.key,
          values: r.values,
          trials: r.tallies[0]?.trials ?? 0,
          figures: r.figures,
        },
        null,
        2,
      );
    }
    return `${header}\n${textTables(tables)}`;
  }
  const bar = opts.progress ? progressBar(opts.trials) : undefined;
  const tally = await runSimulation(plan, registry, {
    trials: opts.trials,
    seed: opts.seed,
    workers: opts.workers,
    engine: opts.engine === true,
    ...(bar ? { onProgress: bar.progress, onThreads: bar.threads } : {}),
  });
  const summary = summarize(plan, tally, opts.seed, periods?.name, registry[plan.scenario.ruleset]?.name);
  if (opts.plot) writeOutput(opts.plot, simulationSvg(summary));
  if (opts.report) {
    const [first, ...rest] = renderSummary(summary).split('\n');
    writeOutput(
      opts.report,
      reportHtml(summary.scenario, [first ?? '', rest[0] ?? ''], summaryTables(summary), [
        simulationSvg(summary),
      ]),
    );
  }
  return opts.json ? JSON.stringify(summary, null, 2) : renderSummary(summary);
}
