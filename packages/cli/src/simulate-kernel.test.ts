import { fileURLToPath } from 'node:url';
import { isRejection, parseScenario } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSimulator,
  runTrials,
  type SimPlan,
  type SimTally,
  simulateSectionSchema,
} from './simulate.js';
import { loadPlan } from './simulate-command.js';

const statsArb = fc.record(
  {
    agility: fc.integer({ min: 0, max: 40 }),
    intellect: fc.integer({ min: 0, max: 40 }),
    initiative: fc.integer({ min: 0, max: 30 }),
    armorEvadeModifier: fc.integer({ min: -30, max: 30 }),
    initiativeModifier: fc.integer({ min: -12, max: 12 }),
    meleeAttacks: fc.integer({ min: 1, max: 5 }),
  },
  { requiredKeys: [] },
);

/** Random sheets, and a few shared ones so that full ties (same Score, Initiative, Agility, Intellect) are common. */
const sheetArb = fc.oneof(
  { weight: 1, arbitrary: statsArb },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { initiative: 10 },
      { agility: 6, intellect: 4, meleeAttacks: 2 },
      { initiative: 18, meleeAttacks: 5 },
    ),
  },
);

const ruleArb = fc.record(
  {
    pick: fc.constantFrom(
      { tag: 'attack' },
      { action: 'melee-attack' },
      { tag: 'attack', action: 'melee-attack' },
    ),
    target: fc.constantFrom(undefined, 'enemy', 'weakest-enemy', 'random-enemy', 'ally', 'self', 'c0', 'c3'),
    times: fc.integer({ min: 1, max: 3 }),
  },
  { requiredKeys: ['pick'] },
);

const planArb = fc.record({
  roundMode: fc.constantFrom('full', 'simple', 'very-simply'),
  explodingInitiative: fc.constantFrom('once', 'keep'),
  combatants: fc.array(fc.record({ side: fc.constantFrom('pc', 'npc'), stats: sheetArb }), {
    minLength: 1,
    maxLength: 7,
  }),
  policies: fc.dictionary(fc.constantFrom('default', 'c0', 'c1', 'c2'), ruleArb, { maxKeys: 3 }),
  rounds: fc.integer({ min: 1, max: 4 }),
  until: fc.constantFrom('rounds', 'end'),
  start: fc.boolean(),
});

type PlanArgs = typeof planArb extends fc.Arbitrary<infer T> ? T : never;

/** The simulate section of a generated plan: its rules for the combatants that exist, its rounds. */
function simOf(a: {
  combatants: readonly unknown[];
  policies: Record<string, { pick: object; target?: string | undefined; times?: number | undefined }>;
  rounds: number;
  until: string;
}): SimPlan['sim'] {
  const ids = new Set(a.combatants.map((_, i) => `c${i}`));
  const policies = Object.fromEntries(
    Object.entries(a.policies)
      .filter(([id]) => id === 'default' || ids.has(id))
      .map(([id, r]) => [id, [{ ...r.pick, ...(r.target ? { target: r.target } : {}), times: r.times }]]),
  );
  return simulateSectionSchema.parse({ rounds: a.rounds, until: a.until, maxRounds: a.rounds, policies });
}

function build(a: PlanArgs): SimPlan {
  const scenario = parseScenario({
    schema: 1,
    name: 'kernel-property',
    ruleset: 'tara-corax',
    options: { roundMode: a.roundMode, explodingInitiative: a.explodingInitiative },
    combatants: a.combatants.map((c, i) => ({
      id: `c${i}`,
      name: `C${i}`,
      side: c.side,
      hp: 10,
      stats: c.stats,
    })),
    commands: a.start ? [{ type: 'start' }] : [],
  });
  if (isRejection(scenario)) throw new Error(scenario.message);
  return { scenario, sim: simOf(a) };
}

const withoutPath = (t: SimTally) => ({ ...t, path: undefined, reason: undefined });

