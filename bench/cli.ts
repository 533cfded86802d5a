import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  analyze,
  type Contender,
  createSimulator,
  emptyTally,
  loadPlan,
  type SimPlan,
} from '@roundkeeper/cli';
import { distribution, isRejection, parseScenario } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import type { Row } from './engine.js';

/**
 * A 6-combatant fight, three on each side, every combatant attacking the first enemy as often as its
 * ruleset allows. `rulesetId` picks the ruleset (the issue's target is tara-corax's Full Round); `stats`
 * are the combatants' sheet values for that ruleset (its defaults when omitted).
 */
function plan(rulesetId: string, rounds: number, stats: Record<string, number> = {}): SimPlan {
  const scenario = parseScenario({
    schema: 1,
    name: `bench-${rulesetId}`,
    ruleset: rulesetId,
    combatants: Array.from({ length: 6 }, (_, i) => ({
      id: `c${i}`,
      name: `Combatant ${i}`,
      side: i % 2 ? 'npc' : 'pc',
      hp: 1000,
      stats,
    })),
  });
  if (isRejection(scenario)) throw new Error(scenario.message);
  return {
    scenario,
    sim: {
      rounds,
      until: 'rounds',
      maxRounds: rounds,
      policies: { default: [{ tag: 'attack', target: 'enemy', times: 10 }] },
      events: {},
      questions: [],
      resources: {},
    },
  };
}

/**
 * Runs trials for about `ms` milliseconds on this thread, prepared once as each thread of the command
 * does; returns combatant-rounds per second and which simulator ran.
 */
function rate(p: SimPlan, ms: number, engine = false): { perSecond: number; path: string } {
  const r = perCpuSecond(p, ms, engine);
  return { perSecond: r.perWallSecond, path: r.path };
}

/**
 * Combatant-rounds per CPU-second of this process (user + system time, the engine's garbage collector
 * included) for `ms` milliseconds of trials after a warm-up of a quarter of that, one simulator prepared
 * once as each thread of the command prepares it; and per second of wall time, for the rows above.
 */
function perCpuSecond(
  p: SimPlan,
  ms: number,
  engine: boolean,
): { perCpuSecond: number; perWallSecond: number; path: string } {
  const sim = createSimulator(p, rulesets, { engine });
  if (isRejection(sim)) throw new Error(sim.message);
  const warm = emptyTally(sim.roster, p);
  let trials = 0;
  const chunk = 20;
  for (const start = performance.now(); performance.now() - start < ms / 4; trials += chunk)
    sim.run(warm, 1, trials, trials + chunk);
  const tally = emptyTally(sim.roster, p);
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < ms) {
    sim.run(tally, 1, trials, trials + chunk);
    trials += chunk;
  }
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (Object.keys(tally.refused).length) throw new Error(`policy refused: ${JSON.stringify(tally.refused)}`);
  const seconds = (used.user + used.system) / 1e6;
  return {
    perCpuSecond: tally.combatantRounds / seconds,
    perWallSecond: (tally.combatantRounds / elapsed) * 1000,
    path: sim.path,
  };
}

const examples = fileURLToPath(new URL('../../examples/simulate/', import.meta.url));

