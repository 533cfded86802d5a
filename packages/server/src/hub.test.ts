import {
  type ChangeMessage,
  changeEntries,
  type EncounterView,
  type HeldView,
  receiveChange,
  type ViewDelta,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { InProcessFanout } from './fanout.js';
import { type CommandOutcome, type Created, changeBody, Hub, HubError, type Subscriber } from './hub.js';
import { hashToken, viewerOf } from './links.js';
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
  it('drops the redacted log chunks a resume cached once the log moves on, and after a few seconds unused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const hub = new Hub(new MemoryStorage(), rulesets);
      const c = await hub.create({ name: 'Long', ruleset: 'classic', seed: 1, combatants: party });
      const id = c.record.id;
      const gm = await hub.link(c.tokens.gm, id);
      await hub.command(id, gm, { type: 'start' });
      for (let i = 0; i < 20; i++) await hub.command(id, gm, { type: 'next' });
      // Two viewers of one kind catching up share the chunks; a sweep at the same seq keeps them.
      const first = await hub.eventsSinceJson(id, gm, 0);
      expect(hub.cachedChunks).toBeGreaterThan(0);
      expect(await hub.eventsSinceJson(id, gm, 0)).toBe(first);
      hub.sweep();
      expect(hub.cachedChunks).toBeGreaterThan(0);
      // The log moved on: they can never be used again.
      await hub.command(id, gm, { type: 'next' });
      hub.sweep();
      expect(hub.cachedChunks).toBe(0);
      // Unused for a while at the same seq: dropped too, and made again when needed.
      await hub.eventsSinceJson(id, gm, 0);
      vi.advanceTimersByTime(4_000);
      hub.sweep();
      expect(hub.cachedChunks).toBeGreaterThan(0);
      vi.advanceTimersByTime(2_000);
      hub.sweep();
      expect(hub.cachedChunks).toBe(0);
      expect(JSON.parse(await hub.eventsSinceJson(id, gm, 0)).entries.length).toBeGreaterThan(20);
    } finally {
      vi.useRealTimers();
    }
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
    const stored = (await a.eventsSince(id, gm, c.record.seq)).entries.map((e) => e.seq);
    // The other instance hears of each change through the fanout, a few turns of the loop later.
    await vi.waitFor(
      () => {
        const seqs = sent
          .filter((m) => m.type === 'change')
          .flatMap((m) => changeEntries(m as unknown as ChangeMessage).map((e) => e.seq));
        expect(seqs).toEqual(stored);
      },
      { timeout: 5_000, interval: 5 },
    );
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
    await vi.waitFor(() => expect(link.allowed).toEqual(['act']), { timeout: 5_000, interval: 5 });
    expect(closed).toBe(false);
    await a.revokeLink(id, c.tokens.gm, { role: 'player', combatant: 'ana' });
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 5_000, interval: 5 });
    expect(link.revoked).toBe(true);
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
    // Enough HP that 40 points of damage are all counted (HP stops at 0).
    await a.command(id, gm, { type: 'set-hp', combatant: 'orc', current: 100, max: 100 });
    await b.open(id);
    const hits = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b));
    const results = await Promise.all(
      hits.map((hub) => hub.command(id, gm, { type: 'damage', combatant: 'orc', amount: 1 })),
    );
    expect(results.every((r) => r.entries.length > 0)).toBe(true);
    const entries = await storage.readEntries(id);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(new Set(results.map((r) => r.seq)).size).toBe(40);
    const replayed = (await new Hub(storage, rulesets).snapshotFor(id, gm)).state;
    // Each instance hears the other's last appends, a few turns of the loop later.
    await vi.waitFor(
      async () => {
        expect((await a.snapshotFor(id, gm)).state).toEqual(replayed);
        expect((await b.snapshotFor(id, gm)).state).toEqual(replayed);
      },
      { timeout: 5_000, interval: 5 },
    );
    expect(replayed.combatants.orc!.hp).toMatchObject({ current: 100 - 40 });
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
    await vi.waitFor(() => expect(sent.at(-1)).toEqual({ type: 'deleted' }), { timeout: 5_000, interval: 5 });
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
          const entries = await storage.readEntries(id);
          expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
          const accepted = results.filter(
            (r): r is PromiseFulfilledResult<CommandOutcome> =>
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
          // The other instance hears of each change through the fanout, a few turns of the loop later (more
          // on a busy machine): each catches up with the stored log.
          await vi.waitFor(
            async () => {
              for (const hub of hubs) expect((await hub.snapshotFor(id, gm)).seq).toBe(entries.at(-1)!.seq);
            },
            { timeout: 5_000, interval: 5 },
          );
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

/** A subscriber that keeps every message as sent, and the view it holds as a client does. */
const client = (viewer: Subscriber['viewer']) => {
  const c = {
    texts: [] as string[],
    held: undefined as HeldView | undefined,
    resyncs: [] as string[],
    sub: {
      viewer,
      send: (t: string) => {
        c.texts.push(t);
        const m = JSON.parse(t) as ChangeMessage | { type: 'hello'; seq: number; state: EncounterView };
        if (m.type === 'hello') c.held = { seq: m.seq, state: m.state };
        else {
          const r = receiveChange(c.held, m);
          if ('resync' in r) c.resyncs.push(r.resync);
          else c.held = r.held;
        }
      },
      close: () => {},
    } satisfies Subscriber,
  };
  return c;
};

describe('hub: change messages carry deltas, each distinct one built once', () => {
  const twelve = Array.from({ length: 12 }, (_, i) =>
    i < 4
      ? { id: `p${i}`, name: `Player ${i}`, side: 'pc' as const, stats: {}, hidden: i === 0 }
      : { id: `n${i}`, name: `Goblin ${i}`, side: 'npc' as const, stats: {}, hp: 12 },
  );

  it('a "next" with 12 combatants: small deltas; every kind of viewer who gets the same bytes shares one message', async () => {
    const hub = new Hub(new MemoryStorage(), rulesets);
    const c = await hub.create({ name: 'Twelve', ruleset: 'classic', seed: 7, combatants: twelve });
    const id = c.record.id;
    const gm = await hub.link(c.tokens.gm, id);
    const clients = new Map<string, ReturnType<typeof client>>();
    for (const token of [c.tokens.gm, c.tokens.table, ...Object.values(c.tokens.players)]) {
      const link = await hub.link(token, id);
      const viewer = viewerOf(link);
      const who = link.role === 'player' ? link.combatants[0]! : link.role;
      clients.set(who, client(viewer));
      await hub.subscribe(id, link, clients.get(who)!.sub);
    }
    await hub.command(id, gm, { type: 'start' });
    for (let i = 0; i < 36; i++) await hub.command(id, gm, { type: 'next' });
    const changes = (who: string) => clients.get(who)!.texts.filter((t) => t.startsWith('{"type":"change"'));
    expect(changes('table')).toHaveLength(37);
    // p0 is hidden: its player sees it, the table and the other players do not.
    for (const p of ['p1', 'p2', 'p3']) expect(changes(p)).toEqual(changes('table'));
    expect(changes('p0').filter((t, i) => t !== changes('table')[i]).length).toBeGreaterThan(0);
    // The GM sees p0, the dice and the undo history, which the table does without: its changes are its own.
    expect(changes('gm').every((t) => t.includes('"history"'))).toBe(true);
    expect(changes('table').some((t) => t.includes('"history"'))).toBe(false);
    // Every client holds exactly its view, built from its first view and the deltas.
    for (const [who, cl] of clients) {
      expect(cl.resyncs).toEqual([]);
      const link = await hub.link(
        who === 'gm' ? c.tokens.gm : who === 'table' ? c.tokens.table : c.tokens.players[who]!,
        id,
      );
      expect(JSON.stringify(cl.held!.state)).toBe(JSON.stringify((await hub.snapshotFor(id, link)).state));
    }
    // A "next" sends a delta of a few hundred bytes, not the whole view (4.8 kB here).
    const nexts = changes('table').slice(1);
    expect(nexts.every((t) => t.includes('"delta":'))).toBe(true);
    const sizes = nexts.map((t) => t.length).sort((a, b) => a - b);
    expect(sizes[sizes.length >> 1]).toBeLessThanOrEqual(600);
    const whole = JSON.stringify(
      (await hub.snapshotFor(id, await hub.link(c.tokens.table, id))).state,
    ).length;
    expect(whole).toBeGreaterThan(4500);
  });

  it('viewers who get the same bytes cost one serialization: six kinds cost about what the table and the GM do', async () => {
    const open = twelve.map((c) => ({ ...c, hidden: false }));
    const stringified = async (all: boolean) => {
      const hub = new Hub(new MemoryStorage(), rulesets);
      const c = await hub.create({ name: 'Once', ruleset: 'classic', seed: 9, combatants: open });
      const id = c.record.id;
      const gm = await hub.link(c.tokens.gm, id);
      const tokens = all
        ? [c.tokens.table, ...Object.values(c.tokens.players), c.tokens.gm]
        : [c.tokens.table, c.tokens.gm];
      const sent: string[] = [];
      for (const token of tokens) {
        const link = await hub.link(token, id);
        const viewer = viewerOf(link);
        await hub.subscribe(id, link, { viewer, send: (t) => sent.push(t), close: () => {} });
      }
      await hub.command(id, gm, { type: 'start' });
      await hub.command(id, gm, { type: 'next' });
      // Characters written by JSON.stringify during one "next".
      const stringify = JSON.stringify;
      let chars = 0;
      const spy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof stringify>) => {
        const out = stringify(...args);
        chars += out?.length ?? 0;
        return out;
      });
      try {
        await hub.command(id, gm, { type: 'next' });
        return { chars, sent: sent.length, size: sent.at(-1)!.length };
      } finally {
        spy.mockRestore();
      }
    };
    const alone = await stringified(false);
    const six = await stringified(true);
    expect(six.sent).toBe(alone.sent * 3);
    // Four players more cost less than one more message (the small strings a diff compares).
    expect(six.chars).toBeLessThan(alone.chars + alone.size);
  });

  it('a viewer of a kind nobody watched during changes gets the whole view first, then deltas', async () => {
    const hub = new Hub(new MemoryStorage(), rulesets);
    const c = await hub.create({ name: 'Late', ruleset: 'classic', seed: 8, combatants: twelve });
    const id = c.record.id;
    const gm = await hub.link(c.tokens.gm, id);
    const table = await hub.link(c.tokens.table, id);
    const first = client({ role: 'table' });
    const stop = await hub.subscribe(id, table, first.sub);
    await hub.command(id, gm, { type: 'start' });
    stop();
    for (let i = 0; i < 3; i++) await hub.command(id, gm, { type: 'next' });
    const late = client({ role: 'table' });
    await hub.subscribe(id, table, late.sub);
    await hub.command(id, gm, { type: 'next' });
    expect(late.resyncs).toEqual([]);
    expect(late.texts.at(-1)).toContain('"delta":');
    expect(JSON.stringify(late.held!.state)).toBe(JSON.stringify((await hub.snapshotFor(id, table)).state));
  });
});

