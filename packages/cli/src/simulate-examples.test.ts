import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRejection } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { runTrials, type SimPlan, type SimTally } from './simulate.js';
import { loadPlan } from './simulate-command.js';

/**
 * Every designer's question in examples/simulate/, played: its policies are taken as written (nothing
 * refused), everyone gets turns, and what its comment says it shows holds.
 */

const dir = fileURLToPath(new URL('../../../examples/simulate', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

function play(plan: SimPlan, trials = 40): SimTally {
  const t = runTrials(plan, rulesets, 1, 0, trials);
  if (isRejection(t)) throw new Error(t.message);
  return t;
}

const perRound = (s: readonly number[]) => s[0]! / s[3]!;

describe('examples/simulate', () => {
  it('has a question for every ruleset', () => {
    const used = new Set(files.map((f) => loadPlan(join(dir, f), rulesets).scenario.ruleset));
    expect([...used].sort()).toEqual(Object.keys(rulesets).sort());
  });

  for (const file of files) {
    it(`${file}: every policy rule is taken as written, and everyone acts`, () => {
      const t = play(loadPlan(join(dir, file), rulesets), 20);
      expect(t.refusedRules).toEqual({});
      for (const [id, m] of Object.entries(t.metrics)) expect(m.turns[0], id).toBeGreaterThan(0);
    });
  }

  it('opend6-how-many-actions: three declared slashes succeed less often each than one', () => {
    const plan = loadPlan(join(dir, 'opend6-how-many-actions.yaml'), rulesets);
    const three = play(plan, 150);
    const ana = plan.sim.policies.ana!;
    const one: SimPlan = {
      ...plan,
      sim: {
        ...plan.sim,
        policies: {
          ...plan.sim.policies,
          ana: [ana[0]!, { ...ana[1]!, with: { actions: 1 } }, { ...ana[2]!, times: 1 }],
        },
      },
    };
    const single = play(one, 150);
    const rate = (t: SimTally) => t.events.hit![0] / t.events.slash![0];
    expect(perRound(three.events.slash!)).toBe(3);
    expect(perRound(single.events.slash!)).toBe(1);
    expect(rate(three)).toBeLessThan(rate(single) - 0.15);
    // One Character Point a round with the roll, while any are left (5 over 4 rounds).
    expect(perRound(three.events['character-points']!)).toBe(1);
  });

  it('classic-skirmish: the damage each takes, and exactly one combatant falls first in every fight', () => {
    const t = play(loadPlan(join(dir, 'classic-skirmish.yaml'), rulesets), 60);
    const hp = t.resources.hp!;
    const firsts = Object.values(hp).reduce((n, r) => n + r.first[0], 0);
    // Played to the end: some side always falls, and its first casualty is one combatant.
    expect(firsts).toBe(t.trials);
    // A side is out when all of its combatants are: the goblins, nearly always.
    expect(perRound(hp.gob1!.out)).toBeGreaterThan(0.9);
    expect(hp.boss!.spent[0]).toBeGreaterThan(0);
  });

  it('tempo-quick-or-standard: the dagger, the sword, the axe, in that order, and Bren intercepts', () => {
    const t = play(loadPlan(join(dir, 'tempo-quick-or-standard.yaml'), rulesets));
    expect(perRound(t.questions[0]!)).toBe(1);
    expect(perRound(t.events.intercept!)).toBe(1);
  });

  it('six-second-delay-and-interrupt: the rogue interrupts the troll; his late spell carries over', () => {
    const t = play(loadPlan(join(dir, 'six-second-delay-and-interrupt.yaml'), rulesets));
    expect(perRound(t.events.interrupts!)).toBeGreaterThan(0.5);
    expect(t.metrics.rogue!.attacks[0]).toBe(t.events.interrupts![0]);
    // Rounds 3 and 4: three 1-second moves and a 4-second spell, 1 second of it in the next turn.
    expect(perRound(t.metrics.troll!.carry)).toBe(0.5);
  });

  it('stamina-take-cover: each Take Cover costs 2 stamina on top of the 1 of her attack, and she runs out first', () => {
    const t = play(loadPlan(join(dir, 'stamina-take-cover.yaml'), rulesets));
    expect(perRound(t.events.cover!)).toBeGreaterThan(0.5);
    expect(t.events['ana-stamina']![0]).toBe(t.metrics.ana!.attacks[0] + 2 * t.events.cover![0]);
    // The resource followed in her state says the same, and she (10 stamina, ~2.5 a round) runs out
    // first in most fights of 4 rounds; the orc (2 a round) never does.
    const stamina = t.resources.stamina!;
    expect(stamina.ana!.spent[0]).toBe(t.events['ana-stamina']![0]);
    expect(perRound(stamina.ana!.first)).toBeGreaterThan(0.6);
    expect(stamina.orc!.out[0]).toBe(0);
  });
});
