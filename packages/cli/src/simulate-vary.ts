import { isRejection, type Json, type RulesetRegistry } from '@roundkeeper/engine';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { CliError, EXIT } from './load.js';
import {
  createSimulator,
  emptyTally,
  METRICS,
  mergeTally,
  RESOURCE_FIGURES,
  rosterOf,
  type SimPlan,
  type SimTally,
} from './simulate.js';
import { type Estimate, estimate, type Sums } from './stats.js';

/**
 * `simulate --vary <option or stat>=a,b,c`: the same fights under each value, with common random
 * numbers — trial i has the same seed in every variant, so the dice fall alike wherever the rules roll
 * them alike — and each figure's difference from the first value with its 95% interval from the paired
 * trials (a paired difference is far tighter than two independent runs would give).
 */

export interface Variation {
  /** An option (`rerollEachRound`, `options.roundMode`), a stat of every combatant (`initiative`), or one
   * combatant's (`ana.initiative`). */
  key: string;
  values: Json[];
}

/** "key=a,b,c" → the key and its values, each read as YAML (numbers, true/false, text). */
export function parseVary(text: string): Variation {
  const at = text.indexOf('=');
  const key = text.slice(0, at).trim();
  const list = text.slice(at + 1);
  if (at < 1 || !list.trim()) {
    throw new CliError(
      `--vary takes <option or stat>=<value>,<value>…, e.g. --vary rerollEachRound=true,false or --vary ana.initiative=0,2,4; not "${text}".`,
      EXIT.refused,
    );
  }
  const values = list.split(',').map((v) => parseYaml(v.trim()) as Json);
  if (values.length < 2) {
    throw new CliError(`--vary ${key} needs at least two values to compare, comma-separated.`, EXIT.refused);
  }
  return { key, values };
}