describe('simulate: the compiled Tara-Corax Round gives the engine’s results', () => {
  it('same dice, same per-trial counts: Initiative explosion, Full Round spacing, forfeits below Mark 1, ties, round modes', () => {
    fc.assert(
      fc.property(planArb, fc.integer(), fc.integer({ min: 0, max: 1000 }), (a, seed, from) => {
        const plan = build(a);
        const fast = createSimulator(plan, rulesets);
        if (isRejection(fast)) throw new Error(fast.message);
        // Until the end with one side empty is left to the engine; everything else here fits the kernel.
        const oneSide = new Set(a.combatants.map((c) => c.side === 'pc')).size === 1;
        expect(fast.path).toBe(a.until === 'end' && oneSide ? 'engine' : 'kernel');
        // One trial at a time: each trial's counts must be the same, not just their sums.
        for (let t = from; t < from + 3; t++) {
          const kernel = runTrials(plan, rulesets, seed, t, t + 1);
          const engine = runTrials(plan, rulesets, seed, t, t + 1, undefined, { engine: true });
          if (isRejection(kernel) || isRejection(engine)) throw new Error('rejected');
          expect(engine.path).toBe('engine');
          expect(withoutPath(kernel)).toEqual(withoutPath(engine));
        }
      }),
      { numRuns: 120 },
    );
  });

  it('the benchmark’s fight (6 combatants, Full Round, attacks) runs on the kernel with the engine’s sums over 60 trials', () => {
    const plan = build({
      roundMode: 'full',
      explodingInitiative: 'once',
      combatants: Array.from({ length: 6 }, (_, i) => ({
        side: i % 2 ? 'npc' : 'pc',
        stats: { agility: 6, intellect: 4, meleeAttacks: 1 + (i % 5) },
      })),
      policies: { default: { pick: { tag: 'attack' }, target: 'enemy', times: 10 } },
      rounds: 10,
      until: 'rounds',
      start: false,
    });
    const kernel = runTrials(plan, rulesets, 7, 0, 60);
    const engine = runTrials(plan, rulesets, 7, 0, 60, undefined, { engine: true });
    if (isRejection(kernel) || isRejection(engine)) throw new Error('rejected');
    expect(kernel.path).toBe('kernel');
    expect(withoutPath(kernel)).toEqual(withoutPath(engine));
  });

  it('falls back to the engine, and says why, when a policy does more than attack', () => {
    const plan = build({
      roundMode: 'full',
      explodingInitiative: 'once',
      combatants: [
        { side: 'pc', stats: {} },
        { side: 'npc', stats: {} },
      ],
      policies: {},
      rounds: 1,
      until: 'rounds',
      start: false,
    });
    plan.sim.policies = { c0: [{ action: 'move', with: { units: 3 }, times: 1 }] };
    const sim = createSimulator(plan, rulesets);
    if (isRejection(sim)) throw new Error(sim.message);
    expect(sim.path).toBe('engine');
    expect(sim.reason).toMatch(/c0's policy/);
  });
});

describe('simulate: the compiled classic round gives the engine’s results', () => {
  const classicArb = fc.record({
    initiativeDice: fc.constantFrom('1d20', '1d4', '2d3', '1d6!'),
    rerollEachRound: fc.boolean(),
    // Few modifiers, small dice: ties on total and modifier, and roll-offs, are common.
    combatants: fc.array(
      fc.record({ side: fc.constantFrom('pc', 'npc'), initiative: fc.integer({ min: -1, max: 2 }) }),
      { minLength: 2, maxLength: 6 },
    ),
    policies: fc.dictionary(
      fc.constantFrom('default', 'c0', 'c1', 'c2'),
      fc.record(
        {
          pick: fc.constantFrom({ tag: 'attack' }, { action: 'attack' }, { tag: 'attack', action: 'attack' }),
          target: fc.constantFrom(
            undefined,
            'enemy',
            'weakest-enemy',
            'random-enemy',
            'ally',
            'self',
            'c1',
            'c5',
          ),
          times: fc.integer({ min: 1, max: 3 }),
        },
        { requiredKeys: ['pick'] },
      ),
      { maxKeys: 3 },
    ),
    rounds: fc.integer({ min: 1, max: 4 }),
    until: fc.constantFrom('rounds', 'end'),
  });

  function classicPlan(a: typeof classicArb extends fc.Arbitrary<infer T> ? T : never): SimPlan {
    const scenario = parseScenario({
      schema: 1,
      name: 'classic-kernel',
      ruleset: 'classic',
      options: { initiativeDice: a.initiativeDice, rerollEachRound: a.rerollEachRound },
      combatants: a.combatants.map((c, i) => ({
        id: `c${i}`,
        name: `C${i}`,
        side: c.side,
        hp: 10,
        stats: { initiative: c.initiative },
      })),
    });
    if (isRejection(scenario)) throw new Error(scenario.message);
    return { scenario, sim: simOf(a) };
  }

  it('same dice, same per-trial counts: initiative dice, modifiers, roll-offs of ties, rerolling each round, targets', () => {
    fc.assert(
      fc.property(classicArb, fc.integer(), fc.integer({ min: 0, max: 1000 }), (a, seed, from) => {
        const plan = classicPlan(a);
        const fast = createSimulator(plan, rulesets);
        if (isRejection(fast)) throw new Error(fast.message);
        const oneSide = new Set(a.combatants.map((c) => c.side)).size === 1;
        expect(fast.path).toBe(a.until === 'end' && oneSide ? 'engine' : 'kernel');
        for (let t = from; t < from + 3; t++) {
          const kernel = runTrials(plan, rulesets, seed, t, t + 1);
          const engine = runTrials(plan, rulesets, seed, t, t + 1, undefined, { engine: true });
          if (isRejection(kernel) || isRejection(engine)) throw new Error('rejected');
          expect(withoutPath(kernel)).toEqual(withoutPath(engine));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('examples/simulate/classic-duel.yaml’s question needs the engine; its fight without the events runs compiled, with the same sums', () => {
    const plan = classicPlan({
      initiativeDice: '1d20',
      rerollEachRound: true,
      combatants: [
        { side: 'pc', initiative: 2 },
        { side: 'npc', initiative: 0 },
      ],
      policies: { default: { pick: { tag: 'attack' }, target: 'enemy', times: 1 } },
      rounds: 4,
      until: 'rounds',
    });
    const kernel = runTrials(plan, rulesets, 3, 0, 200);
    const engine = runTrials(plan, rulesets, 3, 0, 200, undefined, { engine: true });
    if (isRejection(kernel) || isRejection(engine)) throw new Error('rejected');
    expect(kernel.path).toBe('kernel');
    expect(withoutPath(kernel)).toEqual(withoutPath(engine));
  });
});

describe('simulate: the compiled tick timeline gives the engine’s results', () => {
  const tickArb = fc.record({
    initiativeDice: fc.constantFrom('1d6', '1d20', '2d6', '1d6!', '3d10'),
    ties: fc.constantFrom('arrival', 'initiative'),
    // Few Initiative stats and weapon speeds: shared ticks, and ties on them, are common; speeds over 10
    // jump whole stretches of ticks (and past the last one counted).
    combatants: fc.array(
      fc.record({
        initiative: fc.integer({ min: 0, max: 3 }),
        weaponSpeed: fc.constantFrom(3, 5, 6, 7, 12, 25),
      }),
      { minLength: 2, maxLength: 5 },
    ),
    policies: fc.dictionary(
      fc.constantFrom('default', 'c0', 'c1', 'c2'),
      fc.record(
        {
          pick: fc.constantFrom({ tag: 'attack' }, { action: 'attack' }, { tag: 'attack', action: 'attack' }),
          target: fc.constantFrom(undefined, 'enemy', 'weakest-enemy', 'random-enemy', 'self', 'c0', 'c1'),
          times: fc.integer({ min: 1, max: 3 }),
        },
        { requiredKeys: ['pick'] },
      ),
      { maxKeys: 3 },
    ),
    rounds: fc.integer({ min: 1, max: 8 }),
    until: fc.constantFrom('rounds', 'end'),
    start: fc.boolean(),
  });

  function tickPlan(a: typeof tickArb extends fc.Arbitrary<infer T> ? T : never): SimPlan {
    const scenario = parseScenario({
      schema: 1,
      name: 'tick-kernel',
      ruleset: 'tick',
      options: { initiativeDice: a.initiativeDice, ties: a.ties },
      // Both sides: every rule here has someone to target.
      combatants: a.combatants.map((c, i) => ({
        id: `c${i}`,
        name: `C${i}`,
        side: i % 2 ? 'npc' : 'pc',
        hp: 10,
        stats: c,
      })),
      commands: a.start ? [{ type: 'start' }] : [],
    });
    if (isRejection(scenario)) throw new Error(scenario.message);
    return { scenario, sim: simOf(a) };
  }

  it('same dice, same per-trial counts: first ticks, weapon speeds, shared ticks by arrival or Initiative, stretches jumped', () => {
    fc.assert(
      fc.property(tickArb, fc.integer(), fc.integer({ min: 0, max: 1000 }), (a, seed, from) => {
        const plan = tickPlan(a);
        const fast = createSimulator(plan, rulesets);
        if (isRejection(fast)) throw new Error(fast.message);
        // Both sides are there and every rule (the default policy's too) only attacks: it always fits.
        expect(fast.path).toBe('kernel');
        for (let t = from; t < from + 3; t++) {
          const kernel = runTrials(plan, rulesets, seed, t, t + 1);
          const engine = runTrials(plan, rulesets, seed, t, t + 1, undefined, { engine: true });
          if (isRejection(kernel) || isRejection(engine)) throw new Error('rejected');
          expect(withoutPath(kernel)).toEqual(withoutPath(engine));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('examples/simulate/tick-dagger-or-greataxe.yaml runs compiled, with the engine’s sums over 100 trials', () => {
    const plan = loadPlan(
      fileURLToPath(new URL('../../../examples/simulate/tick-dagger-or-greataxe.yaml', import.meta.url)),
      rulesets,
    );
    const kernel = runTrials(plan, rulesets, 3, 0, 100);
    const engine = runTrials(plan, rulesets, 3, 0, 100, undefined, { engine: true });
    if (isRejection(kernel) || isRejection(engine)) throw new Error('rejected');
    expect(kernel.path).toBe('kernel');
    expect(withoutPath(kernel)).toEqual(withoutPath(engine));
  });
});
