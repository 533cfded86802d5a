// The timeline picture as a standalone SVG document (inline styles, no external CSS), so the tracker,
// the table view and the "export as SVG/PNG" buttons all use the same drawing. Pure: Timeline in,
// markup out. Positions follow the ruleset's axis in reading order (Marks 30→1, seconds 1–6, tempo 0–9,
// turn slots 1..N); one block per round, one row per lane, PCs marked blue and NPCs red.

import { roundLabel, type Timeline, type TimelineLane } from '@roundkeeper/engine';
import {
  axisPositions,
  el,
  escapeXml,
  HEAD_H,
  LABEL_W,
  laneTag,
  markerShape,
  PAD,
  pieceMarkup,
  ROUND_GAP,
  ROW_H,
  SPAN_COLORS,
  type SvgEl,
  shorten,
  spanShape,
  type TimelinePiece,
  type TimelineSvgOptions,
} from './svg-shapes.js';

export {
  axisPositions,
  escapeXml,
  labelStart,
  MARKER_STYLE,
  markupOf,
  pieceMarkup,
  SPAN_COLORS,
  type SvgEl,
  sameEls,
  type TimelinePiece,
  type TimelineSvgOptions,
} from './svg-shapes.js';

export interface TimelinePieces {
  width: number;
  height: number;
  title: string;
  desc: string;
  pieces: TimelinePiece[];
}

const piece = (key: string, els: SvgEl[]): TimelinePiece => ({ key, els });

