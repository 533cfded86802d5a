import type { Timeline } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import {
  axisPositions,
  describeTimeline,
  escapeXml,
  piecesSvg,
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
    const changed = lit.pieces.filter((p, i) => p.markup !== plain.pieces[i]!.markup).map((p) => p.key);
    expect(changed).toEqual(['r1-lane-orc', 'r2-lane-orc']);
  });
});
