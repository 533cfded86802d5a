import { createRequire } from 'node:module';
import type { EncounterState, LogEntry } from '@roundkeeper/engine';
import type { Page } from 'playwright-core';
import { namesOf } from '../src/screen/names.js';
import { HIDDEN_ID, HIDDEN_NAME } from '../src/screen/play.js';
import { missingControls } from '../src/screen/words.js';

/** What `truth.test.ts` reads of a page: the invariants of issue 30 it checks there, and axe-core's findings. */

export type Role = 'gm' | 'table' | 'player';

/** Everything a page shows that the invariants speak of, read from its DOM. */
export interface Read {
  headline: string;
  order: string[];
  log: string[];
  options: string[];
  timeline: string;
  timelineDesc: string;
  timelineNow: boolean;
  hp: string[];
  buttons: string[];
  lines: string[];
  html: string;
}

export function readPage(page: Page): Promise<Read> {
  return page.evaluate(() => {
    const texts = (sel: string) =>
      [...document.querySelectorAll(sel)].map((e) => (e.textContent ?? '').trim()).filter(Boolean);
    const svg = document.querySelector('[data-testid="timeline"] svg');
    const buttons: string[] = [];
    for (const b of document.querySelectorAll<HTMLElement>('button, summary, [role="button"]')) {
      const own = [...b.childNodes]
        .filter((n) => !(n instanceof HTMLElement && n.tagName === 'KBD'))
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (own) buttons.push(own);
      const label = b.getAttribute('aria-label');
      if (label) buttons.push(label.trim());
    }
    // The commands a page's command form sends, each chosen in its list and sent by its one button.
    for (const o of document.querySelectorAll('[data-testid="command-type"] option'))
      if (o.textContent?.trim()) buttons.push(o.textContent.trim());
    return {
      headline: `${texts('[data-testid="clock"]').join(' ')} ${texts('[data-testid="current-actor"]').join(' ')}`,
      order: texts('[data-testid="combatants"] li.card .card-name bdi.name, ol.order > li .order-name'),
      log: texts('[data-testid="log"] > li'),
      options: texts('select option'),
      timeline: svg ? [...svg.querySelectorAll('text')].map((t) => t.textContent ?? '').join('\n') : '',
      timelineDesc: svg?.querySelector('desc')?.textContent ?? '',
      timelineNow: svg ? svg.querySelector('.now') !== null || /· now/.test(svg.textContent ?? '') : false,
      hp: texts('.hp-value, .order-status'),
      buttons,
      // biome-ignore lint/performance/useDomNodeTextContent: the lines as rendered (hidden text is not read).
      lines: (document.querySelector('main')?.innerText ?? '').split('\n').filter((l) => l.trim()),
      html: document.body.innerHTML,
    };
  });
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a page breaks of issue 30's invariants, given the fight as the server has it; none is []. */
export function violations(role: Role, r: Read, state: EncounterState, entries: LogEntry[]): string[] {
  const out: string[] = [];
  const names = namesOf(state, entries);
  const hiddenStill = state.combatants[HIDDEN_ID]?.hidden !== false;
  // What the checks read is there: the order lists the combatants the viewer sees.
  const visible = Object.values(state.combatants).filter((c) => role === 'gm' || !c.hidden);
  if (visible.length && !r.order.length) out.push('the page shows no order to check');
  // Names: distinct in the order, and never an id anywhere a name stands.
  const seen = new Set<string>();
  for (const n of r.order) {
    if (seen.has(n)) out.push(`two combatants are called "${n}" in the order`);
    seen.add(n);
  }
  const ids = new Set(Object.keys(state.combatants));
  for (const { event } of entries)
    if (event.type === 'combatant/added') ids.add(String((event.combatant as { id: string }).id));
  const where: Array<[string, string[]]> = [
    ['headline', [r.headline]],
    ['order', r.order],
    ['log', r.log],
    ['targets', r.options],
    ['timeline', [r.timeline]],
  ];
  for (const id of ids) {
    if (names.byId.get(id) === id) continue;
    const pattern = new RegExp(`(?<![\\w-])${literal(id)}(?![\\w-])`);
    for (const [at, list] of where)
      for (const text of list) if (pattern.test(text)) out.push(`the ${at} shows the id "${id}": ${text}`);
  }
  // Hidden combatants are never named to the table or a player: not in a text, a label or a title.
  if (role !== 'gm' && hiddenStill && r.html.includes(HIDDEN_NAME))
    out.push(
      `the page names the hidden NPC: …${r.html.slice(Math.max(0, r.html.indexOf(HIDDEN_NAME) - 80), r.html.indexOf(HIDDEN_NAME) + 20)}`,
    );
  // The headline names the state's actor, or nobody when the viewer may not see them.
  const current = state.status === 'running' ? state.current : null;
  const actor = current ? state.combatants[current] : undefined;
  if (actor && (role === 'gm' || !actor.hidden)) {
    if (!r.headline.includes(actor.name)) out.push(`the headline does not name ${actor.name}: ${r.headline}`);
  } else if (actor?.hidden) {
    for (const c of Object.values(state.combatants))
      if (r.headline.includes(c.name))
        out.push(`the headline names ${c.name} on a hidden turn: ${r.headline}`);
  }
  // The timeline shows the current moment.
  if (/now:/.test(r.timelineDesc) && !r.timelineNow)
    out.push(`the timeline misses the current moment (${r.timelineDesc.slice(0, 120)})`);
  // No text tells the viewer to press a control the page does not give them.
  const controls = { labels: new Set(r.buttons), endTurn: null };
  for (const line of r.lines) {
    const missing = missingControls(line, controls);
    if (missing.length) out.push(`"${line}" names ${missing.join(', ')}, which this page lacks`);
  }
  // HP as shown is never below 0.
  for (const hp of r.hp) if (/(^|[^\d])[-−]\d+\s*\/\s*\d+/.test(hp)) out.push(`HP below 0: ${hp}`);
  return out;
}

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** A serious or critical axe-core finding: its rule, where, and whether it is on a defeated combatant's line. */
export interface Finding {
  rule: string;
  impact: string;
  target: string;
  defeated: boolean;
}

/** axe-core's serious and critical findings on a page. */
export async function axe(page: Page): Promise<Finding[]> {
  // Evaluated rather than added as a script tag: the page's CSP refuses inline scripts, as it should.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Result = {
      violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: unknown[] }> }>;
    };
    const w = window as unknown as { axe: { run(ctx: Document): Promise<Result> } };
    const result = await w.axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) =>
        v.nodes.map((n) => {
          const target = n.target.map(String).join(' ');
          const el = n.target.length === 1 ? document.querySelector(target) : null;
          return { rule: v.id, impact: v.impact ?? '', target, defeated: el?.closest('.out') != null };
        }),
      );
  });
}
