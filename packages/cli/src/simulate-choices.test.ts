import { isRejection, parseScenario } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { runTrials, type SimTally, simulateSectionSchema } from './simulate.js';

/**
 * Each ruleset's player choices made by a policy, through the engine: the choice is taken (or refused
 * with the rule that asked named), and the figures move as the rules say they should.
 */

function run(scenario: object, sim: object, trials = 40, seed = 1): SimTally {
  const parsed = parseScenario({ schema: 1, name: 'choices', ...scenario });
  if (isRejection(parsed)) throw new Error(parsed.message);
  const t = runTrials({ scenario: parsed, sim: simulateSectionSchema.parse(sim) }, rulesets, seed, 0, trials);
  if (isRejection(t)) throw new Error(t.message);
  return t;
}

function refusal(scenario: object, sim: object): string {
  const parsed = parseScenario({ schema: 1, name: 'choices', ...scenario });
  if (isRejection(parsed)) throw new Error(parsed.message);
  const t = runTrials({ scenario: parsed, sim: simulateSectionSchema.parse(sim) }, rulesets, 1, 0, 1);
  if (!isRejection(t)) throw new Error('accepted');
  return t.message;
}

/** Per round: a metric's or an event's sum over the rounds. */
const perRound = (s: readonly number[]) => s[0]! / s[3]!;

describe('opend6: declaring the round’s actions (the multi-action penalty)', () => {
  const scenario = {
    ruleset: 'opend6',
    options: { initiativeMethod: 'perception-per-round' },
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', stats: { perception: '3D', skills: { 'melee combat': '5D' } } },
      { id: 'orc', name: 'Orc', side: 'npc', stats: { perception: '2D', skills: { brawling: '3D' } } },
    ],
  };
  const declaring = (n: number) => ({
    rounds: 3,
    policies: {
      ana: [
        { command: 'declare', with: { actions: n } },
        { action: 'slash', target: 'enemy', times: n },
      ],
      orc: [
        { command: 'declare', with: { actions: 1 } },
        { action: 'punch', target: 'enemy' },
      ],
    },
    events: {
      slash: { type: 'dice/rolled', combatant: 'ana', startsWith: { purpose: 'Slash' } },
      hit: {
        type: 'dice/rolled',
        combatant: 'ana',
        startsWith: { purpose: 'Slash' },
        atLeast: { 'roll.total': 15 },
      },
    },
  });

  it('takes as many actions as declared, and three give fewer successes per action than one (−1D each)', () => {
    const one = run(scenario, declaring(1), 150);
    const three = run(scenario, declaring(3), 150);
    expect(perRound(one.metrics.ana!.actions)).toBe(1);
    expect(perRound(three.metrics.ana!.actions)).toBe(3);
    expect(perRound(one.events.slash!)).toBe(1);
    expect(perRound(three.events.slash!)).toBe(3);
    const rate = (t: SimTally) => t.events.hit![0] / t.events.slash![0];
    // 5D against 15 succeeds about half the time; at 3D (−2D for two more actions) about one time in ten.
    expect(rate(one)).toBeGreaterThan(0.35);
    expect(rate(three)).toBeLessThan(0.2);
    expect(rate(three)).toBeLessThan(rate(one));
  });

  it('refuses an action before the declaration, naming the rule and the rules’ words', () => {
    const t = run(scenario, {
      rounds: 2,
      policies: { default: [{ command: 'act', action: 'slash', target: 'enemy' }] },
    });
    const key = Object.keys(t.refusedRules).find((k) => k.startsWith("ana's rule 1 (act slash)"));
    expect(key).toBeDefined();
    expect(t.refusedRules[key!]!.message).toContain('Declare how many actions');
    expect(t.metrics.ana!.actions[0]).toBe(0);
  });

  it('spends Character Points on initiative with the roll: the one who spends acts first more often', () => {
    const sheet = { perception: '2D', characterPoints: 40 };
    const fight = {
      ...scenario,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', stats: sheet },
        { id: 'orc', name: 'Orc', side: 'npc', stats: sheet },
      ],
    };
    const plain = run(fight, {
      rounds: 4,
      policies: { default: [{ command: 'declare', with: { actions: 1 } }] },
    });
    const spent = run(fight, {
      rounds: 4,
      policies: {
        ana: [
          { on: 'roll', with: { characterPoints: 2 } },
          { command: 'declare', with: { actions: 1 } },
        ],
        orc: [{ command: 'declare', with: { actions: 1 } }],
      },
      events: { cp: { type: 'opend6/initiative', combatant: 'ana', sum: 'characterPoints' } },
    });
    expect(perRound(spent.events.cp!)).toBe(2);
    expect(perRound(spent.metrics.ana!.first)).toBeGreaterThan(perRound(plain.metrics.ana!.first) + 0.2);
  });

  it('says which rule asks for what the ruleset does not have, before any trial', () => {
    expect(refusal(scenario, { policies: { ana: [{ command: 'plan', action: 'slash' }] } })).toContain(
      'simulate.policies.ana[0] asks for the command "plan", which OpenD6 does not have',
    );
    expect(refusal(scenario, { policies: { ana: [{ command: 'declare', with: { actions: 0 } }] } })).toMatch(
      /simulate\.policies\.ana\[0\]: actions: .*1/,
    );
  });
});

