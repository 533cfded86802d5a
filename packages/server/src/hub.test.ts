import type { LogEntry } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InProcessFanout } from './fanout.js';
import { type Created, Hub, HubError, type Subscriber } from './hub.js';
import { hashToken } from './links.js';
import { MemoryStorage } from './storage/memory.js';

const party = [
  { id: 'ana', name: 'Ana', side: 'pc' as const, stats: { initiative: 3 } },
  { id: 'orc', name: 'Orc', stats: { initiative: 1 }, hp: 15 },
];

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hub: memory follows the live encounters, not the stored ones', () => {
  it('unloads the least recently used encounters nobody watches beyond keepUnwatched, keeps watched ones, and reloads an unloaded one intact', async () => {
    const storage = new MemoryStorage();
    const hub = new Hub(storage, rulesets, { keepUnwatched: 2 });
    const made: Created[] = [];
    for (let i = 0; i < 6; i++) {
      made.push(await hub.create({ name: `E${i}`, ruleset: 'classic', seed: i, combatants: party }));
    }
    const gmOf = async (i: number) => hub.link(made[i]!.tokens.gm, made[i]!.record.id);
    // Encounter 0 is watched; all six get a command, which loads them.
    const sent: string[] = [];
    const sub: Subscriber = { viewer: { role: 'gm' }, send: (t) => sent.push(t), close: () => {} };
    await hub.subscribe(made[0]!.record.id, await gmOf(0), sub);
    for (let i = 0; i < 6; i++) await hub.command(made[i]!.record.id, await gmOf(i), { type: 'start' });
    expect(hub.loaded).toBe(6);
    // Just used: a quarter second's grace, so nothing is unloaded between opening and queueing.
    expect(hub.sweep()).toBe(0);
    await wait(300);
    expect(hub.sweep()).toBe(3); // 5 unwatched, 2 kept
    expect(hub.loaded).toBe(3);
    // The watched one still broadcasts; an unloaded one loads again from storage with its log intact.
    await hub.command(made[0]!.record.id, await gmOf(0), { type: 'next' });
    expect(sent.at(-1)).toContain('"type":"change"');
    const again = await hub.snapshotFor(made[1]!.record.id, await gmOf(1));
    expect(again.seq).toBe((await storage.getEncounter(made[1]!.record.id))!.seq);
    expect(again.state.status).toBe('running');
    expect(await storage.findLink(hashToken(made[1]!.tokens.gm))).toBeDefined();
  });
});

