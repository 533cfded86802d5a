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

describe('simulate: a tick timeline, which has no rounds', () => {
  function duel(until: 'rounds' | 'end' = 'rounds'): SimPlan {
    const scenario = parseScenario({
      schema: 1,
      name: 'ticks',
      ruleset: 'tick',
      combatants: [
        { id: 'rook', name: 'Rook', side: 'pc', hp: 500, stats: { initiative: 2, weaponSpeed: 5 } },
        { id: 'brute', name: 'Brute', side: 'npc', hp: 500, stats: { initiative: 2, weaponSpeed: 7 } },
      ],
    });
    if (isRejection(scenario)) throw new Error(scenario.message);
    const sim = simulateSectionSchema.parse({
      rounds: 20,
      until,
      policies: { default: [{ tag: 'attack', target: 'enemy' }] },
    });
    return { scenario, sim };
  }

  it('keeps its figures per stretch of 10 ticks (clock.periods), every stretch counted, and plays every turn', () => {
    const t = runTrials(duel(), rulesets, 1, 0, 40);
    if (isRejection(t)) throw new Error(t.message);
    // 20 stretches a trial, none skipped: without the clock's periods, a roundless fight had 0 rounds.
    expect(t.rounds).toBe(40 * 20);
    // Rule 4: an attack costs the weapon's speed, so 10 ticks hold 10/5 dagger strikes and 10/7 greataxe
    // blows (over 200 ticks from a first tick of 1–4: 40 strikes, 28 or 29 blows). Acting ends the turn and the
    // next marker acts at once: a "next" after it would end that turn unplayed (Brute would never act).
    const per = (id: string) => t.metrics[id]!.attacks[0] / t.rounds;
    expect(per('rook')).toBeGreaterThan(1.9);
    expect(per('rook')).toBeLessThanOrEqual(2);
    expect(per('brute')).toBeGreaterThanOrEqual(28 / 20);
    expect(per('brute')).toBeLessThanOrEqual(29 / 20);
    // Each attack lands in the stretch it was taken in: the histograms hold one entry per stretch.
    expect(t.attackHistogram.rook!.reduce((a, b) => a + b, 0)).toBe(t.rounds);
    expect(t.attackHistogram.rook![2]).toBeGreaterThan(t.attackHistogram.rook![1]!);
  });
});

describe('simulate: a command that fails part-way through its fold', () => {
  it("ends its trial (the trial's state, folded in place, may hold part of it), the refusal counted", () => {
    const tara = rulesets['tara-corax']!;
    // A ruleset whose every attack fails while its events are applied, after the turn's own changes.
    const broken = {
      ...rulesets,
      'tara-corax': {
        ...tara,
        evolve: (state: Parameters<typeof tara.evolve>[0], event: Parameters<typeof tara.evolve>[1]) => {
          if (event.type === 'tara/attack') throw new Error('a broken evolve');
          return tara.evolve(state, event);
        },
      },
    };
    const tally = runTrials(mageFight(25), broken, 3, 0, 20);
    if (isRejection(tally)) throw new Error(tally.message);
    // One failure per trial: the orc's first attack ends it; nobody acts again in that trial.
    expect(tally.trials).toBe(20);
    expect(tally.refused['engine/internal']).toBe(20);
  });
});