describe('tempo: planning two actions, weapons and reactions', () => {
  const scenario = {
    ruleset: 'tempo',
    combatants: [
      {
        id: 'ana',
        name: 'Ana',
        side: 'pc',
        hp: 20,
        stats: { speed: 6, weapons: [{ name: 'Dagger', speed: 'quick' }], held: ['Dagger'] },
      },
      {
        id: 'bren',
        name: 'Bren',
        side: 'pc',
        hp: 24,
        stats: { speed: 5, weapons: [{ name: 'Axe', speed: 'slow' }], held: ['Axe'] },
      },
      {
        id: 'orc',
        name: 'Orc',
        side: 'npc',
        hp: 15,
        stats: {
          speed: 5,
          weapons: [
            { name: 'Sword', speed: 'standard' },
            { name: 'Knife', speed: 'quick' },
          ],
          held: ['Sword', 'Knife'],
        },
      },
    ],
  };
  const fight = (orcAttack: string, orcWeapon: string) => ({
    rounds: 2,
    policies: {
      ana: [
        { command: 'plan', action: 'quick-attack' },
        { command: 'plan', action: 'hide' },
        { command: 'plan', action: 'slow-attack' },
        { command: 'act', target: 'orc', with: { weapon: 'Dagger', roll: '1d6' } },
      ],
      bren: [
        { command: 'plan', action: 'guard' },
        { command: 'plan', action: 'slow-attack' },
        { command: 'act', target: 'ana', when: { cs: { 'turn.action': 'guard' } } },
        { command: 'act', target: 'orc', with: { weapon: 'Axe' } },
        {
          command: 'react',
          with: { reaction: 'intercept', trigger: 'a Strike at Ana' },
          when: { after: 'tempo/acted', targets: 'ally' },
        },
      ],
      orc: [
        { command: 'plan', action: orcAttack },
        { command: 'act', target: 'ana', with: { weapon: orcWeapon, roll: '1d6' } },
      ],
    },
    events: {
      quick: { type: 'tempo/acted', combatant: 'ana', action: 'quick-attack' },
      standard: { type: 'tempo/acted', combatant: 'orc', action: 'standard-attack' },
      intercept: { type: 'tempo/reacted', combatant: 'bren', reaction: 'intercept' },
    },
    questions: [{ name: 'the Quick Attack before the Standard', order: ['quick', 'standard'] }],
  });

  it('plans in the planning phase, acts at the tempo: a Quick Attack resolves before a Standard Attack', () => {
    const t = run(scenario, fight('standard-attack', 'Sword'), 20);
    expect(perRound(t.events.quick!)).toBe(1);
    expect(perRound(t.events.standard!)).toBe(1);
    expect(perRound(t.questions[0]!)).toBe(1);
    // Two actions a round: the third plan is refused with the rule named.
    const full = t.refusedRules["ana's rule 3 (plan slow-attack): plan/full"];
    expect(full?.count).toBe(t.rounds);
    // Attacks by what the action is: Ana's Quick Attack, Bren's Slow Attack, the Orc's Standard Attack.
    expect(perRound(t.metrics.ana!.attacks)).toBe(1);
    expect(perRound(t.metrics.orc!.attacks)).toBe(1);
  });

  it('without planning rules the count cannot start, and the output says so in the rules’ words', () => {
    const t = run(scenario, { rounds: 2, policies: { default: [{ command: 'act', target: 'enemy' }] } }, 5);
    // Round 1's planning begins, and the count never comes: nobody takes a turn.
    expect(t.rounds).toBe(t.trials);
    expect(t.metrics.ana!.turns[0]).toBe(0);
    expect(t.refusedRules["the GM's next: planning/incomplete"]?.message).toContain(
      'Not every PC has planned',
    );
  });

  it('takes the Intercept when its trigger comes at a tempo that allows it, and not before', () => {
    // The Orc's Standard Attack (tempo 5) on the guarded Ana: Intercept (tempo 4) is allowed.
    const late = run(scenario, fight('standard-attack', 'Sword'), 20);
    expect(perRound(late.events.intercept!)).toBe(1);
    // A Quick Attack (tempo 3) comes before Bren's Guard (tempo 4): no Intercept yet, nothing to answer.
    const early = run(scenario, fight('quick-attack', 'Knife'), 20);
    expect(perRound(early.events.intercept!)).toBe(0);
  });
});

