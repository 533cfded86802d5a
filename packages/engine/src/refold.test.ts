import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededDice } from './dice/rng.js';
import { applyEntries, EncounterLog, reduce } from './log.js';
import { Refold } from './refold.js';
import type { AnyRuleset } from './ruleset.js';
import { roundRobin } from './test-ruleset.js';
import { type Command, isRejection } from './types.js';

/** The test ruleset, counting how many of its own events get folded. */
function counting() {
  const counter = { evolved: 0 };
  const ruleset: AnyRuleset = {
    ...roundRobin,
    evolve(state, event) {
      counter.evolved++;
      return roundRobin.evolve(state, event);
    },
  };
  return { counter, registry: { 'round-robin': ruleset } };
}

function make(registry: Record<string, AnyRuleset>) {
  const enc = EncounterLog.create(
    { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
    registry,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const name of ['Ana', 'Bren']) ok(enc, { type: 'add-combatant', combatant: { name } });
  ok(enc, { type: 'start' });
  return enc;
}

function ok(enc: EncounterLog, command: Command) {
  const r = enc.execute(command);
  if (isRejection(r)) throw new Error(`${command.type}: ${r.message}`);
  return r;
}

describe('undo and redo refold only what they change', () => {
  it('the live state equals the fold of the whole log after any mix of commands, undos and redos', () => {
    const step = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom<Command>({ type: 'undo' }, { type: 'redo' }) },
      {
        weight: 3,
        arbitrary: fc.constantFrom<Command>(
          { type: 'next' },
          { type: 'roll', actor: 'ana' },
          { type: 'roll', actor: 'bren' },
          { type: 'note', text: 'n' },
          { type: 'damage', combatant: 'ana', amount: 1 },
        ),
      },
      { weight: 1, arbitrary: fc.constant<Command>({ type: 'rollback' }) },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const { registry } = counting();
        const enc = make(registry);
        // A copy of the log on another server instance, folding what this one stores.
        const follower = EncounterLog.fromLog(enc.entries, registry);
        // The same log folded with a checkpoint every 3 entries, so refolds start from many places.
        const dense = new Refold(3);
        let state = enc.state;
        for (const s of steps) {
          if (s.type === 'rollback') {
            // As when storage refuses a write: the last command is taken back.
            const before = { length: enc.entries.length, state: enc.state };
            enc.execute({ type: 'note', text: 'taken back' });
            enc.rollback(before);
            dense.reset();
            continue;
          }
          const r = enc.execute(s);
          const folded = reduce(enc.entries, registry);
          expect(enc.state).toEqual(folded);
          if (!isRejection(r)) state = applyEntries(state, r, enc.entries, registry, dense);
          expect(state).toEqual(folded);
          if (!isRejection(r)) follower.adopt(r);
          expect(follower.state).toEqual(folded);
        }
        // And once more from a stored log, with a snapshot taken midway.
        const mid = Math.floor(enc.entries.length / 2);
        const snapshot = {
          seq: enc.entries[mid]!.seq,
          state: reduce(enc.entries.slice(0, mid + 1), registry),
        };
        expect(EncounterLog.fromLog(enc.entries, registry).state).toEqual(reduce(enc.entries, registry));
        const loaded = EncounterLog.fromLog(enc.entries, registry, snapshot);
        enc.execute({ type: 'undo' });
        loaded.execute({ type: 'undo' });
        expect(loaded.state).toEqual(enc.state);
        expect(loaded.state).toEqual(reduce(loaded.entries, registry));
      }),
      { numRuns: 60 },
    );
  });

  it('an undo costs about the group it undoes, however long the log', () => {
    const { counter, registry } = counting();
    const enc = make(registry);
    for (let i = 0; i < 400; i++) ok(enc, { type: 'roll', actor: i % 2 ? 'ana' : 'bren' });
    counter.evolved = 0;
    const pairs = 300;
    for (let i = 0; i < pairs; i++) {
      ok(enc, { type: 'undo' });
      ok(enc, { type: 'redo' });
    }
    // A refold of the whole log would fold ~400 of the ruleset's events per undo or redo.
    expect(counter.evolved / (2 * pairs)).toBeLessThan(70);
    expect(enc.state).toEqual(reduce(enc.entries, registry));
  });

  it("a copy on another instance folds another writer's undo and redo only where they change it", () => {
    const leader = make(counting().registry);
    for (let i = 0; i < 400; i++) ok(leader, { type: 'roll', actor: i % 2 ? 'ana' : 'bren' });
    const { counter, registry } = counting();
    const follower = EncounterLog.fromLog(leader.entries, registry);
    counter.evolved = 0;
    const pairs = 300;
    for (let i = 0; i < pairs; i++) {
      follower.adopt(ok(leader, { type: 'undo' }));
      follower.adopt(ok(leader, { type: 'redo' }));
    }
    // Folding the whole log again for each would fold ~400 of the ruleset's events per undo or redo.
    expect(counter.evolved / (2 * pairs)).toBeLessThan(70);
    expect(follower.state).toEqual(leader.state);
  });

  it('a long log is loaded, and its first undo prepared, a slice at a time', () => {
    const { counter, registry } = counting();
    const enc = make(registry);
    for (let i = 0; i < 400; i++) ok(enc, { type: 'roll', actor: i % 2 ? 'ana' : 'bren' });
    const at = enc.entries.length - 1;
    const snapshot = { seq: enc.entries[at]!.seq, state: enc.state };
    // An undo after the snapshot: loading must fold the whole log.
    ok(enc, { type: 'undo' });
    ok(enc, { type: 'roll', actor: 'ana' });
    /** How many of the ruleset's events each step of `steps` folds, and what it returns. */
    const stepwise = <T>(steps: Generator<void, T, undefined>) => {
      const folded: number[] = [];
      for (;;) {
        counter.evolved = 0;
        const step = steps.next();
        folded.push(counter.evolved);
        if (step.done) return { folded, value: step.value };
      }
    };
    const loading = stepwise(EncounterLog.loading(enc.entries, registry, snapshot));
    expect(loading.folded.length).toBeGreaterThan(5);
    expect(Math.max(...loading.folded)).toBeLessThanOrEqual(70);
    expect(loading.value.state).toEqual(enc.state);
    // Its refold is built: the next undo folds about what it changes.
    counter.evolved = 0;
    ok(loading.value, { type: 'undo' });
    expect(counter.evolved).toBeLessThan(70);

    // Loaded from a snapshot with nothing to refold: the first undo is prepared step by step.
    const plain = EncounterLog.fromLog(enc.entries.slice(0, at + 1), registry, snapshot);
    const prepared = stepwise(plain.prepareUndo());
    expect(prepared.folded.length).toBeGreaterThan(5);
    expect(Math.max(...prepared.folded)).toBeLessThanOrEqual(70);
    counter.evolved = 0;
    ok(plain, { type: 'undo' });
    expect(counter.evolved).toBeLessThan(70);
    expect(plain.state).toEqual(reduce(plain.entries, registry));
    // Unprepared, the same undo folds the whole log at once.
    const unprepared = EncounterLog.fromLog(enc.entries.slice(0, at + 1), registry, snapshot);
    counter.evolved = 0;
    ok(unprepared, { type: 'undo' });
    expect(counter.evolved).toBeGreaterThan(350);
  });
});
