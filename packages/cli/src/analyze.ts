import {
  DiceLimitError,
  type Distribution,
  distribution,
  type EncounterState,
  isRejection,
  mean,
  probCompare,
  type RulesetRegistry,
  runScenario,
  type Scenario,
  stdev,
} from '@roundkeeper/engine';
import { z } from 'zod';
import { CliError, EXIT, loadScenarioFile, parseSection } from './load.js';
import { barChartSvg } from './svg.js';

/** Full orders are listed for up to this many combatants (n! orders). */
export const MAX_ORDER_COMBATANTS = 9;

/**
 * `analyze`: exact answers from the dice engine, no sampling. Each combatant's initiative score is a
 * dice expression (the scenario names it, or the ruleset's own formula is used); everything else follows
 * from those independent distributions: who acts before whom, each one's place in the order, the
 * probability of every full order, and questions written as comparisons of scores.
 */
export const analyzeSectionSchema = z
  .object({
    /** Each combatant's initiative score as dice; `@name` reads the combatant's numeric stats. */
    initiative: z.record(z.string(), z.string().min(1)).default({}),
    /** Who acts first: the highest score or the lowest; by default, as the ruleset says (most: highest). */
    order: z.enum(['highest-first', 'lowest-first']).optional(),
    /** Tie-break priority by combatant (higher wins a tie); equal priorities break ties at random. */
    ties: z.record(z.string(), z.number()).default({}),
    questions: z
      .array(
        z
          .object({
            name: z.string().min(1),
            /** Comparisons that must all hold, e.g. "fighter - 10 > monster"; spaces between terms. */
            all: z.array(z.string().min(1)).min(1).optional(),
            /** Combatants that act in this order (others anywhere), ties broken as in the fight. */
            order: z.array(z.string().min(1)).min(2).max(MAX_ORDER_COMBATANTS).optional(),
          })
          .strict()
          .refine((q) => (q.all === undefined) !== (q.order === undefined), {
            message:
              'give a question either all: [comparisons] (e.g. "mage > orc") or order: [ids] (e.g. [mage, orc, wolf]), not both',
          }),
      )
      .default([]),
    /** How many of the most likely full orders to list (default 10). */
    orders: z.number().int().min(0).max(1000).default(10),
  })
  .strict();
export type AnalyzeSection = z.output<typeof analyzeSectionSchema>;

export interface Contender {
  id: string;
  name: string;
  expression: string;
  /** Tie-break priority: higher wins a tie. */
  tie: number;
  distribution: Distribution;
}

/** Combatants with their initiative distributions, from the scenario's setup. */
export function contenders(
  scenario: Scenario,
  section: AnalyzeSection,
  registry: RulesetRegistry,
  path: string,
): Contender[] {
  const setup = runScenario({ ...scenario, commands: [] }, registry, scenario.name);
  if (isRejection(setup)) throw new CliError(`${path}: ${setup.message}`, EXIT.unreadable);
  const state: EncounterState = setup.encounter.state;
  for (const id of [...Object.keys(section.initiative), ...Object.keys(section.ties)]) {
    if (!Object.hasOwn(state.combatants, id)) {
      throw new CliError(
        `${path}: analyze names "${id}", which is not a combatant (combatants: ${state.roster.join(', ')}).`,
        EXIT.unreadable,
      );
    }
  }
  const ruleset = Object.hasOwn(registry, scenario.ruleset) ? registry[scenario.ruleset] : undefined;
  return state.roster
    .filter((id) => state.combatants[id]!.active)
    .map((id) => {
      const c = state.combatants[id]!;
      const refs: Record<string, number> = {};
      for (const [k, v] of Object.entries(c.stats)) if (typeof v === 'number') refs[k] = v;
      let expression = section.initiative[id];
      let tie = section.ties[id] ?? 0;
      let atLeast: number | undefined;
      let atMost: number | undefined;
      if (expression === undefined) {
        // The ruleset's own formula, when it has one (classic: the initiative dice plus the modifier).
        const formula = ruleset?.analysis?.initiative?.(state, c);
        if (typeof formula === 'string') {
          throw new CliError(
            `${path}: ${ruleset?.name ?? scenario.ruleset}'s initiative cannot be enumerated: ${formula} To analyze a model of it anyway, say how each combatant's initiative is rolled: analyze: { initiative: { ${id}: '1d20+@stat' } }.`,
            EXIT.refused,
          );
        }
        if (!formula) {
          throw new CliError(
            `${path}: say how ${c.name}'s initiative is rolled: add analyze: { initiative: { ${id}: '1d10+@stat' } } (a dice expression; @name reads ${c.name}'s stats).`,
            EXIT.unreadable,
          );
        }
        expression = formula.expression;
        Object.assign(refs, formula.refs);
        if (section.ties[id] === undefined) tie = formula.tie;
        atLeast = formula.atLeast;
        atMost = formula.atMost;
      }
      let d: Distribution;
      try {
        d = distribution(expression, refs);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new CliError(
          `${path}: ${c.name}'s initiative '${expression}' cannot be analyzed: ${why}`,
          error instanceof DiceLimitError ? EXIT.refused : EXIT.unreadable,
        );
      }
      if (atLeast !== undefined) d = floored(d, atLeast);
      if (atMost !== undefined) d = capped(d, atMost);
      return { id, name: c.name, expression, tie, distribution: d };
    });
}

