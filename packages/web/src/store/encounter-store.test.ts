import { EncounterLog, isRejection, seededDice, view } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { ApiFailure } from './api.js';
import { EncounterStore, type StoreDeps } from './encounter-store.js';

/** A socket the test drives: what the page sends is recorded, the server's messages delivered by hand. */
class FakeSocket extends EventTarget {
  readyState = 1;
  readonly sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    super();
  }
  send(text: string): void {
    this.sent.push(text);
  }
  deliver(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  close(): void {
    this.readyState = 3;
    this.dispatchEvent(new Event('close'));
    this.onclose?.();
  }
}

function fight() {
  const enc = EncounterLog.create({ id: 'e', name: 'E', ruleset: 'classic', dice: seededDice(1) }, rulesets);
  if (isRejection(enc)) throw new Error(enc.message);
  for (const name of ['Ana', 'Orc'])
    enc.execute({ type: 'add-combatant', combatant: { name, side: 'pc', hp: 9 } });
  return enc;
}

function storeFor(enc: EncounterLog, more: Partial<StoreDeps> = {}) {
  const sockets: FakeSocket[] = [];
  const commits: number[] = [];
  const seen = () => view(enc.state, { role: 'gm' }, rulesets.classic!);
  const store = new EncounterStore('e', 'tok', {
    socket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s as unknown as WebSocket;
    },
    api: {
      get: async () => ({
        encounter: { id: 'e', name: 'E', ruleset: 'classic' },
        role: 'gm',
        seq: enc.entries.length,
        state: seen(),
      }),
      events: async () => ({ seq: enc.entries.length, entries: [...enc.entries] }),
      command: async () => ({ seq: 0, entries: [] }),
    },
    commit: (update) => {
      commits.push(1);
      update();
    },
    timers: { set: () => 0, clear: () => undefined },
    location: { protocol: 'http:', host: 'here' },
    ...more,
  });
  return { store, sockets, commits, seen };
}

const encounter = {
  id: 'e',
  name: 'E',
  ruleset: 'classic',
  status: 'active',
  createdAt: '',
  updatedAt: '',
  seq: 0,
};

