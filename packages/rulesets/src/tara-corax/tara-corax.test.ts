import {
  describeEvent,
  type EncounterLog,
  type EncounterState,
  type EngineEvent,
  isRejection,
  EncounterLog as Log,
  legalActions,
  renderTimelineAscii,
  scriptedDice,
  view,
  viewLog,
} from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { encounter, must, refused, registryWith, stateOf } from '../testing/harness.js';
import type { TaraEvent } from './events.js';
import { taraCorax } from './index.js';
import { ATTACK_OFFSETS } from './marks.js';
import type { TaraTypes } from './types.js';

const registry = registryWith(taraCorax);
/** A log line, as the engine asks the ruleset for it. */
const describeTaraEvent = (event: EngineEvent, state: EncounterState<TaraTypes>) =>
  describeEvent(event, state, registry[taraCorax.id]!);
const st = (enc: EncounterLog) => stateOf<TaraTypes>(enc);
const cs = (enc: EncounterLog, id: string) => st(enc).combatants[id]!.cs;
const mark = (enc: EncounterLog) => 30 - (enc.state.now?.at[0] ?? 0);

type Stats = Record<string, unknown>;
function fight(
  stats: Record<string, Stats>,
  options: Record<string, unknown> = {},
  hidden: string[] = [],
): EncounterLog {
  return encounter(
    {
      ruleset: 'tara-corax',
      options,
      combatants: Object.entries(stats).map(([id, s]) => ({
        id,
        name: id[0]!.toUpperCase() + id.slice(1),
        stats: s,
        hidden: hidden.includes(id),
      })),
    },
    registry,
  );
}

/** An encounter whose dice are scripted. */
function scripted(
  faces: number[],
  stats: Record<string, Stats>,
  options: Record<string, unknown> = {},
): EncounterLog {
  const enc = Log.create(
    { id: 't', name: 'T', ruleset: 'tara-corax', options, dice: scriptedDice(faces) },
    registry,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const [id, s] of Object.entries(stats))
    must(enc, { type: 'add-combatant', combatant: { id, name: id, stats: s } });
  return enc;
}

/** Presses next until the given combatant is acting (or throws). */
function until(enc: EncounterLog, id: string): void {
  for (let i = 0; i < 40 && enc.state.current !== id; i++) must(enc, { type: 'next' });
  if (enc.state.current !== id) throw new Error(`${id} never came up`);
}

function endRound(enc: EncounterLog): void {
  for (let i = 0; i < 40 && st(enc).rs.phase !== 'between'; i++) must(enc, { type: 'next' });
}

describe('000 Initiative: characteristic, 1d10, exploding 10, armor, cap 30, rolled every round', () => {
  it('characteristic is the average of Agility and Intellect rounded down; roll = 1d10 + characteristic + modifiers', () => {
    const enc = scripted([4], { ana: { agility: 9, intellect: 6, initiativeModifier: 1 } });
    must(enc, { type: 'start' });
    // floor((9 + 6) / 2) = 7; 4 + 7 + 1 = 12
    expect(cs(enc, 'ana').initiativeRoll).toBe(12);
  });

  it('a natural 10 rolls one more d10 and adds it, once by default', () => {
    const enc = scripted([10, 10], { ana: { initiative: 5 } });
    must(enc, { type: 'start' });
    expect(cs(enc, 'ana').initiativeRoll).toBe(25);
  });

  it('option explodingInitiative: keep rolls again while 10s come up', () => {
    const enc = scripted([10, 10, 3], { ana: { initiative: 2 } }, { explodingInitiative: 'keep' });
    must(enc, { type: 'start' });
    expect(cs(enc, 'ana').initiativeRoll).toBe(25);
  });

  it('armor modifies Initiative by half its Evade Modifier, rounded down', () => {
    const enc = fight({
      ana: { initiative: 10, armorEvadeModifier: -3 },
      bo: { initiative: 10, armorEvadeModifier: 5 },
    });
    must(enc, { type: 'start', rolls: { ana: 5, bo: 5 } });
    expect(cs(enc, 'ana').initiativeRoll).toBe(13); // 15 + floor(-1.5) = 15 - 2
    expect(cs(enc, 'bo').initiativeRoll).toBe(17); // 15 + floor(2.5)
  });

  it('the Initiative Score never exceeds 30', () => {
    const enc = fight({ ana: { initiative: 25 } });
    must(enc, { type: 'start', rolls: { ana: 16 } });
    expect(cs(enc, 'ana').initiativeScore).toBe(30);
  });

  it('is rolled again at the start of every round', () => {
    const enc = scripted([3, 8], { ana: { initiative: 10 } });
    must(enc, { type: 'start' });
    expect(cs(enc, 'ana').initiativeScore).toBe(13);
    endRound(enc);
    must(enc, { type: 'next' });
    expect(enc.state.round).toBe(2);
    expect(cs(enc, 'ana').initiativeScore).toBe(18);
  });
});