/** Each ruleset's designer's question in examples/simulate/ (the first file, by name, for each). */
function examplePlans(): Array<{ file: string; plan: SimPlan }> {
  const seen = new Set<string>();
  const out: Array<{ file: string; plan: SimPlan }> = [];
  for (const file of readdirSync(examples)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const plan = loadPlan(join(examples, file), rulesets);
    if (seen.has(plan.scenario.ruleset)) continue;
    seen.add(plan.scenario.ruleset);
    out.push({ file, plan });
  }
  return out;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** One example's rates, measured in a process of its own (`cli-row.ts`): engine, and compiled where it runs. */
export interface ExampleRates {
  engine: number;
  kernel?: number;
}

/**
 * One example measured as `roundkeeper simulate` runs it: in a fresh process that only ever simulates that
 * ruleset. Run one after another in a single process, the engine's shared functions have seen every
 * ruleset's states before the last ones are measured and V8 optimizes them worse (opend6 measured 8 % lower
 * after the other six than alone) — a cost no designer's command pays.
 */
function exampleRates(file: string, ms: number): ExampleRates {
  const row = fileURLToPath(new URL('./cli-row.js', import.meta.url));
  const r = spawnSync(process.execPath, [row, join(examples, file), String(ms)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${file}: ${r.stderr}`);
  return JSON.parse(r.stdout) as ExampleRates;
}

/** In the child process of `exampleRates`: the example's rates through the engine and compiled. */
export function measureExample(path: string, ms: number): ExampleRates {
  const plan = loadPlan(path, rulesets);
  const engine = perCpuSecond(plan, ms, true).perCpuSecond;
  const compiled = createSimulator(plan, rulesets);
  if (isRejection(compiled)) throw new Error(compiled.message);
  if (compiled.path !== 'kernel') return { engine };
  return { engine, kernel: perCpuSecond(plan, ms, false).perCpuSecond };
}

/**
 * One row per ruleset: combatant-rounds per CPU-second on its example through the engine (`--engine`),
 * and through its compiled Round where the example runs on one, with the ratio, in the same run.
 */
export function benchPerRuleset(ms = 1000): Row[] {
  const rows: Row[] = [];
  for (const { file, plan } of examplePlans()) {
    const { engine, kernel } = exampleRates(file, ms);
    let value = `engine ${fmt(engine)} /CPU-s`;
    if (kernel !== undefined)
      value += `; compiled ${fmt(kernel)} /CPU-s; compiled / engine ${(kernel / engine).toFixed(0)}×`;
    rows.push({
      name: `simulate ${plan.scenario.ruleset}: combatant-rounds per CPU-second, examples/simulate/${file}`,
      value,
      target: '≥ 100,000 /CPU-s through the engine',
      met: engine >= 100_000,
    });
  }
  return rows;
}

const bin = fileURLToPath(new URL('../../packages/cli/dist/main.js', import.meta.url));

/** Wall time of the real command, `roundkeeper simulate file --workers K`, as a user runs it. */
function wall(file: string, trials: number, workers: number): number {
  const start = performance.now();
  const r = spawnSync(
    process.execPath,
    [bin, 'simulate', file, '--trials', String(trials), '--workers', String(workers), '--json'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`simulate failed: ${r.stderr}`);
  return performance.now() - start;
}

/** `simulate` throughput and scaling, and `analyze` of 8 combatants' full order. */
export async function benchCli(
  rulesetId = 'classic',
  stats: Record<string, number> = {},
  opts: { quick?: boolean } = {},
): Promise<Row[]> {
  // `--quick`: a tenth of every duration, to see the rows work (the figures are then rough).
  const scale = opts.quick ? 0.1 : 1;
  const rows: Row[] = benchPerRuleset(2000 * scale);
  // Classic's examples name events, which its compiled round does not count: its 6-combatant attack
  // plan shows that round against the engine instead.
  const classic = plan('classic', 10);
  const classicEngine = perCpuSecond(classic, 1000 * scale, true);
  const classicKernel = perCpuSecond(classic, 1000 * scale, false);
  rows.push({
    name: `simulate classic: 6 combatants, attack policies (${classicKernel.path}), combatant-rounds per CPU-second`,
    value: `engine ${fmt(classicEngine.perCpuSecond)} /CPU-s; compiled ${fmt(classicKernel.perCpuSecond)} /CPU-s; compiled / engine ${(classicKernel.perCpuSecond / classicEngine.perCpuSecond).toFixed(0)}×`,
    target: '—',
    met: true,
  });
  const p = plan(rulesetId, 10, stats);

  rate(p, 300 * scale); // warm-up
  const { perSecond, path } = rate(p, 2000 * scale);
  rows.push({
    name: `simulate: combatant-rounds/s, one core (${rulesetId}, 6 combatants, attack policies; ${path})`,
    value: `${Math.round(perSecond).toLocaleString('en-US')} /s`,
    target: '≥ 1,000,000 /s (tara-corax Full Round)',
    met: perSecond >= 1_000_000,
  });
  if (path === 'kernel') {
    // The same trials through the engine (`--engine`), measured in the same run: the kernel's gain.
    const reference = rate(p, 1500 * scale, true).perSecond;
    rows.push({
      name: `simulate: the same through the engine (--engine); kernel / engine`,
      value: `${Math.round(reference).toLocaleString('en-US')} /s; ${(perSecond / reference).toFixed(0)}×`,
      target: '—',
      met: true,
    });
  }

  // The whole command both ways (start-up and JIT warm-up included), on ~10 s of work for one thread:
  // enough that the ~0.3 s of start-up of each thread (loading the rulesets), which a second thread
  // cannot share, stays small next to the work that it can. The trial count comes from the command's
  // own rate, measured on a short run less its start-up: the rate above is that of a simulator created
  // again and again in one process, which V8 optimizes worse than the command's single one (about half
  // as fast), and 12 s at that rate had been 5 s of the command's work.
  const file = join(mkdtempSync(join(tmpdir(), 'rk-bench-')), 'bench.json');
  writeFileSync(file, JSON.stringify({ ...p.scenario, simulate: p.sim }));
  const startup = wall(file, 1, 1);
  const probe = Math.max(1000, Math.round((perSecond * 2 * scale) / 60));
  const commandRate = probe / Math.max(1, wall(file, probe, 1) - startup);
  const trials = Math.max(200, Math.round(commandRate * 10_000 * scale));
  const perTrial = p.scenario.combatants.length * p.sim.rounds;
  rows.push({
    name: 'simulate: combatant-rounds/s, one core, the command itself (start-up excluded)',
    value: `${Math.round(commandRate * 1000 * perTrial).toLocaleString('en-US')} /s`,
    target: '≥ 1,000,000 /s',
    met: commandRate * 1000 * perTrial >= 1_000_000,
  });
  const one = Math.min(wall(file, trials, 1), wall(file, trials, 1));
  const two = Math.min(wall(file, trials, 2), wall(file, trials, 2));
  const scaling = one / two;
  rows.push({
    name: `simulate --workers 2 speed-up (${trials} trials, ${(one / 1000).toFixed(1)} s on one thread)`,
    value: `${scaling.toFixed(2)}×`,
    target: '≥ 1.8× on 2 cores',
    met: scaling >= 1.8,
  });

  // analyze: 8 classic combatants, 1d20 + modifiers with ties between equal modifiers.
  const list: Contender[] = Array.from({ length: 8 }, (_, i) => {
    const modifier = i % 4;
    const expression = `1d20+${modifier}`;
    return { id: `c${i}`, name: `C${i}`, expression, tie: modifier, distribution: distribution(expression) };
  });
  const section = { initiative: {}, order: 'highest-first' as const, ties: {}, questions: [], orders: 10 };
  const scenario = parseScenario({ schema: 1, name: 'analyze-8', ruleset: 'classic' });
  if (isRejection(scenario)) throw new Error(scenario.message);
  analyze(list, section, scenario, 'bench');
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    const r = analyze(list, section, scenario, 'bench');
    times.push(performance.now() - start);
    if (Math.abs((r.ordersTotal ?? 0) - 1) > 1e-9) throw new Error(`orders sum to ${r.ordersTotal}`);
  }
  times.sort((a, b) => a - b);
  const median = times[3]!;
  rows.push({
    name: 'analyze: 8 combatants, every full order (40,320) exactly (median)',
    value: `${median.toFixed(0)} ms`,
    target: '≤ 100 ms',
    met: median <= 100,
  });
  return rows;
}