describe('tempo: Exert for another action, and the Exertion it costs', () => {
  it('Exerts after the Quick Attack, plans a Slow Attack on the same turn, and runs out of Exertion at its maximum', () => {
    const t = run(
      {
        ruleset: 'tempo',
        combatants: [
          {
            id: 'ana',
            name: 'Ana',
            side: 'pc',
            hp: 20,
            stats: { FOR: 1, speed: 6, weapons: [{ name: 'Dagger', speed: 'quick' }], held: ['Dagger'] },
          },
          { id: 'orc', name: 'Orc', side: 'npc', hp: 40, stats: { speed: 5 } },
        ],
      },
      {
        rounds: 4,
        policies: {
          ana: [
            { command: 'plan', action: 'quick-attack' },
            { command: 'plan', action: 'hide' },
            { command: 'act', target: 'orc', with: { weapon: 'Dagger', roll: '1d6' }, times: 2 },
            {
              command: 'exert',
              with: { use: 'another-action' },
              when: { cs: { 'turn.action': 'quick-attack' } },
            },
            {
              command: 'plan',
              on: 'turn',
              action: 'slow-attack',
              when: { cs: { 'turn.action': 'quick-attack' } },
            },
          ],
          orc: [{ command: 'plan', action: 'rest' }, { command: 'act' }],
        },
        events: { strikes: { type: 'tempo/acted', combatant: 'ana', target: 'orc' } },
        resources: { exertion: { cs: 'exertion', atLeast: 3 } },
      },
      20,
    );
    // Exertion max is 2 + FOR 1 = 3: three rounds of a third action (two Strikes), then no more.
    const exertion = t.resources.exertion!.ana!;
    expect(exertion.spent[0] / t.trials).toBe(3);
    expect(perRound(exertion.out)).toBe(1);
    // Attacks by what the actions are: four Quick Attacks and three Slow ones (the Hide is none).
    expect(t.metrics.ana!.attacks[0] / t.trials).toBe(4 + 3);
    expect(t.events.strikes![0] / t.trials).toBe(4 + 4 + 3);
    expect(Object.keys(t.refusedRules).some((k) => k.startsWith("ana's rule 4 (exert)"))).toBe(true);
  });
});