export function timelinePieces(t: Timeline, opts: TimelineSvgOptions = {}): TimelinePieces {
  const cols = axisPositions(t);
  // Few columns (a turn each) get room for "Goblin 1's turn"; many (30 Marks) stay at least 22 px.
  const cell = Math.max(22, Math.min(160, Math.floor(760 / Math.max(1, cols.length))));
  const rounds = opts.maxRounds ? t.rounds.slice(-opts.maxRounds) : t.rounds;
  const lanes = t.lanes;
  const width = Math.max(700, PAD * 2 + LABEL_W + cols.length * cell);
  const blockH = HEAD_H + Math.max(1, lanes.length) * ROW_H + 8;
  // The legend wraps into rows within the picture (none where the page shows it as a list of its own).
  const legendH = opts.legend === false ? 0 : 26 + (legendRows(width - PAD * 2).length - 1) * LEGEND_ROW;
  const height = PAD * 2 + rounds.length * (blockH + ROUND_GAP) + legendH;
  const index = new Map(cols.map((c, i) => [c, i]));
  const x = (pos: number): number => {
    const i = index.get(pos);
    return (
      PAD +
      LABEL_W +
      (i === undefined ? (pos < Math.min(t.axis.from, t.axis.to) ? 0 : cols.length) : i) * cell
    );
  };
  const pieces: TimelinePiece[] = [piece('bg', [el('rect', { width, height, fill: '#111827', rx: 8 })])];
  let y = PAD;
  // Pieces are keyed by their block's place, not by its round: when a round begins, each block is drawn
  // again in place (what changed in it), not taken out and built anew.
  for (const [block, round] of rounds.entries()) {
    const current = t.now?.round === round;
    const head: SvgEl[] = [
      el(
        'text',
        { x: PAD + 2, y: y + 15, 'font-size': 13, 'font-weight': 700, fill: current ? '#f2c14e' : '#c7cfdd' },
        `${roundLabel(t, round)}${current ? ' · now' : ''}`,
      ),
    ];
    cols.forEach((c, i) => {
      const label = t.axis.labels?.[c];
      const text = label ? shorten(label, Math.max(2, Math.floor(cell / 7))) : String(c);
      head.push(
        el(
          'text',
          {
            x: PAD + LABEL_W + i * cell + cell / 2,
            y: y + 15,
            'font-size': 11,
            'text-anchor': 'middle',
            fill: '#9aa3b5',
          },
          text,
        ),
      );
    });
    const top = y + HEAD_H;
    // Column bands and grid lines.
    cols.forEach((_, i) => {
      if (i % 2 === 0)
        head.push(
          el('rect', {
            x: PAD + LABEL_W + i * cell,
            y: top,
            width: cell,
            height: lanes.length * ROW_H,
            fill: '#ffffff',
            'fill-opacity': '0.03',
          }),
        );
    });
    pieces.push(piece(`b${block}-head`, head));
    lanes.forEach((lane: TimelineLane, li) => {
      const ly = top + li * ROW_H;
      const hl = opts.highlight === lane.id;
      const parts: SvgEl[] = [];
      if (hl)
        parts.push(
          el('rect', {
            class: 'highlight',
            x: PAD,
            y: ly,
            width: width - 2 * PAD,
            height: ROW_H,
            fill: '#f2c14e',
            'fill-opacity': '0.12',
          }),
        );
      parts.push(
        el('rect', {
          x: PAD,
          y: ly + 4,
          width: 4,
          height: ROW_H - 8,
          fill: laneTag(lane).color,
        }),
        el(
          'text',
          {
            x: PAD + 10,
            y: ly + ROW_H / 2 + 4,
            'font-size': 12,
            fill: '#e8ecf4',
            ...(hl ? { 'font-weight': 700 } : {}),
          },
          shorten(lane.label, 17),
          el('title', {}, `${lane.label} (${laneTag(lane).kind})`),
        ),
        el('line', { x1: PAD, x2: width - PAD, y1: ly + ROW_H, y2: ly + ROW_H, stroke: '#263044' }),
      );
      const markers = lane.markers.filter((m) => m.round === round);
      const centres = markers.map((m) => x(m.at) + cell / 2);
      for (const s of lane.spans) {
        if (s.round !== round) continue;
        const a = Math.min(x(s.from), x(s.to));
        const b = Math.max(x(s.from), x(s.to)) + cell;
        parts.push(spanShape(s, a + 2, b - 2, ly + 4, centres));
      }
      markers.forEach((m, i) => {
        parts.push(markerShape(m, centres[i]!, ly + ROW_H / 2));
      });
      pieces.push(
        piece(`b${block}-lane-${lane.id}`, [
          el('g', { class: `lane lane-${laneTag(lane).cls}`, 'data-lane': lane.id }, ...parts),
        ]),
      );
    });
    if (current && t.now) {
      const nx = x(t.now.at) + cell / 2;
      pieces.push(
        piece(`b${block}-now`, [
          el(
            'g',
            { class: 'now' },
            el('title', {}, `now: ${t.axis.unit} ${t.now.at}`),
            el('line', {
              x1: nx,
              x2: nx,
              y1: top - 4,
              y2: top + lanes.length * ROW_H + 4,
              stroke: '#f2c14e',
              'stroke-width': 2,
            }),
            el('path', { d: `M${nx - 5} ${top - 8}H${nx + 5}L${nx} ${top - 2}Z`, fill: '#f2c14e' }),
          ),
        ]),
      );
    }
    y += blockH + ROUND_GAP;
  }
  if (opts.legend !== false) pieces.push(legend(PAD, y + 14, width - PAD * 2));
  return {
    width,
    height,
    title: opts.title ?? `Timeline in ${t.axis.unit}s`,
    desc: describeTimeline(t),
    pieces,
  };
}

/** The attributes of the picture's root element (shared by the standalone file and the tracker). */
export const SVG_FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';

/** Builds the SVG markup of a timeline: a standalone document, as exported. */
export function timelineSvg(t: Timeline, opts: TimelineSvgOptions = {}): string {
  return piecesSvg(timelinePieces(t, opts));
}

/** Joins the pieces into one standalone SVG document. */
export function piecesSvg(p: TimelinePieces): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${p.width} ${p.height}" width="${p.width}" height="${p.height}" role="img" aria-labelledby="tl-title tl-desc" font-family="${SVG_FONT}">`,
    `<title id="tl-title">${escapeXml(p.title)}</title>`,
    `<desc id="tl-desc">${escapeXml(p.desc)}</desc>`,
    ...p.pieces.map(pieceMarkup),
    '</svg>',
  ].join('');
}

/**
 * The legend's entries: a swatch drawn in a 14×12 box at the origin, and its words. The picture lays them
 * out in rows within its width (`legendAt`); the page shows them as a list that wraps (`timeline/Legend.tsx`).
 */