/** A distribution whose scores above `max` count as `max` (the rules' "at most"). */
function capped(d: Distribution, max: number): Distribution {
  let high = 0;
  const kept: Array<[number, number]> = [];
  for (const [v, p] of d.outcomes) {
    if (v > max) high += p;
    else kept.push([v, p]);
  }
  if (high === 0) return d;
  const at = kept.findIndex(([v]) => v === max);
  if (at >= 0) kept[at] = [max, kept[at]![1] + high];
  else kept.push([max, high]);
  return { outcomes: kept };
}

/** A distribution whose scores below `min` count as `min` (the rules' "never below"). */
function floored(d: Distribution, min: number): Distribution {
  let low = 0;
  const kept: Array<[number, number]> = [];
  for (const [v, p] of d.outcomes) {
    if (v < min) low += p;
    else kept.push([v, p]);
  }
  if (low === 0) return d;
  const at = kept.findIndex(([v]) => v === min);
  if (at >= 0) kept[at] = [min, kept[at]![1] + low];
  else kept.unshift([min, low]);
  return { outcomes: kept };
}

/** Scores in acting order: negated when the lowest acts first, so "higher acts first" holds below. */
function acting(d: Distribution, lowestFirst: boolean): Distribution {
  return lowestFirst ? { outcomes: d.outcomes.map(([v, p]): [number, number] => [-v, p]).reverse() } : d;
}

/** P(a acts before b): a higher score, or the same score and a higher tie priority (even odds if equal). */
export function probBefore(a: Contender, b: Contender, lowestFirst: boolean): number {
  const c = probCompare(acting(a.distribution, lowestFirst), acting(b.distribution, lowestFirst));
  const tieShare = a.tie > b.tie ? 1 : a.tie < b.tie ? 0 : 0.5;
  return c.greater + c.equal * tieShare;
}

/** Dense probabilities over the union of scores, best (acting first) at index 0. */
function denseByRank(
  list: readonly Contender[],
  lowestFirst: boolean,
): { values: number[]; ps: Float64Array[] } {
  const set = new Set<number>();
  for (const c of list) for (const [v] of c.distribution.outcomes) set.add(v);
  const values = [...set].sort((x, y) => (lowestFirst ? x - y : y - x));
  const index = new Map(values.map((v, i) => [v, i] as const));
  const ps = list.map((c) => {
    const p = new Float64Array(values.length);
    for (const [v, q] of c.distribution.outcomes) p[index.get(v)!] = q;
    return p;
  });
  return { values, ps };
}

/**
 * P(combatant i acts k-th), exactly. Given i's score, each other combatant is ahead of i, tied with it
 * (same score and priority: a random roll-off), or behind, independently; a DP over (ahead, tied)
 * counts, and i's place among m tied others is uniform.
 */