describe('six-second: seconds across turns, delay and a delayed turn', () => {
  const scenario = {
    ruleset: 'six-second',
    combatants: [
      { id: 'rogue', name: 'Rogue', side: 'pc', stats: { dexterity: 2 } },
      { id: 'troll', name: 'Troll', side: 'npc', stats: { dexterity: 1 } },
    ],
  };

  it('counts a melee attack as an attack (its kind), and the seconds it spends', () => {
    const t = run(scenario, {
      rounds: 3,
      policies: { default: [{ action: 'melee-attack', target: 'enemy', times: 3 }] },
      events: { seconds: { type: 'six-second/acted', combatant: 'troll', sum: 'seconds' } },
    });
    // Three 2-second attacks fill a 6-second turn.
    expect(perRound(t.metrics.troll!.attacks)).toBe(3);
    expect(perRound(t.events.seconds!)).toBe(6);
  });

  it('runs a 4-second spell across the turn’s end (carry-over) when it starts in the last seconds', () => {
    const t = run(scenario, {
      rounds: 3,
      policies: {
        troll: [{ action: 'move', times: 3 }, { action: 'cast-spell' }],
        rogue: [{ action: 'move' }],
      },
    });
    expect(perRound(t.metrics.troll!.carry)).toBeGreaterThan(0.3);
    expect(t.metrics.rogue!.carry[0]).toBe(0);
  });

  it('delays, then takes the delayed turn between two of the other’s actions', () => {
    const t = run(scenario, {
      rounds: 3,
      policies: {
        rogue: [
          { command: 'delay', when: { delayedTurn: false } },
          { command: 'take-turn', when: { after: 'six-second/acted' }, on: 'others' },
          { action: 'ranged-attack', target: 'enemy', when: { delayedTurn: true } },
        ],
        troll: [{ action: 'melee-attack', target: 'enemy', times: 3 }],
      },
      events: { interrupts: { type: 'six-second/turn-interrupted' } },
    });
    // Every round the Rogue delays; when the Troll acts after, the Rogue interrupts and shoots.
    expect(perRound(t.events.interrupts!)).toBeGreaterThan(0.3);
    expect(t.metrics.rogue!.attacks[0]).toBe(t.events.interrupts![0]);
  });
});

describe('classic: delay and act now, and a reaction on someone else’s turn', () => {
  const scenario = {
    ruleset: 'classic',
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 30, stats: { initiative: 20 } },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 30, stats: { initiative: 0 } },
    ],
  };
  const events = {
    orc: { type: 'classic/acted', combatant: 'orc', action: 'attack' },
    ana: { type: 'classic/acted', combatant: 'ana', action: 'attack' },
    opportunity: { type: 'classic/acted', combatant: 'orc', action: 'opportunity-attack' },
  };

  it('Ana (always first) delays and acts right after the orc', () => {
    const t = run(scenario, {
      rounds: 1,
      policies: {
        ana: [
          { command: 'delay', when: { delayedTurn: false } },
          { command: 'resume', on: 'others', when: { after: 'classic/acted' } },
          { action: 'attack', target: 'enemy' },
        ],
        orc: [{ action: 'attack', target: 'enemy' }],
      },
      events,
      questions: [{ name: 'the orc strikes first', order: ['orc', 'ana'] }],
    });
    expect(perRound(t.metrics.ana!.first)).toBe(1);
    expect(perRound(t.metrics.ana!.turns)).toBe(2);
    expect(perRound(t.questions[0]!)).toBe(1);
    expect(perRound(t.metrics.ana!.attacks)).toBe(1);
  });

  it('the orc answers Ana’s attack with an opportunity attack (its reaction), once a round', () => {
    const attack = { action: 'attack', target: 'enemy' };
    const t = run(scenario, {
      rounds: 3,
      policies: {
        ana: [attack],
        orc: [
          attack,
          {
            action: 'opportunity-attack',
            target: 'enemy',
            times: 5,
            when: { after: 'classic/acted', targets: 'self' },
            on: 'others',
          },
        ],
      },
      events,
    });
    expect(perRound(t.events.opportunity!)).toBe(1);
    // The attack and the reaction: both attacks by what they are.
    expect(perRound(t.metrics.orc!.attacks)).toBe(2);
    expect(perRound(t.metrics.ana!.attacks)).toBe(1);
  });
});

describe('tara-corax: delaying, announced with the Initiative Roll', () => {
  const scenario = {
    ruleset: 'tara-corax',
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 9 } },
      { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 4 } },
    ],
  };

  it('halves the Score (rounded down) every round: the orc acts first far more often', () => {
    const sim = (ana: object[]) => ({
      rounds: 3,
      policies: { ana, orc: [{ tag: 'attack', target: 'enemy' }] },
    });
    const plain = run(scenario, sim([{ tag: 'attack', target: 'enemy' }]), 100);
    const delaying = run(
      scenario,
      sim([
        { on: 'roll', with: { delay: 'down' } },
        { tag: 'attack', target: 'enemy' },
      ]),
      100,
    );
    expect(delaying.path).toBe('engine');
    expect(perRound(delaying.metrics.orc!.first)).toBeGreaterThan(perRound(plain.metrics.orc!.first) + 0.3);
    expect(Object.keys(delaying.refusedRules)).toEqual([]);
  });
});

