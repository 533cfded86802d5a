import {
  type ActionDef,
  type AnyRuleset,
  type Command,
  decideSettled,
  draftOwns,
  EncounterLog,
  type EncounterState,
  type EngineEvent,
  type Instant,
  isRejection,
  isSettled,
  type Json,
  type JsonObject,
  KERNEL_METRICS,
  type KernelRule,
  type LegalAction,
  newDraft,
  type Rejection,
  type RulesetRegistry,
  reject,
  rollTotal,
  type Scenario,
  type SimulationKernel,
  StateRng,
  seededDice,
  seededRng,
  type TrialKernel,
} from '@roundkeeper/engine';
import { z } from 'zod';
import {
  type Choice,
  choose,
  DEFAULT_POLICY,
  deepFreeze,
  momentOf,
  type PolicyRule,
  readPath as readEventPath,
  ruleLabel,
  ruleSchema,
} from './policy.js';
import { checkPolicy } from './policy-check.js';
import { addTrial, emptySums, mergeSums, type Sums } from './stats.js';

/** A user-named event: an event type, the fields it must have, and which occurrence (nth) counts. */
export const eventMatcherSchema = z
  .object({
    type: z.string().min(1),
    /**
     * The nth matching event in the round (or the trial, for per-trial questions); questions take the
     * 1st when it is left out. The event's rate counts every matching event without `nth`, and only
     * the nth of each round with it (so `nth: 3` gives the share of rounds with a 3rd one).
     */
    nth: z.number().int().min(1).max(1000).optional(),
    /**
     * A number in the event to add up instead of counting it (a path: `stamina`, `roll.total`): its
     * rate is then the sum per round — stamina spent, seconds used, a roll's total.
     */
    sum: z.string().min(1).optional(),
    /** Numbers in the event (by path) it must reach: `{roll.total: 10}` for a success against 10. */
    atLeast: z.record(z.string().min(1), z.number()).optional(),
    /** Text in the event (by path) it must begin with: `{purpose: Slash}` for the Slash's roll. */
    startsWith: z.record(z.string().min(1), z.string()).optional(),
  })
  .catchall(z.json());

export const questionSchema = z
  .object({
    name: z.string().min(1),
    /** Named events that must all happen, in this order. */
    order: z.array(z.string().min(1)).min(2),
    /** Count per round (default) or per trial. */
    per: z.enum(['round', 'trial']).default('round'),
    /** When true, an event that never happens counts as happening after everything else: "A before B"
     * then also holds when A happens and B never does. */
    missingIsLate: z.boolean().default(false),
  })
  .strict();

export const resourceSchema = z
  .object({
    /** The path in the combatant's ruleset state: `stamina`, `exertion`, `characterPoints`. */
    cs: z.string().min(1).optional(),
    /** Or its hit points (`hp: true`): damage taken is what is spent, 0 HP is out. */
    hp: z.literal(true).optional(),
    atMost: z.number().optional(),
    atLeast: z.number().optional(),
  })
  .strict()
  .refine((r) => r.atMost === undefined || r.atLeast === undefined, {
    message: 'a resource runs out at most (atMost) or at least (atLeast) a value, not both',
  })
  .refine((r) => (r.cs === undefined) !== (r.hp === undefined), {
    message: 'a resource is a path in the ruleset state (cs) or the hit points (hp: true)',
  });

/** Per resource, per combatant: spent per round, ran out in the trial, was the first to. */
export const RESOURCE_FIGURES = ['spent', 'out', 'first'] as const;
export type ResourceFigure = (typeof RESOURCE_FIGURES)[number];

export const simulateSectionSchema = z
  .object({
    /** Rounds per trial (with until: rounds). */
    rounds: z.number().int().min(1).max(1000).default(1),
    /** rounds: stop after `rounds`; end: play whole encounters until one side is out (or maxRounds). */
    until: z.enum(['rounds', 'end']).default('rounds'),
    maxRounds: z.number().int().min(1).max(1000).default(50),
    /** Policies by combatant id; `default` applies to combatants without their own. */
    policies: z.record(z.string(), z.array(ruleSchema)).default({}),
    events: z.record(z.string(), eventMatcherSchema).default({}),
    questions: z.array(questionSchema).default([]),
    /**
     * Resources in each combatant's ruleset state to follow (`stamina: { cs: stamina }`): what is spent
     * (the value's falls; with `atLeast`, its rises, as Exertion grows), and who runs out first — the
     * value at or below `atMost` (default 0), or at or above `atLeast`.
     */
    resources: z.record(z.string().min(1), resourceSchema).default({}),
  })
  .strict();
export type SimulateSection = z.output<typeof simulateSectionSchema>;

/** Everything a trial needs, as plain data (it is sent to worker threads). */
export interface SimPlan {
  scenario: Scenario;
  sim: SimulateSection;
}

/** Metrics kept per combatant, each per round. */
export const METRICS = ['turns', 'actions', 'attacks', 'forfeits', 'first', 'carry'] as const;
export type Metric = (typeof METRICS)[number];

/** The highest count a per-round histogram keeps apart; more is counted in the last bucket. */
export const HIST_MAX = 12;

/** Which simulator ran: the ruleset's compiled round (tara-corax, classic), or every command through the engine. */
export type SimPath = 'kernel' | 'engine';

export interface SimTally {
  /** Which simulator ran the trials (see `SimPath`), and why not the kernel (empty when it ran). */
  path: SimPath;
  reason: string;
  trials: number;
  /** Rounds simulated, over all trials. */
  rounds: number;
  /** Combatant-rounds simulated: active combatants × rounds, summed. */
  combatantRounds: number;
  commands: number;
  /** Policy choices the rules refused, by code. */
  refused: Record<string, number>;
  /** The same by the rule that asked ("ana's rule 2 (plan quick-attack): plan/full"), with the rules' words. */
  refusedRules: Record<string, { count: number; message: string }>;
  metrics: Record<string, Record<Metric, Sums>>;
  events: Record<string, Sums>;
  questions: Sums[];
  /** Per combatant, how many rounds had k attacks (k = 0..HIST_MAX). */
  attackHistogram: Record<string, number[]>;
  /** Per resource, per combatant: spent (per round), ran out and ran out first (per trial). */
  resources: Record<string, Record<string, Record<ResourceFigure, Sums>>>;
}

/** Checks the section against the scenario: policies name combatants, questions name declared events. */
export function checkPlan(plan: SimPlan, roster: readonly string[]): string | undefined {
  const ids = new Set(roster);
  for (const id of Object.keys(plan.sim.policies)) {
    if (id !== 'default' && !ids.has(id)) {
      return `simulate.policies names "${id}", which is not a combatant (combatants: ${[...ids].join(', ')}; or use "default").`;
    }
  }
  for (const q of plan.sim.questions) {
    for (const name of q.order) {
      if (!Object.hasOwn(plan.sim.events, name)) {
        return `simulate.questions "${q.name}" names the event "${name}", which is not declared under simulate.events (declared: ${Object.keys(plan.sim.events).join(', ') || 'none'}).`;
      }
    }
  }
  return undefined;
}

