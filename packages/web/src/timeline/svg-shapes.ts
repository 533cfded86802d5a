import {
  escapeXml,
  TIMED_LANE,
  type Timeline,
  type TimelineLane,
  type TimelineMarker,
  type TimelineSpan,
} from '@roundkeeper/engine';

// The timeline picture's pieces: its measures and colours, the elements it is made of, and the shapes of a
// marker and a span (timeline-svg.ts lays them out).
export interface TimelineSvgOptions {
  /** Only the last N rounds of the model (the current one and what carries over). Default: all. */
  maxRounds?: number;
  /** Highlight one lane (the selected combatant). */
  highlight?: string | null;
  /** Title read by screen readers and shown in exported files. */
  title?: string;
  /** Draw the legend in the picture (the exported file); false where the page lists it apart. Default: true. */
  legend?: boolean;
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
  timed: { color: '#ff8fc7', shape: 'star' },
};

/**
 * A lane's stripe colour, what its label's title calls it and its class: PCs blue, NPCs red, and the row of
 * timed events in their markers' colour (it is nobody's row).
 */
export function laneTag(lane: Pick<TimelineLane, 'id' | 'side'>): {
  color: string;
  kind: string;
  cls: string;
} {
  if (lane.id === TIMED_LANE) return { color: MARKER_STYLE.timed!.color, kind: 'on the clock', cls: 'timed' };
  return lane.side === 'pc'
    ? { color: '#5b9cff', kind: 'PC', cls: 'pc' }
    : { color: '#ff6b6b', kind: 'NPC', cls: 'npc' };
}

export const LABEL_W = 132;
export const ROW_H = 26;
export const HEAD_H = 22;
export const ROUND_GAP = 14;
export const PAD = 10;
/** Half the width of a marker: its shapes reach 6–7 px either side of its centre. */
export const MARKER_R = 7;
/** About how wide a character of a span's label is (11 px, semibold). */
export const CHAR_W = 6.6;

/** The one XML escaping of every picture Roundkeeper writes (the engine's), here for the timeline's callers. */
export { escapeXml };

export function axisPositions(t: Timeline): number[] {
  const out: number[] = [];
  const step = t.axis.to >= t.axis.from ? 1 : -1;
  for (let p = t.axis.from; step > 0 ? p <= t.axis.to : p >= t.axis.to; p += step) out.push(p);
  return out;
}

export function shorten(s: string, max: number): string {
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

export const el = (
  tag: string,
  attrs: Record<string, string | number>,
  ...children: (SvgEl | string)[]
): SvgEl => (children.length ? { tag, attrs, children } : { tag, attrs });

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

export function markerShape(m: TimelineMarker, cx: number, cy: number): SvgEl {
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
export function labelChars(from: number, x2: number): number {
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

export function spanShape(
  s: TimelineSpan,
  x1: number,
  x2: number,
  y: number,
  markers: readonly number[],
): SvgEl {
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
