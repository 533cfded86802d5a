import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, type Contender, runTrials, type SimPlan } from '@roundkeeper/cli';
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
    },
  };
}

/** Runs trials for about `ms` milliseconds; returns combatant-rounds per second. */
function rate(p: SimPlan, ms: number): number {
  let trials = 0;
  let combatantRounds = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    const t = runTrials(p, rulesets, 1, trials, trials + 50);
    if (isRejection(t)) throw new Error(t.message);
    if (Object.keys(t.refused).length) throw new Error(`policy refused: ${JSON.stringify(t.refused)}`);
    trials += 50;
    combatantRounds += t.combatantRounds;
  }
  return (combatantRounds / (performance.now() - start)) * 1000;
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
export async function benchCli(rulesetId = 'classic', stats: Record<string, number> = {}): Promise<Row[]> {
  const rows: Row[] = [];
  const p = plan(rulesetId, 10, stats);

  rate(p, 300); // warm-up
  const perSecond = rate(p, 2000);
  rows.push({
    name: `simulate: combatant-rounds/s, one core (${rulesetId}, 6 combatants, attack policies)`,
    value: `${Math.round(perSecond).toLocaleString('en-US')} /s`,
    target: '≥ 1,000,000 /s (tara-corax Full Round)',
    met: perSecond >= 1_000_000,
  });

  // The whole command both ways (start-up and JIT warm-up included), about 4 s of work on one core.
  const file = join(mkdtempSync(join(tmpdir(), 'rk-bench-')), 'bench.json');
  writeFileSync(file, JSON.stringify({ ...p.scenario, simulate: p.sim }));
  const trials = Math.max(200, Math.round((perSecond * 4) / 60));
  const one = Math.min(wall(file, trials, 1), wall(file, trials, 1));
  const two = Math.min(wall(file, trials, 2), wall(file, trials, 2));
  const scaling = one / two;
  rows.push({
    name: `simulate --workers 2 speed-up (${trials} trials)`,
    value: `${scaling.toFixed(2)}×`,
    target: '≥ 1.7×',
    met: scaling >= 1.7,
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
