import { escapeXml } from '@roundkeeper/engine';
import type { SimSummary } from './simulate-command.js';
import type { VaryResult } from './simulate-vary.js';
import { formatEstimate } from './stats.js';
import { barChartSvg, type Panel } from './svg.js';

/**
 * What `simulate` shows beyond its one-run table: the side-by-side comparison of `--vary`, its plot, and
 * `--report`, one self-contained HTML page (tables and the SVG plots inline) a designer can send on.
 */

/** A table: a heading, its header row and rows of cells. */
export interface Table {
  heading: string;
  rows: string[][];
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The figures that say something: those not 0 (or empty) under every value. */
function telling(r: VaryResult): VaryResult['figures'] {
  return r.figures.filter((f) => f.each.some((e) => Number.isFinite(e.mean) && e.mean !== 0));
}

export function varyTables(r: VaryResult, per: string): Table[] {
  const head = r.values.map((v) => `${r.key}=${show(v)}`);
  const diffs = r.values.slice(1).map((v) => `Δ ${show(v)} − ${show(r.values[0])}`);
  const rows = telling(r).map((f) => [
    f.name,
    ...f.each.map((e) => formatEstimate(e, 3)),
    ...f.diff.slice(1).map((d) => {
      const text = formatEstimate(d, 3);
      return d.mean > 0 ? `+${text}` : text;
    }),
  ]);
  return [
    {
      heading: `Per ${per} (questions: per ${per} or per trial), mean ± half-width of the 95% interval; Δ paired over the same trials`,
      rows: [['figure', ...head, ...diffs], ...rows],
    },
  ];
}

export function varyHeader(r: VaryResult, scenario: string, ruleset: string, seed: number): string {
  const trials = r.tallies[0]?.trials ?? 0;
  return `${scenario} — ${ruleset}: ${trials} trials for each of ${r.values.length} values of ${r.key} (${r.values.map(show).join(', ')}), seed ${seed}; common random numbers: trial i has the same seed under every value.`;
}

/** Tables as aligned text. */
export function textTables(tables: readonly Table[]): string {
  const out: string[] = [];
  for (const t of tables) {
    const widths = t.rows[0]!.map((_, i) => Math.max(...t.rows.map((r) => (r[i] ?? '').length)));
    out.push('', t.heading, '');
    for (const r of t.rows) {
      out.push(
        r
          .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
          .join('  ')
          .trimEnd(),
      );
    }
  }
  return out.join('\n');
}

/** One panel per telling figure: each value's estimate with its interval. */
export function varySvg(r: VaryResult, title: string): string {
  const panels: Panel[] = telling(r)
    .slice(0, 40)
    .map((f) => ({
      title: f.name,
      bars: f.each.map((e, k) => ({ label: show(r.values[k]), value: e.mean, low: e.low, high: e.high })),
    }));
  return barChartSvg(`${title}: varying ${r.key}`, panels);
}

/** A one-run summary as tables (the text output's, for the report). */
export function summaryTables(s: SimSummary): Table[] {
  const tables: Table[] = [
    {
      heading: `Per ${s.per}, mean ± half-width of the 95% confidence interval`,
      rows: [
        ['combatant', 'turns', 'actions', 'attacks', 'forfeited attacks', 'acts first', 'carry-over'],
        ...s.combatants.map((c) => [
          c.name,
          formatEstimate(c.turns, 2),
          formatEstimate(c.actions, 2),
          formatEstimate(c.attacks, 2),
          formatEstimate(c.forfeits, 2),
          formatEstimate(c.first, 3),
          formatEstimate(c.carry, 3),
        ]),
      ],
    },
  ];
  if (s.events.length) {
    tables.push({
      heading: 'Named events',
      rows: [
        ['event', `per ${s.per}`, 'per fight'],
        ...s.events.map((e) => [e.name, formatEstimate(e.perRound, 3), formatEstimate(e.perFight, 3)]),
      ],
    });
  }
  if (s.resources.length) {
    tables.push({
      heading: 'Resources',
      rows: [
        ['resource', `spent per ${s.per}`, 'runs out (per fight)', 'runs out first'],
        ...s.resources.map((r) => [
          `${r.combatant}: ${r.name}`,
          formatEstimate(r.spent, 3),
          formatEstimate(r.out, 3),
          formatEstimate(r.first, 3),
        ]),
      ],
    });
  }
  if (s.questions.length) {
    tables.push({
      heading: 'Questions',
      rows: [
        ['question', 'probability', 'per'],
        ...s.questions.map((q) => [q.name, formatEstimate(q.p, 4), q.per]),
      ],
    });
  }
  if (s.refusedRules.length) {
    tables.push({
      heading: 'Choices the rules refused',
      rows: [
        ['rule', 'refusal', 'times', 'the rules say'],
        ...s.refusedRules.map((r) => [r.rule, r.code, String(r.count), r.message]),
      ],
    });
  }
  return tables;
}

const esc = escapeXml;

/** One self-contained page: a title, lines of text, the tables and the SVG plots inline. */
export function reportHtml(
  title: string,
  lines: readonly string[],
  tables: readonly Table[],
  svgs: readonly string[],
): string {
  const table = (t: Table) =>
    [
      `<h2>${esc(t.heading)}</h2>`,
      '<table>',
      `<thead><tr>${t.rows[0]!.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead>`,
      '<tbody>',
      ...t.rows.slice(1).map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`),
      '</tbody></table>',
    ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f2f2f2; }
figure { margin: 1rem 0; }
</style>
</head>
<body>
<h1>${esc(title)}</h1>
${lines.map((l) => `<p>${esc(l)}</p>`).join('\n')}
${tables.map(table).join('\n')}
${svgs.map((s) => `<figure>${s}</figure>`).join('\n')}
</body>
</html>
`;
}