describe('hub: several instances on one storage', () => {
  const twoInstances = () => {
    const storage = new MemoryStorage();
    const fanout = new InProcessFanout();
    return { storage, a: new Hub(storage, rulesets, { fanout }), b: new Hub(storage, rulesets, { fanout }) };
  };
  const viewer = (sent: Array<Record<string, unknown>>): Subscriber => ({
    viewer: { role: 'gm' },
    send: (t) => sent.push(JSON.parse(t)),
    close: () => {},
  });

  it('a viewer of one instance sees a command sent to the other, once and in order', async () => {
    const { a, b } = twoInstances();
    const c = await a.create({ name: 'Two', ruleset: 'classic', seed: 1, combatants: party });
    const id = c.record.id;
    const sent: Array<Record<string, unknown>> = [];
    await b.subscribe(id, await b.link(c.tokens.gm, id), viewer(sent));
    const gm = await a.link(c.tokens.gm, id);
    await a.command(id, gm, { type: 'start' });
    for (let i = 0; i < 5; i++) await a.command(id, gm, { type: 'next' });
    await wait(50);
    const seqs = sent
      .filter((m) => m.type === 'change')
      .flatMap((m) => (m.entries as Array<{ seq: number }>).map((e) => e.seq));
    const stored = (await a.eventsSince(id, gm, c.record.seq)).entries.map((e) => e.seq);
    expect(seqs).toEqual(stored);
    expect((await b.snapshotFor(id, gm)).state).toEqual((await a.snapshotFor(id, gm)).state);
  });

  it("a link the GM changes on one instance is re-checked by the other's connections: narrowed, then revoked and closed", async () => {
    const { a, b } = twoInstances();
    const c = await a.create({ name: 'Links', ruleset: 'classic', seed: 3, combatants: party });
    const id = c.record.id;
    const sent: Array<Record<string, unknown>> = [];
    const link = { ...(await b.link(c.tokens.players.ana!, id)) };
    let closed = false;
    await b.subscribe(id, link, {
      viewer: { role: 'player', combatants: ['ana'] },
      link: link.hash,
      relinked: (patch) => Object.assign(link, patch),
      send: (t) => sent.push(JSON.parse(t)),
      close: () => {
        closed = true;
      },
    });
    await a.setAllowed(id, c.tokens.gm, 'ana', ['act']);
    await wait(20);
    expect(link.allowed).toEqual(['act']);
    expect(closed).toBe(false);
    await a.revokeLink(id, c.tokens.gm, { role: 'player', combatant: 'ana' });
    await wait(20);
    expect(link.revoked).toBe(true);
    expect(closed).toBe(true);
    expect(sent.some((m) => m.type === 'revoked')).toBe(true);
    await expect(b.command(id, link, { type: 'next' })).rejects.toMatchObject({
      rejection: { code: 'link/revoked' },
    });
  });

  it('commands racing through both instances are all decided against the current state: no loss, no fork', async () => {
    const { storage, a, b } = twoInstances();
    const c = await a.create({ name: 'Race', ruleset: 'classic', seed: 2, combatants: party });
    const id = c.record.id;
    const gm = await a.link(c.tokens.gm, id);
    await a.command(id, gm, { type: 'start' });
    await b.open(id);
    const hits = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b));
    const results = await Promise.all(
      hits.map((hub) => hub.command(id, gm, { type: 'damage', combatant: 'orc', amount: 1 })),
    );
    expect(results.every((r) => r.entries.length > 0)).toBe(true);
    const entries = await storage.readEntries(id);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(new Set(results.map((r) => r.seq)).size).toBe(40);
    await wait(20); // each instance hears the other's last appends
    const replayed = (await new Hub(storage, rulesets).snapshotFor(id, gm)).state;
    expect((await a.snapshotFor(id, gm)).state).toEqual(replayed);
    expect((await b.snapshotFor(id, gm)).state).toEqual(replayed);
    expect(replayed.combatants.orc!.hp).toMatchObject({ current: 15 - 40 });
  });

  it('a command another instance made pointless is refused against the new state, not stored twice', async () => {
    const { storage, a, b } = twoInstances();
    const c = await a.create({ name: 'Refuse', ruleset: 'classic', seed: 3, combatants: party });
    const id = c.record.id;
    const gm = await a.link(c.tokens.gm, id);
    await b.open(id);
    const [first, second] = await Promise.allSettled([
      a.command(id, gm, { type: 'start' }),
      b.command(id, gm, { type: 'start' }),
    ]);
    const refused = [first, second].filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(HubError);
    expect(refused[0]!.reason.status).toBe(422);
    const starts = (await storage.readCommands(id)).filter(
      (x) => (x.command as { type: string }).type === 'start',
    );
    expect(starts).toHaveLength(1);
  });

  it('an encounter deleted through one instance closes the viewers of the other', async () => {
    const { a, b } = twoInstances();
    const c = await a.create({ name: 'Gone', ruleset: 'classic', seed: 4, combatants: party });
    const id = c.record.id;
    const sent: Array<Record<string, unknown>> = [];
    await b.subscribe(id, await b.link(c.tokens.gm, id), viewer(sent));
    await a.delete(id);
    await wait(50);
    expect(sent.at(-1)).toEqual({ type: 'deleted' });
  });
});

describe('hub: a copy behind the database', () => {
  it('decides again before refusing: a refusal is only ever the current state’s', async () => {
    const storage = new MemoryStorage();
    // Two instances that do not hear each other: b's copy stays behind until it looks.
    const a = new Hub(storage, rulesets, { fanout: new InProcessFanout() });
    const b = new Hub(storage, rulesets, { fanout: new InProcessFanout() });
    const c = await a.create({ name: 'Behind', ruleset: 'classic', seed: 6, combatants: party });
    const id = c.record.id;
    const gm = await a.link(c.tokens.gm, id);
    await b.open(id);
    await a.command(id, gm, { type: 'start' });
    // In b's copy the fight has not started, so `next` would be refused; in the database it has.
    const next = await b.command(id, gm, { type: 'next' });
    expect(next.entries.length).toBeGreaterThan(0);
    // And what the current state refuses is still refused.
    await expect(b.command(id, gm, { type: 'start' })).rejects.toMatchObject({ status: 422 });
    expect((await storage.readEntries(id)).map((e) => e.seq)).toEqual(
      Array.from({ length: next.seq }, (_, i) => i + 1),
    );
  });
});

