import type { Timeline } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAD, type SvgEl } from './svg-shapes.js';
import { LEGEND, timelinePieces } from './timeline-svg.js';

/** A fight of `lanes` combatants on an axis of `cols` positions (a turn each, or Marks). */
function fight(cols: number, lanes: number): Timeline {
  return {
    axis: { unit: 'turn', from: 1, to: cols },
    rounds: [1],
    now: { round: 1, at: 1 },
    lanes: Array.from({ length: lanes }, (_, i) => ({
      id: `c${i}`,
      label: `Combatant ${i}`,
      side: i % 2 ? 'npc' : 'pc',
      spans: [],
      markers: [],
    })),
  } as Timeline;
}

const texts = (e: SvgEl): SvgEl[] =>
  e.tag === 'text' ? [e] : (e.children ?? []).flatMap((c) => (typeof c === 'string' ? [] : texts(c)));

describe('the timeline legend in the picture (the exported file)', () => {
  it('is whole within the picture however narrow: every entry, each ending inside its width', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 }), (cols, lanes) => {
        const p = timelinePieces(fight(cols, lanes));
        const legend = p.pieces.find((x) => x.key === 'legend');
        expect(legend).toBeDefined();
        const words = texts(legend!.els[0]!);
        expect(words.map((t) => t.children?.[0])).toEqual(LEGEND.map((e) => e.label));
        for (const t of words) {
          const label = String(t.children?.[0]);
          // 11 px text: about 6.2 px a character, as the layout counts it.
          expect(Number(t.attrs.x) + label.length * 6.2).toBeLessThanOrEqual(p.width - PAD);
          expect(Number(t.attrs.y)).toBeLessThanOrEqual(p.height - PAD);
        }
      }),
    );
  });

  it('takes no room where the page lists it apart (legend: false)', () => {
    const t = fight(3, 2);
    const drawn = timelinePieces(t);
    const apart = timelinePieces(t, { legend: false });
    expect(apart.pieces.some((x) => x.key === 'legend')).toBe(false);
    expect(apart.height).toBeLessThan(drawn.height);
  });
});