export function positions(list: readonly Contender[], lowestFirst: boolean): number[][] {
  const n = list.length;
  const { values, ps } = denseByRank(list, lowestFirst);
  const V = values.length;
  // above[j][v] = P(j's score ranks strictly before value index v).
  const above = ps.map((p) => {
    const a = new Float64Array(V + 1);
    for (let v = 1; v <= V; v++) a[v] = a[v - 1]! + p[v - 1]!;
    return a;
  });
  return list.map((me, i) => {
    const out = new Array<number>(n).fill(0);
    for (let v = 0; v < V; v++) {
      const pv = ps[i]![v]!;
      if (pv === 0) continue;
      // dp[a][t]: a others ahead, t tied.
      let dp: number[][] = [[1]];
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const other = list[j]!;
        const eq = ps[j]![v]!;
        const ahead = above[j]![v]! + (other.tie > me.tie ? eq : 0);
        const tied = other.tie === me.tie ? eq : 0;
        const behind = 1 - ahead - tied;
        const next: number[][] = [];
        dp.forEach((row, a) => {
          row.forEach((w, t) => {
            if (w === 0) return;
            const add = (aa: number, tt: number, x: number) => {
              next[aa] ??= [];
              next[aa][tt] = (next[aa][tt] ?? 0) + x;
            };
            if (ahead > 0) add(a + 1, t, w * ahead);
            if (tied > 0) add(a, t + 1, w * tied);
            if (behind > 0) add(a, t, w * behind);
          });
        });
        dp = next;
      }
      dp.forEach((row, a) => {
        row?.forEach((w, t) => {
          if (!w) return;
          for (let k = 0; k <= t; k++) out[a + k]! += (pv * w) / (t + 1);
        });
      });
    }
    return out;
  });
}

/**
 * The probability of every full order (n! of them), by a depth-first walk over prefixes that carries,
 * for the prefix's last combatant, P(prefix in this order, last score = v, r combatants tied in a
 * roll-off at the end). Appending j: a strictly worse score always fits; the same score fits if j's tie
 * priority is lower, or equal (a roll-off: the (r+1)th of a tied group lands last with chance 1/(r+1)).
 */
export function orderProbabilities(
  list: readonly Contender[],
  lowestFirst: boolean,
  keep: number,
): { orders: Array<{ order: string[]; p: number }>; total: number } {
  const n = list.length;
  const { values, ps } = denseByRank(list, lowestFirst);
  const V = values.length;
  const W = n + 1;
  const found: Array<{ order: number[]; p: number }> = [];
  let total = 0;
  const prefix: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  // One buffer per depth, reused by siblings: the walk is depth-first.
  const buffers = Array.from({ length: n + 1 }, () => new Float64Array(V * W));
  const heres = Array.from({ length: n + 1 }, () => new Float64Array(V));
  const walk = (depth: number, lastTie: number, longestRun: number): void => {
    const f = buffers[depth]!;
    const here = heres[depth]!;
    let sum = 0;
    for (let w = 0; w < V; w++) {
      let h = 0;
      for (let r = 1; r <= longestRun; r++) h += f[w * W + r]!;
      here[w] = h;
      sum += h;
    }
    if (depth === n) {
      total += sum;
      // Keep only the `keep` most likely, sorted: most orders are never copied.
      if (found.length < keep || sum > found[found.length - 1]!.p) {
        let at = found.length;
        while (at > 0 && found[at - 1]!.p < sum) at--;
        found.splice(at, 0, { order: [...prefix], p: sum });
        if (found.length > keep) found.pop();
      }
      return;
    }
    const g = buffers[depth + 1]!;
    for (let j = 0; j < n; j++) {
      if (used[j]) continue;
      const pj = ps[j]!;
      const tie = list[j]!.tie;
      g.fill(0);
      let acc = 0;
      let any = false;
      let run = 1;
      for (let w = 0; w < V; w++) {
        const q = pj[w]!;
        const base = w * W;
        if (q > 0) {
          if (acc > 0) {
            g[base + 1] = acc * q;
            any = true;
          }
          const h = here[w]!;
          if (h > 0) {
            if (tie < lastTie) {
              g[base + 1]! += h * q;
              any = true;
            } else if (tie === lastTie) {
              for (let r = 1; r <= longestRun; r++) {
                const fr = f[base + r]!;
                if (fr > 0) {
                  g[base + r + 1]! += (fr * q) / (r + 1);
                  any = true;
                  if (r + 1 > run) run = r + 1;
                }
              }
            }
          }
        }
        acc += here[w]!;
      }
      if (!any) continue;
      used[j] = true;
      prefix.push(j);
      walk(depth + 1, tie, run);
      prefix.pop();
      used[j] = false;
    }
  };
  const first = buffers[1]!;
  for (let j = 0; j < n; j++) {
    first.fill(0);
    for (let w = 0; w < V; w++) first[w * W + 1] = ps[j]![w]!;
    used[j] = true;
    prefix.push(j);
    walk(1, list[j]!.tie, 1);
    prefix.pop();
    used[j] = false;
  }
  return {
    orders: found.map((o) => ({ order: o.order.map((i) => list[i]!.id), p: o.p })),
    total,
  };
}