describe('changeBody: the delta, or the whole view when that is shorter', () => {
  const small = { name: 'x', combatants: {} } as unknown as EncounterView;
  it('a short delta is sent as it is; a delta longer than the view, or none, sends the view', () => {
    expect(changeBody({ round: [2] }, small)).toEqual({ delta: '{"round":[2]}' });
    const long = { gmNotes: [Array.from({ length: 100 }, (_, i) => `note ${i}`)] } as ViewDelta;
    expect(changeBody(long, small)).toEqual({ state: JSON.stringify(small) });
    expect(changeBody(undefined, small)).toEqual({ state: JSON.stringify(small) });
    const big = {
      ...small,
      gmNotes: Array.from({ length: 300 }, (_, i) => `note ${i}`),
    } as unknown as EncounterView;
    expect(changeBody(long, big)).toEqual({ delta: JSON.stringify(long) });
  });
});

describe('hub: deltas under any commands', () => {
  // Hidden from the start, or not until a command hides someone: while nothing is, the table and the
  // players share one message without their views being made again.
  it.each([true, false])(
    'every kind of viewer holds exactly its view after each command, built from hello and the changes (hidden at the start: %s)',
    async (hiddenAtStart) => {
      const people = [
        { id: 'ana', name: 'Ana', side: 'pc' as const, stats: { initiative: 3 }, hp: 20 },
        {
          id: 'bren',
          name: 'Bren',
          side: 'pc' as const,
          stats: { initiative: 2 },
          hp: 20,
          hidden: hiddenAtStart,
        },
        { id: 'orc', name: 'Orc', stats: { initiative: 1 }, hp: 15, notes: 'Flees at 5 HP' },
        { id: 'spy', name: 'Spy', stats: { initiative: 4 }, hp: 9, hidden: hiddenAtStart },
      ];
      const commandArb = fc.oneof(
        { weight: 4, arbitrary: fc.constant({ type: 'next' }) },
        fc.constant({ type: 'start' }),
        fc.constant({ type: 'undo' }),
        fc.constant({ type: 'redo' }),
        fc.record({
          type: fc.constant('damage'),
          combatant: fc.constantFrom('ana', 'orc', 'spy'),
          amount: fc.nat(6),
        }),
        fc.record({
          type: fc.constant('update-combatant'),
          combatant: fc.constantFrom('bren', 'spy'),
          hidden: fc.boolean(),
        }),
        fc.record({
          type: fc.constant('update-combatant'),
          combatant: fc.constantFrom('orc', 'ana'),
          notes: fc.string(),
        }),
        fc.constant({ type: 'note', text: 'The spy watches' }),
        fc.constant({ type: 'remove-combatant', combatant: 'orc' }),
        fc.constant({ type: 'add-combatant', combatant: { name: 'Late', side: 'npc', hp: 5, hidden: true } }),
        fc.constant({
          type: 'add-effect',
          target: 'ana',
          source: 'spy',
          name: 'Marked',
          duration: { kind: 'until-turn-start', combatant: 'spy' },
        }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(commandArb, { maxLength: 20 }), async (commands) => {
          const hub = new Hub(new MemoryStorage(), rulesets);
          const c = await hub.create({ name: 'Any', ruleset: 'classic', seed: 4, combatants: people });
          const id = c.record.id;
          const gm = await hub.link(c.tokens.gm, id);
          const clients: Array<{ token: string; cl: ReturnType<typeof client> }> = [];
          for (const token of [c.tokens.gm, c.tokens.table, ...Object.values(c.tokens.players)]) {
            const link = await hub.link(token, id);
            const viewer = viewerOf(link);
            const cl = client(viewer);
            clients.push({ token, cl });
            await hub.subscribe(id, link, cl.sub);
          }
          for (const command of commands) {
            await hub.command(id, gm, command).catch((e) => {
              if (!(e instanceof HubError)) throw e;
            });
            for (const { token, cl } of clients) {
              expect(cl.resyncs).toEqual([]);
              const { seq, state } = await hub.snapshotFor(id, await hub.link(token, id));
              expect(cl.held!.seq).toBe(seq);
              expect(JSON.stringify(cl.held!.state)).toBe(JSON.stringify(state));
            }
          }
        }),
        { numRuns: 40 },
      );
    },
  );
});