describe('000 Round modes: Full Round, Simple Round, Very Simply (switchable between rounds)', () => {
  it('Full Round: each next action starts when the previous one’s Marks have elapsed (25 → move 5 → 20 → Set → 15)', () => {
    const enc = fight({ ana: { initiative: 20, landSpeed: 10 } });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    expect(mark(enc)).toBe(25);
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 5 });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'set' }).code).toBe('action/busy');
    must(enc, { type: 'next' });
    expect(mark(enc)).toBe(20);
    must(enc, { type: 'act', actor: 'ana', action: 'set' });
    must(enc, { type: 'next' });
    expect(mark(enc)).toBe(15);
    expect(cs(enc, 'ana').marksLeft).toBe(15);
  });

  it('Simple Round: all of a turn happens at the Initiative Mark, and the budget still applies', () => {
    const enc = fight({ ana: { initiative: 15, landSpeed: 10 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 5 });
    must(enc, { type: 'act', actor: 'ana', action: 'set' });
    must(enc, { type: 'act', actor: 'ana', action: 'drink-potion' });
    expect(mark(enc)).toBe(20);
    expect(cs(enc, 'ana').marksLeft).toBe(0);
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'draw' }).code).toBe('budget/insufficient');
  });

  it('Very Simply: no roll; the score is the average of Agility and Intellect rounded up', () => {
    const enc = fight({ ana: { agility: 9, intellect: 6 } }, { roundMode: 'very-simply' });
    const entries = must(enc, { type: 'start' });
    expect(entries.some((e) => e.event.type === 'dice/rolled')).toBe(false);
    expect(cs(enc, 'ana').initiativeScore).toBe(8);
  });

  it('Very Simply: nobody rolls, so Initiative dice given at the table are refused with the way out', () => {
    const enc = fight({ ana: { agility: 9, intellect: 6 } }, { roundMode: 'very-simply' });
    const r = refused(enc, { type: 'start', rolls: { ana: 7 } });
    expect(r.code).toBe('initiative/no-roll');
    expect(r.message).toBe(
      'Round 1 is played Very Simply: nobody rolls Initiative, the score is the Initiative characteristic (rounded up) plus modifiers. Leave the rolls empty, or change the Round mode option to Full or Simple first.',
    );
    must(enc, { type: 'start' });
    endRound(enc);
    expect(refused(enc, { type: 'next', rolls: { ana: 7 } }).message).toContain(
      'Round 2 is played Very Simply',
    );
  });

  it('the round mode changes between rounds only (canSetOptions), and applies from the next round', () => {
    const enc = fight({ ana: { initiative: 10 } });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    const r = refused(enc, { type: 'set-options', options: { roundMode: 'simple' } });
    expect(r.code).toBe('options/mid-round');
    expect(r.message).toContain('between Rounds');
    endRound(enc);
    must(enc, { type: 'set-options', options: { roundMode: 'simple' } });
    must(enc, { type: 'next', rolls: { ana: 5 } });
    expect(st(enc).rs.roundMode).toBe('simple');
  });
});

describe('000 Budget: Free 0, Quarter 5, Half 10, Full 15, movement 1 Mark per Unit up to Land Speed', () => {
  it('catalogs the text’s examples of each kind with their cost', () => {
    const cost = (id: string) => taraCorax.catalog(st(fight({}))).find((a) => a.id === id)!.cost.marks;
    expect(['speak', 'reactive-ability', 'passive-skill', 'look-around'].map(cost)).toEqual([0, 0, 0, 0]);
    expect(['set', 'complex-speech', 'quick-skill', 'swap-weapon', 'draw', 'stand-up'].map(cost)).toEqual([
      5, 5, 5, 5, 5, 5,
    ]);
    expect(['drink-potion', 'concentration-skill', 'activate-item', 'sheathe'].map(cost)).toEqual([
      10, 10, 10, 10,
    ]);
    expect(
      [
        'melee-attack',
        'ranged-attack',
        'maneuver',
        'full-skill',
        'attacking-item',
        'cast',
        'pull-from-sack',
        'hide',
      ].map(cost),
    ).toEqual([15, 15, 15, 15, 15, 15, 15, 15]);
  });

  it('spends the score: an attack with 8 Marks left is refused with the numbers', () => {
    const enc = fight({ ana: { initiative: 10 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 3 } });
    must(enc, { type: 'act', actor: 'ana', action: 'draw' });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    expect(r.code).toBe('budget/insufficient');
    expect(r.message).toBe(
      'Melee attacks needs 15 Marks; Ana has 8 left (a Full Action without enough Initiative is allowed only if no other Action was taken this Round). Attacks and movement never carry over into the next Round: choose an action of 8 Marks or less, or a Quarter or Half Action that may carry over into the next Round (a potion, a Skill, an item), or wait for the next Round.',
    );
  });

  it('Carry Over: a Half Action with 8 Marks left carries 2 over (Simple Round); a Maneuver is an attack and does not', () => {
    const enc = fight({ ana: { initiative: 10 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 3 } });
    must(enc, { type: 'act', actor: 'ana', action: 'draw' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'maneuver' }).code).toBe('budget/insufficient');
    must(enc, { type: 'act', actor: 'ana', action: 'drink-potion' });
    expect(cs(enc, 'ana').marksLeft).toBe(0);
    expect(cs(enc, 'ana').carryOver).toBe(2);
    expect(cs(enc, 'ana').carrying?.completesAt).toEqual(st(enc).agenda[0]!.at);
    endRound(enc);
    const next = must(enc, { type: 'next', rolls: { ana: 3 } });
    expect(cs(enc, 'ana').initiativeScore).toBe(11);
    expect(next.some((e) => e.event.type === 'tara/action-completed' && e.event.mark === 28)).toBe(true);
    expect(cs(enc, 'ana').carrying).toBeNull();
  });

  it('Carry Over: a Full Action (a spell, a Full Skill) with too few Marks after another Action is refused, not carried', () => {
    const enc = fight({ ana: { initiative: 10 } });
    must(enc, { type: 'start', rolls: { ana: 3 } });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 1 });
    must(enc, { type: 'next' });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'cast', castingTime: 10, spell: 'Spark' });
    expect(r.code).toBe('budget/insufficient');
    expect(r.message).toBe(
      'Cast a Spell needs 15 Marks; Ana has 12 left (a Full Action without enough Initiative is allowed only if no other Action was taken this Round). Choose an action of 12 Marks or less, or a Quarter or Half Action that may carry over into the next Round (a potion, a Skill, an item), or wait for the next Round.',
    );
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'full-skill' }).code).toBe(
      'budget/insufficient',
    );
    must(enc, { type: 'act', actor: 'ana', action: 'concentration-skill' });
  });

  it('Cast a Spell asks for its Casting Time in Marks, and without it is refused by that name', () => {
    const enc = fight({ ana: { initiative: 10 } });
    must(enc, { type: 'start', rolls: { ana: 3 } });
    const cast = legalActions(enc.state, 'ana', registry).find((l) => l.action.id === 'cast')!;
    expect(cast.params?.map((p) => [p.label, p.type, p.required])).toEqual([
      ['Casting Time (Marks)', 'integer', true],
      ['Spell', 'text', false],
      ['Target', 'combatant', false],
      ['With Combat Casting', 'boolean', false],
    ]);
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'cast' }).message).toBe(
      'Enter the Casting Time (Marks) so Roundkeeper knows when the spell goes off.',
    );
  });

  it('Carry Over: a Casting Time over ten Rounds is refused with a sentence, not a schema message', () => {
    const enc = fight({ ana: { initiative: 10 } });
    must(enc, { type: 'start', rolls: { ana: 3 } });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'cast', castingTime: 301 });
    expect(r.code).toBe('cast/casting-time');
    expect(r.message).toBe(
      'A Casting Time of 301 Marks is more than 10 Rounds, the longest Roundkeeper follows; enter at most 300 Marks (and Fizzle the spell or recast it later if the ritual runs longer).',
    );
    must(enc, { type: 'act', actor: 'ana', action: 'cast', castingTime: 300 });
    expect(cs(enc, 'ana').carryOver).toBe(287);
    expect(cs(enc, 'ana').casting!.resolvesAt.round).toBe(11);
  });

  it('Carry Over: an action carried over is cut short when its character is defeated, and bleeds nothing', () => {
    const enc = fight({ ana: { initiative: 10 } });
    must(enc, { type: 'start', rolls: { ana: 3 } });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 5 });
    must(enc, { type: 'next' });
    must(enc, { type: 'act', actor: 'ana', action: 'concentration-skill' });
    expect(cs(enc, 'ana').carryOver).toBe(2);
    must(enc, { type: 'defeat', combatant: 'ana' });
    expect(cs(enc, 'ana').carryOver).toBe(0);
    expect(cs(enc, 'ana').carrying).toBeNull();
    expect(st(enc).agenda).toHaveLength(0);
  });

  it('a Free Action costs nothing and can be taken outside one’s turn', () => {
    const enc = fight({ ana: { initiative: 10 }, bo: { initiative: 1 } });
    must(enc, { type: 'start', rolls: { ana: 3, bo: 1 } });
    must(enc, { type: 'act', actor: 'bo', action: 'speak' });
    expect(cs(enc, 'bo').marksLeft).toBe(2);
    expect(refused(enc, { type: 'act', actor: 'bo', action: 'draw' }).code).toBe('turn/not-yours');
  });

  it('movement costs 1 Mark per Unit, up to Land Speed per round', () => {
    const enc = fight({ ana: { initiative: 20, landSpeed: 6 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 4 });
    expect(cs(enc, 'ana').marksLeft).toBe(21);
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'move', units: 3 }).code).toBe(
      'move/land-speed',
    );
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 2 });
  });

  it('movement: moving 0 Units is refused, so it neither counts as acting nor ends a Full Round turn', () => {
    const enc = fight({ ana: { initiative: 10, rangedAttacks: 3 } });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'move', units: 0 });
    expect(r.code).toBe('move/no-units');
    expect(r.message).toBe(
      'Moving 0 Units is no movement; enter the Units to move (1 Mark per Unit, at most 10 now).',
    );
    const volley = must(enc, { type: 'act', actor: 'ana', action: 'ranged-attack' });
    expect(volley.filter((e) => e.event.type === 'tara/attack')).toHaveLength(1);
    expect(st(enc).agenda.filter((e) => e.kind === 'attack')).toHaveLength(2);
  });
});