interface Linear {
  coefficients: Map<string, number>;
  constant: number;
}

const COMPARISONS = ['>=', '<=', '==', '!=', '>', '<'] as const;
type Comparison = (typeof COMPARISONS)[number];

/** "fighter - 10 > monster" → fighter − monster − 10 > 0. Terms are ids and whole numbers, spaced. */
export function parseCondition(
  text: string,
  ids: ReadonlySet<string>,
): { linear: Linear; op: Comparison } | string {
  const tokens = text.trim().split(/\s+/);
  const opAt = tokens.findIndex((t) => (COMPARISONS as readonly string[]).includes(t));
  if (opAt < 0)
    return `"${text}" has no comparison; write e.g. "mage > orc" or "fighter - 10 > monster" (spaces between terms).`;
  const linear: Linear = { coefficients: new Map(), constant: 0 };
  const side = (part: string[], sign: number): string | undefined => {
    if (part.length === 0) return `"${text}": a side of the comparison is empty.`;
    let op = 1;
    for (let i = 0; i < part.length; i++) {
      const t = part[i]!;
      if (i % 2 === 1) {
        if (t !== '+' && t !== '-')
          return `"${text}": expected + or - but found "${t}" (put spaces around + and -).`;
        op = t === '+' ? 1 : -1;
        continue;
      }
      const s = sign * op;
      if (/^-?\d+$/.test(t)) linear.constant += s * Number(t);
      else if (ids.has(t)) linear.coefficients.set(t, (linear.coefficients.get(t) ?? 0) + s);
      else
        return `"${text}": "${t}" is neither a whole number nor a combatant (combatants: ${[...ids].join(', ')}).`;
    }
    if (part.length % 2 === 0) return `"${text}" ends with an operator.`;
    return undefined;
  };
  const bad = side(tokens.slice(0, opAt), 1) ?? side(tokens.slice(opAt + 1), -1);
  if (bad) return bad;
  return { linear, op: tokens[opAt] as Comparison };
}

function holds(x: number, op: Comparison): boolean {
  switch (op) {
    case '>':
      return x > 0;
    case '>=':
      return x >= 0;
    case '<':
      return x < 0;
    case '<=':
      return x <= 0;
    case '==':
      return x === 0;
    case '!=':
      return x !== 0;
  }
}

/** The probability that every condition holds, enumerating the scores of the combatants they name. */
export function probAll(
  conditions: ReadonlyArray<{ linear: Linear; op: Comparison }>,
  byId: ReadonlyMap<string, Contender>,
): number {
  const vars = [...new Set(conditions.flatMap((c) => [...c.linear.coefficients.keys()]))];
  let work = 1;
  for (const v of vars) work *= byId.get(v)!.distribution.outcomes.length;
  if (work > 50_000_000) {
    throw new CliError(
      `A question names ${vars.length} combatants whose scores have ${work.toLocaleString('en-US')} combinations; ask about fewer at once.`,
      EXIT.refused,
    );
  }
  const value = new Map<string, number>();
  let sum = 0;
  const walk = (k: number, p: number): void => {
    if (k === vars.length) {
      for (const c of conditions) {
        let x = c.linear.constant;
        for (const [id, a] of c.linear.coefficients) x += a * value.get(id)!;
        if (!holds(x, c.op)) return;
      }
      sum += p;
      return;
    }
    for (const [v, q] of byId.get(vars[k]!)!.distribution.outcomes) {
      value.set(vars[k]!, v);
      walk(k + 1, p * q);
    }
  };
  walk(0, 1);
  return sum;
}

