import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChangeMessage,
  changeEntries,
  compactEntries,
  deltaOfView,
  receiveChange,
  seenAlikeByAllButGm,
} from './change.js';
import { diffView } from './delta.js';
import { seededDice } from './dice/rng.js';
import { EncounterLog } from './log.js';
import type { AnyRuleset } from './ruleset.js';
import { roundRobin } from './test-ruleset.js';
import { type Command, type EncounterState, isRejection, type LogEntry, type Viewer } from './types.js';
import { type EncounterView, viewLog, view as viewOf } from './view.js';

const view = (round: number) => ({ round, current: 'ana', seq: round * 10 }) as unknown as EncounterView;
const time = '2026-11-23T20:00:00.000Z';
const entry = (seq: number, type: string): LogEntry => ({ seq, group: 4, time, event: { type } });

describe('change messages', () => {
  it('carry the events compactly (one slot per entry, null where unseen) and give them back whole', () => {
    const seen = [entry(11, 'a'), { ...entry(13, 'c'), event: { type: 'c', who: 'ana', at: [1, 2] } }];
    const compact = compactEntries(seen, 10, 14);
    // The slot after the last event seen is left out; the one between is null. Each event is its type
    // and its other fields; the time its milliseconds.
    expect(compact).toEqual({
      group: 4,
      time: Date.parse(time),
      events: [['a'], null, ['c', { who: 'ana', at: [1, 2] }]],
    });
    expect(changeEntries({ type: 'change', seq: 14, from: 10, ...compact })).toEqual(seen);
    // A time its milliseconds would not give back exactly stays as it was stored.
    const odd = compactEntries([{ ...entry(11, 'a'), time: '2026-11-23T20:00:00Z' }], 10, 11);
    expect(odd?.time).toBe('2026-11-23T20:00:00Z');
    expect(compactEntries([], 10, 14)).toEqual({ events: [] });
    // Entries of several commands or times do not fit the compact form.
    expect(compactEntries([entry(11, 'a'), { ...entry(12, 'b'), group: 5 }], 10, 12)).toBeNull();
  });

  it('a delta that follows the view held gives the next view', () => {
    const message: ChangeMessage = {
      type: 'change',
      seq: 20,
      from: 10,
      events: [],
      delta: diffView(view(1), view(2)),
    };
    const r = receiveChange({ seq: 10, state: view(1) }, message);
    expect(r).toEqual({ held: { seq: 20, state: view(2) }, entries: [] });
  });

  it("a delta names the values the change's events carry instead of repeating them", () => {
    const entry1 = { id: 't1', at: { round: 2, at: [-20] }, label: "Ana's turn" };
    const before = { ...view(1), agenda: [], now: { round: 1, at: [-5] } } as unknown as EncounterView;
    const events = [
      { type: 'agenda/scheduled', entry: entry1 },
      { type: 'clock/advanced', to: { round: 2, at: [-20] } },
    ];
    const after = { ...view(2), agenda: [entry1], now: events[1]!.to } as unknown as EncounterView;
    const delta = deltaOfView(before, after, events);
    expect(JSON.stringify(delta)).not.toContain("Ana's turn");
    expect(delta).toMatchObject({ agenda: [0, ['0.entry']], now: [0, '1.to'] });
    // The seq is the message's: not in the delta.
    expect(delta).not.toHaveProperty('seq');
    const message: ChangeMessage = {
      type: 'change',
      seq: 20,
      from: 10,
      ...compactEntries(
        events.map((event, i) => ({ seq: 11 + i, group: 4, time, event })),
        10,
        20,
      ),
      delta,
    };
    const r = receiveChange({ seq: 10, state: before }, message);
    expect('held' in r && JSON.stringify(r.held.state)).toBe(JSON.stringify(after));
    // A reference to an event the message does not carry: the view is asked for again.
    const short = receiveChange({ seq: 10, state: before }, { ...message, events: [message.events![0]!] });
    expect(short).toHaveProperty('resync');
  });

  it('a gap, a delta that does not fit, or a message with no view: ask for the whole view again', () => {
    const delta = diffView(view(1), view(2));
    const gap = receiveChange({ seq: 9, state: view(1) }, { type: 'change', seq: 20, from: 10, delta });
    expect(gap).toEqual({ resync: 'a change from 10 came to a view at 9' });
    expect(receiveChange(undefined, { type: 'change', seq: 20, from: 10, delta })).toHaveProperty('resync');
    const unfit = receiveChange(
      { seq: 10, state: {} as EncounterView },
      { type: 'change', seq: 20, from: 10, delta: { round: { x: [1] } } },
    );
    expect(unfit).toHaveProperty('resync');
    expect(receiveChange({ seq: 10, state: view(1) }, { type: 'change', seq: 20, from: 10 })).toHaveProperty(
      'resync',
    );
    // A whole view is taken as it is, if it follows the view held.
    const whole = receiveChange(
      { seq: 10, state: view(1) },
      { type: 'change', seq: 20, from: 10, state: view(3) },
    );
    expect(whole).toEqual({ held: { seq: 20, state: view(3) }, entries: [] });
  });
});

