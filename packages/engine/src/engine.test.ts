import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeCost, describeDuration, stateAt } from './describe.js';
import { scriptedDice, seededDice } from './dice/rng.js';
import { decide } from './engine.js';
import { namedId } from './events.js';
import { deepFreeze, isPlainJson } from './json.js';
import { EncounterLog, reduce } from './log.js';
import { roundRobin } from './test-ruleset.js';
import { type Command, isRejection, type LogEntry } from './types.js';
import { view, viewEvent, viewLog, viewRejection } from './view.js';

const registry = { 'round-robin': roundRobin };

function make(seed = 1, dice = seededDice(seed)) {
  const enc = EncounterLog.create({ id: 'e', name: 'E', ruleset: 'round-robin', dice }, registry);
  if (isRejection(enc)) throw new Error(enc.message);
  for (const name of ['Ana', 'Bren', 'Cato']) {
    const r = enc.execute({ type: 'add-combatant', combatant: { name } });
    if (isRejection(r)) throw new Error(r.message);
  }
  return enc;
}

function ok(enc: EncounterLog, command: Command) {
  const r = enc.execute(command);
  if (isRejection(r)) throw new Error(`${command.type}: ${r.message}`);
  return r;
}

const commandArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({ type: 'start' }),
  fc.constant({ type: 'next' }),
  fc.constant({ type: 'next' }),
  fc.constant({ type: 'undo' }),
  fc.constant({ type: 'redo' }),
  fc.constantFrom('ana', 'bren', 'cato', 'zed').map((actor) => ({ type: 'roll', actor })),
  fc.record({
    type: fc.constant('add-effect'),
    target: fc.constantFrom('ana', 'bren', 'cato'),
    name: fc.constantFrom('Stunned', 'Blessed'),
    duration: fc.oneof(
      fc.record({ kind: fc.constant('until-turn-start'), combatant: fc.constantFrom('ana', 'bren', 'cato') }),
      fc.record({
        kind: fc.constant('until-turn-end'),
        combatant: fc.constantFrom('ana', 'bren'),
        turns: fc.integer({ min: 0, max: 2 }),
      }),
      fc.record({ kind: fc.constant('until-round-end') }),
      fc.record({ kind: fc.constant('for'), amount: fc.integer({ min: 1, max: 5 }) }),
    ),
  }),
  fc.record({ type: fc.constant('damage'), combatant: fc.constantFrom('ana', 'bren'), amount: fc.nat(10) }),
  fc.constant({ type: 'set-hp', combatant: 'ana', current: 10, max: 10 }),
  // Malformed commands: decide must refuse, never throw.
  fc.anything(),
  fc.record({ type: fc.string(), actor: fc.anything() }),
  fc.record({ type: fc.constant('damage'), combatant: fc.anything(), amount: fc.anything() }),
);