/** Trial i's seed: a hash of the run's seed and i, so trials are the same whichever worker runs them. */
export function trialSeed(seed: number, trial: number): number {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(trial + 1, 0xc2b2ae35)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h | 0;
}

interface Matcher {
  name: string;
  /** Its place in the plan's matchers: where a trial keeps its counts (arrays, not maps by name). */
  index: number;
  type: string;
  /** Which occurrence questions read (1 when the scenario leaves it out). */
  nth: number;
  /** Whether the rate counts only the nth occurrence of each round (the scenario names `nth`). */
  onlyNth: boolean;
  /** The number in the event its rate adds up, instead of counting (see `sum`). */
  sum: string | undefined;
  atLeast: Array<[string, number]>;
  startsWith: Array<[string, string]>;
  fields: Array<[string, Json]>;
}

interface Prepared {
  registry: RulesetRegistry;
  ruleset: AnyRuleset;
  /** The encounter after setup (combatants and custom actions added), before any command. */
  base: EncounterState;
  prelude: Command[];
  roster: string[];
  policies: Map<string, PolicyRule[]>;
  matchers: Matcher[];
  matchersByType: Map<string, Matcher[]>;
  /** An event type's kind and matchers, looked up once per event (see `TypeInfo`). */
  typeInfo(type: string): TypeInfo;
  /** Combatants with rules for someone else's turn, for the planning, for the initiative roll. */
  answers: Set<string>;
  answering: boolean;
  planners: Set<string>;
  rollers: Set<string>;
  /** Whether an action (by id) is an attack by the ruleset's declaration (kind or tag `attack`, `data.attack`). */
  attack: Map<string, boolean>;
  /** The GM's rolling commands with the `on: roll` choices, by command and choices (see `withRoll`). */
  rolled: WeakMap<Command, Map<string, Command>>;
}

/** The GM's commands, frozen: the engine checks a frozen command once and remembers it. */
const NEXT: Command = Object.freeze({ type: 'next' });
const START: Command = Object.freeze({ type: 'start' });
const NO_LEGAL = (): readonly LegalAction[] => [];

/** An attack by what the action is, as the ruleset declares it: its kind, its tags, or its data. */
export function isAttack(action: ActionDef): boolean {
  return action.kind === 'attack' || action.tags.includes('attack') || action.data?.attack === true;
}

function prepare(plan: SimPlan, registry: RulesetRegistry): Prepared | Rejection {
  const { scenario, sim } = plan;
  const enc = EncounterLog.create(
    {
      id: scenario.name,
      name: scenario.name,
      ruleset: scenario.ruleset,
      options: scenario.options,
      dice: seededDice(scenario.seed),
    },
    registry,
  );
  if (isRejection(enc)) return enc;
  for (const combatant of scenario.combatants) {
    const r = enc.execute({ type: 'add-combatant', combatant });
    if (isRejection(r)) return { ...r, message: `Setting up the scenario failed: ${r.message}` };
  }
  for (const action of scenario.actions) {
    const r = enc.execute({ type: 'define-action', action });
    if (isRejection(r)) return { ...r, message: `Setting up the scenario failed: ${r.message}` };
  }
  const ruleset = registry[scenario.ruleset];
  if (!ruleset) return reject('ruleset/unknown', `The ruleset "${scenario.ruleset}" is not installed.`);
  // Frozen copies: sent at the start of every trial, each is checked once (see `checkFrozenCommand`).
  const prelude = scenario.commands.map((step): Command => deepFreeze(structuredClone(step.command)));
  for (const [owner, policy] of Object.entries(sim.policies)) {
    const problem = checkPolicy(ruleset, enc.state, owner, policy);
    if (problem) return reject('policy/invalid', problem);
  }
  const policies = new Map<string, PolicyRule[]>();
  for (const id of enc.state.roster) {
    policies.set(id, sim.policies[id] ?? sim.policies.default ?? DEFAULT_POLICY);
  }
  const matchers: Matcher[] = Object.entries(sim.events).map(([name, m], index) => {
    const { type, nth, sum, atLeast, startsWith, ...fields } = m;
    return {
      name,
      index,
      type,
      nth: nth ?? 1,
      onlyNth: nth !== undefined,
      sum,
      atLeast: Object.entries(atLeast ?? {}),
      startsWith: Object.entries(startsWith ?? {}),
      fields: Object.entries(fields) as Array<[string, Json]>,
    };
  });
  const matchersByType = new Map<string, Matcher[]>();
  for (const m of matchers) matchersByType.set(m.type, [...(matchersByType.get(m.type) ?? []), m]);
  const answers = new Set<string>();
  const planners = new Set<string>();
  const rollers = new Set<string>();
  for (const [id, policy] of policies) {
    for (const rule of policy) {
      const m = momentOf(rule);
      if (m === 'others') answers.add(id);
      else if (m === 'planning') planners.add(id);
      else if (m === 'roll') rollers.add(id);
    }
  }
  const attack = new Map<string, boolean>();
  for (const a of [...ruleset.catalog(enc.state), ...enc.state.customActions]) attack.set(a.id, isAttack(a));
  return {
    answers,
    answering: answers.size > 0,
    rolled: new WeakMap(),
    planners,
    rollers,
    attack,
    registry,
    ruleset,
    base: enc.state,
    prelude,
    roster: enc.state.roster,
    policies,
    matchers,
    matchersByType,
    typeInfo: typeInfos(matchersByType),
  };
}

/** Whether an event of the matcher's type has its fields, reaches its numbers and begins with its text. */
function matches(m: Matcher, e: EngineEvent): boolean {
  // Indexed loops: asked of every event of a named type, with nothing made per check.
  const { fields, atLeast, startsWith } = m;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (!sameJson(e[f[0]], f[1])) return false;
  }
  for (let i = 0; i < atLeast.length; i++) {
    const f = atLeast[i]!;
    if (!(Number(readEventPath(e, f[0])) >= f[1])) return false;
  }
  for (let i = 0; i < startsWith.length; i++) {
    const f = startsWith[i]!;
    if (!String(readEventPath(e, f[0]) ?? '').startsWith(f[1])) return false;
  }
  return true;
}

