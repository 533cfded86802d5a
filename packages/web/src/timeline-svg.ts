import {
  roundLabel,
  type Timeline,
  type TimelineLane,
  type TimelineMarker,
  type TimelineSpan,
} from '@roundkeeper/engine';

/**
 * The timeline picture as a standalone SVG document (inline styles, no external CSS), so the tracker,
 * the table view and the "export as SVG/PNG" buttons all use the same drawing. Pure: Timeline in,
 * markup out. Positions follow the ruleset's axis in reading order (Marks 30→1, seconds 1–6, tempo 0–9,
 * turn slots 1..N); one block per round, one row per lane, PCs marked blue and NPCs red.
 */
export interface TimelineSvgOptions {
  /** Only the last N rounds of the model (the current one and what carries over). Default: all. */
  maxRounds?: number;
  /** Highlight one lane (the selected combatant). */
  highlight?: string | null;
  /** Title read by screen readers and shown in exported files. */
  title?: string;
}

export const SPAN_COLORS: Record<string, string> = {
  action: '#4f8fe0',
  attack: '#e0683c',
  move: '#3cb98a',
  spell: '#a66ee6',
  cast: '#a66ee6',
  carry: '#a66ee6',
  busy: '#8a93a6',
  delay: '#d9b44a',
  turn: '#5a6b8c',
  plan: '#9aa8c0',
  reaction: '#e0a526',
};

export const MARKER_STYLE: Record<
  string,
  { color: string; shape: 'x' | 'star' | 'plus' | 'bar' | 'tri' | 'dot' }
> = {
  attack: { color: '#ff7a59', shape: 'x' },
  resolve: { color: '#c99bff', shape: 'star' },
  effect: { color: '#56d6a0', shape: 'plus' },
  expire: { color: '#f2c14e', shape: 'bar' },
  forfeit: { color: '#9aa3b5', shape: 'bar' },
  turn: { color: '#e8ecf4', shape: 'tri' },
  reaction: { color: '#e0a526', shape: 'dot' },
};

const LABEL_W = 132;
const ROW_H = 26;
const HEAD_H = 22;
const ROUND_GAP = 14;
const PAD = 10;
/** Half the width of a marker: its shapes reach 6–7 px either side of its centre. */
const MARKER_R = 7;
/** About how wide a character of a span's label is (11 px, semibold). */
const CHAR_W = 6.6;

export function escapeXml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`,
  );
}

export function axisPositions(t: Timeline): number[] {
  const out: number[] = [];
  const step = t.axis.to >= t.axis.from ? 1 : -1;
  for (let p = t.axis.from; step > 0 ? p <= t.axis.to : p >= t.axis.to; p += step) out.push(p);
  return out;
}

function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, Math.max(1, max - 1))}…` : s;
}

/**
 * One element of the picture: its tag, its attributes in the order they are written, its children (elements
 * or text). The same elements are written out as markup (the exported file) and rendered by the tracker,
 * which then changes only the attributes and texts that differ from the last drawing.
 */
export interface SvgEl {
  tag: string;
  attrs: Readonly<Record<string, string | number>>;
  children?: readonly (SvgEl | string)[];
}

const el = (tag: string, attrs: Record<string, string | number>, ...children: (SvgEl | string)[]): SvgEl =>
  children.length ? { tag, attrs, children } : { tag, attrs };

/** An element as markup: every attribute value and text escaped. */
export function markupOf(e: SvgEl | string): string {
  if (typeof e === 'string') return escapeXml(e);
  let out = `<${e.tag}`;
  for (const k in e.attrs) out += ` ${k}="${escapeXml(String(e.attrs[k]))}"`;
  if (!e.children?.length) return `${out}/>`;
  out += '>';
  for (const c of e.children) out += markupOf(c);
  return `${out}</${e.tag}>`;
}