describe('engine properties', () => {
  it('fold(log) equals the live state after any command sequence', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 40 }), fc.integer(), (commands, seed) => {
        const enc = make(seed);
        for (const c of commands) enc.execute(c);
        expect(reduce(enc.entries, registry)).toEqual(enc.state);
        expect(isPlainJson(enc.state)).toBe(true);
        expect(JSON.parse(JSON.stringify(enc.state))).toEqual(enc.state);
      }),
      { numRuns: 150 },
    );
  });

  it('a log that adopts what another writer stored reaches the same state, and refuses a gap', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 30 }), fc.integer(), (commands, seed) => {
        const writer = make(seed);
        const follower = EncounterLog.fromLog(writer.entries.slice(), registry);
        for (const c of commands) {
          const r = writer.execute(c);
          if (!isRejection(r)) follower.adopt(structuredClone(r));
        }
        expect(follower.state).toEqual(writer.state);
        expect(follower.entries).toEqual(writer.entries);
        expect([...follower.everHidden]).toEqual([...writer.everHidden]);
        const next = (writer.entries.at(-1)?.seq ?? 0) + 2;
        expect(() => follower.adopt([{ seq: next, group: 99, event: { type: 'note/added' } }])).toThrow();
      }),
      { numRuns: 100 },
    );
  });

  it('a stored log longer than one call can spread (300,000 entries) loads', () => {
    const enc = make();
    ok(enc, { type: 'note', text: 'n' });
    const [created, note] = enc.entries as [LogEntry, LogEntry];
    const long: LogEntry[] = [created];
    for (let i = 1; i <= 300_000; i++) long.push({ ...note, seq: created.seq + i, group: i });
    const last = long.at(-1)!.seq;
    const snapshot = { seq: last, state: { ...enc.state, seq: last } };
    const loaded = EncounterLog.fromLog(long, registry, snapshot);
    expect(loaded.entries).toHaveLength(long.length);
    expect(loaded.state).toEqual(snapshot.state);
  });

  it('same seed + same commands → same events', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 30 }), fc.integer(), (commands, seed) => {
        const a = make(seed);
        const b = make(seed);
        for (const c of commands) {
          a.execute(c);
          b.execute(structuredClone(c));
        }
        expect(b.entries).toEqual(a.entries);
      }),
      { numRuns: 100 },
    );
  });

  it('undo restores the previous state exactly and redo re-applies it', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 25 }), commandArb, (prefix, last) => {
        const enc = make(5);
        for (const c of prefix) enc.execute(c);
        const before = enc.state;
        const r = enc.execute(last);
        if (isRejection(r) || r.length === 0 || ['undo', 'redo'].includes((last as Command).type)) return;
        const after = enc.state;
        ok(enc, { type: 'undo' });
        const { history: _h1, seq: _s1, ...undone } = enc.state;
        const { history: _h2, seq: _s2, ...expected } = before;
        expect(undone).toEqual(expected);
        ok(enc, { type: 'redo' });
        const { history: _h3, seq: _s3, ...redone } = enc.state;
        const { history: _h4, seq: _s4, ...again } = after;
        expect(redone).toEqual(again);
      }),
      { numRuns: 150 },
    );
  });

  it('decide never throws and never mutates (deep-frozen state)', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 30 }), (commands) => {
        const enc = make(9);
        for (const c of commands) {
          deepFreeze(enc.state);
          for (const e of enc.entries) deepFreeze(e);
          expect(() => enc.execute(c)).not.toThrow();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('malformed commands get a rejection with a code and a sentence', () => {
    const enc = make();
    for (const bad of [null, 42, 'next', [], {}, { type: 7 }, { type: 'damage' }, { type: 'nope' }]) {
      const r = decide(enc.state, bad, registry);
      expect(isRejection(r)).toBe(true);
      if (isRejection(r)) {
        expect(r.code).toMatch(/^[a-z-]+\/[a-z-]+$/);
        expect(r.message.length).toBeGreaterThan(10);
      }
    }
  });
});

describe('undo and redo', () => {
  it('undo works on whole commands and refuses when there is nothing to undo', () => {
    const enc = make();
    ok(enc, { type: 'undo' });
    ok(enc, { type: 'undo' });
    ok(enc, { type: 'undo' });
    expect(enc.state.roster).toEqual([]);
    const r = enc.execute({ type: 'undo' });
    expect(isRejection(r) && r.code).toBe('undo/nothing');
  });

  it('a new command clears the redo stack', () => {
    const enc = make();
    ok(enc, { type: 'start' });
    ok(enc, { type: 'undo' });
    ok(enc, { type: 'add-combatant', combatant: { name: 'Dara' } });
    const r = enc.execute({ type: 'redo' });
    expect(isRejection(r) && r.code).toBe('redo/nothing');
  });

  it('undoing a roll restores the dice state, so re-rolling gives the same faces', () => {
    const enc = make(42);
    const first = ok(enc, { type: 'roll', actor: 'ana' });
    ok(enc, { type: 'undo' });
    const second = ok(enc, { type: 'roll', actor: 'ana' });
    expect(second[0]!.event.faces).toEqual(first[0]!.event.faces);
  });
});

