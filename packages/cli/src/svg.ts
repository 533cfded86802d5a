import { escapeXml } from '@roundkeeper/engine';
/** One bar of a chart; `low`/`high` draw a confidence interval whisker. */
export interface Bar {
  label: string;
  value: number;
  low?: number;
  high?: number;
}

export interface Panel {
  title: string;
  bars: Bar[];
  /** The axis' top; default: the largest value or whisker. */
  max?: number;
}

const esc = escapeXml;
const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/**
 * A self-contained SVG of bar-chart panels stacked vertically (distributions, shares with their
 * confidence intervals). Hand-written: no dependency, opens in any browser.
 */
export function barChartSvg(title: string, panels: readonly Panel[]): string {
  const width = 720;
  const panelHeight = 170;
  const top = 40;
  const left = 60;
  const plotWidth = width - left - 20;
  const plotHeight = 110;
  const height = top + panels.length * panelHeight + 10;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`,
  ];
  panels.forEach((panel, pi) => {
    const y0 = top + pi * panelHeight + 18;
    const max =
      panel.max ??
      Math.max(
        Number.MIN_VALUE,
        ...panel.bars.map((b) => Math.max(b.value, b.high ?? 0)).filter(Number.isFinite),
      );
    const n = Math.max(1, panel.bars.length);
    const slot = plotWidth / n;
    const barWidth = Math.max(1, slot * 0.8);
    const y = (v: number) => y0 + plotHeight - (Math.max(0, Math.min(v, max)) / max) * plotHeight;
    out.push(`<text x="${left}" y="${y0 - 6}" font-size="12" font-weight="bold">${esc(panel.title)}</text>`);
    out.push(
      `<line x1="${left}" y1="${y0 + plotHeight}" x2="${left + plotWidth}" y2="${y0 + plotHeight}" stroke="#333"/>`,
      `<line x1="${left}" y1="${y0}" x2="${left}" y2="${y0 + plotHeight}" stroke="#333"/>`,
      `<text x="${left - 4}" y="${y0 + 4}" text-anchor="end">${esc(max < 1 ? max.toFixed(3) : num(max))}</text>`,
      `<text x="${left - 4}" y="${y0 + plotHeight}" text-anchor="end">0</text>`,
    );
    const labelEvery = Math.max(1, Math.ceil(n / 24));
    panel.bars.forEach((b, i) => {
      const x = left + i * slot + (slot - barWidth) / 2;
      const yTop = y(b.value);
      out.push(
        `<rect x="${x.toFixed(1)}" y="${yTop.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(y0 + plotHeight - yTop).toFixed(1)}" fill="#4a78b0"><title>${esc(`${b.label}: ${b.value.toPrecision(4)}`)}</title></rect>`,
      );
      if (b.low !== undefined && b.high !== undefined) {
        const cx = x + barWidth / 2;
        out.push(
          `<line x1="${cx.toFixed(1)}" y1="${y(b.low).toFixed(1)}" x2="${cx.toFixed(1)}" y2="${y(b.high).toFixed(1)}" stroke="#b04a4a" stroke-width="2"/>`,
        );
      }
      if (i % labelEvery === 0) {
        out.push(
          `<text x="${(x + barWidth / 2).toFixed(1)}" y="${y0 + plotHeight + 13}" text-anchor="middle">${esc(b.label)}</text>`,
        );
      }
    });
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