describe('000 Full Action exception: once per round with too little score, iff no other action', () => {
  it('allows a Full Action with 8 Marks if nothing else was done, once', () => {
    const enc = fight({ ana: { initiative: 5 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 3 } });
    must(enc, { type: 'act', actor: 'ana', action: 'maneuver' });
    expect(cs(enc, 'ana').marksLeft).toBe(0);
    expect(cs(enc, 'ana').fullActionException).toBe(true);
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'maneuver' }).code).toBe('budget/insufficient');
  });

  it('refuses it after any other (non-Free) action that round', () => {
    const enc = fight({ ana: { initiative: 10 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 3 } });
    must(enc, { type: 'act', actor: 'ana', action: 'speak' });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 1 });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'maneuver' });
    expect(r.message).toContain('only if no other Action was taken this Round');
  });
});

describe('000 Attacks: spacing, forfeits below Mark 1, acting again 15 Marks later, single/volley limits', () => {
  it('spaces N attacks at 0 / 0,7 / 0,5,10 / 0,4,8,12 / 0,3,6,9,12 (chart 4-attack row read as 20 16 12 8)', () => {
    expect(ATTACK_OFFSETS).toEqual({
      1: [0],
      2: [0, 7],
      3: [0, 5, 10],
      4: [0, 4, 8, 12],
      5: [0, 3, 6, 9, 12],
    });
    const enc = fight({ ana: { initiative: 15, meleeAttacks: 4 } });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    const marks = st(enc).agenda.map((e) => `${e.kind}@${30 - e.at.at[0]!}`);
    expect(marks).toEqual(['attack@16', 'attack@12', 'attack@8', 'turn@5']);
  });

  it('forfeits an attack that would fall below Mark 1 (score 8, 3 attacks: 8, 3, −2)', () => {
    const enc = fight({ dwarf: { initiative: 5, meleeAttacks: 3 } });
    const entries = must(enc, { type: 'start', rolls: { dwarf: 3 } });
    expect(entries.length).toBeGreaterThan(0);
    const acted = must(enc, { type: 'act', actor: 'dwarf', action: 'melee-attack' });
    const forfeited = acted.filter((e) => e.event.type === 'tara/attack-forfeited');
    expect(forfeited.map((e) => e.event.mark)).toEqual([-2]);
    expect(st(enc).agenda.map((e) => 30 - e.at.at[0]!)).toEqual([3]);
  });

  it('the Dwarf of the text (score 12, 3 attacks) gets all three at 12, 7, 2', () => {
    const enc = fight({ dwarf: { initiative: 10, meleeAttacks: 3 } });
    must(enc, { type: 'start', rolls: { dwarf: 2 } });
    must(enc, { type: 'act', actor: 'dwarf', action: 'melee-attack' });
    expect(st(enc).agenda.map((e) => 30 - e.at.at[0]!)).toEqual([7, 2]);
  });

  it('the character may act again 15 Marks after the start (Bowman: 20, 15, 10, acts again at 5)', () => {
    const enc = fight({ bowman: { initiative: 15, rangedAttacks: 3 } });
    must(enc, { type: 'start', rolls: { bowman: 5 } });
    must(enc, { type: 'act', actor: 'bowman', action: 'ranged-attack' });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('bowman');
    expect(mark(enc)).toBe(5);
  });

  it('a single melee attack if the character moved this round', () => {
    const enc = fight({ ana: { initiative: 20, meleeAttacks: 3 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 10 } });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 2 });
    must(enc, { type: 'act', actor: 'ana', action: 'set' });
    const entries = must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    expect(entries.filter((e) => e.event.type === 'tara/attack')).toHaveLength(1);
  });

  it('a full ranged volley only if the character has not acted this round', () => {
    const enc = fight({ ana: { initiative: 20, rangedAttacks: 3 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 10 } });
    must(enc, { type: 'act', actor: 'ana', action: 'draw' });
    must(enc, { type: 'act', actor: 'ana', action: 'set' });
    const entries = must(enc, { type: 'act', actor: 'ana', action: 'ranged-attack' });
    expect(entries.filter((e) => e.event.type === 'tara/attack')).toHaveLength(1);
  });
});