function sameJson(a: unknown, b: Json): boolean {
  if (a === b) return true;
  if (typeof b !== 'object' || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

export function emptyTally(roster: readonly string[], plan: SimPlan): SimTally {
  const metrics: SimTally['metrics'] = {};
  const attackHistogram: SimTally['attackHistogram'] = {};
  for (const id of roster) {
    metrics[id] = {
      turns: emptySums(),
      actions: emptySums(),
      attacks: emptySums(),
      forfeits: emptySums(),
      first: emptySums(),
      carry: emptySums(),
    };
    attackHistogram[id] = new Array<number>(HIST_MAX + 1).fill(0);
  }
  const resources: SimTally['resources'] = {};
  for (const name of Object.keys(plan.sim.resources)) {
    resources[name] = {};
    for (const id of roster)
      resources[name][id] = { spent: emptySums(), out: emptySums(), first: emptySums() };
  }
  const events: SimTally['events'] = {};
  for (const name of Object.keys(plan.sim.events)) events[name] = emptySums();
  return {
    path: 'engine',
    reason: '',
    trials: 0,
    rounds: 0,
    combatantRounds: 0,
    commands: 0,
    refused: {},
    refusedRules: {},
    metrics,
    events,
    questions: plan.sim.questions.map(() => emptySums()),
    attackHistogram,
    resources,
  };
}

/** Adds `from` into `into` (integers only: exact in any order). */
export function mergeTally(into: SimTally, from: SimTally): void {
  into.trials += from.trials;
  into.rounds += from.rounds;
  into.combatantRounds += from.combatantRounds;
  into.commands += from.commands;
  for (const [code, n] of Object.entries(from.refused)) into.refused[code] = (into.refused[code] ?? 0) + n;
  for (const [key, r] of Object.entries(from.refusedRules)) {
    const seen = into.refusedRules[key];
    if (!seen) into.refusedRules[key] = { ...r };
    else {
      seen.count += r.count;
      if (r.message < seen.message) seen.message = r.message;
    }
  }
  for (const [id, m] of Object.entries(from.metrics)) {
    for (const k of METRICS) mergeSums(into.metrics[id]![k], m[k]);
  }
  for (const [name, s] of Object.entries(from.events)) mergeSums(into.events[name]!, s);
  from.questions.forEach((s, i) => {
    mergeSums(into.questions[i]!, s);
  });
  for (const [name, byId] of Object.entries(from.resources)) {
    for (const [id, r] of Object.entries(byId)) {
      for (const k of RESOURCE_FIGURES) mergeSums(into.resources[name]![id]![k], r[k]);
    }
  }
  for (const [id, h] of Object.entries(from.attackHistogram)) {
    const t = into.attackHistogram[id]!;
    h.forEach((n, k) => {
      t[k]! += n;
    });
  }
}

/** What an event type is to this plan's counts: its kind and the named events that may match it. */
interface TypeInfo {
  kind: EventKind;
  matchers: readonly Matcher[] | undefined;
}

/** `typeInfo` for a plan's matchers: each type's answer made once. */
function typeInfos(matchersByType: ReadonlyMap<string, Matcher[]>): (type: string) => TypeInfo {
  const known = new Map<string, TypeInfo>();
  return (type) => {
    let info = known.get(type);
    if (info === undefined) {
      info = { kind: kindOf(type), matchers: matchersByType.get(type) };
      if (known.size < 10_000) known.set(type, info);
    }
    return info;
  };
}

/** What an event type is to the counts, by its name's ending (`<ruleset>/attack`…). */
const EventKind = { Other: 0, TurnStarted: 1, Attack: 2, Forfeit: 3, Acted: 4, Reacted: 5 } as const;
type EventKind = (typeof EventKind)[keyof typeof EventKind];

/** Event types seen, classified once each (a simulation sees a few dozen types millions of times). */
const KINDS = new Map<string, EventKind>();

function kindOf(type: string): EventKind {
  let kind = KINDS.get(type);
  if (kind === undefined) {
    kind =
      type === 'turn/started'
        ? EventKind.TurnStarted
        : type.endsWith('/attack')
          ? EventKind.Attack
          : type.endsWith('/attack-forfeited')
            ? EventKind.Forfeit
            : type.endsWith('/acted')
              ? EventKind.Acted
              : type.endsWith('/reacted')
                ? EventKind.Reacted
                : EventKind.Other;
    if (KINDS.size < 10_000) KINDS.set(type, kind);
  }
  return kind;
}

/** One trial's running counts. */
class Trial {
  state: EncounterState;
  /** The round being counted; 0 before the fight starts. */
  round = 0;
  rounds = 0;
  combatantRounds = 0;
  commands = 0;
  position = 0;
  /** Per combatant per metric: count over the trial and in the current round. */
  readonly trialCounts = new Map<string, Record<Metric, number>>();
  readonly roundAttacks = new Map<string, number>();
  firstThisRound: string | null = null;
  /** Per named event, by its matcher's index: its matches in the trial and in the round. */
  readonly eventTrial: number[];
  readonly eventRound: number[];
  /** Each named event's count for its rate: every match, or the nth of each round when `nth` is named. */
  readonly eventCount: number[];
  /** Where each named event's nth occurrence fell, in the round and in the trial (-1: not yet). */
  readonly atRound: number[];
  readonly atTrial: number[];
  /** Each question's order as matcher indexes (-1: a name no event has). */
  readonly questionOrder: number[][];
  readonly questionRounds: number[];
  /** Each event's type, looked up once per event of the command being counted (reused from command to command). */
  readonly infos: TypeInfo[] = [];
  /** The last command's events (what an `on: others` rule answers). */
  last: readonly EngineEvent[] = [];
  /** Uses of each combatant's `on: others` rules in the round they were used in. */
  readonly answered = new Map<string, { round: number; used: number[] }>();
  /** The round whose plans were sent. */
  planned = -1;
  /** Per resource, per combatant: the last value seen, spent so far, and when it ran out (-1: not yet). */
  readonly held: Array<{
    name: string;
    path: string | undefined;
    rising: boolean;
    limit: number;
    last: number[];
    spent: number[];
    outAt: number[];
  }>;
  outs = 0;

  /**
   * The trial holds its states alone and keeps only the latest (`before` in `exec` is compared, never
   * read): each command's events are folded in place into what earlier commands' folds made, the state
   * object itself included, so a changed state may be the same object as before.
   */
  decideOptions = { draft: newDraft() };
  /**
   * Counts the states this trial has been in: a command accepted (or a trial begun) moves it on. What is
   * worked out per state (a combatant's legal actions) is kept by it, not by the state object's identity.
   */
  version = 0;

  constructor(
    readonly p: Prepared,
    readonly plan: SimPlan,
    readonly limit: number,
    readonly tally: SimTally,
    seed: number,
  ) {
    this.state = { ...p.base, dice: seededDice(seed) };
    for (const id of p.roster) {
      this.trialCounts.set(id, { turns: 0, actions: 0, attacks: 0, forfeits: 0, first: 0, carry: 0 });
      this.roundAttacks.set(id, 0);
    }
    this.questionRounds = plan.sim.questions.map(() => 0);
    const n = p.matchers.length;
    this.eventTrial = new Array<number>(n).fill(0);
    this.eventRound = new Array<number>(n).fill(0);
    this.eventCount = new Array<number>(n).fill(0);
    this.atRound = new Array<number>(n).fill(-1);
    this.atTrial = new Array<number>(n).fill(-1);
    const byName = new Map(p.matchers.map((m) => [m.name, m.index]));
    this.questionOrder = plan.sim.questions.map((q) => q.order.map((name) => byName.get(name) ?? -1));
    this.held = Object.entries(plan.sim.resources).map(([name, r]) => ({
      name,
      path: r.cs,
      rising: r.atLeast !== undefined,
      limit: r.atLeast ?? r.atMost ?? 0,
      last: p.roster.map((id) => this.valueOf(id, r.cs)),
      spent: p.roster.map(() => 0),
      outAt: p.roster.map(() => -1),
    }));
  }

  /**
   * Makes this the next trial, from `seed`, exactly as a new `Trial` would start (a run of trials reuses
   * one: its maps and counts are cleared, not made again for every trial).
   */
  reset(seed: number): void {
    this.state = { ...this.p.base, dice: seededDice(seed) };
    this.round = 0;
    this.rounds = 0;
    this.combatantRounds = 0;
    this.commands = 0;
    this.position = 0;
    for (const counts of this.trialCounts.values()) for (const k of METRICS) counts[k] = 0;
    for (const id of this.roundAttacks.keys()) this.roundAttacks.set(id, 0);
    this.firstThisRound = null;
    this.eventTrial.fill(0);
    this.eventRound.fill(0);
    this.eventCount.fill(0);
    this.atRound.fill(-1);
    this.atTrial.fill(-1);
    this.questionRounds.fill(0);
    this.last = [];
    this.answered.clear();
    this.legals.clear();
    this.planned = -1;
    this.p.roster.forEach((id, i) => {
      for (const h of this.held) {
        h.last[i] = this.valueOf(id, h.path);
        h.spent[i] = 0;
        h.outAt[i] = -1;
      }
    });
    this.outs = 0;
    this.decideOptions = { draft: newDraft() };
    this.version++;
  }

  /** A followed resource's value: a path in the ruleset state, or (no path) the hit points. */
  valueOf(id: string, path: string | undefined): number {
    const c = this.state.combatants[id];
    const v = path === undefined ? c?.hp?.current : readEventPath(c?.cs, path);
    return typeof v === 'number' ? v : Number.NaN;
  }

  /** After a command: each followed resource's change, and who ran out (in the order they did). */
  follow(): void {
    for (const h of this.held) {
      this.p.roster.forEach((id, i) => {
        const v = this.valueOf(id, h.path);
        const was = h.last[i]!;
        if (Number.isFinite(v) && Number.isFinite(was)) {
          const change = h.rising ? v - was : was - v;
          if (change > 0 && this.round >= 1 && this.round <= this.limit) h.spent[i]! += change;
        }
        h.last[i] = v;
        const out = h.rising ? v >= h.limit : v <= h.limit;
        if (out && h.outAt[i] === -1 && this.round >= 1) h.outAt[i] = this.outs++;
      });
    }
  }

  count(id: string, metric: Metric, n = 1): void {
    const c = this.trialCounts.get(id);
    if (c) c[metric] += n;
    if (metric === 'attacks' && this.roundAttacks.has(id))
      this.roundAttacks.set(id, this.roundAttacks.get(id)! + n);
  }

  /** Closes the round being counted: histograms and per-round questions. */
  endRound(): void {
    if (this.round < 1) return;
    // Indexed loops: once a round, with nothing made for them.
    const roster = this.p.roster;
    for (let i = 0; i < roster.length; i++) {
      const id = roster[i]!;
      const n = this.roundAttacks.get(id);
      if (n === undefined) continue;
      this.tally.attackHistogram[id]![Math.min(n, HIST_MAX)]!++;
      this.roundAttacks.set(id, 0);
    }
    const questions = this.plan.sim.questions;
    for (let i = 0; i < questions.length; i++) {
      const q = questions[i]!;
      if (q.per === 'round' && inOrder(this.questionOrder[i]!, this.atRound, q.missingIsLate))
        this.questionRounds[i]!++;
    }
    this.eventRound.fill(0);
    this.atRound.fill(-1);
  }

  startRound(round: number): void {
    this.endRound();
    this.round = round;
    this.rounds++;
    this.firstThisRound = null;
    for (const id of this.p.roster) if (this.state.combatants[id]!.active) this.combatantRounds++;
  }

  /**
   * The round the fight is in; for a roundless clock, the stretch of time standing in for one
   * (`ClockSpec.periods`: ticks 0–9, 10–19… of a tick timeline), 0 before the clock runs.
   */
  roundNow(): number {
    const periods = this.p.ruleset.clock.periods;
    if (!periods) return this.state.round;
    return this.state.now ? periods.of(this.state.now) : 0;
  }

  /**
   * Counts one event of a command, in `round` (where the clock stood after it; the state is the one the
   * whole command settled to). Returns attacks it names for `actor`.
   */
  observe(
    e: EngineEvent,
    info: TypeInfo,
    actor: string | undefined,
    named: ReadonlySet<string> | undefined,
    round: number,
  ): number {
    if (round > this.limit || round < 1) return 0;
    // A stretch of ticks nobody acted in still counts, with nothing in it (rounds come one by one).
    while (this.round < round) this.startRound(this.round + 1);
    this.position++;
    const who = typeof e.combatant === 'string' ? e.combatant : undefined;
    let attacks = 0;
    const kind = who === undefined ? EventKind.Other : info.kind;
    if (kind === EventKind.TurnStarted && who) {
      this.count(who, 'turns');
      if (this.firstThisRound === null) {
        this.firstThisRound = who;
        this.count(who, 'first');
      }
    } else if (kind === EventKind.Attack && who) {
      this.count(who, 'attacks');
      if (who === actor) attacks++;
    } else if (kind === EventKind.Forfeit && who) this.count(who, 'forfeits');
    else if (
      who &&
      (kind === EventKind.Acted || kind === EventKind.Reacted) &&
      !named?.has(who) &&
      this.p.attack.get(String(e.action ?? e.reaction)) === true
    ) {
      // An action taken that the ruleset declares an attack, where no event names the attacks themselves.
      this.count(who, 'attacks');
      if (who === actor) attacks++;
    }
    // Carry-over: an action taken that continues into the next round or turn (`<ruleset>/acted` with
    // Marks or seconds carried: tara-corax's spell going off past Mark 1, six-second's action past the
    // turn's last second).
    if (who && kind === EventKind.Acted) {
      const carried = e.carryOver ?? e.carry;
      if (typeof carried === 'number' && carried > 0) this.count(who, 'carry');
    }
    const matchers = info.matchers;
    if (matchers) {
      for (const m of matchers) {
        if (!matches(m, e)) continue;
        const k = m.index;
        const inRound = ++this.eventRound[k]!;
        const inTrial = ++this.eventTrial[k]!;
        if (inRound === m.nth) this.atRound[k] = this.position;
        if (inTrial === m.nth) this.atTrial[k] = this.position;
        if (!m.onlyNth || inRound === m.nth) {
          let add = 1;
          if (m.sum !== undefined) {
            const v = readEventPath(e, m.sum);
            add = typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : 0;
          }
          this.eventCount[k]! += add;
        }
      }
    }
    return attacks;
  }

  /**
   * Decides and applies a command; returns the attacks its events name for the actor, or the refusal.
   * `taken`: the command is `actor`'s choice, counted as an action (act, react, interrupt) once accepted,
   * in the round it is taken in (before its events are applied: they may move the clock on — on a tick
   * timeline, to the next marker, in the next stretch of ticks).
   */
  exec(command: Command, actor?: string, taken = false): number | Rejection {
    // The engine settles the command's events into the state it returns: folding them again here would
    // apply every event twice. The round (or stretch of ticks) each event falls in is read off the events.
    // What the clock said before the command is read first: the fold may write the state object in place.
    const type = command.type;
    const counted =
      taken && actor !== undefined && (type === 'act' || type === 'react' || type === 'interrupt');
    const takenIn = counted ? this.roundNow() : 0;
    let round = this.state.round;
    let now = this.state.now;
    const settled = decideSettled(this.state, command, this.p.registry, this.decideOptions);
    this.commands++;
    if (!isSettled(settled)) {
      // A command stopped part-way through its fold (a rule looping, a ruleset's internal error) may have
      // changed the trial's state in place: the trial ends there, its refusal counted as always.
      if (this.decideOptions.draft.spoiled) {
        this.state = { ...this.state, status: 'ended', current: null };
        this.version++;
      }
      return settled;
    }
    const events = settled.events;
    if (counted && takenIn <= this.limit && takenIn >= 1) this.count(actor, 'actions');
    // Who has attacks named by their own events in this command (tara-corax's one per blow): their
    // `<ruleset>/acted` is not counted again as an attack.
    let named: Set<string> | undefined;
    const infos = this.infos;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const info = this.p.typeInfo(e.type);
      infos[i] = info;
      if (typeof e.combatant !== 'string' || info.kind !== EventKind.Attack) continue;
      named ??= new Set();
      named.add(e.combatant);
    }
    const periods = this.p.ruleset.clock.periods;
    const before = this.state;
    this.state = settled.state;
    let attacks = 0;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (e.type === 'round/started' && typeof e.round === 'number') round = e.round;
      else if (e.type === 'clock/advanced' && e.to) now = e.to as Instant;
      attacks += this.observe(e, infos[i]!, actor, named, periods ? (now ? periods.of(now) : 0) : round);
    }
    this.last = events;
    if (this.held.length) this.follow();
    // As the log would: `seq` counts the events, and rulesets number new agenda entries from it
    // (`newId`), so without it two commands' entries share an id and reaching one removes both. A state
    // the fold made is this trial's alone (the engine hands it over and keeps nothing): its count is set
    // in place (under the trial's draft, possibly the very object the command started from); the state
    // the command started from, unchanged and not the draft's, is copied.
    if (
      draftOwns(this.decideOptions.draft, this.state) ||
      (this.state !== before && this.state !== this.p.base)
    )
      this.state.seq += events.length;
    else this.state = { ...this.state, seq: this.state.seq + events.length };
    this.version++;
    return attacks;
  }

  refused(r: Rejection, by?: string): void {
    this.tally.refused[r.code] = (this.tally.refused[r.code] ?? 0) + 1;
    if (by === undefined) return;
    const key = `${by}: ${r.code}`;
    const seen = this.tally.refusedRules[key];
    if (!seen) this.tally.refusedRules[key] = { count: 1, message: r.message };
    else {
      seen.count++;
      // The same message whichever thread saw it first: the smallest.
      if (r.message < seen.message) seen.message = r.message;
    }
  }

  sideDown(): boolean {
    let pcs = 0;
    let npcs = 0;
    for (const id of this.p.roster) {
      const c = this.state.combatants[id]!;
      if (!c.active) continue;
      if (c.side === 'pc') pcs++;
      else npcs++;
    }
    return pcs === 0 || npcs === 0;
  }

  /**
   * The actor's legal actions, asked once per state (a policy's rules look at them in turn); a rule that
   * picks among some actions only asks about those (`only`), unless the whole list is known already.
   */
  legalFor(actor: string): (only?: (action: ActionDef) => boolean) => readonly LegalAction[] {
    // One per combatant per trial: it asks again whenever the state has changed.
    let legal = this.legals.get(actor);
    if (legal === undefined) {
      legal = this.newLegal(actor);
      this.legals.set(actor, legal);
    }
    return legal;
  }

  readonly legals = new Map<string, (only?: (action: ActionDef) => boolean) => readonly LegalAction[]>();

  newLegal(actor: string): (only?: (action: ActionDef) => boolean) => readonly LegalAction[] {
    let seen = -1;
    let list: readonly LegalAction[] = [];
    return (only) => {
      // Lean: a policy reads only whether each candidate is enabled (no sentences, no previews).
      if (only && seen !== this.version) return this.p.ruleset.legalActions(this.state, actor, only, true);
      if (seen !== this.version) {
        seen = this.version;
        list = this.p.ruleset.legalActions(this.state, actor);
      }
      return list;
    };
  }

  /** Sends a policy's choice; counts it, or its refusal under the rule that asked for it. */
  send(actor: string, choice: Choice, rng: StateRng): boolean {
    const result = this.exec(choice.command, actor, true);
    if (isRejection(result)) {
      const policy = this.p.policies.get(actor) ?? DEFAULT_POLICY;
      this.refused(result, ruleLabel(actor, choice.rule, policy[choice.rule]!));
      return false;
    }
    if (choice.damage && choice.target) this.hit(choice.target, choice.damage, rng);
    return true;
  }

  /**
   * Plays the actor's turn by its policy. Returns whether the turn passed by itself (on a tick timeline
   * acting ends it and the next one begins at once, the actor's own next one when its marker is still
   * the lowest): then no "next" is due. After each command the others may answer it (`on: others`).
   */
  turn(actor: string, rng: StateRng, depth = 0): boolean {
    const policy = this.p.policies.get(actor) ?? DEFAULT_POLICY;
    const used = new Array<number>(policy.length).fill(0);
    let acts = 0;
    const began = this.state.combatants[actor]?.turnsStarted;
    const passed = () => this.state.current !== actor || this.state.combatants[actor]?.turnsStarted !== began;
    const legal = this.legalFor(actor);
    // A guard against policies of free actions that never stop; `times` bounds each rule anyway.
    for (let guard = 0; guard < 200; guard++) {
      if (passed() || this.state.status !== 'running') return passed();
      const choice: Choice | undefined = choose(
        this.state,
        actor,
        policy,
        legal,
        used,
        acts,
        rng,
        'turn',
        this.last,
        depth > 0,
      );
      if (!choice) return false;
      used[choice.rule]!++;
      if (!this.send(actor, choice, rng)) continue;
      acts++;
      if (depth === 0 && this.p.answering) this.answer(actor, rng);
    }
    return passed();
  }

  /**
   * After a command on `actor`'s turn, each other combatant with rules for someone else's turn may
   * answer it (a reaction its trigger allows, a delayed turn taken now), in roster order. A delayed turn
   * taken this way is played at once, and ended unless it passed by itself.
   */
  answer(actor: string, rng: StateRng): void {
    const events = this.last;
    for (const id of this.p.roster) {
      if (id === actor || this.state.status !== 'running') continue;
      const policy = this.p.policies.get(id) ?? DEFAULT_POLICY;
      if (!this.p.answers.has(id) || !this.state.combatants[id]?.active) continue;
      const used = this.usedThisRound(id, policy.length);
      const legal = this.legalFor(id);
      for (let guard = 0; guard < 20; guard++) {
        const choice = choose(this.state, id, policy, legal, used, 0, rng, 'others', events);
        if (!choice) break;
        used[choice.rule]!++;
        if (!this.send(id, choice, rng)) continue;
        if (this.state.current === id && this.state.status === 'running') {
          const passed = this.turn(id, rng, 1);
          if (!passed && this.state.status === 'running' && this.state.current === id) {
            const r = this.exec(NEXT);
            if (isRejection(r)) this.refused(r);
          }
        }
        break;
      }
    }
  }

  /** Uses of an `on: others` rule count per round (a reaction a round), kept per combatant. */
  usedThisRound(id: string, n: number): number[] {
    // A roundless clock's stretch of time (tick: 10 ticks) stands in for the round.
    const key = this.roundNow();
    let entry = this.answered.get(id);
    if (!entry || entry.round !== key) {
      entry = { round: key, used: new Array<number>(n).fill(0) };
      this.answered.set(id, entry);
    }
    return entry.used;
  }

  /**
   * While the clock waits for plans (nobody's turn in a running fight: tempo's planning), each active
   * combatant's planning rules are sent, in roster order, once a round.
   */
  planRound(rng: StateRng): void {
    if (this.planned === this.state.round) return;
    this.planned = this.state.round;
    for (const id of this.p.roster) {
      if (!this.p.planners.has(id) || !this.state.combatants[id]?.active) continue;
      const policy = this.p.policies.get(id) ?? DEFAULT_POLICY;
      const used = new Array<number>(policy.length).fill(0);
      const legal = this.legalFor(id);
      for (let guard = 0; guard < 50; guard++) {
        const choice = choose(this.state, id, policy, legal, used, 0, rng, 'planning');
        if (!choice) break;
        used[choice.rule]!++;
        this.send(id, choice, rng);
      }
    }
  }

  /**
   * The GM's command that rolls initiative (`start`, or a `next` with nobody's turn running), with the
   * fields the combatants' `on: roll` rules give, keyed by combatant (`delay: {ana: up}`).
   */
  withRoll(command: Command, rng: StateRng): Command {
    if (!this.p.rollers.size) return command;
    // Which rule each roller chose: the same choices make the same command, made once and frozen (the
    // engine checks a frozen command once).
    let key = '';
    const chosen: Array<[string, number]> = [];
    for (const id of this.p.roster) {
      if (!this.p.rollers.has(id) || !this.state.combatants[id]?.active) continue;
      const policy = this.p.policies.get(id)!;
      const choice = choose(this.state, id, policy, NO_LEGAL, [], 0, rng, 'roll');
      if (!choice) continue;
      chosen.push([id, choice.rule]);
      key += `${id}\u0000${choice.rule}\u0000`;
    }
    let byKey = this.p.rolled.get(command);
    if (byKey === undefined) {
      byKey = new Map();
      this.p.rolled.set(command, byKey);
    }
    let out = byKey.get(key);
    if (out === undefined) {
      out = { ...command };
      for (const [id, rule] of chosen) {
        for (const [k, v] of Object.entries(this.p.policies.get(id)![rule]!.with ?? {})) {
          const into = (out[k] ?? {}) as JsonObject;
          out[k] = { ...into, [id]: structuredClone(v) };
        }
      }
      out = deepFreeze(out);
      if (byKey.size >= 1000) byKey.clear();
      byKey.set(key, out);
    }
    return out;
  }

  hit(target: string, damage: string, rng: StateRng): void {
    const amount = Math.max(0, rollTotal(damage, rng));
    const r = this.exec({ type: 'damage', combatant: target, amount });
    if (isRejection(r)) {
      this.refused(r);
      return;
    }
    const c = this.state.combatants[target];
    if (c?.active && c.hp && c.hp.current <= 0) {
      const d = this.exec({ type: 'defeat', combatant: target });
      if (isRejection(d)) this.refused(d);
    }
  }

  run(rng: StateRng): void {
    for (const command of this.p.prelude) {
      const r = this.exec(command);
      if (isRejection(r)) this.refused(r);
    }
    if (this.state.status === 'setup') this.gm(START, rng);
    const untilEnd = this.plan.sim.until === 'end';
    for (let guard = 0; guard < 100_000; guard++) {
      if (this.state.status !== 'running' || this.roundNow() > this.limit) break;
      if (untilEnd && this.sideDown()) break;
      const actor = this.state.current;
      if (actor === null && this.p.planners.size) this.planRound(rng);
      const passed = actor ? this.turn(actor, rng) : false;
      if (this.state.status !== 'running' || (untilEnd && this.sideDown())) break;
      // A "next" after a turn that passed by itself would end the next combatant's turn unplayed.
      if (passed) continue;
      if (!this.gm(NEXT, rng)) break;
    }
    this.endRound();
    this.finish();
  }

  /** A GM's start or next; with nobody's turn running it rolls, and carries the `on: roll` choices. */
  gm(command: Command, rng: StateRng): boolean {
    if (this.p.rollers.size && this.mayRoll()) {
      const rolled = this.withRoll(command, rng);
      if (rolled !== command) {
        const round = this.state.round;
        const status = this.state.status;
        const r = this.exec(rolled);
        if (!isRejection(r)) return true;
        const plain = this.exec(command);
        if (isRejection(plain)) {
          this.refused(plain, `the GM's ${command.type}`);
          return false;
        }
        // The roll came and the choices were refused with it: counted under the roll. (A `next` that
        // only ended a round, the roll coming with the next one, refuses them too: not counted.)
        if (this.state.round !== round || this.state.status !== status)
          this.refused(r, 'the choices sent with the initiative roll');
        return true;
      }
    }
    const r = this.exec(command);
    if (isRejection(r)) {
      // The fight stops here: said under the GM's command, with the rules' words (tempo without
      // planning rules: "planning/incomplete").
      this.refused(r, `the GM's ${command.type}`);
      return false;
    }
    return true;
  }

  /** Whether the GM's command may roll initiative: the fight starts, or nothing is left this round. */
  mayRoll(): boolean {
    const s = this.state;
    if (s.status === 'setup' || s.current === null) return true;
    return !s.agenda.some((e) => e.at.round === s.round);
  }

  finish(): void {
    const t = this.tally;
    t.trials++;
    t.rounds += this.rounds;
    t.combatantRounds += this.combatantRounds;
    t.commands += this.commands;
    for (const [id, counts] of this.trialCounts) {
      for (const k of METRICS) addTrial(t.metrics[id]![k], counts[k], this.rounds);
    }
    for (const m of this.p.matchers) addTrial(t.events[m.name]!, this.eventCount[m.index]!, this.rounds);
    this.plan.sim.questions.forEach((q, i) => {
      if (q.per === 'round') addTrial(t.questions[i]!, this.questionRounds[i]!, this.rounds);
      else
        addTrial(t.questions[i]!, inOrder(this.questionOrder[i]!, this.atTrial, q.missingIsLate) ? 1 : 0, 1);
    });
    for (const h of this.held) {
      const firstOut = Math.min(...h.outAt.filter((o) => o >= 0));
      this.p.roster.forEach((id, i) => {
        const r = t.resources[h.name]![id]!;
        addTrial(r.spent, h.spent[i]!, this.rounds);
        addTrial(r.out, h.outAt[i]! >= 0 ? 1 : 0, 1);
        addTrial(r.first, h.outAt[i]! >= 0 && h.outAt[i] === firstOut ? 1 : 0, 1);
      });
    }
  }
}

