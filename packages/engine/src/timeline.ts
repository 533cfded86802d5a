/**
 * The timeline model: what happened and what is scheduled, in the ruleset's clock units, derived from
 * state. The web draws it as SVG, the CLI as ASCII. Positions are on the ruleset's axis (Marks 30→1,
 * turn slots 1..N, tempo 0..9, seconds of a turn…), per round.
 */
export interface TimelineAxis {
  /** The unit's name as the rules say it: 'Mark', 'tempo', 'second', 'turn'. */
  unit: string;
  /** First and last position of a round, in reading order (30 and 1 for a countdown). */
  from: number;
  to: number;
  /** Labels for positions where the number alone is not clear (e.g. turn slots → names). */
  labels?: Record<number, string>;
}

export interface TimelineSpan {
  round: number;
  /** Inclusive positions on the axis, in reading order (from is read before to). */
  from: number;
  to: number;
  kind: string;
  label: string;
  /** Planned but not yet happened. */
  planned?: boolean;
}

export interface TimelineMarker {
  round: number;
  at: number;
  /** 'attack', 'resolve', 'effect', 'expire', 'forfeit', 'turn'… */
  kind: string;
  label: string;
  planned?: boolean;
}

export interface TimelineLane {
  id: string;
  label: string;
  side: 'pc' | 'npc';
  spans: TimelineSpan[];
  markers: TimelineMarker[];
}

export interface Timeline {
  axis: TimelineAxis;
  rounds: number[];
  /**
   * How a round's block is headed where "Round N" does not say it, by round: a clock without rounds
   * ("Ticks 3–43"). Default: "Round N".
   */
  roundLabels?: Record<number, string>;
  now: { round: number; at: number } | null;
  lanes: TimelineLane[];
}

const KIND_GLYPH: Record<string, string> = {
  action: '=',
  move: '~',
  spell: '*',
  cast: '*',
  busy: '-',
  carry: '*',
  delay: '.',
  turn: '#',
  plan: '?',
};

const MARKER_GLYPH: Record<string, string> = {
  attack: 'x',
  resolve: '!',
  effect: '+',
  expire: ')',
  forfeit: '_',
  turn: '>',
  reaction: 'r',
  timed: '@',
};

/** The heading of a round's block: the ruleset's label, or "Round N". */
export function roundLabel(t: Timeline, round: number): string {
  return t.roundLabels?.[round] ?? `Round ${round}`;
}

function positions(axis: TimelineAxis): number[] {
  const out: number[] = [];
  const step = axis.to >= axis.from ? 1 : -1;
  for (let p = axis.from; step > 0 ? p <= axis.to : p >= axis.to; p += step) out.push(p);
  return out;
}

/** Draws the timeline as monospace text: one block per round, one row per lane, one column per position. */
export function renderTimelineAscii(t: Timeline, opts: { width?: number } = {}): string {
  const cols = positions(t.axis);
  const cell = Math.max(2, ...cols.map((c) => String(c).length + 1));
  const labelWidth = Math.min(16, Math.max(4, ...t.lanes.map((l) => l.label.length)));
  const lines: string[] = [];
  for (const round of t.rounds) {
    lines.push(roundLabel(t, round));
    let header = `${' '.repeat(labelWidth)} |`;
    for (const c of cols)
      header += String(c)
        .padStart(cell - 1)
        .padEnd(cell);
    lines.push(header.trimEnd());
    for (const lane of t.lanes) {
      const row = cols.map(() => ' '.repeat(cell));
      const index = (p: number) => cols.indexOf(p);
      for (const s of lane.spans.filter((x) => x.round === round)) {
        const a = index(s.from);
        const b = index(s.to);
        if (a < 0 || b < 0) continue;
        const g = KIND_GLYPH[s.kind] ?? '=';
        for (let i = Math.min(a, b); i <= Math.max(a, b); i++) row[i] = (s.planned ? '.' : g).repeat(cell);
      }
      for (const m of lane.markers.filter((x) => x.round === round)) {
        const i = index(m.at);
        if (i < 0) continue;
        const g = MARKER_GLYPH[m.kind] ?? '^';
        row[i] = g.padStart(cell - 1).padEnd(cell, row[i]?.slice(-1) || ' ');
      }
      const name = lane.label.length > labelWidth ? `${lane.label.slice(0, labelWidth - 1)}…` : lane.label;
      lines.push(`${name.padEnd(labelWidth)} |${row.join('')}`.trimEnd());
    }
    if (t.now && t.now.round === round) {
      const i = cols.indexOf(t.now.at);
      if (i >= 0) lines.push(`${' '.repeat(labelWidth)} |${' '.repeat(i * cell + cell - 2)}^ now`);
    }
    lines.push('');
  }
  const legend =
    'legend: = action  ~ move  * spell  - busy  . planned/delay  x attack  ! resolves  + effect  ) expires  _ forfeited';
  lines.push(legend);
  const width = opts.width;
  return width ? lines.map((l) => l.slice(0, width)).join('\n') : lines.join('\n');
}