/**
 * P(the named combatants act in this order), the others anywhere: their relative order depends on
 * their own scores and tie-breaks only (a roll-off among tied ones orders any subset of them evenly),
 * so it is the probability of this full order of the group alone.
 */
export function probOrder(
  order: readonly string[],
  byId: ReadonlyMap<string, Contender>,
  lowestFirst: boolean,
  name: string,
  path: string,
): number {
  const group = order.map((id) => {
    const c = byId.get(id);
    if (!c) {
      throw new CliError(
        `${path}: analyze question "${name}": order names "${id}", which is not an active combatant (combatants: ${[...byId.keys()].join(', ')}).`,
        EXIT.unreadable,
      );
    }
    return c;
  });
  if (new Set(order).size !== order.length) {
    throw new CliError(
      `${path}: analyze question "${name}": order names a combatant twice; list each once.`,
      EXIT.unreadable,
    );
  }
  const all = orderProbabilities(group, lowestFirst, factorial(group.length));
  return all.orders.find((o) => o.order.every((id, i) => id === order[i]))?.p ?? 0;
}

export interface AnalyzeResult {
  scenario: string;
  ruleset: string;
  order: Order;
  combatants: Array<{
    id: string;
    name: string;
    expression: string;
    tie: number;
    mean: number;
    sd: number;
    min: number;
    max: number;
    /** P(acting 1st), P(2nd), … */
    positions: number[];
    distribution: Array<[number, number]>;
  }>;
  /** before[a][b] = P(a acts before b). */
  before: Record<string, Record<string, number>>;
  /** The most likely full orders; `ordersTotal` sums every order's probability (≈ 1). */
  orders: Array<{ order: string[]; p: number }>;
  ordersTotal: number | null;
  /** Each question with its comparisons (`all`) or its group order (`order`). */
  questions: Array<{ name: string; all?: string[]; order?: string[]; p: number }>;
}

/** The acting order: the scenario's, else the ruleset's (`analyzeCommand` settles it). */
type Order = NonNullable<AnalyzeSection['order']>;

export function analyze(
  list: readonly Contender[],
  section: AnalyzeSection & { order: Order },
  scenario: Scenario,
  path: string,
): AnalyzeResult {
  const lowestFirst = section.order === 'lowest-first';
  const pos = positions(list, lowestFirst);
  const before: AnalyzeResult['before'] = {};
  for (const a of list) {
    before[a.id] = {};
    for (const b of list) if (a !== b) before[a.id]![b.id] = probBefore(a, b, lowestFirst);
  }
  const full =
    list.length <= MAX_ORDER_COMBATANTS && section.orders > 0
      ? orderProbabilities(list, lowestFirst, section.orders)
      : null;
  const ids = new Set(list.map((c) => c.id));
  const byId = new Map(list.map((c) => [c.id, c] as const));
  const questions = section.questions.map((q) => {
    if (q.order)
      return { name: q.name, order: q.order, p: probOrder(q.order, byId, lowestFirst, q.name, path) };
    const all = q.all ?? [];
    const conditions = all.map((text) => {
      const c = parseCondition(text, ids);
      if (typeof c === 'string')
        throw new CliError(`${path}: analyze question "${q.name}": ${c}`, EXIT.unreadable);
      return c;
    });
    return { name: q.name, all, p: probAll(conditions, byId) };
  });
  return {
    scenario: scenario.name,
    ruleset: scenario.ruleset,
    order: section.order,
    combatants: list.map((c, i) => {
      const o = c.distribution.outcomes;
      return {
        id: c.id,
        name: c.name,
        expression: c.expression,
        tie: c.tie,
        mean: mean(c.distribution),
        sd: stdev(c.distribution),
        min: o[0]![0],
        max: o[o.length - 1]![0],
        positions: pos[i]!,
        distribution: o,
      };
    }),
    before,
    orders: full?.orders ?? [],
    ordersTotal: full?.total ?? null,
    questions,
  };
}

const pct = (p: number) => (p * 100).toFixed(2).padStart(6);