/**
 * Whether the named events (matcher indexes; -1 for none) fell in this order, by where each fell in
 * `at` (-1: not yet); a missing one counts as last when `missingIsLate`, else fails the order.
 */
function inOrder(order: readonly number[], at: readonly number[], missingIsLate: boolean): boolean {
  let last = -1;
  for (let i = 0; i < order.length; i++) {
    const k = order[i]!;
    const fell = k < 0 ? -1 : at[k]!;
    const p = fell >= 0 ? fell : missingIsLate ? Number.POSITIVE_INFINITY : undefined;
    if (p === undefined || p <= last) return false;
    last = p;
  }
  return true;
}

/** Policy targets whose existence does not change during a fight in which nobody is defeated. */
const STATIC_TARGETS = new Set(['enemy', 'weakest-enemy', 'random-enemy', 'ally', 'self']);

/**
 * The ruleset's compiled Round for this plan (`Ruleset.analysis.kernel`), or the reason the plan needs
 * the engine. Before asking the ruleset: the scenario only starts the fight, has no custom actions, every
 * combatant is active, and no events or questions are named (a compiled Round counts only its figures).
 */
function kernelFor(p: Prepared, plan: SimPlan): SimulationKernel | string {
  const compile = p.ruleset.analysis?.kernel;
  if (!compile) return `${p.ruleset.name} has no compiled Round; the engine plays every trial`;
  const { sim } = plan;
  if (p.matchers.length || sim.questions.length) return 'the scenario names events or questions';
  if (Object.keys(sim.resources).length) return 'the scenario follows resources';
  if (p.base.customActions.length) return 'the scenario defines custom actions';
  if (p.base.status !== 'setup' || p.base.agenda.length || p.base.effects.length)
    return 'the encounter is not a fresh one';
  if (p.prelude.length > 1 || p.prelude.some((c) => c.type !== 'start' || Object.keys(c).length !== 1))
    return 'the scenario sends commands other than a plain "start"';
  const combatants = p.roster.map((id) => p.base.combatants[id]!);
  if (combatants.some((c) => !c.active)) return 'a combatant starts out of the fight';
  if (sim.until === 'end') {
    const pcs = combatants.filter((c) => c.side === 'pc').length;
    if (pcs === 0 || pcs === combatants.length) return 'until: end with one side empty';
  }
  const rules: Record<string, KernelRule[]> = {};
  const canAct: Record<string, boolean> = {};
  for (const c of combatants) {
    const policy = p.policies.get(c.id)!;
    rules[c.id] = policy.map((rule) => ({
      ...(rule.action !== undefined ? { action: rule.action } : {}),
      ...(rule.tag !== undefined ? { tag: rule.tag } : {}),
      ...(rule.kind !== undefined ? { kind: rule.kind } : {}),
      ...(rule.target !== undefined ? { target: rule.target } : {}),
      times: rule.times,
      conditional: Boolean(
        rule.when || rule.with || rule.damage !== undefined || rule.command !== undefined || rule.on,
      ),
    }));
    const t = policy[0]?.target;
    let can = true;
    if (t !== undefined) {
      if (!STATIC_TARGETS.has(t)) can = p.roster.includes(t);
      else if (t === 'ally') can = combatants.some((o) => o.id !== c.id && o.side === c.side);
      else if (t !== 'self') can = combatants.some((o) => o.side !== c.side);
    }
    canAct[c.id] = can;
  }
  return compile({ state: p.base, rules, canAct });
}

