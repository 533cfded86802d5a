import type { Timeline } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  axisPositions,
  describeTimeline,
  escapeXml,
  labelStart,
  MARKER_STYLE,
  pieceMarkup,
  piecesSvg,
  sameEls,
  timelinePieces,
  timelineSvg,
} from './timeline-svg.js';

const marks: Timeline = {
  axis: { unit: 'Mark', from: 30, to: 1 },
  rounds: [1, 2],
  now: { round: 1, at: 17 },
  lanes: [
    {
      id: 'mage',
      label: 'Mage <Ana>',
      side: 'pc',
      spans: [
        { round: 1, from: 17, to: 1, kind: 'spell', label: 'Fireball' },
        { round: 2, from: 30, to: 26, kind: 'carry', label: 'Fireball (carry-over)', planned: true },
      ],
      markers: [
        { round: 2, at: 26, kind: 'resolve', label: 'Fireball resolves', planned: true },
        { round: 1, at: 17, kind: 'turn', label: 'acts' },
      ],
    },
    {
      id: 'orc',
      label: 'Orc',
      side: 'npc',
      spans: [{ round: 1, from: 20, to: 6, kind: 'action', label: 'Full attack' }],
      markers: [{ round: 1, at: 12, kind: 'attack', label: 'second attack' }],
    },
  ],
};

