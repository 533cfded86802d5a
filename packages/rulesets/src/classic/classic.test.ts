import {
  EncounterLog,
  type EncounterState,
  isRejection,
  parseScenario,
  runScenario,
  seededDice,
  view,
} from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from '../index.js';
import { encounter, must, refused, stateOf } from '../testing/harness.js';
import type { ClassicCommand, ClassicEvent, ClassicTypes } from './index.js';

const cs = (enc: Parameters<typeof stateOf>[0]) => stateOf<ClassicTypes>(enc);

const party = [
  { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 }, hp: 20 },
  { id: 'bren', name: 'Bren', side: 'pc', stats: { initiative: 1 }, hp: 24 },
  { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 }, hp: 15 },
];

function order(state: EncounterState): string[] {
  return state.agenda.filter((e) => e.kind === 'turn').map((e) => e.combatant!);
}

describe('classic: initiative', () => {
  it('rolls d20 + modifier and acts highest first', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    expect(enc.state.current).toBe('bren');
    expect(order(enc.state)).toEqual(['ana', 'orc']);
  });

  it('breaks a tie by the higher modifier', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 15, bren: 15, orc: 2 } });
    expect(enc.state.current).toBe('ana');
  });

  it('breaks a full tie with a roll-off and records it', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    const entries = must(enc, { type: 'start', initiative: { ana: 2, bren: 15, orc: 15 } });
    const rollOff = entries.find((e) => e.event.type === 'classic/roll-off');
    expect(rollOff?.event.combatants).toEqual(['bren', 'orc']);
    const rolls = rollOff!.event.rolls as number[];
    const winner = rolls[0]! > rolls[1]! ? 'bren' : rolls[0]! < rolls[1]! ? 'orc' : null;
    if (winner) expect(enc.state.current).toBe(winner);
  });

  it('rolls initiative with the dice when none is given, recording every face', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party, seed: 7 });
    const entries = must(enc, { type: 'start' });
    const rolls = entries.filter((e) => e.event.type === 'dice/rolled');
    expect(rolls).toHaveLength(3);
    for (const r of rolls) {
      const roll = r.event.roll as { total: number; faces: number[] };
      const c = cs(enc).combatants[r.event.combatant as string]!;
      expect(roll.total).toBe(roll.faces[0]! + c.stats.initiative);
      expect(c.cs.initiative).toBe(roll.total);
    }
  });
});

describe('classic: turns and rounds', () => {
  it('advances through the order and starts round 2 with the same order', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    const seen: string[] = [enc.state.current!];
    for (let i = 0; i < 5; i++) {
      must(enc, { type: 'next' });
      seen.push(enc.state.current!);
    }
    expect(seen).toEqual(['bren', 'ana', 'orc', 'bren', 'ana', 'orc']);
    expect(enc.state.round).toBe(2);
  });

  it('allows one action and one bonus action per turn, with reasons', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    must(enc, { type: 'act', actor: 'bren', action: 'attack', target: 'orc' });
    const r = refused(enc, { type: 'act', actor: 'bren', action: 'dash' });
    expect(r.code).toBe('action/used');
    expect(r.message).toContain('Bren has already used their action');
    must(enc, { type: 'act', actor: 'bren', action: 'bonus-action' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'attack' }).code).toBe('turn/not-yours');
  });

  it('allows one reaction between turns, never on the own turn', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    expect(refused(enc, { type: 'act', actor: 'bren', action: 'opportunity-attack' }).code).toBe(
      'reaction/own-turn',
    );
    must(enc, { type: 'act', actor: 'orc', action: 'opportunity-attack', target: 'bren' });
    expect(refused(enc, { type: 'act', actor: 'orc', action: 'reaction' }).code).toBe('reaction/used');
    must(enc, { type: 'next' }); // ana
    must(enc, { type: 'next' }); // orc: reaction refreshes
    must(enc, { type: 'next' }); // bren
    must(enc, { type: 'act', actor: 'orc', action: 'reaction' });
  });

  it('legalActions lists every catalog action with a reason when disabled', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    const legal = rulesets.classic!.legalActions(enc.state, 'ana');
    expect(legal.length).toBeGreaterThan(10);
    const attack = legal.find((l) => l.action.id === 'attack')!;
    expect(attack.enabled).toBe(false);
    expect(attack.reason).toMatch(/Bren's turn/);
    expect(legal.find((l) => l.action.id === 'reaction')!.enabled).toBe(true);
  });
});