/** Figures per combatant in a compiled Round's output, and where its attacks are. */
const KERNEL_FIELDS = KERNEL_METRICS.length;
const KERNEL_ATTACKS = KERNEL_METRICS.indexOf('attacks');

/** A plan ready to run: prepared once (per thread), then asked for any ranges of trials. */
export interface Simulator {
  readonly path: SimPath;
  /** Why the engine runs the trials (empty with the kernel). */
  readonly reason: string;
  readonly roster: readonly string[];
  /** Adds trials `from` (inclusive) to `to` (exclusive) of the run seeded with `seed` to `tally`. */
  run(tally: SimTally, seed: number, from: number, to: number, onProgress?: (done: number) => void): void;
}

export function createSimulator(
  plan: SimPlan,
  registry: RulesetRegistry,
  opts: { engine?: boolean } = {},
): Simulator | Rejection {
  const p = prepare(plan, registry);
  if (isRejection(p)) return p;
  const limit = plan.sim.until === 'end' ? plan.sim.maxRounds : plan.sim.rounds;
  const kernel = opts.engine ? 'asked for the engine' : kernelFor(p, plan);
  if (typeof kernel !== 'string') return kernelSimulator(p, kernel, limit);
  return {
    path: 'engine',
    reason: kernel,
    roster: p.roster,
    run(tally, seed, from, to, onProgress) {
      tally.path = 'engine';
      tally.reason = kernel;
      let trial: Trial | undefined;
      for (let i = from; i < to; i++) {
        const s = trialSeed(seed, i);
        if (trial === undefined) trial = new Trial(p, plan, limit, tally, s);
        else trial.reset(s);
        trial.run(new StateRng(seededDice(s ^ 0x5eed5eed)));
        if (onProgress && (i - from + 1) % 256 === 0) onProgress(i - from + 1);
      }
      onProgress?.(to - from);
    },
  };
}