describe('timelineSvg', () => {
  it("heads a block with the ruleset's label where it gives one (a clock without rounds)", () => {
    const ticks: Timeline = { ...marks, rounds: [1], roundLabels: { 1: 'Ticks 12–30' } };
    const svg = timelineSvg(ticks);
    expect(svg).toContain('>Ticks 12–30 · now</text>');
    expect(svg).not.toContain('Round 1');
    expect(timelineSvg(marks)).toContain('>Round 1 · now</text>');
  });

  it('reads the axis in reading order, countdowns included', () => {
    expect(axisPositions(marks)).toHaveLength(30);
    expect(axisPositions(marks)[0]).toBe(30);
    expect(axisPositions({ ...marks, axis: { unit: 'tempo', from: 0, to: 9 } })).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
  });

  it('draws one block per round with spans, markers, carry-over and the now line', () => {
    const svg = timelineSvg(marks);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('Round 1 · now');
    expect(svg).toContain('Round 2');
    expect(svg.match(/class="span /g)).toHaveLength(3);
    expect(svg).toContain('span-carry planned');
    expect(svg).toContain('marker-resolve');
    expect(svg).toContain('marker-attack');
    expect(svg).toContain('class="now"');
    expect(svg).toContain('lane-pc');
    expect(svg).toContain('lane-npc');
  });

  it("draws the timed events' row in their own colour, not an NPC's", () => {
    const lair = { id: '~timed', label: 'Timed events', side: 'npc' as const, spans: [] };
    const svg = timelineSvg({
      ...marks,
      lanes: [
        ...marks.lanes,
        { ...lair, markers: [{ round: 1, at: 10, kind: 'timed', label: 'Lair action' }] },
      ],
    });
    const row = /<g class="lane lane-timed" data-lane="~timed">.*?<\/g>/s.exec(svg)?.[0] ?? '';
    expect(row).toContain(`fill="${MARKER_STYLE.timed!.color}"`);
    expect(row).not.toContain('#ff6b6b');
    expect(row).toContain('<title>Timed events (on the clock)</title>');
    expect(svg).toContain('<title>Orc (NPC)</title>');
  });

  it("starts a span's label after the marker drawn over its first letters, as a turn that begins it", () => {
    const svg = timelineSvg(marks);
    // The mage's turn at Mark 17 begins the Fireball: its triangle is drawn from its centre −5 to +6.
    const tri = /class="marker marker-turn"[^>]*><title>[^<]*<\/title><path d="M([\d.]+) /.exec(svg);
    const label = /<text x="([\d.]+)"[^>]*>Fireball<\/text>/.exec(svg);
    expect(tri && label).toBeTruthy();
    expect(Number(label![1])).toBeGreaterThanOrEqual(Number(tri![1]) + 5 + 7);
    // Without a marker, or with one past the label's end, the label starts 5 px into the span.
    expect(labelStart(100, 400, 8, [])).toBe(105);
    expect(labelStart(100, 400, 8, [300])).toBe(105);
    // One over its first letters, or over its last, moves it past that marker; one left of the span does not.
    expect(labelStart(100, 400, 8, [113])).toBe(123);
    expect(labelStart(100, 400, 8, [150])).toBe(160);
    expect(labelStart(100, 400, 8, [80])).toBe(105);
    // Two markers side by side: past both.
    expect(labelStart(100, 400, 8, [127, 113])).toBe(137);
  });

  it('escapes labels and keeps only the last rounds when asked', () => {
    const svg = timelineSvg(marks, { maxRounds: 1 });
    expect(svg).toContain('Mage &lt;Ana&gt;');
    expect(svg).not.toContain('<Ana>');
    expect(svg).not.toContain('Round 1');
    expect(escapeXml(`a&b"'`)).toBe('a&amp;b&quot;&apos;');
  });

  it('tells screen readers what the picture shows', () => {
    expect(describeTimeline(marks)).toContain('2 lanes on a Mark axis from 30 to 1');
    expect(describeTimeline(marks)).toContain('attack at 12: second attack');
  });

  it('is drawn in keyed pieces, so selecting a lane changes only that lane', () => {
    const plain = timelinePieces(marks);
    const lit = timelinePieces(marks, { highlight: 'orc' });
    expect(piecesSvg(plain)).toBe(timelineSvg(marks));
    expect(new Set(plain.pieces.map((p) => p.key)).size).toBe(plain.pieces.length);
    const changed = lit.pieces.filter((p, i) => !sameEls(p.els, plain.pieces[i]!.els)).map((p) => p.key);
    expect(changed).toEqual(['b0-lane-orc', 'b1-lane-orc']);
    // What changed is told by the elements exactly as by their markup.
    const byMarkup = lit.pieces
      .filter((p, i) => pieceMarkup(p) !== pieceMarkup(plain.pieces[i]!))
      .map((p) => p.key);
    expect(byMarkup).toEqual(changed);
  });

  it('tells two drawings of a piece apart exactly when their markup differs (property)', () => {
    const marker = fc.record({
      round: fc.constantFrom(1, 2),
      at: fc.integer({ min: 1, max: 30 }),
      kind: fc.constantFrom('attack', 'turn', 'resolve', 'odd'),
      label: fc.string({ maxLength: 6 }),
      planned: fc.boolean(),
    });
    const span = fc.record({
      round: fc.constantFrom(1, 2),
      from: fc.integer({ min: 1, max: 30 }),
      to: fc.integer({ min: 1, max: 30 }),
      kind: fc.constantFrom('action', 'spell', 'carry'),
      label: fc.string({ maxLength: 12 }),
      planned: fc.boolean(),
    });
    const lane = fc.record({
      id: fc.constantFrom('a', 'b', 'c'),
      label: fc.string({ maxLength: 20 }),
      side: fc.constantFrom('pc' as const, 'npc' as const),
      spans: fc.array(span, { maxLength: 3 }),
      markers: fc.array(marker, { maxLength: 3 }),
    });
    const timeline: fc.Arbitrary<Timeline> = fc.record({
      axis: fc.constant<Timeline['axis']>({ unit: 'Mark', from: 30, to: 1 }),
      rounds: fc.constantFrom<number[]>([1], [1, 2]),
      now: fc.option(fc.record({ round: fc.constantFrom(1, 2), at: fc.integer({ min: 1, max: 30 }) }), {
        nil: null,
      }),
      lanes: fc.uniqueArray(lane, { selector: (l) => l.id, maxLength: 3 }),
    });
    fc.assert(
      fc.property(timeline, timeline, fc.constantFrom(null, 'a', 'b'), (x, y, highlight) => {
        const a = timelinePieces(x, { highlight });
        const b = timelinePieces(y, { highlight });
        const byKey = new Map(b.pieces.map((p) => [p.key, p]));
        for (const p of a.pieces) {
          const q = byKey.get(p.key);
          if (q) expect(sameEls(p.els, q.els)).toBe(pieceMarkup(p) === pieceMarkup(q));
        }
      }),
      { numRuns: 300 },
    );
  });
});
