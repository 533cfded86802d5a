import { type ChangeMessage, changeEntries } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Change, InProcessFanout, PostgresFanout } from './fanout.js';
import { Hub, type Subscriber } from './hub.js';
import { PostgresStorage } from './storage/postgres.js';
import { postgresAvailable, testDatabase } from './test-postgres.js';

const available = await postgresAvailable();

const party = [
  { id: 'ana', name: 'Ana', side: 'pc' as const, stats: { initiative: 3 } },
  { id: 'orc', name: 'Orc', stats: { initiative: 1 }, hp: 50 },
];

const cleanUps: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanUps.splice(0).reverse()) await c().catch(() => undefined);
});

/** A server instance's hub on the shared database, as `startServer` builds it. */
async function instance(url: string, checkEveryMs?: number): Promise<Hub> {
  const storage = await PostgresStorage.open(url);
  const fanout = await PostgresFanout.open(url, storage.pool, checkEveryMs ? { checkEveryMs } : {});
  cleanUps.push(async () => {
    await fanout.close();
    await storage.close();
  });
  return new Hub(storage, rulesets, { fanout });
}

async function until(test: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!available)('fan-out through PostgreSQL LISTEN/NOTIFY', () => {
  it("an instance's viewers get what another instance stored, and after a lost LISTEN connection what was stored meanwhile", async () => {
    const db = await testDatabase();
    cleanUps.push(db.drop);
    const a = await instance(db.url);
    const b = await instance(db.url);
    const c = await a.create({ name: 'Fan', ruleset: 'classic', seed: 5, combatants: party });
    const id = c.record.id;
    const gm = await a.link(c.tokens.gm, id);
    const seqs: number[] = [];
    const sub: Subscriber = {
      viewer: { role: 'gm' },
      send: (t) => {
        const m = JSON.parse(t) as ChangeMessage | { type: 'hello' };
        if (m.type === 'change') seqs.push(...changeEntries(m).map((e) => e.seq));
      },
      close: () => {},
    };
    await b.subscribe(id, gm, sub);
    const first = (await a.command(id, gm, { type: 'start' })).seq;
    await until(() => seqs.at(-1) === first);

    // Cut every LISTEN connection: notifications sent now reach nobody.
    const admin = new pg.Client(db.url);
    await admin.connect();
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    await admin.end();
    let last = first;
    for (let i = 0; i < 3; i++) last = (await a.command(id, gm, { type: 'next' })).seq;
    // The listener reconnects and checks what it holds: the viewer gets all of it, once.
    await until(() => seqs.at(-1) === last);
    const all = (await a.eventsSince(id, gm, c.record.seq)).entries.map((e) => e.seq);
    expect(seqs).toEqual(all);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a LISTEN connection that stops answering (no reset ever comes) is replaced, and nothing is missed',
    async () => {
      const db = await testDatabase();
      cleanUps.push(db.drop);
      const a = await instance(db.url);
      const b = await instance(db.url, 200);
      const c = await a.create({ name: 'Deaf', ruleset: 'classic', seed: 6, combatants: party });
      const id = c.record.id;
      const gm = await a.link(c.tokens.gm, id);
      const seqs: number[] = [];
      await b.subscribe(id, gm, {
        viewer: { role: 'gm' },
        send: (t) => {
          const m = JSON.parse(t) as ChangeMessage | { type: 'hello' };
          if (m.type === 'change') seqs.push(...changeEntries(m).map((e) => e.seq));
        },
        close: () => {},
      });
      // Freeze the backend behind b's LISTEN connection: its socket stays open, nothing comes back.
      const admin = new pg.Client(db.url);
      await admin.connect();
      const { rows } = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'roundkeeper-listen' AND datname = current_database()",
      );
      expect(rows.length).toBe(2);
      // Which of the two is b's cannot be told apart: freeze both; a's own changes need no notice.
      for (const r of rows) process.kill(r.pid, 'SIGSTOP');
      cleanUps.push(async () => {
        for (const r of rows) process.kill(r.pid, 'SIGCONT');
        await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [
          rows.map((r) => r.pid),
        ]);
        await admin.end();
      });
      const last = (await a.command(id, gm, { type: 'start' })).seq;
      await until(() => seqs.at(-1) === last);
      expect(seqs).toEqual((await a.eventsSince(id, gm, c.record.seq)).entries.map((e) => e.seq));
    },
  );
});

describe('in-process fanout', () => {
  it("an append reaches every other listener but not its publisher's; other changes reach all", async () => {
    const fanout = new InProcessFanout();
    const heard: Record<string, Array<Change | undefined>> = { a: [], b: [] };
    const a = (c: Change | undefined) => heard.a!.push(c);
    const b = (c: Change | undefined) => heard.b!.push(c);
    fanout.listen(a);
    fanout.listen(b);
    const appended: Change = { encounter: 'e', kind: 'appended', seq: 3 };
    const links: Change = { encounter: 'e', kind: 'links' };
    await fanout.publish(appended, a);
    await fanout.publish(links, a);
    await fanout.publish(appended);
    await new Promise((r) => setImmediate(r));
    expect(heard.a).toEqual([links, appended]);
    expect(heard.b).toEqual([appended, links, appended]);
  });

  it('with one listener, its own append schedules nothing', async () => {
    const fanout = new InProcessFanout();
    const heard: Array<Change | undefined> = [];
    const a = (c: Change | undefined) => heard.push(c);
    fanout.listen(a);
    const immediate = vi.spyOn(globalThis, 'setImmediate');
    try {
      await fanout.publish({ encounter: 'e', kind: 'appended', seq: 1 }, a);
      expect(immediate).not.toHaveBeenCalled();
    } finally {
      immediate.mockRestore();
    }
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual([]);
  });
});