function markerShape(m: TimelineMarker, cx: number, cy: number): SvgEl {
  const style = MARKER_STYLE[m.kind] ?? { color: '#e8ecf4', shape: 'dot' as const };
  const c = style.color;
  const attrs: Record<string, string | number> = { class: `marker marker-${m.kind}` };
  if (m.planned) attrs.opacity = '0.55';
  const title = el('title', {}, `${m.kind}: ${m.label}${m.planned ? ' (planned)' : ''}`);
  const r = MARKER_R - 1;
  switch (style.shape) {
    case 'x':
      return el(
        'g',
        attrs,
        title,
        el('path', {
          d: `M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx + r} ${cy - r}L${cx - r} ${cy + r}`,
          stroke: c,
          'stroke-width': 3,
          'stroke-linecap': 'round',
        }),
      );
    case 'star':
      return el(
        'g',
        attrs,
        title,
        el('path', {
          d: `M${cx} ${cy - r - 1}L${cx + 2} ${cy - 2}L${cx + r + 1} ${cy}L${cx + 2} ${cy + 2}L${cx} ${cy + r + 1}L${cx - 2} ${cy + 2}L${cx - r - 1} ${cy}L${cx - 2} ${cy - 2}Z`,
          fill: c,
          stroke: '#111827',
          'stroke-width': 1,
        }),
      );
    case 'plus':
      return el(
        'g',
        attrs,
        title,
        el('path', {
          d: `M${cx - r} ${cy}H${cx + r}M${cx} ${cy - r}V${cy + r}`,
          stroke: c,
          'stroke-width': 3,
          'stroke-linecap': 'round',
        }),
      );
    case 'bar':
      return el(
        'g',
        attrs,
        title,
        el('rect', { x: cx - 2, y: cy - r - 2, width: 4, height: 2 * r + 4, rx: 1, fill: c }),
      );
    case 'tri':
      return el(
        'g',
        attrs,
        title,
        el('path', {
          d: `M${cx - 5} ${cy - r}L${cx + 6} ${cy}L${cx - 5} ${cy + r}Z`,
          fill: c,
          stroke: '#111827',
          'stroke-width': 1,
        }),
      );
    default:
      return el('g', attrs, title, el('circle', { cx, cy, r: r - 1, fill: c }));
  }
}

/** How many characters of a span's label fit between `from` and the span's end `x2`. */
function labelChars(from: number, x2: number): number {
  return Math.floor((x2 - from + 5) / CHAR_W);
}

/**
 * Where a span's label starts: after each marker of its lane that its letters would run under (the turn
 * that begins the action, a hit at its start), so no marker covers them. A marker past the label's end
 * leaves it where it is.
 */
export function labelStart(x1: number, x2: number, length: number, markers: readonly number[]): number {
  let at = x1 + 5;
  for (const cx of [...markers].sort((a, b) => a - b)) {
    if (cx + MARKER_R < at - 1 || cx > x2) continue;
    if (cx - MARKER_R > at + Math.min(length, labelChars(at, x2)) * CHAR_W) break;
    at = cx + MARKER_R + 3;
  }
  return at;
}

function spanShape(s: TimelineSpan, x1: number, x2: number, y: number, markers: readonly number[]): SvgEl {
  const color = SPAN_COLORS[s.kind] ?? '#4f8fe0';
  const w = Math.max(6, x2 - x1);
  const h = ROW_H - 8;
  const fill: Record<string, string | number> = s.planned
    ? { fill: color, 'fill-opacity': '0.18', stroke: color, 'stroke-dasharray': '4 3' }
    : { fill: color };
  const from = labelStart(x1, x2, s.label.length, markers);
  const chars = labelChars(from, x2);
  const box = el('rect', { x: x1, y, width: w, height: h, rx: 4, ...fill });
  const title = el('title', {}, `${s.label} (${s.kind}${s.planned ? ', planned' : ''}): ${s.from}–${s.to}`);
  const cls = { class: `span span-${s.kind}${s.planned ? ' planned' : ''}` };
  if (chars < 3) return el('g', cls, title, box);
  const text = el(
    'text',
    {
      x: from,
      y: y + h / 2 + 4.5,
      'font-size': 11,
      fill: s.planned ? '#e8ecf4' : '#0b1020',
      'font-weight': 600,
    },
    shorten(s.label, chars),
  );
  return el('g', cls, title, box, text);
}

