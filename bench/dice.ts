import { DiceRoll, Dice as RpgDice, Parser as RpgParser } from '@dice-roller/rpg-dice-roller';
import { parseDice, rollDice, rollTotal, StateRng, seededDice } from '@roundkeeper/engine';
import { Bench } from 'tinybench';

export interface DiceBenchRow {
  name: string;
  /** Rolls of `1d10!` per second. */
  opsPerSec: number;
  /** Mean time of one roll, in nanoseconds. */
  meanNs: number;
}

/**
 * Rolls per task call. One roll takes tens of nanoseconds, about what reading the clock costs, so each
 * timed call rolls a batch and the figures are divided back to one roll. Every task gets the same batch.
 */
const BATCH = 1000;
const NOTATION = '1d10!';

/**
 * Sampling `1d10!`, everything parsed once up front (times are the mean per roll in the best of
 * `rounds` runs):
 * - ours: `rollTotal` on the parsed expression with a seeded StateRng;
 * - rpg-dice-roller's fastest pre-parsed path: `Parser.parse` once, then `roll().value` on the parsed
 *   die (skips the DiceRoll wrapper); `ratio` is ours over this one, the strictest comparison;
 * - rpg-dice-roller's documented path: a `DiceRoll` built once, then `roll()` and `total`;
 * - ours with the full breakdown (`rollDice`), for scale.
 */
export async function benchDice(
  options: { time?: number; rounds?: number } = {},
): Promise<{ rows: DiceBenchRow[]; ratio: number }> {
  const time = options.time ?? 500;
  const rounds = options.rounds ?? 3;
  const expr = parseDice(NOTATION);
  const rng = new StateRng(seededDice(1));
  const [theirDie] = RpgParser.parse(NOTATION);
  if (!(theirDie instanceof RpgDice.StandardDice)) {
    throw new Error(`rpg-dice-roller parsed ${NOTATION} unexpectedly.`);
  }
  const theirRoll = new DiceRoll(NOTATION);
  // Every result flows into `sink`, and `sink` is checked, so no engine can skip the work.
  let sink = 0;
  const tasks: Array<[string, () => void]> = [
    [
      `roundkeeper rollTotal ${NOTATION}`,
      () => {
        let sum = 0;
        for (let i = 0; i < BATCH; i++) sum += rollTotal(expr, rng);
        sink += sum;
      },
    ],
    [
      `rpg-dice-roller parsed StandardDice roll().value ${NOTATION}`,
      () => {
        let sum = 0;
        for (let i = 0; i < BATCH; i++) sum += theirDie.roll().value;
        sink += sum;
      },
    ],
    [
      `rpg-dice-roller DiceRoll roll() + total ${NOTATION}`,
      () => {
        let sum = 0;
        for (let i = 0; i < BATCH; i++) {
          theirRoll.roll();
          sum += theirRoll.total;
        }
        sink += sum;
      },
    ],
    [
      `roundkeeper rollDice ${NOTATION} (full breakdown)`,
      () => {
        let sum = 0;
        for (let i = 0; i < BATCH; i++) sum += rollDice(expr, rng).total;
        sink += sum;
      },
    ],
  ];

  // A few rounds, keeping each task's best: a busy machine slows a round down, it never speeds one up.
  const best = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime: Math.min(200, time / 4) });
    for (const [name, fn] of tasks) bench.add(name, fn);
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed')
        throw new Error(`Benchmark task '${task.name}' ended ${result.state}.`);
      const meanNs = (result.latency.mean * 1e6) / BATCH;
      best.set(task.name, Math.min(best.get(task.name) ?? Number.POSITIVE_INFINITY, meanNs));
    }
  }
  if (!(sink > 0)) throw new Error('The dice benchmark rolled nothing.');

  const rows = tasks.map(([name]): DiceBenchRow => {
    const meanNs = best.get(name)!;
    return { name, opsPerSec: 1e9 / meanNs, meanNs };
  });
  const [ours, theirs] = rows;
  return { rows, ratio: ours!.opsPerSec / theirs!.opsPerSec };
}
