import { describe, expect, it } from 'vitest';
import { type ChangeMessage, changeEntries, compactEntries, deltaOfView, receiveChange } from './change.js';
import { diffView } from './delta.js';
import type { LogEntry } from './types.js';
import type { EncounterView } from './view.js';

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
