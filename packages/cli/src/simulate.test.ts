import { isRejection, parseScenario } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { runTrials, type SimPlan, simulateSectionSchema } from './simulate.js';

function mageFight(castingTime: number): SimPlan {
  const scenario = parseScenario({
    schema: 1,
    name: 'carry',
    ruleset: 'tara-corax',
    combatants: [
      { id: 'mage', name: 'Mage', side: 'pc', stats: { initiative: 0 } },
      { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 5 } },
    ],
  });
  if (isRejection(scenario)) throw new Error(scenario.message);
  const sim = simulateSectionSchema.parse({
    rounds: 3,
    policies: {
      mage: [{ action: 'cast', with: { castingTime } }],
      orc: [{ tag: 'attack', target: 'enemy' }],
    },
  });
  return { scenario, sim };
}

describe('simulate: carry-over', () => {
  it('counts a spell whose Casting Time runs past Mark 1 as carried over (tara-corax Carry Over), and nothing else', () => {
    // Score 1–20 (1d10 exploding once, Initiative 0): a 25-Mark spell started at the Score always ends
    // 5 or more Marks below Mark 1, so every cast carries over; a 1-Mark spell never does; the orc only attacks.
    const long = runTrials(mageFight(25), rulesets, 3, 0, 60);
    const short = runTrials(mageFight(1), rulesets, 3, 0, 60);
    if (isRejection(long) || isRejection(short)) throw new Error('rejected');
    expect(long.path).toBe('engine');
    const [carried] = long.metrics.mage!.carry;
    const [casts] = long.metrics.mage!.actions;
    expect(casts).toBeGreaterThan(30);
    expect(carried).toBe(casts);
    expect(long.metrics.orc!.carry[0]).toBe(0);
    expect(short.metrics.mage!.actions[0]).toBeGreaterThan(30);
    expect(short.metrics.mage!.carry[0]).toBe(0);
  });
});
