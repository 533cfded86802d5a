import type { LogEntry } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ClockKnowledge,
  elapsedMs,
  formatElapsed,
  learn,
  NOTHING_KNOWN,
  startedLocally,
  turnStart,
} from './turn-time.js';

const T0 = Date.parse('2026-11-28T07:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const entry = (seq: number, group: number, ms: number, event: LogEntry['event']): LogEntry => ({
  seq,
  group,
  time: at(ms),
  event,
});

const log: LogEntry[] = [
  entry(1, 1, 0, { type: 'round/started', round: 1 }),
  entry(2, 1, 0, { type: 'turn/started', combatant: 'ana' }),
  entry(3, 2, 40_000, { type: 'turn/ended', combatant: 'ana' }),
  entry(4, 2, 40_000, { type: 'turn/started', combatant: 'orc' }),
  entry(5, 3, 52_000, { type: 'note/added', text: 'The orc growls.' }),
];

describe('the turn timer', () => {
  it("counts from the acting combatant's latest turn/started", () => {
    expect(turnStart(log, 'orc')?.seq).toBe(4);
    // Back to Ana (an undone Next): her own turn's start, not the Orc's.
    expect(turnStart(log, 'ana')?.seq).toBe(2);
    // The Orc's turn undone, then Ana's turn started again by a new Next (group 5): that one counts.
    const undone = [
      ...log,
      entry(6, 4, 60_000, { type: 'undo', group: 2 }),
      entry(7, 5, 70_000, { type: 'turn/started', combatant: 'orc' }),
    ];
    expect(turnStart(undone.slice(0, 6), 'orc')).toBeNull();
    expect(turnStart(undone, 'orc')?.seq).toBe(7);
    expect(turnStart(log, 'nobody')).toBeNull();
    expect(turnStart(log, null)).toBeNull();
  });

  it("a turn loaded with the page: by the server's stamp, the clock offset taken out", () => {
    const orc = log[3]!;
    expect(startedLocally(orc, NOTHING_KNOWN)).toBe(T0 + 40_000);
    // The browser is 10 minutes ahead: 65 s into the Orc's turn it reads start + 10 min + 65 s.
    const ahead: ClockKnowledge = { offset: 600_000, arrived: new Map() };
    expect(elapsedMs(startedLocally(orc, ahead)!, T0 + 40_000 + 600_000 + 65_000)).toBe(65_000);
    expect(startedLocally({ ...orc, time: undefined }, NOTHING_KNOWN)).toBeNull();
    expect(elapsedMs(T0 + 40_000, T0 + 39_000)).toBe(0);
  });

  it('a turn seen to begin live: from the moment it arrived, on the browser’s clock', () => {
    // The Orc's turn arrives 0.3 s after the server stamped it, on a browser 10 minutes ahead.
    const known = learn(NOTHING_KNOWN, log.slice(2, 4), T0 + 40_000 + 600_300);
    expect(known.offset).toBe(600_300);
    expect(startedLocally(log[3]!, known)).toBe(T0 + 40_000 + 600_300);
    // The browser's clock jumps (a laptop woken up, a clock set right): a turn seen live still counts from
    // its arrival; the offset keeps its smallest sample.
    const later = learn(
      known,
      [entry(6, 4, 60_000, { type: 'turn/started', combatant: 'ana' })],
      T0 + 9_000_000,
    );
    expect(startedLocally(log[3]!, later)).toBe(T0 + 40_000 + 600_300);
    expect(later.offset).toBe(600_300);
    expect(later.arrived.get(6)).toBe(T0 + 9_000_000);
    // A backlog of several commands (a reconnect) tells nothing of when it was sent.
    expect(learn(NOTHING_KNOWN, log.slice(1, 4), T0 + 900_000)).toBe(NOTHING_KNOWN);
    expect(learn(known, [{ ...log[4]!, time: undefined }], T0)).toBe(known);
  });

  it('the offset converges on the true one from above, whatever the delays (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -3_600_000, max: 3_600_000 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 20 }),
        (skew, delays) => {
          let known = NOTHING_KNOWN;
          delays.forEach((d, i) => {
            const stamped = i * 10_000;
            const e = entry(i + 1, i + 1, stamped, { type: 'note/added', text: 'x' });
            known = learn(known, [e], T0 + stamped + skew + d);
          });
          expect(known.offset).toBe(skew + Math.min(...delays));
          // So a turn loaded with the page never reads longer than it truly lasted.
          const start = entry(99, 99, 0, { type: 'turn/started', combatant: 'ana' });
          expect(elapsedMs(startedLocally(start, known)!, T0 + skew + 30_000)).toBeLessThanOrEqual(30_000);
        },
      ),
    );
  });

  it('reads like a stopwatch', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(7_999)).toBe('0:07');
    expect(formatElapsed(65_000)).toBe('1:05');
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
    expect(formatElapsed(-5)).toBe('0:00');
  });
});