export function renderAnalysis(r: AnalyzeResult): string {
  const names = new Map(r.combatants.map((c) => [c.id, c.name] as const));
  const w = Math.max(9, ...r.combatants.map((c) => c.name.length));
  const lines = [
    `${r.scenario} — ${r.ruleset}: exact, from the dice (${r.order === 'highest-first' ? 'highest score acts first' : 'lowest score acts first'})`,
    '',
    `${'combatant'.padEnd(w)}  ${'initiative'.padEnd(16)}  mean    sd     range    P(first)`,
  ];
  for (const c of r.combatants) {
    lines.push(
      `${c.name.padEnd(w)}  ${c.expression.padEnd(16)}  ${c.mean.toFixed(2).padStart(5)}  ${c.sd.toFixed(2).padStart(5)}  ${`${c.min}–${c.max}`.padStart(7)}  ${pct(c.positions[0] ?? 0)}%`,
    );
  }
  // Columns are headed by id (unique, and short), each as wide as its id or a figure.
  const cw = r.combatants.map((c) => Math.max(7, c.id.length));
  lines.push(
    '',
    'P(row acts before column), %; columns by id:',
    `${''.padEnd(w)}  ${r.combatants.map((c, i) => c.id.padStart(cw[i]!)).join(' ')}`,
  );
  for (const a of r.combatants) {
    lines.push(
      `${a.name.padEnd(w)}  ${r.combatants.map((b, i) => (a === b ? '—' : pct(r.before[a.id]![b.id]!)).padStart(cw[i]!)).join(' ')}`,
    );
  }
  lines.push('', 'Place in the order (P of acting 1st, 2nd, …), %:');
  for (const c of r.combatants)
    lines.push(`${c.name.padEnd(w)}  ${c.positions.map((p) => pct(p)).join(' ')}`);
  if (r.orders.length) {
    lines.push('', `Most likely orders (of ${factorial(r.combatants.length).toLocaleString('en-US')}):`);
    for (const o of r.orders)
      lines.push(`  ${pct(o.p)}%  ${o.order.map((id) => names.get(id) ?? id).join(' → ')}`);
  } else if (r.ordersTotal === null && r.combatants.length > MAX_ORDER_COMBATANTS) {
    lines.push('', `(Full orders are listed for at most ${MAX_ORDER_COMBATANTS} combatants.)`);
  }
  if (r.questions.length) {
    lines.push('', 'Questions:');
    for (const q of r.questions) {
      const how = q.order
        ? q.order.map((id) => names.get(id) ?? id).join(' → ')
        : (q.all ?? []).join(' and ');
      lines.push(`  ${pct(q.p)}%  ${q.name}  [${how}]`);
    }
  }
  return lines.join('\n');
}

function factorial(n: number): number {
  let f = 1;
  for (let i = 2; i <= n; i++) f *= i;
  return f;
}

export function analysisSvg(r: AnalyzeResult): string {
  return barChartSvg(
    `${r.scenario}: initiative distributions`,
    r.combatants.map((c) => ({
      title: `${c.name}: ${c.expression} (mean ${c.mean.toFixed(2)})`,
      bars: c.distribution.map(([v, p]) => ({ label: String(v), value: p })),
    })),
  );
}

export function analyzeCommand(path: string, registry: RulesetRegistry): AnalyzeResult {
  const { scenario, raw } = loadScenarioFile(path);
  if (!Object.hasOwn(registry, scenario.ruleset)) {
    throw new CliError(
      `${path} uses the ruleset "${scenario.ruleset}", which is not installed. Installed: ${Object.keys(registry).join(', ')}.`,
      EXIT.unreadable,
    );
  }
  const parsed = parseSection(analyzeSectionSchema, raw.analyze, path, 'analyze');
  // The order the ruleset acts in, unless the scenario says (a tick timeline: the lowest tick first).
  const order: Order =
    parsed.order ?? (registry[scenario.ruleset]?.analysis?.lowestFirst ? 'lowest-first' : 'highest-first');
  const section = { ...parsed, order };
  const list = contenders(scenario, section, registry, path);
  if (list.length === 0)
    throw new CliError(`${path} has no combatants to analyze; add some under combatants:.`, EXIT.unreadable);
  return analyze(list, section, scenario, path);
}