describe('stamina: a reaction when attacked, and the stamina spent', () => {
  const scenario = {
    ruleset: 'stamina',
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 30, stats: {} },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 30, stats: {} },
    ],
  };

  it('takes cover when the orc’s attack targets her, paying its 2 stamina', () => {
    const events = {
      stamina: { type: 'stamina/acted', combatant: 'ana', sum: 'stamina' },
      cover: { type: 'stamina/acted', combatant: 'ana', action: 'take-cover' },
    };
    const attacking = [{ action: 'basic-attack', target: 'enemy' }];
    const without = run(scenario, { rounds: 3, policies: { ana: attacking, orc: attacking }, events });
    const covering = run(scenario, {
      rounds: 3,
      policies: {
        ana: [
          ...attacking,
          { action: 'take-cover', on: 'others', when: { after: 'stamina/acted', targets: 'self' } },
        ],
        orc: attacking,
      },
      events,
    });
    expect(without.events.cover![0]).toBe(0);
    expect(perRound(covering.events.cover!)).toBeGreaterThan(0.5);
    // Each cover costs 2 stamina more than the attack alone.
    expect(covering.events.stamina![0] - without.events.stamina![0]).toBe(2 * covering.events.cover![0]);
  });
});

describe('stamina: bonus dice on a reckless attack', () => {
  const scenario = {
    ruleset: 'stamina',
    combatants: [
      { id: 'bren', name: 'Bren', side: 'pc', hp: 30, stats: {} },
      { id: 'wolf', name: 'Wolf', side: 'npc', hp: 30, stats: {} },
    ],
  };
  const events = {
    dice: { type: 'stamina/acted', combatant: 'bren', action: 'reckless-attack', sum: 'check.bonusDice' },
  };

  it('sends the bonus dice chosen, which cost defense; without them, or without the defense, the rules refuse under the rule', () => {
    const reckless = (extra: object) => ({
      rounds: 2,
      policies: {
        bren: [{ command: 'act', action: 'reckless-attack', target: 'enemy', ...extra }],
        wolf: [{ action: 'basic-attack', target: 'enemy' }],
      },
      events,
    });
    const chosen = run(scenario, reckless({ with: { bonusDice: 3 } }), 20);
    // Round 1: the swing with 3 bonus dice. It costs defense (6 here); round 2 has only 4 left, and the
    // rules refuse the second swing, saying why, under the rule.
    expect(chosen.metrics.bren!.attacks[0] / chosen.trials).toBe(1);
    expect(chosen.events.dice![0] / chosen.trials).toBe(3);
    const short = chosen.refusedRules["bren's rule 1 (act reckless-attack): defense/insufficient"];
    expect(short?.count).toBe(chosen.trials);
    expect(short?.message).toContain('Take fewer bonus dice');
    const missing = run(scenario, reckless({}), 20);
    expect(missing.metrics.bren!.attacks[0]).toBe(0);
    expect(
      missing.refusedRules["bren's rule 1 (act reckless-attack): reckless/bonus-dice"]?.message,
    ).toContain('Reckless attack needs its bonus dice');
  });
});

describe('tick: waiting and stepping in', () => {
  it('waits on its turn and steps in after the other acts', () => {
    const t = run(
      {
        ruleset: 'tick',
        combatants: [
          { id: 'ana', name: 'Ana', side: 'pc', hp: 300, stats: { initiative: 2, weaponSpeed: 5 } },
          { id: 'orc', name: 'Orc', side: 'npc', hp: 300, stats: { initiative: 2, weaponSpeed: 7 } },
        ],
      },
      {
        rounds: 3,
        policies: {
          ana: [
            { command: 'wait', when: { delayedTurn: false } },
            { command: 'step-in', on: 'others', when: { after: 'tick/acted', cs: { waiting: true } } },
            { tag: 'attack', target: 'enemy' },
          ],
          orc: [{ tag: 'attack', target: 'enemy' }],
        },
        events: { stepped: { type: 'tick/stepped-in', combatant: 'ana' } },
      },
    );
    // A roundless clock: `times` of an `on: others` rule counts per stretch of 10 ticks, not per fight.
    expect(perRound(t.events.stepped!)).toBeGreaterThan(0.5);
    expect(t.metrics.ana!.attacks[0]).toBe(t.events.stepped![0]);
  });
});