describe('effects with explicit anchors', () => {
  it("until the start of the TARGET's next turn, not the caster's", () => {
    const enc = make();
    ok(enc, { type: 'start' }); // ana's turn
    ok(enc, {
      type: 'add-effect',
      target: 'cato',
      source: 'ana',
      name: 'Stunned',
      duration: { kind: 'until-turn-start', combatant: 'cato' },
    });
    ok(enc, { type: 'next' }); // bren
    expect(enc.state.effects).toHaveLength(1);
    ok(enc, { type: 'next' }); // cato: ends
    expect(enc.state.effects).toHaveLength(0);
  });

  it("until the end of the caster's current turn (turns: 0) ends at this turn's end", () => {
    const enc = make();
    ok(enc, { type: 'start' });
    ok(enc, {
      type: 'add-effect',
      target: 'bren',
      name: 'Marked',
      duration: { kind: 'until-turn-end', combatant: 'ana', turns: 0 },
    });
    ok(enc, { type: 'next' });
    expect(enc.state.effects).toHaveLength(0);
  });

  it("until the end of Ana's next turn, said during Ana's turn, lasts across the round boundary", () => {
    const enc = make();
    ok(enc, { type: 'start' });
    ok(enc, {
      type: 'add-effect',
      target: 'bren',
      name: 'Marked',
      duration: { kind: 'until-turn-end', combatant: 'ana' },
    });
    ok(enc, { type: 'next' });
    ok(enc, { type: 'next' });
    ok(enc, { type: 'next' }); // round 2, ana
    expect(enc.state.round).toBe(2);
    expect(enc.state.effects).toHaveLength(1);
    ok(enc, { type: 'next' }); // ana's turn ends
    expect(enc.state.effects).toHaveLength(0);
  });

  it('the last combatant of a round: start of their next turn is in the next round', () => {
    const enc = make();
    ok(enc, { type: 'start' });
    ok(enc, { type: 'next' });
    ok(enc, { type: 'next' }); // cato, last
    ok(enc, {
      type: 'add-effect',
      target: 'cato',
      name: 'Dodging',
      duration: { kind: 'until-turn-start', combatant: 'cato' },
    });
    ok(enc, { type: 'next' }); // round 2 ana
    ok(enc, { type: 'next' }); // bren
    expect(enc.state.effects).toHaveLength(1);
    ok(enc, { type: 'next' }); // cato
    expect(enc.state.effects).toHaveLength(0);
  });

  it('until the end of the round, and for N clock units', () => {
    const enc = make();
    ok(enc, { type: 'start' });
    ok(enc, { type: 'add-effect', target: 'bren', name: 'Haste', duration: { kind: 'until-round-end' } });
    ok(enc, { type: 'add-effect', target: 'bren', name: 'Glow', duration: { kind: 'for', amount: 4 } });
    ok(enc, { type: 'next' });
    ok(enc, { type: 'next' });
    expect(enc.state.effects.map((e) => e.name)).toEqual(['Haste', 'Glow']);
    ok(enc, { type: 'next' }); // round ends → Haste goes; slot 0 of round 2
    expect(enc.state.effects.map((e) => e.name)).toEqual(['Glow']);
    ok(enc, { type: 'next' }); // slot 1 of round 2 = 4 slots after slot 0 of round 1
    expect(enc.state.effects).toHaveLength(0);
  });
});