describe('000 Casting: a Full Action; long spells carry over; short spells keep the caster busy 15 Marks', () => {
  it('Casting Time > 15 resolves Casting Time Marks after the start, in the next round at Mark 30 − overflow, and the overflow is subtracted from the next roll', () => {
    const enc = fight({ mage: { initiative: 14 } });
    must(enc, { type: 'start', rolls: { mage: 1 } });
    must(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 20, spell: 'Fireball' });
    const c = cs(enc, 'mage');
    expect(c.carryOver).toBe(5);
    expect(c.casting!.resolvesAt).toEqual({ round: 2, at: [5, -14, 0, 0, 0] });
    endRound(enc);
    must(enc, { type: 'next', rolls: { mage: 6 } });
    expect(cs(enc, 'mage').initiativeScore).toBe(15);
    expect(mark(enc)).toBe(25);
    expect(cs(enc, 'mage').casting).toBeNull();
  });

  it('Casting Time > 15 within the round: busy until it goes off, then acts with what is left', () => {
    const enc = fight({ mage: { initiative: 20 } });
    must(enc, { type: 'start', rolls: { mage: 8 } });
    must(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 20 });
    expect(st(enc).agenda.map((e) => `${e.kind}@${30 - e.at.at[0]!}`)).toEqual(['resolve@8', 'turn@8']);
    expect(cs(enc, 'mage').marksLeft).toBe(8);
  });

  it('Casting Time < 15 resolves after the Casting Time; the caster is busy for 15', () => {
    const enc = fight({ mage: { initiative: 20 } });
    must(enc, { type: 'start', rolls: { mage: 3 } });
    must(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 10 });
    expect(st(enc).agenda.map((e) => `${e.kind}@${30 - e.at.at[0]!}`)).toEqual(['resolve@13', 'turn@8']);
  });

  it('attacks and movement never carry over: leftover Marks are forfeited at the end of the round', () => {
    const enc = fight({ ana: { initiative: 5, meleeAttacks: 3 } });
    must(enc, { type: 'start', rolls: { ana: 2 } });
    must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'move', units: 1 }).code).toBe('action/busy');
    endRound(enc);
    must(enc, { type: 'next', rolls: { ana: 2 } });
    expect(cs(enc, 'ana').carryOver).toBe(0);
    expect(cs(enc, 'ana').initiativeScore).toBe(7);
  });

  it('a defeated caster’s spell fizzles and leaves the agenda', () => {
    const enc = fight({ mage: { initiative: 20 } });
    must(enc, { type: 'start', rolls: { mage: 3 } });
    must(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 10 });
    const entries = must(enc, { type: 'defeat', combatant: 'mage' });
    expect(entries.some((e) => e.event.type === 'tara/spell-fizzled')).toBe(true);
    expect(st(enc).agenda).toEqual([]);
  });

  it('Carry Over: a carried-over spell that fizzles before the next roll takes no Marks from it', () => {
    const enc = fight({ mage: { initiative: 10 } });
    must(enc, { type: 'start', rolls: { mage: 5 } });
    must(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 25, spell: 'Storm' });
    expect(cs(enc, 'mage').carryOver).toBe(10);
    endRound(enc);
    must(enc, { type: 'fizzle', actor: 'mage' });
    must(enc, { type: 'next', rolls: { mage: 5 } });
    expect(cs(enc, 'mage').initiativeScore).toBe(15);
    expect(st(enc).agenda.some((e) => e.kind === 'resolve')).toBe(false);
  });
});

describe('000 Delaying: once per round, announced with the roll; act at half the roll, rounded as chosen', () => {
  it('acts at half the Initiative Roll, rounded up or down', () => {
    const enc = fight({ ana: { initiative: 10 }, bo: { initiative: 10 } });
    must(enc, { type: 'start', rolls: { ana: 5, bo: 5 }, delay: { ana: 'up', bo: 'down' } });
    expect(cs(enc, 'ana').initiativeScore).toBe(8);
    expect(cs(enc, 'bo').initiativeScore).toBe(7);
  });

  it('is announced with the roll, not in the middle of a round', () => {
    const enc = fight({ ana: { initiative: 10 }, bo: { initiative: 1 } });
    must(enc, { type: 'start', rolls: { ana: 5, bo: 1 } });
    expect(refused(enc, { type: 'next', delay: { bo: 'up' } }).code).toBe('delay/not-now');
  });
});