describe('classic: delay, ready, late arrivals', () => {
  it('delay: acts later in the round and keeps the new place next round', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    must(enc, { type: 'delay', actor: 'bren' });
    expect(enc.state.current).toBe('ana');
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('orc');
    must(enc, { type: 'resume', actor: 'bren' });
    expect(enc.state.current).toBe('bren');
    must(enc, { type: 'next' }); // round 2
    expect(enc.state.round).toBe(2);
    const seen = [enc.state.current];
    must(enc, { type: 'next' });
    seen.push(enc.state.current);
    must(enc, { type: 'next' });
    seen.push(enc.state.current);
    expect(seen).toEqual(['ana', 'orc', 'bren']);
  });

  it('ready: spends the action; the trigger fires as a reaction', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    // An action the catalog lacks is refused with the ones it has, by the names a GM reads.
    const typo = refused(enc, {
      type: 'ready',
      actor: 'bren',
      action: 'atack',
      trigger: 'the orc comes close',
    });
    expect(typo.message).toMatch(
      /^There is no action "atack" here; pick one of Attack, Cast a Spell, Dash, /,
    );
    must(enc, { type: 'ready', actor: 'bren', action: 'attack', trigger: 'the orc comes close' });
    expect(enc.state.current).toBe('ana');
    must(enc, { type: 'next' });
    must(enc, { type: 'trigger', actor: 'bren' });
    expect(cs(enc).combatants.bren!.cs.used.reaction).toBe(true);
    expect(refused(enc, { type: 'trigger', actor: 'bren' }).code).toBe('ready/none');
  });

  it('a late arrival whose place has passed joins from the next round', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party, seed: 3 });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    const entries = must(enc, {
      type: 'add-combatant',
      combatant: { id: 'wolf', name: 'Wolf', stats: { initiative: 30 } },
    });
    expect(cs(enc).combatants.wolf!.cs.initiative!).toBeGreaterThan(30);
    expect(entries.some((e) => e.event.type === 'classic/joins-next-round')).toBe(true);
    expect(order(enc.state)).toEqual(['ana', 'orc']);
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' }); // round 2: wolf first
    expect(enc.state.current).toBe('wolf');
  });

  it('a late arrival rolls and is inserted by the result in the current round', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party, seed: 3 });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    must(enc, { type: 'add-combatant', combatant: { id: 'slug', name: 'Slug', stats: { initiative: -20 } } });
    expect(order(enc.state)).toEqual(['ana', 'orc', 'slug']);
  });
});

describe('classic: conditions', () => {
  it("a condition cast by Ana on the Orc expires at the start of the ORC's next turn", () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 18, bren: 12, orc: 5 } });
    must(enc, {
      type: 'add-effect',
      target: 'orc',
      source: 'ana',
      name: 'Frightened',
      duration: { kind: 'until-turn-start', combatant: 'orc' },
    });
    must(enc, { type: 'next' }); // bren
    expect(enc.state.effects).toHaveLength(1);
    must(enc, { type: 'next' }); // orc: expires
    expect(enc.state.effects).toHaveLength(0);
  });

  it('hidden combatants never reach the table view', () => {
    const enc = encounter({
      ruleset: 'classic',
      combatants: [...party, { id: 'assassin', name: 'Assassin', hidden: true, stats: { initiative: 5 } }],
    });
    must(enc, { type: 'start' });
    const table = view(enc.state, { role: 'table' }, rulesets.classic!);
    expect(Object.keys(table.combatants)).not.toContain('assassin');
    expect(JSON.stringify(table)).not.toContain('assassin');
  });
});

describe('classic: scenario', () => {
  it('parses and runs an inline scenario with expectations', () => {
    const scenario = parseScenario({
      schema: 1,
      name: 'inline',
      ruleset: 'classic',
      combatants: party,
      commands: [
        { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 }, expect: { current: 'bren' } },
        { type: 'act', actor: 'ana', action: 'attack', reject: 'turn/not-yours' },
        { type: 'next', expect: { current: 'ana' }, expectLog: ["Ana's turn"] },
      ],
    });
    if (isRejection(scenario)) throw new Error(scenario.message);
    const result = runScenario(scenario, rulesets);
    if (isRejection(result)) throw new Error(result.message);
    expect(result.failures).toEqual([]);
  });
});