/**
 * One compiled trial's end, as the engine's trial ends: its rounds, combatant-rounds and commands
 * counted, and each combatant's figures added to the sums (nothing carries over in a compiled trial: no
 * one there casts across a round).
 */
function closeKernelTrial(
  tally: SimTally,
  sums: Sums[][],
  trial: Int32Array,
  rounds: number,
  commands: number,
): void {
  const n = sums.length;
  tally.trials++;
  tally.rounds += rounds;
  tally.combatantRounds += n * rounds;
  tally.commands += commands;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < KERNEL_FIELDS; k++) addTrial(sums[i]![k]!, trial[i * KERNEL_FIELDS + k]!, rounds);
    addTrial(sums[i]![KERNEL_FIELDS]!, 0, rounds);
  }
}

/**
 * Trials through the compiled Round: the same dice as the engine (the encounter's seeded generator),
 * the same counts, the same sums, in the same order — so the tally is identical, only faster.
 */
function kernelSimulator(p: Prepared, kernel: SimulationKernel, limit: number): Simulator {
  if (kernel.trial !== undefined) return trialKernelSimulator(p, kernel, limit);
  const roundKernel = kernel;
  const n = p.roster.length;
  const round = new Int32Array(n * KERNEL_FIELDS);
  const trial = new Int32Array(n * KERNEL_FIELDS);
  return {
    path: 'kernel',
    reason: '',
    roster: p.roster,
    run(tally, seed, from, to, onProgress) {
      tally.path = 'kernel';
      tally.reason = '';
      const sums = p.roster.map((id) => METRICS.map((k) => tally.metrics[id]![k]));
      const histograms = p.roster.map((id) => tally.attackHistogram[id]!);
      for (let t = from; t < to; t++) {
        const rng = seededRng(trialSeed(seed, t));
        trial.fill(0);
        // `start`, then per Round: the policy's actions and a `next` per entry, to end it and to roll on.
        let commands = 1;
        for (let r = 0; r < limit; r++) {
          round.fill(0);
          const entries = roundKernel.round(rng, round);
          commands += Math.max(entries, 1) + 1;
          for (let i = 0; i < n; i++) {
            const o = i * KERNEL_FIELDS;
            commands += round[o + 1]!;
            for (let k = 0; k < KERNEL_FIELDS; k++) trial[o + k]! += round[o + k]!;
            const a = round[o + KERNEL_ATTACKS]!;
            histograms[i]![Math.min(a, HIST_MAX)]!++;
          }
        }
        closeKernelTrial(tally, sums, trial, limit, commands);
        if (onProgress && (t - from + 1) % 4096 === 0) onProgress(t - from + 1);
      }
      onProgress?.(to - from);
    },
  };
}

