import { describe, expect, it } from 'vitest';
import { api, LiveClient, startServerProcess, tempDir } from './test-process.js';

describe('durability: an acknowledged command survives kill -9', () => {
  it('every acknowledged event is there after the process is killed and restarted', async () => {
    const dir = tempDir();
    const first = await startServerProcess(dir, ['--rate-limit', '0']);
    const created = (
      await api(first.url, 'POST', '/api/encounters', {
        name: 'Crash',
        ruleset: 'classic',
        seed: 9,
        combatants: [
          { id: 'a', name: 'A', stats: { initiative: 2 }, hp: 30 },
          { id: 'b', name: 'B', stats: { initiative: 1 }, hp: 30 },
        ],
      })
    ).body as { encounter: { id: string }; tokens: { gm: string } };
    const id = created.encounter.id;
    const gm = created.tokens.gm;
    let acked = 0;
    const commands = [{ type: 'start' }];
    for (let i = 0; i < 40; i++)
      commands.push(
        i % 3 === 2 ? { type: 'next' } : ({ type: 'damage', combatant: 'b', amount: 1 } as never),
      );
    // Fire commands without waiting, and kill -9 while some are still in flight.
    const inflight = commands.map((command) =>
      api(first.url, 'POST', `/api/encounters/${id}/commands`, { command }, gm).then(
        (r) => {
          if (r.status === 200) acked = Math.max(acked, (r.body as { seq: number }).seq);
          return r.status;
        },
        () => 0,
      ),
    );
    // Once the first acknowledgement is back (however busy the machine), most commands are still in flight.
    while (acked === 0) await new Promise((r) => setTimeout(r, 2));
    const code = await first.stop('SIGKILL');
    expect(code).toBeNull();
    await Promise.all(inflight);
    expect(acked).toBeGreaterThan(0);

    const second = await startServerProcess(dir, ['--rate-limit', '0']);
    const events = (await api(second.url, 'GET', `/api/encounters/${id}/events?after=0`, undefined, gm))
      .body as {
      seq: number;
      entries: Array<{ seq: number }>;
    };
    expect(events.seq).toBeGreaterThanOrEqual(acked);
    const seqs = events.entries.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // no holes, no duplicates
    // And the encounter still takes commands where it left off.
    const next = await api(
      second.url,
      'POST',
      `/api/encounters/${id}/commands`,
      { command: { type: 'next' } },
      gm,
    );
    expect(next.status).toBe(200);
    await second.stop();
  });

  it('SIGTERM closes connections and the database, and exits 0', async () => {
    const server = await startServerProcess(undefined, ['--rate-limit', '0']);
    const created = (await api(server.url, 'POST', '/api/encounters', { name: 'T', ruleset: 'classic' }))
      .body as {
      encounter: { id: string };
      tokens: { gm: string };
    };
    const live = new LiveClient(
      `${server.url}/api/encounters/${created.encounter.id}/live?token=${created.tokens.gm}`,
    );
    await live.next((m) => m.type === 'hello');
    expect(await server.stop('SIGTERM')).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(live.closed).not.toBeNull();
  });
});

describe('rate limits per client', () => {
  it('answers 429 with a sentence when a client sends too many requests', async () => {
    const server = await startServerProcess(undefined, ['--rate-limit', '5']);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await api(server.url, 'GET', '/api/health')).status);
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const r = await api(server.url, 'GET', '/api/health');
    expect((r.body as { error: { message: string } }).error.message).toContain('Too many requests');
    await server.stop();
  });

  it("the web app's own files are not counted against a link's budget, only toward the address's cap", async () => {
    const server = await startServerProcess(undefined, ['--rate-limit', '5']);
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(asset).toBeDefined();
    // A page load asks for many files: well past the 5 a link may send, none is refused…
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await fetch(`${server.url}${i % 2 ? asset : '/'}`)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    // …while the API keeps its budget (5 a window, the 16 files above not counted in it)…
    const api5: number[] = [];
    for (let i = 0; i < 4; i++) api5.push((await api(server.url, 'GET', '/api/health')).status);
    expect(api5.every((s) => s === 200)).toBe(true);
    // …and everything from the address together stops at four links' worth (20).
    expect((await fetch(`${server.url}/`)).status).toBe(429);
    await server.stop();
  });

  it("made-up tokens do not buy a client more requests: one address gets at most four links' worth", async () => {
    const server = await startServerProcess(undefined, ['--rate-limit', '5']);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const token = `made-up-token-${String(i).padStart(4, '0')}`;
      statuses.push((await api(server.url, 'GET', '/api/health', undefined, token)).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    await server.stop();
  });
});
