import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Loaded into a benchmarked server process with `--import` (bench/side.ts), which talks to it over
 * the IPC channel it was spawned with: asked `report`, it answers with the process's CPU time
 * (`process.cpuUsage`) and how late its event loop ran (checked every 2 ms) since the last report. A
 * stall of the loop (a checkpoint's fsync, a long GC) shows as the maximum delay.
 */
if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 2 });
  histogram.enable();
  const ms = (ns: number) => ns / 1e6;
  process.channel?.unref();
  process.on('message', (m) => {
    if (m !== 'report') return;
    const cpu = process.cpuUsage();
    process.send?.({
      cpuMicros: cpu.user + cpu.system,
      systemMicros: cpu.system,
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      p999: ms(histogram.percentile(99.9)),
      max: ms(histogram.max),
    });
    histogram.reset();
  });
}