/**
 * Trials through a compiled timeline that plays whole trials (`TrialKernel`: tick's, whose turns end by
 * themselves and whose rounds are stretches of ticks): the same dice, counts and sums as the engine's,
 * round by round for the histograms, over the rounds the engine's trial counts.
 */
function trialKernelSimulator(p: Prepared, kernel: TrialKernel, limit: number): Simulator {
  const n = p.roster.length;
  const perRound = new Int32Array(limit * n * KERNEL_FIELDS);
  const trial = new Int32Array(n * KERNEL_FIELDS);
  return {
    path: 'kernel',
    reason: '',
    roster: p.roster,
    run(tally, seed, from, to, onProgress) {
      tally.path = 'kernel';
      tally.reason = '';
      const sums = p.roster.map((id) => METRICS.map((k) => tally.metrics[id]![k]));
      const histograms = p.roster.map((id) => tally.attackHistogram[id]!);
      for (let t = from; t < to; t++) {
        const rng = seededRng(trialSeed(seed, t));
        perRound.fill(0);
        trial.fill(0);
        const { rounds, commands } = kernel.trial(rng, limit, perRound);
        for (let r = 0; r < rounds; r++) {
          for (let i = 0; i < n; i++) {
            const o = (r * n + i) * KERNEL_FIELDS;
            for (let k = 0; k < KERNEL_FIELDS; k++) trial[i * KERNEL_FIELDS + k]! += perRound[o + k]!;
            histograms[i]![Math.min(perRound[o + KERNEL_ATTACKS]!, HIST_MAX)]!++;
          }
        }
        closeKernelTrial(tally, sums, trial, rounds, commands);
        if (onProgress && (t - from + 1) % 4096 === 0) onProgress(t - from + 1);
      }
      onProgress?.(to - from);
    },
  };
}

