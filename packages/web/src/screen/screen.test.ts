import type { Timeline } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { hpText } from './screen.js';
import { roundsShown } from './timeline.js';
import { forViewer, missingControls } from './words.js';

const gm = { labels: new Set(['Next', 'Act now', 'Roll initiative']), endTurn: null };
const player = { labels: new Set(['End my turn', 'Attack']), endTurn: 'End my turn' };
const table = { labels: new Set<string>(), endTurn: null };

describe('words for each viewer', () => {
  it('a sentence names only controls the reader has: the GM’s are said to be the GM’s', () => {
    const busy = 'Kael is busy until Mark 9. Press Next.';
    expect(forViewer(busy, gm)).toBe(busy);
    expect(forViewer(busy, player)).toBe('Kael is busy until Mark 9. Press End my turn.');
    expect(forViewer(busy, table)).toBe('Kael is busy until Mark 9. The GM presses Next.');
    const waiting = 'Everyone is waiting: press Act now for whoever steps in';
    expect(forViewer(waiting, table)).toBe(
      'Everyone is waiting: the GM presses Act now for whoever steps in',
    );
    expect(missingControls(waiting, table)).toEqual(['Act now']);
    expect(missingControls(forViewer(waiting, table), table)).toEqual([]);
    // A control's whole label is read, not its first word.
    expect(missingControls('Press End my turn.', player)).toEqual([]);
  });
});

describe('the timeline’s rounds shown', () => {
  const t = (rounds: number[], now: number | null): Timeline => ({
    axis: { kind: 'turns', columns: [] } as unknown as Timeline['axis'],
    rounds,
    now: now === null ? null : { round: now, at: 0 },
    lanes: [],
  });
  it('start at the moment’s round, so a carry-over into the next round never hides the current one', () => {
    expect(roundsShown(t([1, 2], 1), 1)?.rounds).toEqual([1]);
    expect(roundsShown(t([1, 2], 1), 2)?.rounds).toEqual([1, 2]);
    expect(roundsShown(t([1, 2, 3], 3), 2)?.rounds).toEqual([2, 3]);
    expect(roundsShown(t([4, 5], null), 1)?.rounds).toEqual([5]);
  });
  it('mark no moment in a round the timeline does not hold (a round begun with no one to act)', () => {
    // OpenD6 with every combatant removed: round 3 begins, the last turn's moment is still in round 2.
    expect(roundsShown(t([3], 2), 1)).toMatchObject({ rounds: [3], now: null });
    expect(roundsShown(t([2, 3], 2), 1)).toMatchObject({ rounds: [2], now: { round: 2 } });
  });
});

describe('HP as shown', () => {
  it('is never below 0, with the temporary HP beside it', () => {
    expect(hpText({ current: -2, max: 7 })).toBe('0/7');
    expect(hpText({ current: 5, max: 7, temp: 3 })).toBe('5/7 +3 temp');
  });
});
