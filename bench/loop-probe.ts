import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Loaded into a benchmarked server process with `--import` (bench/side.ts), which talks to it over
 * the IPC channel it was spawned with: asked `report`, it answers with the process's CPU time
 * (`process.cpuUsage`) and how late its event loop ran (checked every 2 ms) since the last report. A
 * stall of the loop (a checkpoint's fsync, a long GC) shows as the maximum delay.
 *
 * The check is not free: its timer wakes the loop about 900 times a second, which costs an idle server
 * of 300 sockets ~12 ms of CPU a second (~125 µs a command at 100 commands a second). Sent `quiet`, it
 * stops checking until it is sent `watch`, so the CPU a load costs is measured without it.
 */
if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 2 });
  histogram.enable();
  const ms = (ns: number) => ns / 1e6;
  process.channel?.unref();
  process.on('message', (m) => {
    if (m === 'quiet') histogram.disable();
    if (m === 'watch') {
      histogram.reset();
      histogram.enable();
    }
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
