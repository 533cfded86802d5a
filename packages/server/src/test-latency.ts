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