export const LEGEND: readonly { label: string; swatch: SvgEl }[] = [
  ...(
    [
      ['action', 'action'],
      ['move', 'move'],
      ['spell', 'spell / carry-over'],
      ['delay', 'delay'],
    ] as const
  ).map(([kind, label]) => ({
    label,
    swatch: el('rect', { x: 0, y: 1, width: 14, height: 10, rx: 2, fill: SPAN_COLORS[kind]! }),
  })),
  {
    label: 'planned',
    swatch: el('rect', {
      x: 0,
      y: 1,
      width: 14,
      height: 10,
      rx: 2,
      fill: '#9aa8c0',
      'fill-opacity': '0.18',
      stroke: '#9aa8c0',
      'stroke-dasharray': '3 2',
    }),
  },
  ...(
    [
      ['attack', 'attack'],
      ['resolve', 'resolves'],
      ['effect', 'effect'],
      ['expire', 'expires'],
      ['turn', 'turn'],
    ] as const
  ).map(([kind, label]) => ({
    label,
    swatch: untitled(markerShape({ round: 0, at: 0, kind, label }, 6, 6)),
  })),
];

/** A marker's shape without its title ("attack: attack"): the legend's words say it. */
function untitled(e: SvgEl): SvgEl {
  return { ...e, children: (e.children ?? []).filter((c) => typeof c === 'string' || c.tag !== 'title') };
}

/** A legend row's height, and the room an entry takes: its swatch, its words (11 px text), a gap. */
const LEGEND_ROW = 16;
const legendEntryW = (label: string) => 18 + Math.round(label.length * 6.2) + 14;

/** The legend's rows within `width` (each entry whole on one row, as many per row as fit). */
function legendRows(width: number): { label: string; swatch: SvgEl; x: number }[][] {
  const rows: { label: string; swatch: SvgEl; x: number }[][] = [[]];
  let x = 0;
  for (const e of LEGEND) {
    const w = legendEntryW(e.label);
    if (x > 0 && x + w - 14 > width) {
      rows.push([]);
      x = 0;
    }
    rows[rows.length - 1]!.push({ ...e, x });
    x += w;
  }
  return rows;
}

/** The legend by its position and width: the same on every redraw, built once. */
const legends = new Map<string, TimelinePiece>();

function legend(x0: number, y: number, width: number): TimelinePiece {
  const key = `${x0},${y},${width}`;
  let drawn = legends.get(key);
  if (drawn === undefined) {
    drawn = piece('legend', [legendAt(x0, y, width)]);
    if (legends.size > 64) legends.clear();
    legends.set(key, drawn);
  }
  return drawn;
}

/** The legend from its first row's baseline `y`, wrapped within `width` (a narrow picture's is never cut). */
function legendAt(x0: number, y: number, width: number): SvgEl {
  const out: SvgEl[] = [];
  for (const [i, row] of legendRows(width).entries()) {
    const base = y + i * LEGEND_ROW;
    for (const e of row) {
      out.push(
        el('g', { transform: `translate(${x0 + e.x} ${base - 10})` }, e.swatch),
        el('text', { x: x0 + e.x + 18, y: base }, e.label),
      );
    }
  }
  return el('g', { class: 'legend', 'font-size': 11, fill: '#c7cfdd' }, ...out);
}

/** A sentence for screen readers: what the picture shows. */
export function describeTimeline(t: Timeline): string {
  const parts = [`${t.lanes.length} lanes on a ${t.axis.unit} axis from ${t.axis.from} to ${t.axis.to}`];
  if (t.now)
    parts.push(
      t.roundLabels?.[t.now.round] !== undefined
        ? `now: ${t.axis.unit} ${t.now.at}`
        : `now: round ${t.now.round}, ${t.axis.unit} ${t.now.at}`,
    );
  for (const lane of t.lanes) {
    // The first six of the lane's spans and markers: only those are worded (a lane holds the whole fight).
    const spans = lane.spans.slice(0, 6);
    const items = [
      ...spans.map((s) => `${s.label} ${s.from}–${s.to}${s.planned ? ' (planned)' : ''}`),
      ...lane.markers.slice(0, 6 - spans.length).map((m) => `${m.kind} at ${m.at}: ${m.label}`),
    ];
    if (items.length) parts.push(`${lane.label}: ${items.join('; ')}`);
  }
  return `${parts.join('. ')}.`;
}