describe('targets name combatants of the encounter (checked once, for every ruleset)', () => {
  it('refuses a target that names nobody, and lists who can be targeted', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } });
    const r = refused(enc, { type: 'act', actor: 'bren', action: 'attack', target: 'orcc' });
    expect(r.code).toBe('target/unknown');
    expect(r.message).toContain('There is no combatant "orcc"');
    expect(r.message).toContain('orc (Orc)');
    must(enc, { type: 'act', actor: 'bren', action: 'attack', target: 'orc' });
  });

  it('a hidden combatant reads as unknown to a player, and is a valid target for the GM', () => {
    const enc = encounter({
      ruleset: 'classic',
      combatants: [...party, { id: 'spy', name: 'Spy', side: 'npc', hidden: true }],
    });
    must(enc, { type: 'start', initiative: { ana: 12, bren: 18, orc: 5, spy: 1 } });
    const player = { role: 'player' as const, combatants: ['bren'] };
    const r = enc.execute({ type: 'act', actor: 'bren', action: 'attack', target: 'spy' }, { by: player });
    expect(isRejection(r) && r.code).toBe('target/unknown');
    expect(isRejection(r) && r.message).not.toContain('Spy');
    must(enc, { type: 'act', actor: 'bren', action: 'attack', target: 'spy' });
  });
});

describe('options a ruleset does not have are named, not dropped', () => {
  it('refuses an unknown option at creation and in set-options, listing the real ones', () => {
    const created = EncounterLog.create(
      { id: 'x', name: 'X', ruleset: 'classic', options: { rerollEachRnd: true }, dice: seededDice(1) },
      rulesets,
    );
    expect(isRejection(created) && created.code).toBe('options/unknown');
    expect(isRejection(created) && created.message).toContain('"rerollEachRnd"');
    expect(isRejection(created) && created.message).toContain('rerollEachRound');
    const enc = encounter({ ruleset: 'classic', combatants: party });
    const r = refused(enc, { type: 'set-options', options: { initiativeDie: '1d12' } });
    expect(r.code).toBe('options/unknown');
    must(enc, { type: 'set-options', options: { initiativeDice: '1d12' } });
  });
});

describe('scenario files assert what a refusal says', () => {
  it('expectLog on a refused step reads the refusal sentence, and fails when it says otherwise', () => {
    const make = (text: string) => {
      const scenario = parseScenario({
        schema: 1,
        name: 'refusal text',
        ruleset: 'classic',
        combatants: party,
        commands: [
          { type: 'start', initiative: { ana: 12, bren: 18, orc: 5 } },
          { type: 'act', actor: 'ana', action: 'attack', reject: 'turn/not-yours', expectLog: [text] },
        ],
      });
      if (isRejection(scenario)) throw new Error(scenario.message);
      const result = runScenario(scenario, rulesets);
      if (isRejection(result)) throw new Error(result.message);
      return result.failures;
    };
    expect(make("It is Bren's turn")).toEqual([]);
    expect(make("It is Orc's turn")[0]).toContain('expected a refusal containing "It is Orc\'s turn"');
  });
});

describe('classic: commands and events are typed by their schemas', () => {
  it('a misspelt or mistyped field does not compile (checked by the typecheck)', () => {
    const events: ClassicEvent[] = [
      { type: 'classic/acted', combatant: 'ana', action: 'dash', slot: 'action' },
      // @ts-expect-error `combatnt` is no field of a classic event.
      { type: 'classic/delayed', combatnt: 'ana' },
      // @ts-expect-error an action uses the action, the bonus action, the reaction or nothing.
      { type: 'classic/acted', combatant: 'ana', action: 'dash', slot: 'move' },
    ];
    const commands: ClassicCommand[] = [
      { type: 'set-initiative', actor: 'ana', value: 12 },
      // @ts-expect-error initiative is a number.
      { type: 'set-initiative', actor: 'ana', value: '12' },
    ];
    expect([...events, ...commands].map((x) => x.type)).toEqual([
      'classic/acted',
      'classic/delayed',
      'classic/acted',
      'set-initiative',
      'set-initiative',
    ]);
  });
});
