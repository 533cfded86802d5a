import { describe, expect, it } from 'vitest';
import { type ChangeMessage, changeEntries, compactEntries, receiveChange } from './change.js';
import { diffView } from './delta.js';
import type { LogEntry } from './types.js';
import type { EncounterView } from './view.js';

const view = (round: number) => ({ round, current: 'ana', seq: round * 10 }) as unknown as EncounterView;
const time = '2026-11-23T20:00:00.000Z';
const entry = (seq: number, type: string): LogEntry => ({ seq, group: 4, time, event: { type } });

describe('change messages', () => {
  it('carry the events compactly (one slot per entry, null where unseen) and give them back whole', () => {
    const seen = [entry(11, 'a'), entry(13, 'c')];
    const compact = compactEntries(seen, 10, 14);
    // The slot after the last event seen is left out; the one between is null.
    expect(compact).toEqual({ group: 4, time, events: [{ type: 'a' }, null, { type: 'c' }] });
    expect(changeEntries({ type: 'change', seq: 14, from: 10, ...compact })).toEqual(seen);
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