/**
 * Runs trials `from` (inclusive) to `to` (exclusive) of a simulation seeded with `seed`. Pure apart
 * from the progress callback: the same arguments give the same tally, whichever path runs them
 * (`engine: true` forces the engine).
 */
export function runTrials(
  plan: SimPlan,
  registry: RulesetRegistry,
  seed: number,
  from: number,
  to: number,
  onProgress?: (done: number) => void,
  opts: { engine?: boolean } = {},
): SimTally | Rejection {
  const sim = createSimulator(plan, registry, opts);
  if (isRejection(sim)) return sim;
  const tally = emptyTally(sim.roster, plan);
  sim.run(tally, seed, from, to, onProgress);
  return tally;
}

/** The roster ids a scenario's combatants get (the engine numbers those without an id). */
export function rosterOf(plan: SimPlan, registry: RulesetRegistry): string[] | Rejection {
  const p = prepare(plan, registry);
  return isRejection(p) ? p : p.roster;
}
/**
 * One thread's part of a run split over threads: the trials are handed out in chunks from a counter
 * in shared memory (`counters[0]`: the next trial to take; `counters[1]`: trials done), so a thread
 * that starts late or runs slower simply takes fewer chunks and all threads finish together.
 */
export interface ShareData {
  plan: SimPlan;
  seed: number;
  trials: number;
  chunk: number;
  engine: boolean;
  counters: SharedArrayBuffer;
}

export function runShare(
  data: ShareData,
  registry: RulesetRegistry,
  onChunk?: (done: number) => void,
  /** Asked after each chunk: true ends this share early (the other trials stay for whoever takes them). */
  enough?: () => boolean,
): SimTally | Rejection {
  const sim = createSimulator(data.plan, registry, { engine: data.engine });
  if (isRejection(sim)) return sim;
  const tally = emptyTally(sim.roster, data.plan);
  const counters = new Int32Array(data.counters);
  for (;;) {
    const from = Atomics.add(counters, 0, data.chunk);
    if (from >= data.trials) break;
    const to = Math.min(from + data.chunk, data.trials);
    sim.run(tally, data.seed, from, to);
    onChunk?.(Atomics.add(counters, 1, to - from) + (to - from));
    if (enough?.()) break;
  }
  if (tally.trials === 0) sim.run(tally, data.seed, 0, 0);
  return tally;
}
