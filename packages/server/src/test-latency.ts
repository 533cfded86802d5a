import { spawn } from 'node:child_process';

/**
 * Watches a server's event loop from outside: asks `/api/health` one request after another while `work`
 * runs, and reports the slowest reply. A request that holds the loop shows up as a slow health reply.
 */
export async function healthDuring<T>(
  url: string,
  work: () => Promise<T>,
): Promise<{ result: T; slowestMs: number; samples: number; latencies: number[] }> {
  let running = true;
  let slowestMs = 0;
  let samples = 0;
  const latencies: number[] = [];
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      const r = await fetch(`${url}/api/health`);
      await r.arrayBuffer();
      const took = performance.now() - started;
      if (r.status !== 200) throw new Error(`/api/health answered ${r.status}`);
      slowestMs = Math.max(slowestMs, took);
      latencies.push(took);
      samples++;
      await new Promise((res) => setTimeout(res, 5));
    }
  })();
  try {
    const result = await work();
    return { result, slowestMs, samples, latencies };
  } finally {
    running = false;
    await probe;
  }
}

/**
 * The prober's own program: asks /api/health one request after another until told to stop on stdin.
 * A heartbeat every 5 ms measures how late the prober itself runs: on a loaded machine the prober may
 * wait for a core as much as the server does, and that wait is the machine's, not the server's.
 */
const PROBE = `
const url = process.argv[1];
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
    const started = performance.now();
    try {
      const r = await fetch(url + '/api/health');
      await r.arrayBuffer();
      samples.push(r.status === 200 ? [performance.now() - started, ownLag] : [-1, 0]);
    } catch {
      samples.push([-1, 0]);
    }
    await new Promise((res) => setTimeout(res, 10));
  }
  process.stdout.write(JSON.stringify(samples));
  process.exit(0);
})();
`;

/** One answer of /api/health: how long it took, and how late the prober itself ran meanwhile. */
export interface HealthSample {
  ms: number;
  ownLagMs: number;
}

/**
 * Asks /api/health from a separate process for as long as a test runs, so the test's own work (a
 * fuzzer building inputs) does not slow the measurement. `stop()` returns every answer; one other than
 * 200 counts as taking forever.
 */
export function startHealthProbe(url: string): { stop(): Promise<HealthSample[]> } {
  const child = spawn(process.execPath, ['-e', PROBE, url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.stdin.write('stop\n');
      await exited;
      return (JSON.parse(out) as Array<[number, number]>).map(([ms, ownLagMs]) => ({
        ms: ms < 0 ? Number.POSITIVE_INFINITY : ms,
        ownLagMs,
      }));
    },
  };
}