describe('dice state and views', () => {
  it('scripted dice give exactly the scripted faces and fail clearly when they run out', () => {
    const enc = make(1, scriptedDice([4, 2]));
    expect(ok(enc, { type: 'roll', actor: 'ana' })[0]!.event.faces).toEqual([4]);
    expect(ok(enc, { type: 'roll', actor: 'ana' })[0]!.event.faces).toEqual([2]);
    const r = enc.execute({ type: 'roll', actor: 'ana' });
    expect(isRejection(r) && r.code).toBe('dice/script-exhausted');
  });

  it('views redact the dice state, GM notes and hidden combatants — in state and in the log', () => {
    const enc = make(3);
    ok(enc, {
      type: 'add-combatant',
      combatant: { id: 'spy', name: 'Spy', hidden: true, notes: 'the real villain' },
    });
    ok(enc, { type: 'note', text: 'secret plan' });
    ok(enc, { type: 'start' });
    ok(enc, { type: 'roll', actor: 'spy' });
    for (const viewer of [{ role: 'table' as const }, { role: 'player' as const, combatants: ['ana'] }]) {
      const v = view(enc.state, viewer, roundRobin);
      const log = viewLog(enc.entries, viewer, enc.state, roundRobin);
      const sent = JSON.stringify({ v, log });
      expect(v.dice).toBeNull();
      expect(sent).not.toContain('spy');
      expect(sent).not.toContain('villain');
      expect(sent).not.toContain('secret plan');
      expect(sent).not.toContain('dice/state');
    }
    const own = view(enc.state, { role: 'player', combatants: ['spy'] }, roundRobin);
    expect(own.combatants.spy?.name).toBe('Spy');
  });

  it('a hidden combatant whose adding was undone stays hidden in the log it left, whole or sliced', () => {
    const enc = make(3);
    ok(enc, { type: 'add-combatant', combatant: { id: 'spy', name: 'Spy', hidden: true } });
    ok(enc, { type: 'start' });
    ok(enc, { type: 'roll', actor: 'spy' });
    ok(enc, { type: 'undo' });
    ok(enc, { type: 'undo' });
    ok(enc, { type: 'undo' });
    expect(enc.state.combatants.spy).toBeUndefined();
    const table = { role: 'table' as const };
    const slice = enc.entries.filter((e) => e.seq > 3);
    expect(enc.everHidden.has('spy')).toBe(true);
    expect(JSON.stringify(viewLog(enc.entries, table, enc.state, roundRobin))).not.toContain('spy');
    expect(JSON.stringify(viewLog(slice, table, enc.state, roundRobin, enc.everHidden))).not.toContain('spy');
    // The GM still reads everything.
    expect(JSON.stringify(viewLog(slice, { role: 'gm' }, enc.state, roundRobin))).toContain('spy');
  });
});

describe('redaction covers nested names and owned secrets', () => {
  it('an effect on a hidden combatant never reaches the table, in state or events', () => {
    const enc = make(3);
    ok(enc, { type: 'add-combatant', combatant: { id: 'spy', name: 'Spy', hidden: true } });
    ok(enc, { type: 'start' });
    ok(enc, {
      type: 'add-effect',
      target: 'spy',
      source: 'ana',
      name: 'Invisible',
      duration: { kind: 'indefinite' },
    });
    const table = { role: 'table' as const };
    const sent = JSON.stringify({
      v: view(enc.state, table, roundRobin),
      l: viewLog(enc.entries, table, enc.state, roundRobin),
    });
    expect(sent).not.toContain('Invisible');
  });

  it("a player sees the secret agenda entries of their own characters, and nobody else's", () => {
    const enc = make(3);
    ok(enc, { type: 'start' });
    const secret = { ...enc.state.agenda[0]!, id: 'plan-x', secret: true, kind: 'plan', combatant: 'bren' };
    const state = { ...enc.state, agenda: [...enc.state.agenda, secret] };
    const mine = view(state, { role: 'player', combatants: ['bren'] }, roundRobin);
    const theirs = view(state, { role: 'player', combatants: ['ana'] }, roundRobin);
    expect(mine.agenda.some((a) => a.id === 'plan-x')).toBe(true);
    expect(theirs.agenda.some((a) => a.id === 'plan-x')).toBe(false);
    expect(view(state, { role: 'table' }, roundRobin).agenda.some((a) => a.id === 'plan-x')).toBe(false);
  });
});

describe('dice errors are rejections', () => {
  it('an unknown @stat in a ruleset option is refused with dice/unknown-ref, not an internal error', () => {
    const enc = EncounterLog.create(
      { id: 'e', name: 'E', ruleset: 'round-robin', options: { dice: '1d6+@nope' }, dice: seededDice(1) },
      registry,
    );
    if (isRejection(enc)) throw new Error(enc.message);
    const r = enc.execute({ type: 'roll', actor: 'x' });
    expect(isRejection(r) && r.code).toBe('dice/unknown-ref');
  });
});