describe('000 Ties: higher raw Initiative, then Agility, then Intellect, else simultaneous', () => {
  it('orders equal scores by Initiative, Agility, Intellect and shows full ties as simultaneous', () => {
    const enc = fight({
      low: { initiative: 8, agility: 9 },
      high: { initiative: 10 },
      agile: { initiative: 8, agility: 10, intellect: 1 },
      twin1: { initiative: 8, agility: 9, intellect: 3 },
      twin2: { initiative: 8, agility: 9, intellect: 3 },
    });
    const entries = must(enc, { type: 'start', rolls: { low: 7, high: 5, agile: 7, twin1: 7, twin2: 7 } });
    expect(st(enc).rs.order).toEqual([['high'], ['agile'], ['twin1', 'twin2'], ['low']]);
    expect(entries.find((e) => e.event.type === 'tara/round-order')).toBeDefined();
    until(enc, 'twin2');
    expect(
      enc.entries.some((e) => e.event.type === 'tara/simultaneous' && e.event.combatant === 'twin2'),
    ).toBe(true);
  });
});

describe('refusals out of turn: busy with the last action, or after the turn ahead at the same Mark', () => {
  it('says busy with the last action while someone else has the turn, and "after" at the own Mark', () => {
    const enc = fight({ ana: { initiative: 12, meleeAttacks: 2 }, bo: { initiative: 15, landSpeed: 20 } });
    must(enc, { type: 'start', rolls: { ana: 8, bo: 2 } });
    // Ana 20, Bo 17. Ana attacks at 20 (and 13); Bo acts at 17 and moves 12 Units, to Mark 5.
    must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    until(enc, 'bo');
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'draw' }).message).toBe(
      'It is Mark 17: Ana is busy with Melee attacks until Mark 5; Draw a weapon or item can be taken then (only Free and reactive actions can be taken any time).',
    );
    must(enc, { type: 'act', actor: 'bo', action: 'move', units: 12 });
    must(enc, { type: 'next' });
    until(enc, 'bo');
    expect(mark(enc)).toBe(5);
    // Ana's next action is due at Mark 5 too, after Bo's (higher raw Initiative): not "busy".
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'draw' }).message).toContain(
      "It is Mark 5, Bo's turn; Ana acts at this Mark too, after Bo's turn",
    );
  });
});

describe('log lines: capped rolls, empty orders', () => {
  it('says when an Initiative Roll was capped at 30, and when nobody has a Mark to act at a Round', () => {
    const enc = fight({ ana: { initiative: 25 } });
    const first = must(enc, { type: 'start', rolls: { ana: 9 } });
    const roll = first.find((e) => e.event.type === 'tara/initiative')!;
    expect(describeTaraEvent(roll.event, st(enc))).toBe(
      'Ana: Initiative Roll 30 (9 rolled, Initiative 25: 34, capped at 30) → Initiative Score 30.',
    );
    must(enc, { type: 'act', actor: 'ana', action: 'cast', castingTime: 90 });
    endRound(enc);
    const entries = must(enc, { type: 'next', rolls: { ana: 3 } });
    const order = entries.find((e) => e.event.type === 'tara/round-order')!;
    expect(describeTaraEvent(order.event, st(enc))).toBe(
      'Order: nobody has a Mark to act at this Round (no Initiative Score above 0).',
    );
  });
});

describe('000 Ties: simultaneous actions survive a defeat at that Mark', () => {
  it('a caster defeated at the Mark of a simultaneous action still casts: at once in a Simple Round, fizzling if it would go off later', () => {
    for (const roundMode of ['simple', 'full'] as const) {
      const enc = fight(
        { ana: { initiative: 10 }, bo: { initiative: 10 }, cara: { initiative: 5 } },
        { roundMode },
      );
      must(enc, { type: 'start', rolls: { ana: 5, bo: 5, cara: 1 } });
      expect(enc.state.current).toBe('ana');
      must(enc, { type: 'defeat', combatant: 'bo' });
      const cast = must(enc, { type: 'act', actor: 'bo', action: 'cast', castingTime: 5, spell: 'Spark' });
      const types = cast.map((e) => e.event.type);
      expect(types).toContain(roundMode === 'simple' ? 'tara/spell-resolved' : 'tara/spell-fizzled');
      expect(cs(enc, 'bo').casting).toBeNull();
      expect(st(enc).agenda.filter((e) => e.combatant === 'bo' && e.kind !== 'turn')).toHaveLength(0);
      // The clock moves on: the moment is over, and so is the defeated character's part in it.
      must(enc, { type: 'next' });
      must(enc, { type: 'next' });
      expect(enc.state.current).toBe('cara');
      expect(refused(enc, { type: 'act', actor: 'bo', action: 'draw' }).code).toBe('combatant/defeated');
    }
  });
});

describe('000 Channeling: all the round’s Initiative, nothing else; breaking leaves movement and Free actions', () => {
  it('refuses everything while Channeling, even Free Actions; after breaking, only moves and Free Actions', () => {
    const enc = fight({ ana: { initiative: 15, landSpeed: 10 } });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'channel' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'speak' }).code).toBe('channel/channeling');
    must(enc, { type: 'act', actor: 'ana', action: 'break-channel' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'draw' }).code).toBe('channel/broken');
    must(enc, { type: 'act', actor: 'ana', action: 'speak' });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 3 });
  });

  it('uses all the round’s Initiative: a Channel held to the end of the round forfeits no Marks', () => {
    const enc = fight({ ana: { initiative: 10 }, bo: { initiative: 5 } });
    must(enc, { type: 'start', rolls: { ana: 5, bo: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'channel' });
    endRound(enc);
    const forfeits = enc.entries
      .filter((e) => e.event.type === 'tara/forfeited')
      .map((e) => e.event.combatant);
    expect(forfeits).toEqual(['bo']);
    expect(taraCorax.timeline(st(enc)).lanes[0]!.spans).toContainEqual({
      round: 1,
      from: 15,
      to: 1,
      kind: 'channel',
      label: 'Channeling',
    });
  });

  it('cannot start after acting this round', () => {
    const enc = fight({ ana: { initiative: 15 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'draw' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'channel' }).code).toBe('channel/acted');
  });
});

