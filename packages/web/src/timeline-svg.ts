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

function markerShape(m: TimelineMarker, cx: number, cy: number): string {
  const style = MARKER_STYLE[m.kind] ?? { color: '#e8ecf4', shape: 'dot' as const };
  const c = style.color;
  const op = m.planned ? ' opacity="0.55"' : '';
  const title = `<title>${escapeXml(`${m.kind}: ${m.label}${m.planned ? ' (planned)' : ''}`)}</title>`;
  const r = 6;
  switch (style.shape) {
    case 'x':
      return `<g class="marker marker-${m.kind}"${op}>${title}<path d="M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx + r} ${cy - r}L${cx - r} ${cy + r}" stroke="${c}" stroke-width="3" stroke-linecap="round"/></g>`;
    case 'star':
      return `<g class="marker marker-${m.kind}"${op}>${title}<path d="M${cx} ${cy - r - 1}L${cx + 2} ${cy - 2}L${cx + r + 1} ${cy}L${cx + 2} ${cy + 2}L${cx} ${cy + r + 1}L${cx - 2} ${cy + 2}L${cx - r - 1} ${cy}L${cx - 2} ${cy - 2}Z" fill="${c}" stroke="#111827" stroke-width="1"/></g>`;
    case 'plus':
      return `<g class="marker marker-${m.kind}"${op}>${title}<path d="M${cx - r} ${cy}H${cx + r}M${cx} ${cy - r}V${cy + r}" stroke="${c}" stroke-width="3" stroke-linecap="round"/></g>`;
    case 'bar':
      return `<g class="marker marker-${m.kind}"${op}>${title}<rect x="${cx - 2}" y="${cy - r - 2}" width="4" height="${2 * r + 4}" rx="1" fill="${c}"/></g>`;
    case 'tri':
      return `<g class="marker marker-${m.kind}"${op}>${title}<path d="M${cx - 5} ${cy - r}L${cx + 6} ${cy}L${cx - 5} ${cy + r}Z" fill="${c}" stroke="#111827" stroke-width="1"/></g>`;
    default:
      return `<g class="marker marker-${m.kind}"${op}>${title}<circle cx="${cx}" cy="${cy}" r="${r - 1}" fill="${c}"/></g>`;
  }
}

function spanShape(s: TimelineSpan, x1: number, x2: number, y: number): string {
  const color = SPAN_COLORS[s.kind] ?? '#4f8fe0';
  const w = Math.max(6, x2 - x1);
  const h = ROW_H - 8;
  const fill = s.planned
    ? `fill="${color}" fill-opacity="0.18" stroke="${color}" stroke-dasharray="4 3"`
    : `fill="${color}"`;
  const chars = Math.floor(w / 6.6);
  const text =
    chars >= 3
      ? `<text x="${x1 + 5}" y="${y + h / 2 + 4.5}" font-size="11" fill="${s.planned ? '#e8ecf4' : '#0b1020'}" font-weight="600">${escapeXml(shorten(s.label, chars))}</text>`
      : '';
  return `<g class="span span-${escapeXml(s.kind)}${s.planned ? ' planned' : ''}"><title>${escapeXml(`${s.label} (${s.kind}${s.planned ? ', planned' : ''}): ${s.from}–${s.to}`)}</title><rect x="${x1}" y="${y}" width="${w}" height="${h}" rx="4" ${fill}/>${text}</g>`;
}

/**
 * The picture in independent pieces: the background, each round's header, each round's lanes one by one,
 * each round's "now" line and the legend. `timelineSvg` joins them into one document; the tracker renders
 * them one by one (keyed), so a change redraws only the pieces whose markup changed — the lane that moved
 * and the one (de)selected — instead of the whole picture.
 */