describe('redaction of events that list combatants', () => {
  it('a roll-off that names a hidden combatant never reaches the table', () => {
    const enc = make(3);
    ok(enc, { type: 'add-combatant', combatant: { id: 'lurker', name: 'Lurker', hidden: true } });
    const event = { type: 'rr/roll-off', combatants: ['ana', 'lurker'], rolls: [3, 10] };
    expect(viewEvent(event, { role: 'table' }, enc.state, roundRobin)).toBeNull();
    expect(viewEvent(event, { role: 'gm' }, enc.state, roundRobin)).toEqual(event);
    expect(
      viewEvent({ ...event, combatants: ['ana', 'bren'] }, { role: 'table' }, enc.state, roundRobin),
    ).not.toBeNull();
  });

  it('an event its ruleset never declared reaches only the GM while anyone is hidden: nobody can say whom it names', () => {
    const enc = make(3);
    const event = { type: 'rr/undeclared', who: 'ana' };
    // Nothing hidden: nothing it could give away.
    expect(viewEvent(event, { role: 'table' }, enc.state, roundRobin)).toEqual(event);
    ok(enc, { type: 'add-combatant', combatant: { id: 'lurker', name: 'Lurker', hidden: true } });
    expect(viewEvent(event, { role: 'table' }, enc.state, roundRobin)).toBeNull();
    expect(viewEvent(event, { role: 'player', combatants: ['ana'] }, enc.state, roundRobin)).toBeNull();
    expect(viewEvent(event, { role: 'gm' }, enc.state, roundRobin)).toEqual(event);
    // Declared, the same fact reaches the table: its declaration says it names nobody hidden.
    const declared = {
      ...roundRobin,
      events: { ...roundRobin.events, 'rr/undeclared': z.object({ who: namedId() }) },
    };
    expect(viewEvent(event, { role: 'table' }, enc.state, declared)).toEqual(event);
  });
});

describe('refusals never name what the viewer cannot see', () => {
  it('a hidden combatant in a refusal reads "someone unseen" to a player, whole words only', () => {
    const enc = make(3);
    ok(enc, { type: 'add-combatant', combatant: { id: 'spy', name: 'Spy', hidden: true } });
    const state = enc.state;
    const refusal = {
      code: 'turn/not-yours',
      message: "It is Spy's turn, not Ana's; spy acts first. Spyglass stays.",
      details: { actor: 'spy', list: ['spy', 'ana'] },
    };
    const seen = viewRejection(refusal, { role: 'player', combatants: ['ana'] }, state);
    expect(seen.message).toBe(
      "It is someone unseen's turn, not Ana's; someone unseen acts first. Spyglass stays.",
    );
    expect(JSON.stringify(seen.details)).not.toContain('spy');
    expect(viewRejection(refusal, { role: 'gm' }, state)).toBe(refusal);
    expect(viewRejection(refusal, { role: 'player', combatants: ['spy'] }, state).message).toContain('Spy');
  });

  it('decide scrubs the refusals it gives a non-GM sender', () => {
    const enc = make(3);
    ok(enc, { type: 'add-combatant', combatant: { id: 'spy', name: 'Spy', hidden: true } });
    ok(enc, { type: 'defeat', combatant: 'spy' });
    const r = decide(enc.state, { type: 'defeat', combatant: 'spy' }, registry, {
      by: { role: 'player', combatants: ['ana'] },
    });
    expect(isRejection(r)).toBe(true);
    expect(JSON.stringify(r)).not.toMatch(/spy/i);
    const gm = decide(enc.state, { type: 'defeat', combatant: 'spy' }, registry);
    expect(JSON.stringify(gm)).toMatch(/spy/i);
  });
});