describe('000 Setting', () => {
  it('melee after moving this round needs a Set; next round without moving it does not', () => {
    const enc = fight({ ana: { initiative: 20, meleeAttacks: 2 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 3 });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'melee-attack' }).code).toBe('set/required');
    endRound(enc);
    must(enc, { type: 'next', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
  });

  it('ranged after any non-Free action other than an attack needs a Set, and that persists across rounds', () => {
    const enc = fight({ ana: { initiative: 20, rangedAttacks: 2 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'ranged-attack' });
    must(enc, { type: 'act', actor: 'ana', action: 'drink-potion' });
    endRound(enc);
    must(enc, { type: 'next', rolls: { ana: 5 } });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'ranged-attack' }).code).toBe('set/required');
    must(enc, { type: 'act', actor: 'ana', action: 'ranged-attack', throwing: true });
  });

  it('is required before Combat Casting', () => {
    const enc = fight({ mage: { initiative: 20 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { mage: 5 } });
    expect(
      refused(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 5, combatCasting: true }).code,
    ).toBe('set/required');
    must(enc, { type: 'act', actor: 'mage', action: 'set' });
    must(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 5, combatCasting: true });
  });

  it('before Combat Casting: the Set must come after the last move or non-Free Action, an attack included, and lasts across rounds', () => {
    const enc = fight({ mage: { initiative: 20 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { mage: 10 } });
    must(enc, { type: 'act', actor: 'mage', action: 'set' });
    must(enc, { type: 'act', actor: 'mage', action: 'speak' });
    expect(cs(enc, 'mage').castingSet).toBe(true);
    must(enc, { type: 'act', actor: 'mage', action: 'melee-attack' });
    const cast = { type: 'act', actor: 'mage', action: 'cast', castingTime: 5, combatCasting: true };
    expect(refused(enc, cast).message).toBe(
      'Mage must Set (Quarter Action, 5 Marks) before using the Combat Casting Skill.',
    );
    must(enc, { type: 'act', actor: 'mage', action: 'set' });
    endRound(enc);
    must(enc, { type: 'next', rolls: { mage: 10 } });
    must(enc, cast);
  });

  it('ranged after a melee attack needs a Set: only a ranged attack as the last Action keeps it', () => {
    const enc = fight({ ana: { initiative: 25, rangedAttacks: 2 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'ranged-attack' });
    expect(cs(enc, 'ana').rangedSet).toBe(true);
    must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'ranged-attack' });
    expect(r.code).toBe('set/required');
    expect(r.message).toContain(
      'Ana acted (Melee attacks) since last Setting and must Set (Quarter Action, 5 Marks)',
    );
  });

  it('the defender someone moved into melee with needs no Set and keeps the full set, even after moving earlier (defending)', () => {
    const enc = fight({ ana: { initiative: 20, meleeAttacks: 3 } });
    must(enc, { type: 'start', rolls: { ana: 10 } });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 3 });
    must(enc, { type: 'next' });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    expect(r.code).toBe('set/required');
    expect(r.message).toContain('someone moved into melee with Ana (then tick Defending)');
    const entries = must(enc, { type: 'act', actor: 'ana', action: 'melee-attack', defending: true });
    expect(entries.filter((e) => e.event.type === 'tara/attack')).toHaveLength(1);
    const line = describeTaraEvent(entries.find((e) => e.event.type === 'tara/acted')!.event, st(enc));
    expect(line).toContain('(defending: someone moved into melee with them, no Set needed)');
    // 3 attacks at Marks 27, 22, 17: the full set, not a single attack.
    expect(
      st(enc)
        .agenda.filter((e) => e.kind === 'attack')
        .map((e) => 30 - e.at.at[0]!),
    ).toEqual([22, 17]);
  });

  it('listed abilities (a GM-defined charge that moves and grants an attack) need no Set', () => {
    const charge = {
      id: 'frenzied-charge',
      name: 'Frenzied Charge',
      kind: 'quarter',
      cost: { marks: 5 },
      data: { freeMove: 6, grantsAttack: 1 },
    };
    const enc = fight({ ana: { initiative: 20 } }, { roundMode: 'simple' });
    must(enc, { type: 'define-action', action: charge });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 2 });
    const entries = must(enc, { type: 'act', actor: 'ana', action: 'frenzied-charge' });
    expect(entries.filter((e) => e.event.type === 'tara/attack')).toHaveLength(1);
    expect(cs(enc, 'ana').meleeSet).toBe(false);
  });

  it('melee needs no Set and keeps the full set when the character did not move this round (the defender someone moved into melee with)', () => {
    const enc = fight(
      { ana: { initiative: 20, meleeAttacks: 2 }, bo: { initiative: 1 } },
      { roundMode: 'simple' },
    );
    must(enc, { type: 'start', rolls: { ana: 5, bo: 1 } });
    const entries = must(enc, { type: 'act', actor: 'ana', action: 'melee-attack', target: 'bo' });
    expect(entries.filter((e) => e.event.type === 'tara/attack')).toHaveLength(2);
  });
});

