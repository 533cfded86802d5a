import { spawn } from 'node:child_process';

/**
 * Watches a server's event loop from outside while `work` runs: a separate process asks `/api/health`
 * one request after another (see `startHealthProbe`). A request that holds the loop shows up as a slow
 * health reply. `slowestMs` is the slowest reply as the server's share of it (see `serverShare`).
 */
export async function healthDuring<T>(
  server: { url: string; proc: { pid?: number | undefined } },
  work: () => Promise<T>,
): Promise<{ result: T; slowestMs: number; samples: number }> {
  const probe = startHealthProbe(server.url, server.proc.pid);
  let result: T;
  let health: HealthSample[];
  try {
    // The prober answers first (it takes a moment to start), so even quick work is watched.
    await probe.ready;
    result = await work();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    health = await probe.stop();
  }
  return { result, slowestMs: Math.max(0, ...health.map(serverShare)), samples: health.length };
}

/**
 * How long a health request waited on the server itself. The machine is shared (two cores, load
 * averages past 10: a process may wait hundreds of milliseconds for a core), so the reply time alone
 * says little. A request that holds the event loop burns the server's CPU while health waits; a server
 * waiting for a core does not. So the server's share is the reply time less the time the prober itself
 * ran late, and at most what the server's main thread ran meanwhile (when that can be read, on Linux).
 */
export function serverShare(h: HealthSample): number {
  const waited = Math.max(0, h.ms - h.ownLagMs);
  return h.serverCpuMs === null ? waited : Math.min(waited, h.serverCpuMs);
}

/**
 * The prober's own program: asks /api/health one request after another until told to stop on stdin.
 * A heartbeat every 5 ms measures how late the prober itself runs; the server's main thread's time on a
 * CPU (Linux: /proc/<pid>/task/<pid>/schedstat, in ns) is read before and after each request.
 */
const PROBE = `
const fs = require('node:fs');
const url = process.argv[1];
const pid = process.argv[2];
const cpuNs = () => {
  if (!pid) return null;
  try {
    return Number(fs.readFileSync('/proc/' + pid + '/task/' + pid + '/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
};
const samples = [];
let running = true;
let beat = performance.now();
let ownLag = 0;
setInterval(() => {
  const now = performance.now();
  ownLag = Math.max(ownLag, now - beat - 5);
  beat = now;
}, 5);
process.stdin.on('data', () => { running = false; });
// The test process is gone (killed, timed out): so is the reason to probe.
process.stdin.on('end', () => process.exit(0));
(async () => {
  while (running) {
    ownLag = 0;
    const cpuBefore = cpuNs();
    const started = performance.now();
    try {
      const r = await fetch(url + '/api/health');
      await r.arrayBuffer();
      const ms = performance.now() - started;
      const cpuAfter = cpuNs();
      const cpu = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / 1e6;
      samples.push(r.status === 200 ? [ms, ownLag, cpu] : [-1, 0, null]);
      if (samples.length === 1) process.stdout.write('ready\\n');
    } catch {
      samples.push([-1, 0, null]);
    }
    await new Promise((res) => setTimeout(res, 10));
  }
  process.stdout.write(JSON.stringify(samples));
  process.exit(0);
})();
`;

/** One answer of /api/health: how long it took, how late the prober ran, and the server's CPU time. */
export interface HealthSample {
  ms: number;
  ownLagMs: number;
  /** The server's main thread's time on a CPU during the request; null where it can't be read. */
  serverCpuMs: number | null;
}

/**
 * Asks /api/health from a separate process for as long as a test runs, so the test's own work (a
 * fuzzer building inputs) does not slow the measurement. `ready` resolves on its first answer; `stop()`
 * returns every answer (one other than 200 counts as taking forever).
 */
export function startHealthProbe(
  url: string,
  pid?: number,
): { ready: Promise<void>; stop(): Promise<HealthSample[]> } {
  const args = ['-e', PROBE, url, ...(pid ? [String(pid)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  child.stdout.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) onReady();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ready,
    async stop() {
      child.stdin.write('stop\n');
      await exited;
      const raw = JSON.parse(out.replace(/^ready\n/, '')) as Array<[number, number, number | null]>;
      return raw.map(([ms, ownLagMs, serverCpuMs]) => ({
        ms: ms < 0 ? Number.POSITIVE_INFINITY : ms,
        ownLagMs,
        serverCpuMs: ms < 0 ? null : serverCpuMs,
      }));
    },
  };
}