function optionKeys(registry: RulesetRegistry, ruleset: string): string[] {
  const schema = registry[ruleset]?.optionsSchema;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** The plan with `key` set to `value`, or why that cannot be (checked as the scenario would be). */
export function varied(plan: SimPlan, registry: RulesetRegistry, key: string, value: Json): SimPlan {
  const { scenario } = plan;
  const options = optionKeys(registry, scenario.ruleset);
  const name = key.startsWith('options.') ? key.slice('options.'.length) : key;
  let next: SimPlan;
  if (key.startsWith('options.') || (!key.includes('.') && options.includes(name))) {
    if (!options.includes(name)) {
      throw new CliError(
        `--vary ${key}: ${scenario.ruleset} has no option "${name}" (its options: ${options.join(', ')}).`,
        EXIT.refused,
      );
    }
    next = { ...plan, scenario: { ...scenario, options: { ...scenario.options, [name]: value } } };
  } else {
    const dot = key.indexOf('.');
    const who = dot > 0 ? key.slice(0, dot) : undefined;
    const stat = dot > 0 ? key.slice(dot + 1) : key;
    if (who !== undefined && !scenario.combatants.some((c) => c.id === who)) {
      throw new CliError(
        `--vary ${key}: "${who}" is not a combatant with an id here (ids: ${scenario.combatants.flatMap((c) => (c.id ? [c.id] : [])).join(', ')}); name an option (${options.join(', ')}), a stat of everyone, or <id>.<stat>.`,
        EXIT.refused,
      );
    }
    const combatants = scenario.combatants.map((c) =>
      who === undefined || c.id === who ? { ...c, stats: { ...c.stats, [stat]: value } } : c,
    );
    next = { ...plan, scenario: { ...scenario, combatants } };
  }
  const roster = rosterOf(next, registry);
  if (isRejection(roster))
    throw new CliError(`--vary ${key}=${String(value)}: ${roster.message}`, EXIT.refused);
  return next;
}

/** One figure of a tally: its name and where its sums are. */
export interface Figure {
  name: string;
  sums(t: SimTally): Sums;
}

/** Every figure a run reports: each combatant's metrics, each named event, each question. */
export function figuresOf(plan: SimPlan, roster: readonly string[]): Figure[] {
  const names = new Map(plan.scenario.combatants.map((c) => [c.id, c.name] as const));
  const out: Figure[] = [];
  for (const id of roster) {
    for (const k of METRICS)
      out.push({ name: `${names.get(id) ?? id}: ${k}`, sums: (t) => t.metrics[id]![k] });
  }
  for (const name of Object.keys(plan.sim.events))
    out.push({ name: `event ${name}`, sums: (t) => t.events[name]! });
  plan.sim.questions.forEach((q, i) => {
    out.push({ name: `question: ${q.name}`, sums: (t) => t.questions[i]! });
  });
  for (const name of Object.keys(plan.sim.resources)) {
    for (const id of roster) {
      for (const k of RESOURCE_FIGURES) {
        out.push({
          name: `${names.get(id) ?? id}: ${name} ${k === 'spent' ? 'spent' : k === 'out' ? 'runs out' : 'runs out first'}`,
          sums: (t) => t.resources[name]![id]![k],
        });
      }
    }
  }
  return out;
}

const Z95 = 1.959963984540054;

export interface VaryResult {
  key: string;
  values: Json[];
  tallies: SimTally[];
  figures: Array<{
    name: string;
    /** Each value's estimate. */
    each: Estimate[];
    /** Each value's difference from the first (the first's is 0), paired over the same trials. */
    diff: Estimate[];
  }>;
}

/**
 * Runs `trials` trials of each variant with the same trial seeds, one trial at a time so each
 * figure's per-trial count and denominator are kept for the paired differences.
 */
export function runVaried(
  plan: SimPlan,
  registry: RulesetRegistry,
  variation: Variation,
  trials: number,
  seed: number,
  opts: { engine?: boolean } = {},
): VaryResult {
  const plans = variation.values.map((v) => varied(plan, registry, variation.key, v));
  const sims = plans.map((p) => {
    const s = createSimulator(p, registry, opts);
    if (isRejection(s)) throw new CliError(s.message, EXIT.refused);
    return s;
  });
  const figures = figuresOf(plans[0]!, sims[0]!.roster);
  const tallies = plans.map((p, k) => emptyTally(sims[k]!.roster, p));
  // x and r of each figure in each trial, per variant: [variant][figure][trial].
  const xs = plans.map(() => figures.map(() => new Float64Array(trials)));
  const rs = plans.map(() => figures.map(() => new Float64Array(trials)));
  for (let i = 0; i < trials; i++) {
    plans.forEach((p, k) => {
      const one = emptyTally(sims[k]!.roster, p);
      sims[k]!.run(one, seed, i, i + 1);
      figures.forEach((f, j) => {
        const s = f.sums(one);
        xs[k]![j]![i] = s[0];
        rs[k]![j]![i] = s[3];
      });
      mergeTally(tallies[k]!, one);
    });
  }
  return {
    key: variation.key,
    values: variation.values,
    tallies,
    figures: figures.map((f, j) => {
      const each = tallies.map((t) => estimate(f.sums(t), trials));
      const diff = tallies.map((_, k) => paired(xs[0]![j]!, rs[0]![j]!, xs[k]![j]!, rs[k]![j]!));
      return { name: f.name, each, diff };
    }),
  };
}

/**
 * R_b − R_a for ratio estimates R = Σx/Σr over the same trials, with the delta method on the paired
 * residuals: d_i = (x_bi − R_b r_bi)/r̄_b − (x_ai − R_a r_ai)/r̄_a, se = sd(d)/√n.
 */
export function paired(xa: Float64Array, ra: Float64Array, xb: Float64Array, rb: Float64Array): Estimate {
  const n = xa.length;
  let sxa = 0;
  let sra = 0;
  let sxb = 0;
  let srb = 0;
  for (let i = 0; i < n; i++) {
    sxa += xa[i]!;
    sra += ra[i]!;
    sxb += xb[i]!;
    srb += rb[i]!;
  }
  if (sra === 0 || srb === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const Ra = sxa / sra;
  const Rb = sxb / srb;
  const mean = Rb - Ra;
  if (n < 2) return { mean, low: mean, high: mean };
  const rbarA = sra / n;
  const rbarB = srb / n;
  let s = 0;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = (xb[i]! - Rb * rb[i]!) / rbarB - (xa[i]! - Ra * ra[i]!) / rbarA;
    s += d;
    ss += d * d;
  }
  const variance = Math.max(0, (ss - (s * s) / n) / (n - 1));
  const se = Math.sqrt(variance / n);
  return { mean, low: mean - Z95 * se, high: mean + Z95 * se };
}