describe('describeCost', () => {
  it('says a cost in words: plurals become singular for one (not "bonus"), zeros drop out, nothing is free', () => {
    expect(describeCost({ marks: 15 })).toBe('15 marks');
    expect(describeCost({ actions: 1 })).toBe('1 action');
    expect(describeCost({ seconds: 1, stamina: 1 })).toBe('1 second, 1 stamina');
    expect(describeCost({ stamina: 2, turnRequirement: 1 })).toBe('2 stamina, 1 turn requirement');
    expect(describeCost({ marks: 0, marksPerUnit: 1 })).toBe('1 mark per unit');
    expect(describeCost({ penaltyDice: 2 })).toBe('2 penalty dice');
    expect(describeCost({ seconds: 0 })).toBe('0 seconds');
    expect(describeCost({})).toBe('free');
    expect(describeCost({ bonus: 1 })).toBe('1 bonus');
    expect(describeCost({ free: 0 })).toBe('free');
    expect(describeCost({ reaction: 1 })).toBe('1 reaction');
  });
});

describe('describeDuration', () => {
  it('names whose turn ends it and how many turns ahead, in ordinals', () => {
    const enc = make();
    const on = (turns: number) => ({ kind: 'until-turn-start' as const, combatant: 'ana', turns });
    expect(describeDuration(enc.state, on(1))).toBe("until the start of Ana's next turn");
    expect(describeDuration(enc.state, on(2))).toBe("until the start of Ana's 2nd turn from now");
    expect(describeDuration(enc.state, on(3))).toBe("until the start of Ana's 3rd turn from now");
    expect(describeDuration(enc.state, on(11))).toBe("until the start of Ana's 11th turn from now");
    expect(describeDuration(enc.state, { kind: 'until-turn-end', combatant: 'ana', turns: 0 })).toBe(
      "until the end of Ana's turn",
    );
  });
});

describe('events applied once', () => {
  it('a command folds each of its events once: the log appends the state decide settled to', () => {
    let calls = 0;
    const counting = {
      ...roundRobin,
      evolve: (
        state: Parameters<typeof roundRobin.evolve>[0],
        event: Parameters<typeof roundRobin.evolve>[1],
      ) => {
        calls++;
        return roundRobin.evolve(state, event);
      },
    };
    const enc = EncounterLog.create(
      { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
      { 'round-robin': counting },
    );
    if (isRejection(enc)) throw new Error(enc.message);
    for (const name of ['Ana', 'Bren']) enc.execute({ type: 'add-combatant', combatant: { name } });
    enc.execute({ type: 'start' });
    calls = 0;
    const entries = enc.execute({ type: 'roll', actor: 'ana' });
    if (isRejection(entries)) throw new Error(entries.message);
    const own = entries.filter((e) => !['dice/state', 'dice/rolled'].includes(e.event.type)).length;
    expect(own).toBeGreaterThan(0);
    expect(calls).toBe(own);
    // And the state is still the fold of the log.
    expect(reduce(enc.entries, { 'round-robin': counting })).toEqual(enc.state);
  });
});

describe('stateAt: a log entry at its own round and instant', () => {
  it('folds the round and the clock up to the entry, keeps the rest as now, and says the state’s own where the entries do not', () => {
    const enc = make();
    ok(enc, { type: 'start' });
    ok(enc, { type: 'next' });
    ok(enc, { type: 'next' });
    const entries = enc.entries;
    const now = enc.state;
    for (const [i] of entries.entries()) {
      const then = reduce(entries.slice(0, i + 1), registry);
      const at = stateAt(now, entries, i, roundRobin);
      expect([at.round, at.now]).toEqual([then.round, then.now]);
      // Everything else is the state as it is now (names, HP…).
      expect(at.combatants).toBe(now.combatants);
    }
    // The last entry is now: the same state, not a copy.
    expect(stateAt(now, entries, entries.length - 1, roundRobin)).toBe(now);
    // A log that starts later and says nothing of the clock: the state's own round and instant.
    const tail = entries
      .slice(-1)
      .filter((e) => e.event.type !== 'clock/advanced' && e.event.type !== 'round/started');
    expect(stateAt(now, tail, 0, roundRobin)).toBe(now);
  });
});
