import {
  type Command,
  EncounterLog,
  isRejection,
  type LogEntry,
  reduce,
  seededDice,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { Bench } from 'tinybench';

export interface Row {
  name: string;
  value: string;
  target: string;
  met: boolean;
}

/** A classic encounter with `n` combatants, started. */
function started(n: number, seed = 1): EncounterLog {
  const enc = EncounterLog.create(
    { id: 'bench', name: 'Bench', ruleset: 'classic', dice: seededDice(seed) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (let i = 0; i < n; i++) {
    const r = enc.execute({
      type: 'add-combatant',
      combatant: {
        id: `c${i}`,
        name: `Combatant ${i}`,
        side: i % 2 ? 'npc' : 'pc',
        hp: 30,
        stats: { initiative: i % 5 },
      },
    });
    if (isRejection(r)) throw new Error(r.message);
  }
  const r = enc.execute({ type: 'start' });
  if (isRejection(r)) throw new Error(r.message);
  return enc;
}

/** The command mix of a typical turn: act, some damage, next. */
function turnCommands(enc: EncounterLog): Command[] {
  const actor = enc.state.current ?? 'c0';
  return [
    { type: 'act', actor, action: 'attack', target: 'c1', roll: '1d20+5' },
    { type: 'damage', combatant: 'c1', amount: 1 },
    { type: 'heal', combatant: 'c1', amount: 1 },
    { type: 'next' },
  ];
}

export async function benchEngine(): Promise<Row[]> {
  const rows: Row[] = [];

  // 1. decide + evolve per command, 10 combatants.
  const enc = started(10);
  let queue: Command[] = [];
  const bench = new Bench({ time: 1500, warmupTime: 300 });
  bench.add('decide+evolve per command (classic, 10 combatants)', () => {
    if (queue.length === 0) queue = turnCommands(enc);
    const r = enc.execute(queue.shift()!);
    if (isRejection(r)) throw new Error(r.message);
  });
  await bench.run();
  const t = bench.tasks[0]!.result!;
  const p50us = ('latency' in t ? t.latency.p50 : 0)! * 1000;
  rows.push({
    name: 'decide+evolve per command, 10 combatants (p50)',
    value: `${p50us.toFixed(1)} µs`,
    target: '≤ 20 µs',
    met: p50us <= 20,
  });

  // 2. Replay (fold) of a 10,000-event log.
  const big = started(10, 2);
  while (big.entries.length < 10_000) {
    for (const c of turnCommands(big)) {
      const r = big.execute(c);
      if (isRejection(r)) throw new Error(r.message);
    }
  }
  const log: LogEntry[] = big.entries.slice(0, 10_000);
  const replay = new Bench({ time: 2000, warmupTime: 300 });
  replay.add('replay 10,000 events', () => {
    reduce(log, rulesets);
  });
  await replay.run();
  const rt = replay.tasks[0]!.result!;
  const replayMs = 'latency' in rt ? rt.latency.p50! : 0;
  rows.push({
    name: 'replay of 10,000 events (p50)',
    value: `${replayMs.toFixed(1)} ms`,
    target: '≤ 50 ms',
    met: replayMs <= 50,
  });

  // 3. Memory: the state and the log as JSON, per event.
  const stateBytes = JSON.stringify(big.state).length;
  const logBytes = JSON.stringify(log).length;
  rows.push({
    name: 'state size after 10,000 events (JSON)',
    value: `${(stateBytes / 1024).toFixed(1)} KiB`,
    target: 'bounded (not growing with the log)',
    met: stateBytes < 64 * 1024,
  });
  rows.push({
    name: 'log size per event (JSON)',
    value: `${(logBytes / log.length).toFixed(0)} B`,
    target: '—',
    met: true,
  });
  return rows;
}