describe('the encounter store', () => {
  it('loads, opens the socket after the last seq, and applies a change keeping what did not change', async () => {
    const enc = fight();
    const { store, sockets, commits, seen } = storeFor(enc);
    let calls = 0;
    store.subscribe(() => calls++);
    await store.start();
    expect(sockets[0]!.url).toBe(`ws://here/api/encounters/e/live?token=tok&after=${enc.entries.length}`);
    const before = store.getSnapshot().view!;
    sockets[0]!.deliver({ type: 'hello', role: 'gm', encounter, seq: enc.entries.length, state: seen() });
    // The same view again: every part kept.
    expect(store.getSnapshot().view).toBe(before);
    expect(store.getSnapshot().connected).toBe(true);
    const from = enc.entries.length;
    const r = enc.execute({ type: 'damage', combatant: 'orc', amount: 2 });
    if (isRejection(r)) throw new Error(r.message);
    sockets[0]!.deliver({ type: 'change', seq: enc.entries.length, from, entries: r, state: seen() });
    const after = store.getSnapshot();
    expect(after.view!.combatants.orc!.hp!.current).toBe(7);
    // Ana did not change: the same object, so her card is not drawn again.
    expect(after.view!.combatants.ana).toBe(before.combatants.ana);
    expect(after.entries.at(-1)!.seq).toBe(enc.entries.length);
    expect(commits.length).toBe(1);
    expect(calls).toBeGreaterThan(2);
  });

  it("follows what a player's link allows: from hello, and when the GM changes it", async () => {
    const enc = fight();
    const { store, sockets, seen } = storeFor(enc);
    await store.start();
    const seq = enc.entries.length;
    sockets[0]!.deliver({
      type: 'hello',
      role: 'player',
      combatants: ['ana'],
      allowed: ['act'],
      encounter,
      seq,
      state: seen(),
    });
    expect(store.getSnapshot().allowed).toEqual(['act']);
    sockets[0]!.deliver({ type: 'allowed', allowed: ['act', 'add-effect', 'remove-effect'] });
    expect(store.getSnapshot().allowed).toEqual(['act', 'add-effect', 'remove-effect']);
    // A hello without the list (an older server) keeps what the page knew.
    sockets[0]!.deliver({
      type: 'hello',
      role: 'player',
      combatants: ['ana'],
      encounter,
      seq,
      state: seen(),
    });
    expect(store.getSnapshot().allowed).toEqual(['act', 'add-effect', 'remove-effect']);
  });

  it('runs a command over the socket and says what its result was', async () => {
    const enc = fight();
    const { store, sockets } = storeFor(enc);
    await store.start();
    const done = store.run({ type: 'next' }, 'next turn');
    const sent = JSON.parse(sockets[0]!.sent[0]!) as { id: string; type: string };
    expect(sent.type).toBe('command');
    sockets[0]!.deliver({
      type: 'result',
      id: sent.id,
      ok: false,
      error: { code: 'rules/not-started', message: 'The fight has not started: press Roll initiative.' },
    });
    expect((await done).ok).toBe(false);
    expect(store.getSnapshot().notice).toEqual({
      ok: false,
      text: 'Refused: The fight has not started: press Roll initiative.',
    });
  });

  it('a change that does not follow the view held closes the socket to resync; revoked stops for good', async () => {
    const enc = fight();
    const { store, sockets } = storeFor(enc);
    await store.start();
    sockets[0]!.deliver({ type: 'change', seq: 99, from: 98, delta: {} });
    expect(sockets[0]!.readyState).toBe(3);
    expect(store.getSnapshot().connected).toBe(false);
    store.stop();
    const again = storeFor(enc);
    await again.store.start();
    again.sockets[0]!.deliver({ type: 'revoked' });
    expect(again.store.getSnapshot().status).toBe('error');
    expect(again.store.getSnapshot().error).toMatch(/revoked/);
  });

  it('keeps a part worked out of the state as the same object while it is deep-equal (a card not redrawn)', () => {
    const { store } = storeFor(fight());
    const first = store.keep('card:orc', { hp: '7/9', conds: [{ name: 'Prone' }] });
    const same = store.keep('card:orc', { hp: '7/9', conds: [{ name: 'Prone' }] });
    expect(same).toBe(first);
    const changed = store.keep('card:orc', { hp: '5/9', conds: [{ name: 'Prone' }] });
    expect(changed).not.toBe(first);
    // What did not change inside keeps its identity too.
    expect(changed.conds).toBe(first.conds);
    expect(store.keep('card:ana', { hp: '7/9', conds: [] })).not.toBe(first);
  });

  it('counts turns: a new actor is a new turn, and so is a turn that resumes after another', async () => {
    const enc = fight();
    const { store, sockets, seen } = storeFor(enc);
    await store.start();
    const send = (command: { type: string }) => {
      const from = enc.entries.length;
      const r = enc.execute(command);
      if (isRejection(r)) throw new Error(r.message);
      sockets[0]!.deliver({ type: 'change', seq: enc.entries.length, from, entries: r, state: seen() });
    };
    const turns = [store.getSnapshot().turn];
    send({ type: 'start' });
    turns.push(store.getSnapshot().turn);
    const first = store.getSnapshot().view!.current;
    send({ type: 'next' });
    turns.push(store.getSnapshot().turn);
    // A change within the turn is not a new one.
    send({ type: 'note', text: 'n' } as { type: string });
    turns.push(store.getSnapshot().turn);
    // Back to the first actor (undo): a new turn, not the first one again.
    send({ type: 'undo' });
    send({ type: 'undo' });
    expect(store.getSnapshot().view!.current === first || store.getSnapshot().view!.status === 'setup').toBe(
      true,
    );
    turns.push(store.getSnapshot().turn);
    expect(turns[1]).toBeGreaterThan(turns[0]!);
    expect(turns[2]).toBeGreaterThan(turns[1]!);
    expect(turns[3]).toBe(turns[2]);
    expect(turns[4]).toBeGreaterThan(turns[3]!);
  });

  describe('when the server cannot be reached', () => {
    /** Timers the test runs by hand, with the waits they were set for. */
    function manualTimers() {
      const pending = new Map<number, { f: () => void; ms: number }>();
      let next = 1;
      return {
        pending,
        timers: {
          set: (f: () => void, ms: number) => {
            pending.set(next, { f, ms });
            return next++;
          },
          clear: (h: unknown) => void pending.delete(h as number),
        },
        /** Runs the one pending timer and gives its wait. */
        fire(): number {
          expect(pending.size).toBe(1);
          const [h, t] = [...pending][0]!;
          pending.delete(h);
          t.f();
          return t.ms;
        },
      };
    }

    it('a closed socket marks the view as not live, reconnects after a jittered back-off, and hello brings it back live and fresh', async () => {
      const enc = fight();
      const clock = manualTimers();
      const { store, sockets, seen } = storeFor(enc, { timers: clock.timers, random: () => 0.5 });
      await store.start();
      sockets[0]!.deliver({ type: 'hello', role: 'gm', encounter, seq: enc.entries.length, state: seen() });
      expect(store.getSnapshot()).toMatchObject({ connected: true, reconnecting: false });
      // The server goes away: the view is kept but said to be out of date, never live.
      sockets[0]!.close();
      expect(store.getSnapshot()).toMatchObject({ connected: false, reconnecting: true, status: 'ready' });
      // Two attempts that fail to open: the waits grow (0.3 s, then 0.6 s ceilings, drawn at their middle).
      expect(clock.fire()).toBe(225);
      sockets[1]!.close();
      expect(clock.fire()).toBe(450);
      expect(store.getSnapshot().reconnecting).toBe(true);
      // Meanwhile the fight went on; the third socket resumes after the last seq seen and gets the whole view.
      const from = enc.entries.length;
      const r = enc.execute({ type: 'damage', combatant: 'orc', amount: 4 });
      if (isRejection(r)) throw new Error(r.message);
      expect(sockets[2]!.url).toContain(`after=${from}`);
      sockets[2]!.onopen?.();
      sockets[2]!.deliver({ type: 'hello', role: 'gm', encounter, seq: enc.entries.length, state: seen() });
      expect(store.getSnapshot()).toMatchObject({ connected: true, reconnecting: false });
      expect(store.getSnapshot().view!.combatants.orc!.hp!.current).toBe(5);
      // Opened once: the next loss starts from the first wait again.
      sockets[2]!.close();
      expect(clock.fire()).toBe(225);
    });

    it('a first load that fails on the network says it is reconnecting and loads again (no error page); Try now does not wait', async () => {
      const enc = fight();
      const clock = manualTimers();
      let down = true;
      const { store, sockets } = storeFor(enc, {
        timers: clock.timers,
        api: {
          get: async () => {
            if (down) throw new TypeError('Failed to fetch');
            return {
              encounter: { id: 'e', name: 'E', ruleset: 'classic' },
              role: 'gm' as const,
              seq: enc.entries.length,
              state: view(enc.state, { role: 'gm' }, rulesets.classic!),
            };
          },
          events: async () => ({ seq: enc.entries.length, entries: [...enc.entries] }),
          command: async () => ({ seq: 0, entries: [] }),
        },
      });
      await store.start();
      expect(store.getSnapshot()).toMatchObject({ status: 'loading', reconnecting: true });
      expect(sockets).toHaveLength(0);
      clock.fire();
      await new Promise((ok) => setTimeout(ok, 0));
      expect(store.getSnapshot()).toMatchObject({ status: 'loading', reconnecting: true });
      down = false;
      expect(clock.pending.size).toBe(1);
      store.retryNow();
      expect(clock.pending.size).toBe(0);
      await new Promise((ok) => setTimeout(ok, 0));
      expect(store.getSnapshot().status).toBe('ready');
      // Loaded, but not live until the socket's hello.
      expect(store.getSnapshot().reconnecting).toBe(true);
      expect(sockets).toHaveLength(1);
    });

    it('a refusal by the server (not a network failure) is still an error, with no retry', async () => {
      const enc = fight();
      const clock = manualTimers();
      const { store } = storeFor(enc, {
        timers: clock.timers,
        api: {
          get: async () => {
            throw new ApiFailure(401, { code: 'auth/invalid-token', message: 'This link is not valid.' });
          },
          events: async () => ({ seq: 0, entries: [] }),
          command: async () => ({ seq: 0, entries: [] }),
        },
      });
      await store.start();
      expect(store.getSnapshot()).toMatchObject({ status: 'error', reconnecting: false });
      expect(clock.pending.size).toBe(0);
    });
  });
});