describe('hub: loading while another instance appends', () => {
  it('holds the seq of the log it read, not of the row read just before', async () => {
    const storage = new MemoryStorage();
    const a = new Hub(storage, rulesets, { fanout: new InProcessFanout() });
    const c = await a.create({ name: 'Load', ruleset: 'classic', seed: 7, combatants: party });
    const id = c.record.id;
    const gm = await a.link(c.tokens.gm, id);
    // Between b's read of the encounter's row and its read of the log, a stores a command.
    let interleave: (() => Promise<unknown>) | undefined = () => a.command(id, gm, { type: 'start' });
    const racy = Object.create(storage) as MemoryStorage;
    racy.readEntries = async (encounter, after) => {
      const step = interleave;
      interleave = undefined;
      await step?.();
      return storage.readEntries(encounter, after);
    };
    const b = new Hub(racy, rulesets, { fanout: new InProcessFanout() });
    await b.open(id);
    await a.command(id, gm, { type: 'next' });
    // b's copy is behind by a's `next`: it catches up and decides its own on top.
    const r = await b.command(id, gm, { type: 'next' });
    const seqs = (await storage.readEntries(id)).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: r.seq }, (_, i) => i + 1));
  });
});

describe('hub: a copy that does not match the database', () => {
  it('is dropped and rebuilt, its viewers closed to resume elsewhere', async () => {
    const storage = new MemoryStorage();
    const a = new Hub(storage, rulesets, { fanout: new InProcessFanout() });
    const b = new Hub(storage, rulesets, { fanout: new InProcessFanout() });
    const c = await a.create({ name: 'Broken', ruleset: 'classic', seed: 8, combatants: party });
    const id = c.record.id;
    const gm = await a.link(c.tokens.gm, id);
    let closed = 0;
    await b.subscribe(id, gm, { viewer: { role: 'gm' }, send: () => {}, close: () => closed++ });
    await a.command(id, gm, { type: 'start' });
    // Break b's copy: it believes it is at an older seq than the log it holds.
    const copy = (b as unknown as { live: Map<string, { record: { seq: number } }> }).live.get(id)!;
    copy.record.seq = 1;
    await expect(b.command(id, gm, { type: 'next' })).rejects.toThrow(/did not match the database/);
    expect(closed).toBe(1);
    const r = await b.command(id, gm, { type: 'next' });
    expect((await storage.readEntries(id)).at(-1)!.seq).toBe(r.seq);
  });
});

describe('hub: any interleaving of two instances', () => {
  it('stores a gap-free log that both copies fold to, each accepted command once', async () => {
    const commandArb = fc.oneof(
      fc.constant({ type: 'next' }),
      fc.constant({ type: 'start' }),
      fc.constant({ type: 'undo' }),
      fc.record({
        type: fc.constant('damage'),
        combatant: fc.constantFrom('ana', 'orc'),
        amount: fc.integer({ min: 0, max: 3 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ via: fc.constantFrom(0, 1), command: commandArb }), { maxLength: 25 }),
        async (steps) => {
          const storage = new MemoryStorage();
          const fanout = new InProcessFanout();
          const hubs = [new Hub(storage, rulesets, { fanout }), new Hub(storage, rulesets, { fanout })];
          const c = await hubs[0]!.create({ name: 'Any', ruleset: 'classic', seed: 9, combatants: party });
          const id = c.record.id;
          const gm = await hubs[0]!.link(c.tokens.gm, id);
          await hubs[1]!.open(id);
          const results = await Promise.allSettled(steps.map((s) => hubs[s.via]!.command(id, gm, s.command)));
          await wait(5);
          const entries = await storage.readEntries(id);
          expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
          const accepted = results.filter(
            (r): r is PromiseFulfilledResult<{ seq: number; entries: LogEntry[] }> =>
              r.status === 'fulfilled' && r.value.entries.length > 0,
          );
          expect(new Set(accepted.map((r) => r.value.seq)).size).toBe(accepted.length);
          // Nothing failed for any other reason than the rules refusing it against the current state.
          for (const r of results) {
            if (r.status === 'rejected') {
              expect(r.reason).toBeInstanceOf(HubError);
              expect(r.reason.status).toBe(422);
            }
          }
          expect(await storage.readCommands(id)).toHaveLength(accepted.length + party.length);
          for (const hub of hubs) expect((await hub.snapshotFor(id, gm)).seq).toBe(entries.at(-1)!.seq);
          const fresh = new Hub(storage, rulesets);
          expect((await fresh.snapshotFor(id, gm)).state).toEqual((await hubs[0]!.snapshotFor(id, gm)).state);
          expect((await hubs[1]!.snapshotFor(id, gm)).state).toEqual(
            (await hubs[0]!.snapshotFor(id, gm)).state,
          );
        },
      ),
      { numRuns: 40 },
    );
  });
});