export interface TimelinePieces {
  width: number;
  height: number;
  title: string;
  desc: string;
  pieces: { key: string; markup: string }[];
}

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
  const pieces: { key: string; markup: string }[] = [
    { key: 'bg', markup: `<rect width="${width}" height="${height}" fill="#111827" rx="8"/>` },
  ];
  let y = PAD;
  for (const round of rounds) {
    const current = t.now?.round === round;
    const head: string[] = [
      `<text x="${PAD + 2}" y="${y + 15}" font-size="13" font-weight="700" fill="${current ? '#f2c14e' : '#c7cfdd'}">${escapeXml(roundLabel(t, round))}${current ? ' · now' : ''}</text>`,
    ];
    cols.forEach((c, i) => {
      const label = t.axis.labels?.[c];
      const text = label ? shorten(label, Math.max(2, Math.floor(cell / 7))) : String(c);
      head.push(
        `<text x="${PAD + LABEL_W + i * cell + cell / 2}" y="${y + 15}" font-size="11" text-anchor="middle" fill="#9aa3b5">${escapeXml(text)}</text>`,
      );
    });
    const top = y + HEAD_H;
    // Column bands and grid lines.
    cols.forEach((_, i) => {
      if (i % 2 === 0)
        head.push(
          `<rect x="${PAD + LABEL_W + i * cell}" y="${top}" width="${cell}" height="${lanes.length * ROW_H}" fill="#ffffff" fill-opacity="0.03"/>`,
        );
    });
    pieces.push({ key: `r${round}-head`, markup: head.join('') });
    lanes.forEach((lane: TimelineLane, li) => {
      const ly = top + li * ROW_H;
      const hl = opts.highlight === lane.id;
      const parts: string[] = [
        `<g class="lane lane-${lane.side}" data-lane="${escapeXml(lane.id)}">`,
        hl
          ? `<rect x="${PAD}" y="${ly}" width="${width - 2 * PAD}" height="${ROW_H}" fill="#f2c14e" fill-opacity="0.12"/>`
          : '',
        `<rect x="${PAD}" y="${ly + 4}" width="4" height="${ROW_H - 8}" fill="${lane.side === 'pc' ? '#5b9cff' : '#ff6b6b'}"/>`,
        `<text x="${PAD + 10}" y="${ly + ROW_H / 2 + 4}" font-size="12" fill="#e8ecf4"${hl ? ' font-weight="700"' : ''}>${escapeXml(shorten(lane.label, 17))}<title>${escapeXml(`${lane.label} (${lane.side === 'pc' ? 'PC' : 'NPC'})`)}</title></text>`,
        `<line x1="${PAD}" x2="${width - PAD}" y1="${ly + ROW_H}" y2="${ly + ROW_H}" stroke="#263044"/>`,
      ];
      for (const s of lane.spans) {
        if (s.round !== round) continue;
        const a = Math.min(x(s.from), x(s.to));
        const b = Math.max(x(s.from), x(s.to)) + cell;
        parts.push(spanShape(s, a + 2, b - 2, ly + 4));
      }
      for (const m of lane.markers) {
        if (m.round === round) parts.push(markerShape(m, x(m.at) + cell / 2, ly + ROW_H / 2));
      }
      parts.push('</g>');
      pieces.push({ key: `r${round}-lane-${lane.id}`, markup: parts.join('') });
    });
    if (current && t.now) {
      const nx = x(t.now.at) + cell / 2;
      pieces.push({
        key: `r${round}-now`,
        markup: `<g class="now"><title>now: ${escapeXml(`${t.axis.unit} ${t.now.at}`)}</title><line x1="${nx}" x2="${nx}" y1="${top - 4}" y2="${top + lanes.length * ROW_H + 4}" stroke="#f2c14e" stroke-width="2"/><path d="M${nx - 5} ${top - 8}H${nx + 5}L${nx} ${top - 2}Z" fill="#f2c14e"/></g>`,
      });
    }
    y += blockH + ROUND_GAP;
  }
  pieces.push({ key: 'legend', markup: legend(PAD, height - PAD - 12) });
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
    ...p.pieces.map((x) => x.markup),
    '</svg>',
  ].join('');
}

/** The legend's markup by its position: the same on every redraw, built once. */
const legends = new Map<string, string>();

function legend(x0: number, y: number): string {
  const key = `${x0},${y}`;
  let markup = legends.get(key);
  if (markup === undefined) {
    markup = legendAt(x0, y);
    if (legends.size > 64) legends.clear();
    legends.set(key, markup);
  }
  return markup;
}

function legendAt(x0: number, y: number): string {
  const items: [string, string][] = [
    ['action', 'action'],
    ['move', 'move'],
    ['spell', 'spell / carry-over'],
    ['delay', 'delay'],
  ];
  let x = x0;
  const out: string[] = ['<g class="legend" font-size="11" fill="#c7cfdd">'];
  for (const [kind, label] of items) {
    out.push(
      `<rect x="${x}" y="${y - 9}" width="14" height="10" rx="2" fill="${SPAN_COLORS[kind]}"/><text x="${x + 18}" y="${y}">${label}</text>`,
    );
    x += 32 + Math.round(label.length * 6.2);
  }
  out.push(
    `<rect x="${x}" y="${y - 9}" width="14" height="10" rx="2" fill="#9aa8c0" fill-opacity="0.18" stroke="#9aa8c0" stroke-dasharray="3 2"/><text x="${x + 18}" y="${y}">planned</text>`,
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
      `<text x="${x + 16}" y="${y}">${label}</text>`,
    );
    x += 28 + label.length * 6;
  }
  out.push('</g>');
  return out.join('');
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