/**
 * The picture in independent pieces: the background, each round's header, each round's lanes one by one,
 * each round's "now" line and the legend. `timelineSvg` joins them into one document; the tracker renders
 * them one by one (keyed), so a change redraws only the pieces that changed — the lane that moved and the
 * one (de)selected — and in those only the attributes and texts that changed.
 */
export interface TimelinePiece {
  key: string;
  /** The piece's elements, in drawing order. */
  els: readonly SvgEl[];
}

/** A piece as markup, as the exported file holds it. */
export function pieceMarkup(p: TimelinePiece): string {
  let out = '';
  for (const e of p.els) out += markupOf(e);
  return out;
}

/** Whether two drawings are the same elements with the same attributes and texts, in the same order. */
export function sameEls(a: readonly (SvgEl | string)[], b: readonly (SvgEl | string)[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'string' || typeof y === 'string' || x.tag !== y.tag) return false;
    let n = 0;
    for (const k in x.attrs) {
      if (x.attrs[k] !== y.attrs[k]) return false;
      n++;
    }
    for (const _ in y.attrs) n--;
    if (n !== 0) return false;
    if (!sameEls(x.children ?? [], y.children ?? [])) return false;
  }
  return true;
}

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
  const legendH = 26;
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
          fill: lane.side === 'pc' ? '#5b9cff' : '#ff6b6b',
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
          el('title', {}, `${lane.label} (${lane.side === 'pc' ? 'PC' : 'NPC'})`),
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
          el('g', { class: `lane lane-${lane.side}`, 'data-lane': lane.id }, ...parts),
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
  pieces.push(legend(PAD, height - PAD - 12));
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

/** The legend by its position: the same on every redraw, built once. */
const legends = new Map<string, TimelinePiece>();

function legend(x0: number, y: number): TimelinePiece {
  const key = `${x0},${y}`;
  let drawn = legends.get(key);
  if (drawn === undefined) {
    drawn = piece('legend', [legendAt(x0, y)]);
    if (legends.size > 64) legends.clear();
    legends.set(key, drawn);
  }
  return drawn;
}

function legendAt(x0: number, y: number): SvgEl {
  const items: [string, string][] = [
    ['action', 'action'],
    ['move', 'move'],
    ['spell', 'spell / carry-over'],
    ['delay', 'delay'],
  ];
  let x = x0;
  const out: SvgEl[] = [];
  for (const [kind, label] of items) {
    out.push(
      el('rect', { x, y: y - 9, width: 14, height: 10, rx: 2, fill: SPAN_COLORS[kind]! }),
      el('text', { x: x + 18, y }, label),
    );
    x += 32 + Math.round(label.length * 6.2);
  }
  out.push(
    el('rect', {
      x,
      y: y - 9,
      width: 14,
      height: 10,
      rx: 2,
      fill: '#9aa8c0',
      'fill-opacity': '0.18',
      stroke: '#9aa8c0',
      'stroke-dasharray': '3 2',
    }),
    el('text', { x: x + 18, y }, 'planned'),
  );
  x += 80;
  for (const [kind, label] of [
    ['attack', 'attack'],
    ['resolve', 'resolves'],
    ['effect', 'effect'],
    ['expire', 'expires'],
    ['turn', 'turn'],
  ] as const) {
    out.push(
      markerShape({ round: 0, at: 0, kind, label }, x + 6, y - 4),
      el('text', { x: x + 16, y }, label),
    );
    x += 28 + label.length * 6;
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