describe('refusals say why and what would make the action legal', () => {
  it('names the most a character can still move (Marks and Land Speed)', () => {
    const enc = fight({ ana: { initiative: 10, landSpeed: 6 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { ana: 2 } });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'move', units: 13 }).message).toBe(
      'Moving 13 Units needs 13 Marks; Ana has 12 left, so can move at most 6 Units now (movement never carries over into the next Round).',
    );
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 4 });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'move', units: 3 }).message).toBe(
      'Ana has a Land Speed of 6 and has moved 4 Units this Round; 3 more is too far (at most 2).',
    );
  });

  it('says when a spell being cast goes off before another can start', () => {
    const enc = fight({ mage: { initiative: 20 } }, { roundMode: 'simple' });
    must(enc, { type: 'start', rolls: { mage: 5 } });
    must(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 30, spell: 'Storm' });
    expect(refused(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 5 }).message).toBe(
      'Mage is still casting Storm, which goes off at Mark 25 of round 2; a new spell can start after that (or once it fizzles).',
    );
  });

  it('tells the GM how to bring a defeated combatant back', () => {
    const enc = fight({ ana: { initiative: 10 } });
    must(enc, { type: 'start', rolls: { ana: 2 } });
    must(enc, { type: 'defeat', combatant: 'ana' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'speak' }).message).toContain('revive');
  });

  it('outside the character’s turn, says at which Mark it acts, or that no Mark is left this Round', () => {
    const enc = fight({ ana: { initiative: 10 }, bo: { initiative: 5 } });
    must(enc, { type: 'start', rolls: { ana: 5, bo: 5 } });
    expect(refused(enc, { type: 'act', actor: 'bo', action: 'draw' }).message).toBe(
      "It is Mark 15, Ana's turn; Draw a weapon or item is taken when Bo's own Mark comes up (Mark 10) (only Free and reactive actions can be taken any time).",
    );
    must(enc, { type: 'next' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'draw' }).message).toBe(
      "It is Mark 10, Bo's turn; Draw a weapon or item waits for the next Round's roll: Ana has no Mark left to act at this Round (only Free and reactive actions can be taken any time).",
    );
  });
});

describe('000 Desperate Shot: no Set; a natural 5 or less on either attack die misses; a single shot', () => {
  it('shoots without a Set and misses on a natural 5 or less', () => {
    const enc = scripted(
      [5, 9, 4, 6, 7],
      { ana: { initiative: 20, rangedAttacks: 3 } },
      { roundMode: 'simple' },
    );
    must(enc, { type: 'start' });
    must(enc, { type: 'act', actor: 'ana', action: 'move', units: 2 });
    const shot = must(enc, { type: 'act', actor: 'ana', action: 'desperate-shot' });
    const attacks = shot.filter((e) => e.event.type === 'tara/attack');
    expect(attacks).toHaveLength(1);
    expect(attacks[0]!.event.faces).toEqual([9, 4]);
    expect(attacks[0]!.event.miss).toBe(true);
    endRound(enc);
    must(enc, { type: 'next', rolls: { ana: 5 } });
    const hit = must(enc, { type: 'act', actor: 'ana', action: 'desperate-shot', faces: [6, 7] });
    expect(hit.find((e) => e.event.type === 'tara/attack')!.event.miss).toBe(false);
  });
});

describe('000 Free movement from abilities and GM-defined abilities (custom actions with flags)', () => {
  const car = {
    id: 'car',
    name: 'CAR',
    kind: 'free',
    cost: { marks: 0 },
    data: { freeMove: 10, autoSet: true, reactive: true, countsAgainstLandSpeed: false },
  };
  const stride = { id: 'stride', name: 'Stride', kind: 'free', cost: { marks: 0 }, data: { freeMove: 4 } };
  const lunge = {
    id: 'lunge',
    name: 'Lunge',
    kind: 'quarter',
    cost: { marks: 5 },
    data: { reactive: true, grantsAttack: 1 },
  };

  it('free movement costs no Marks but counts against Land Speed', () => {
    const enc = fight({ ana: { initiative: 10, landSpeed: 6 } }, { roundMode: 'simple' });
    must(enc, { type: 'define-action', action: stride });
    must(enc, { type: 'start', rolls: { ana: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'stride' });
    expect(cs(enc, 'ana').marksLeft).toBe(15);
    expect(cs(enc, 'ana').landSpeedUsed).toBe(4);
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'move', units: 3 }).code).toBe(
      'move/land-speed',
    );
  });

  it('a reactive ability moving for free and Setting automatically works out of turn (the CAR)', () => {
    const enc = fight({ ana: { initiative: 10, meleeAttacks: 3 }, bo: { initiative: 20 } });
    must(enc, { type: 'define-action', action: car });
    must(enc, { type: 'start', rolls: { ana: 5, bo: 5 } });
    must(enc, { type: 'act', actor: 'ana', action: 'car' });
    expect(cs(enc, 'ana').meleeSet).toBe(true);
    until(enc, 'ana');
    const entries = must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    expect(entries.filter((e) => e.event.type === 'tara/attack')).toHaveLength(1);
  });

  it('a reactive ability with a cost spends Marks and grants an attack now', () => {
    const enc = fight({ ana: { initiative: 10 }, bo: { initiative: 20 } });
    must(enc, { type: 'define-action', action: lunge });
    must(enc, { type: 'start', rolls: { ana: 5, bo: 5 } });
    const entries = must(enc, { type: 'act', actor: 'ana', action: 'lunge', target: 'bo' });
    expect(entries.filter((e) => e.event.type === 'tara/attack')).toHaveLength(1);
    expect(cs(enc, 'ana').marksLeft).toBe(10);
  });

  it('refuses a custom action whose flags do not read or whose cost is not whole Marks', () => {
    const enc = fight({ ana: {} });
    expect(
      refused(enc, { type: 'define-action', action: { ...stride, id: 'bad', data: { freeMove: 'far' } } })
        .code,
    ).toBe('action/invalid');
    expect(
      refused(enc, {
        type: 'define-action',
        action: { id: 'odd', name: 'Odd', kind: 'custom', cost: { marks: 2.5 } },
      }).code,
    ).toBe('action/invalid');
  });
});