describe('seenAlikeByAllButGm', () => {
  const make = () => {
    const enc = EncounterLog.create(
      { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
      { 'round-robin': roundRobin },
    );
    if (isRejection(enc)) throw new Error(enc.message);
    for (const name of ['Ana', 'Bren', 'Cato']) enc.execute({ type: 'add-combatant', combatant: { name } });
    return enc;
  };

  it('when it holds, every player gets the view and the events the table gets', () => {
    const step = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<Command>({ type: 'start' }, { type: 'next' }) },
      fc.constantFrom<Command>(
        { type: 'undo' },
        { type: 'redo' },
        { type: 'note', text: 'n' },
        { type: 'roll', actor: 'ana' },
        { type: 'damage', combatant: 'bren', amount: 1 },
        { type: 'update-combatant', combatant: 'cato', notes: 'GM only' },
        { type: 'add-combatant', combatant: { name: 'Dag' } },
        { type: 'remove-combatant', combatant: 'dag' },
      ),
      // Rarely, something hidden: from then on the views may differ.
      {
        weight: 1,
        arbitrary: fc.constantFrom<Command>(
          { type: 'update-combatant', combatant: 'bren', hidden: true },
          { type: 'add-combatant', combatant: { name: 'Eld', hidden: true } },
        ),
      },
    );
    let alike = 0;
    let apart = 0;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const enc = make();
        for (const command of steps) {
          const entries = enc.execute(command);
          if (isRejection(entries)) continue;
          const ruleset = roundRobin as AnyRuleset;
          if (!seenAlikeByAllButGm(enc.state, entries, ruleset, enc.everHidden)) {
            apart++;
            continue;
          }
          alike++;
          const table: Viewer = { role: 'table' };
          const expected = JSON.stringify([
            viewOf(enc.state, table, ruleset, enc.everHidden),
            viewLog(entries, table, enc.state, ruleset, enc.everHidden),
          ]);
          for (const id of Object.keys(enc.state.combatants)) {
            const player: Viewer = { role: 'player', combatants: [id] };
            const seen = JSON.stringify([
              viewOf(enc.state, player, ruleset, enc.everHidden),
              viewLog(entries, player, enc.state, ruleset, enc.everHidden),
            ]);
            expect(seen).toBe(expected);
          }
        }
      }),
      { numRuns: 100 },
    );
    // Both cases came up.
    expect(alike).toBeGreaterThan(100);
    expect(apart).toBeGreaterThan(10);
  });

  it('does not hold with a hidden combatant, a secret scheduled, or a ruleset that redacts per viewer', () => {
    const enc = make();
    const ruleset = roundRobin as AnyRuleset;
    expect(seenAlikeByAllButGm(enc.state, [], ruleset, enc.everHidden)).toBe(true);
    const redacting: AnyRuleset = { ...ruleset, redact: (state) => state };
    expect(seenAlikeByAllButGm(enc.state, [], redacting, enc.everHidden)).toBe(false);
    const secret = { id: 'plan', at: { round: 1, at: [0] }, kind: 'plan', combatant: 'ana', secret: true };
    const scheduled: LogEntry = { seq: 9, group: 9, event: { type: 'agenda/scheduled', entry: secret } };
    expect(seenAlikeByAllButGm(enc.state, [scheduled], ruleset, enc.everHidden)).toBe(false);
    // Among a round's turns scheduled at once too.
    const { secret: _, ...open } = { ...secret, id: 'turn', kind: 'turn' };
    const many: LogEntry = {
      seq: 9,
      group: 9,
      event: { type: 'agenda/scheduled-many', entries: [open, secret] },
    };
    expect(seenAlikeByAllButGm(enc.state, [many], ruleset, enc.everHidden)).toBe(false);
    expect(
      seenAlikeByAllButGm({ ...enc.state, agenda: [secret] } as EncounterState, [], ruleset, enc.everHidden),
    ).toBe(false);
    const hidden = enc.execute({ type: 'update-combatant', combatant: 'bren', hidden: true });
    if (isRejection(hidden)) throw new Error(hidden.message);
    expect(seenAlikeByAllButGm(enc.state, hidden, ruleset, enc.everHidden)).toBe(false);
    // Shown again, Bren's hidden past still names him in the events of his time.
    enc.execute({ type: 'update-combatant', combatant: 'bren', hidden: false });
    expect(seenAlikeByAllButGm(enc.state, [], ruleset, enc.everHidden)).toBe(false);
  });
});