describe('legalActions and the timeline', () => {
  it('lists every catalog and custom action with a reason when it is not legal', () => {
    const enc = fight({ ana: { initiative: 5 }, bo: { initiative: 20 } });
    must(enc, {
      type: 'define-action',
      action: { id: 'stride', name: 'Stride', kind: 'free', cost: { marks: 0 }, data: { freeMove: 4 } },
    });
    must(enc, { type: 'start', rolls: { ana: 3, bo: 5 } });
    const list = taraCorax.legalActions(st(enc), 'ana');
    expect(list).toHaveLength(taraCorax.catalog(st(enc)).length + 1);
    const draw = list.find((l) => l.action.id === 'draw')!;
    expect(draw.enabled).toBe(false);
    expect(draw.reason).toContain("Bo's turn");
    expect(list.find((l) => l.action.id === 'speak')!.enabled).toBe(true);
    until(enc, 'ana');
    const now = taraCorax.legalActions(st(enc), 'ana');
    expect(now.find((l) => l.action.id === 'drink-potion')!.enabled).toBe(true);
    expect(now.find((l) => l.action.id === 'move')!.enabled).toBe(true);
    expect(now.find((l) => l.action.id === 'maneuver')!.enabled).toBe(true);
    expect(now.find((l) => l.action.id === 'set')!.preview?.label).toBe('Mark 8 → Mark 3');
  });

  it('draws lanes across Marks 30 → 1 with action spans, attack ticks, and a spell carried into the next round', () => {
    const enc = fight({ mage: { initiative: 14 }, orc: { initiative: 10, meleeAttacks: 2 } });
    must(enc, { type: 'start', rolls: { mage: 1, orc: 5 } });
    must(enc, { type: 'act', actor: 'mage', action: 'cast', castingTime: 20, spell: 'Fireball' });
    until(enc, 'orc');
    must(enc, { type: 'act', actor: 'orc', action: 'melee-attack' });
    const t = taraCorax.timeline(st(enc));
    expect(t.axis).toEqual({ unit: 'Mark', from: 30, to: 1 });
    expect(t.rounds).toEqual([1, 2]);
    const mage = t.lanes.find((l) => l.id === 'mage')!;
    expect(mage.spans).toContainEqual({ round: 1, from: 15, to: 1, kind: 'cast', label: 'Fireball' });
    expect(mage.spans).toContainEqual({
      round: 2,
      from: 30,
      to: 25,
      kind: 'carry',
      label: 'Fireball (carried over)',
    });
    expect(mage.markers.find((m) => m.kind === 'resolve')).toMatchObject({ round: 2, at: 25, planned: true });
    const orc = t.lanes.find((l) => l.id === 'orc')!;
    expect(orc.markers.filter((m) => m.kind === 'attack').map((m) => m.at)).toEqual([15, 8]);
    expect(renderTimelineAscii(t)).toContain('Round 2');
  });
});

describe('redaction: hidden combatants leave no trace in state or events', () => {
  it('removes a hidden combatant from the order and history (state) and from events (viewLog)', () => {
    const enc = fight({ ana: { initiative: 10 }, spy: { initiative: 10, meleeAttacks: 2 } }, {}, ['spy']);
    must(enc, { type: 'start', rolls: { ana: 5, spy: 5 } });
    until(enc, 'spy');
    must(enc, { type: 'act', actor: 'spy', action: 'melee-attack' });
    const table = { role: 'table' as const };
    const v = view(enc.state, table, registry['tara-corax']!) as unknown as { rs: TaraTypes['rs'] };
    expect(JSON.stringify(v.rs)).not.toContain('spy');
    const log = viewLog(enc.entries, table, enc.state, registry['tara-corax']!);
    expect(JSON.stringify(log)).not.toContain('spy');
    const gm = viewLog(enc.entries, { role: 'gm' }, enc.state, registry['tara-corax']!);
    expect(JSON.stringify(gm)).toContain('spy');
  });
});

describe('redaction: a hidden combatant acting simultaneously does not show through its partner', () => {
  it('keeps "simultaneous with" to the GM, in the timeline labels and in the tie events', () => {
    const enc = fight({ bren: { initiative: 12 }, ana: { initiative: 10 }, spy: { initiative: 10 } }, {}, [
      'spy',
    ]);
    must(enc, { type: 'start', rolls: { bren: 8, ana: 5, spy: 5 } });
    const ruleset = registry['tara-corax']!;
    const gmLine = JSON.stringify(ruleset.timeline(enc.state));
    expect(gmLine).toContain('simultaneous with Spy');
    const table = view(enc.state, { role: 'table' }, ruleset);
    const tableLine = JSON.stringify(ruleset.timeline(table as never));
    expect(tableLine).not.toContain('Spy');
    expect(tableLine).not.toContain('simultaneous');
    const log = viewLog(enc.entries, { role: 'table' }, enc.state, ruleset);
    expect(JSON.stringify(log)).not.toContain('spy');
    expect(log.some((e) => e.event.type === 'tara/round-order')).toBe(true);
  });
});

describe('typed commands and events', () => {
  it('types each event by its schema: a misspelt or mistyped field does not compile', () => {
    const forfeited: TaraEvent = { type: 'tara/forfeited', combatant: 'ana', marks: 3 };
    // @ts-expect-error `mrks` is not a field of tara/forfeited (and `marks` is missing).
    const misspelt: TaraEvent = { type: 'tara/forfeited', combatant: 'ana', mrks: 3 };
    // @ts-expect-error a round's order is groups of ids.
    const mistyped: TaraEvent = { type: 'tara/round-order', round: 1, order: ['ana'] };
    const fits = ({ type, ...fields }: TaraEvent) => taraCorax.events?.[type]?.safeParse(fields).success;
    expect([fits(forfeited), fits(misspelt), fits(mistyped)]).toEqual([true, false, false]);
  });
});
