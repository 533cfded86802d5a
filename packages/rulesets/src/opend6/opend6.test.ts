import {
  type EncounterLog,
  type EncounterState,
  isRejection,
  EncounterLog as Log,
  legalActions,
  renderTimelineAscii,
  scriptedDice,
  view,
  viewLog,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkInvariants,
  encounter,
  must,
  refused,
  registryWith,
  runFrozen,
  stateOf,
} from '../testing/harness.js';
import { OPEND6_CATALOG } from './catalog.js';
import { type Opend6Command, type Opend6Event, openD6 } from './index.js';
import { initiativeBonus, ladder } from './initiative.js';
import type { Opend6Types } from './types.js';

const registry = registryWith(openD6 as never);
const s = (enc: EncounterLog) => stateOf<Opend6Types>(enc);

/** An encounter with scripted dice (faces used in order). */
function scripted(
  options: Record<string, unknown>,
  combatants: Array<Record<string, unknown>>,
  dice: number[] = [],
) {
  const enc = Log.create(
    { id: 't', name: 'T', ruleset: 'opend6', options, dice: scriptedDice(dice, { seed: 1 }) },
    registry,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of combatants) must(enc, { type: 'add-combatant', combatant });
  return enc;
}

const kira = {
  id: 'kira',
  name: 'Kira',
  side: 'pc',
  player: 'alice',
  stats: {
    perception: '3D',
    reflexes: '3D+1',
    skills: { dodge: '4D+1', brawling: '1D' },
    characterPoints: 3,
  },
};
const thug = {
  id: 'thug',
  name: 'Thug',
  side: 'npc',
  stats: { perception: '2D', skills: { 'melee combat': '3D+2' } },
};
const method1 = { initiativeMethod: 'first-significant-action' };

function rolls(entries: ReturnType<typeof must>) {
  return entries.filter((e) => e.event.type === 'dice/rolled').map((e) => e.event);
}

function turnOrder(state: EncounterState): string[] {
  return state.agenda.filter((e) => e.kind === 'turn').map((e) => e.combatant!);
}

describe('002 Dice codes: one die is the Wild Die; a 6 explodes and adds; a 1 is a complication per option', () => {
  it('a 6 on the Wild Die is rolled again and added', () => {
    // dodge 4D+1: three dice 2, 3, 4, then the Wild Die 6, rolled again: 5.
    const enc = scripted(method1, [kira], [2, 3, 4, 6, 5]);
    must(enc, { type: 'start', first: 'kira' });
    const [roll] = rolls(must(enc, { type: 'roll', actor: 'kira', skill: 'dodge' }));
    expect((roll!.roll as { total: number }).total).toBe(2 + 3 + 4 + 6 + 5 + 1);
  });

  it('complication "remove-highest" removes the Wild Die and the highest die; "gm" keeps the total and reports it', () => {
    for (const [mode, total] of [
      ['remove-highest', 2 + 1],
      ['gm', 5 + 2 + 1 + 1],
      ['none', 5 + 2 + 1 + 1],
    ] as const) {
      const enc = scripted({ ...method1, complication: mode }, [kira], [5, 2, 1]);
      must(enc, { type: 'start', first: 'kira' });
      const [roll] = rolls(must(enc, { type: 'roll', actor: 'kira', skill: 'reflexes' }));
      const r = roll!.roll as { total: number; wild: { complication: boolean; mode: string } };
      expect(r.total).toBe(total);
      expect(r.wild).toMatchObject({ complication: true, mode });
    }
  });
});

describe('002 Initiative: three methods', () => {
  const party = [kira, thug, { id: 'bren', name: 'Bren', side: 'pc', stats: { perception: '4D' } }];

  it('Method 1: the GM sets who acts first; the order is kept until the scene ends', () => {
    const enc = scripted(method1, party);
    must(enc, { type: 'start', first: 'thug' });
    expect(enc.state.current).toBe('thug');
    // Bren's Perception 4D beats Kira's 3D on the ladder.
    expect(turnOrder(enc.state)).toEqual(['bren', 'kira']);
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    expect(enc.state.round).toBe(2);
    expect([enc.state.current, ...turnOrder(enc.state)]).toEqual(['thug', 'bren', 'kira']);
  });

  it('Method 1: the GM may set the whole order', () => {
    const enc = scripted(method1, party);
    must(enc, { type: 'start', order: ['kira', 'thug', 'bren'] });
    expect([enc.state.current, ...turnOrder(enc.state)]).toEqual(['kira', 'thug', 'bren']);
  });

  it('Method 1 only: naming the first actor under a rolling method is refused', () => {
    const enc = scripted({}, party);
    expect(refused(enc, { type: 'start', first: 'kira' }).code).toBe('initiative/method');
  });

  it('Method 2: Perception rolls once for the scene; the highest roll acts first', () => {
    // Kira 3D: 1, 1, wild 2 = 4; Thug 2D: 5, wild 6 explodes 1 = 12; Bren 4D: 2, 2, 2, 2 = 8.
    const enc = scripted({ initiativeMethod: 'perception-per-scene' }, party, [1, 1, 2, 5, 6, 1, 2, 2, 2, 2]);
    must(enc, { type: 'start' });
    expect(s(enc).combatants.kira!.cs.initiative).toBe(4);
    expect(s(enc).combatants.thug!.cs.initiative).toBe(12);
    expect(s(enc).combatants.bren!.cs.initiative).toBe(8);
    expect([enc.state.current, ...turnOrder(enc.state)]).toEqual(['thug', 'bren', 'kira']);
    const before = enc.state.dice;
    for (let i = 0; i < 3; i++) must(enc, { type: 'next' });
    expect(enc.state.round).toBe(2);
    expect(enc.state.dice).toEqual(before); // nothing rolled again
    expect([enc.state.current, ...turnOrder(enc.state)]).toEqual(['thug', 'bren', 'kira']);
  });

  it('Method 3: Perception rolls at the beginning of each round', () => {
    const enc = scripted({ initiativeMethod: 'perception-per-round' }, party, [
      1,
      1,
      2,
      5,
      6,
      1,
      2,
      2,
      2,
      2, // round 1: thug, bren, kira
      6,
      6,
      5,
      1,
      1,
      1,
      1,
      1,
      2, // round 2: kira 6, 6, wild 5 = 17; thug 1, wild 1 = 2; bren 1, 1, 1, 2 = 5
    ]);
    must(enc, { type: 'start' });
    for (let i = 0; i < 3; i++) must(enc, { type: 'next' });
    expect(enc.state.round).toBe(2);
    expect(s(enc).combatants.kira!.cs.initiative).toBe(17);
    expect([enc.state.current, ...turnOrder(enc.state)]).toEqual(['kira', 'bren', 'thug']);
  });

  it('Groups: the GM rolls once for a group, and the group acts together in one turn', () => {
    const wolves = [1, 2, 3].map((n) => ({
      id: `wolf${n}`,
      name: `Wolf ${n}`,
      side: 'npc',
      group: 'pack',
      stats: { perception: '2D' },
    }));
    const enc = scripted({ initiativeMethod: 'perception-per-scene' }, [kira, ...wolves], [1, 1, 2, 6, 5]);
    const entries = must(enc, { type: 'start' });
    expect(rolls(entries).map((r) => r.combatant)).toEqual(['kira', 'wolf1']);
    expect(s(enc).combatants.wolf3!.cs.initiative).toBe(11);
    expect(enc.state.rs).toMatchObject({ acting: ['wolf2', 'wolf3', 'wolf1'] });
    expect(enc.state.current).toBe('wolf1');
    must(enc, { type: 'declare', actor: 'wolf3', actions: 1 });
    must(enc, { type: 'act', actor: 'wolf2', action: 'move', roll: false });
    must(enc, { type: 'act', actor: 'wolf3', action: 'move', roll: false });
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('kira');
    // On the timeline each wolf's bar in the pack's column is the group's turn.
    const t = openD6.timeline(s(enc));
    expect(t.lanes.filter((l) => l.id.startsWith('wolf')).map((l) => l.spans[0]?.label)).toEqual([
      'group turn',
      'group turn',
      'group turn',
    ]);
  });

  it('Groups: the GM may roll one action for the group; the others take a similar action without rolling', () => {
    const wolves = [1, 2].map((n) => ({
      id: `wolf${n}`,
      name: `Wolf ${n}`,
      side: 'npc',
      group: 'pack',
      stats: { perception: '2D', skills: { brawling: '3D' } },
    }));
    // Kira 3D: 1, 1, 2 = 4; the pack 2D: 6, wild 5 = 11. The pack's grab, brawling 3D: 2, 3, 4.
    const enc = scripted({}, [kira, ...wolves], [1, 1, 2, 6, 5, 2, 3, 4]);
    must(enc, { type: 'start' });
    must(enc, { type: 'declare', actor: 'wolf1', actions: 1 });
    const grab = rolls(must(enc, { type: 'act', actor: 'wolf1', action: 'grab', target: 'kira' }));
    expect((grab[0]!.roll as { total: number }).total).toBe(9);
    expect(
      rolls(must(enc, { type: 'act', actor: 'wolf2', action: 'grab', target: 'kira', roll: false })),
    ).toHaveLength(0);
    expect(s(enc).combatants.wolf2!.cs.used).toBe(1);
  });

  it('the initiative method holds for the scene: it changes only before "start"', () => {
    const enc = scripted(method1, party);
    must(enc, { type: 'set-options', options: { initiativeMethod: 'perception-per-round' } });
    must(enc, { type: 'set-options', options: { initiativeMethod: 'first-significant-action' } });
    must(enc, { type: 'start', first: 'kira' });
    const r = refused(enc, { type: 'set-options', options: { initiativeMethod: 'perception-per-scene' } });
    expect(r.code).toBe('options/method-locked');
    expect(r.message).toContain('Change the initiative method before starting the scene');
    must(enc, { type: 'set-options', options: { complication: 'remove-highest', initiativeBonus: true } });
  });
});

describe('002 Character Points (not Fate Points) on initiative: each adds one Wild Die roll and leaves the pool', () => {
  it('adds one extra Wild Die per point and decreases the pool', () => {
    // Kira 3D: 2, 2, 2 = 6; two Character Point Wild Dice: 6 explodes 3 = 9, and 4. Thug 2D: 3, 3.
    const enc = scripted({}, [kira, thug], [2, 2, 2, 6, 3, 4, 3, 3]);
    const entries = must(enc, { type: 'start', characterPoints: { kira: 2 } });
    expect(s(enc).combatants.kira!.cs.initiative).toBe(6 + 9 + 4);
    expect(s(enc).combatants.kira!.cs.characterPoints).toBe(1);
    expect(rolls(entries).filter((r) => String(r.purpose).includes('Character Point'))).toHaveLength(2);
  });

  it('refuses points where nothing is rolled, and says when they can be spent', () => {
    const m3 = scripted({ initiativeMethod: 'perception-per-round' }, [kira, thug]);
    must(m3, { type: 'start' });
    const early = refused(m3, { type: 'next', characterPoints: { kira: 1 } });
    expect(early.code).toBe('initiative/not-rolled');
    expect(early.message).toContain('spend them when pressing Next at the end of the round');
    must(m3, { type: 'incapacitate', actor: 'kira' });
    must(m3, { type: 'next' });
    const unable = refused(m3, { type: 'next', characterPoints: { kira: 1 } });
    expect(unable.code).toBe('initiative/not-rolling');
    expect(unable.message).toContain('Kira is unconscious and rolls no initiative');
    must(m3, { type: 'defeat', combatant: 'thug' });
    must(m3, { type: 'recover', actor: 'kira' });
    const out = refused(m3, { type: 'next', characterPoints: { thug: 1 } });
    expect(out.message).toContain('Thug is out of the fight');
    expect(s(m3).combatants.kira!.cs.characterPoints).toBe(3);
  });

  it('refuses Fate Points and points beyond the pool', () => {
    const enc = scripted({}, [kira, thug]);
    expect(refused(enc, { type: 'start', fatePoints: { kira: 1 } }).code).toBe('initiative/fate-points');
    expect(refused(enc, { type: 'start', characterPoints: { kira: 4 } }).message).toContain(
      'Kira has 3 Character Points, not 4; spend at most 3',
    );
  });
});

describe('002 Ties/No Rolls: the ladder and the Optional Initiative Bonus', () => {
  const base = { perception: '3D', reflexes: '3D' };
  const c = (id: string, stats: Record<string, unknown>) => ({
    id,
    name: id,
    side: 'pc',
    stats: { ...base, ...stats },
  });

  it('breaks ties step by step: ability, Perception, search, Reflexes, dodge, special equipment', () => {
    const people = [
      c('equipment', { specialEquipment: 1 }),
      c('dodger', { skills: { dodge: '4D' } }),
      c('quick', { reflexes: '3D+1' }),
      c('searcher', { skills: { search: '3D+2' } }),
      c('sharp', { perception: '3D+1', reflexes: '1D' }),
      c('talent', { goFirst: 1, perception: '1D' }),
      c('plain', {}),
    ];
    const enc = scripted(method1, people);
    must(enc, { type: 'start' });
    expect([enc.state.current, ...turnOrder(enc.state)]).toEqual([
      'talent',
      'sharp',
      'searcher',
      'quick',
      'dodger',
      'equipment',
      'plain',
    ]);
  });

  it('once a spot is decided it does not change: higher later factors do not overtake', () => {
    const enc = scripted(method1, [
      c('a', { perception: '3D+1', reflexes: '1D' }),
      c('b', { reflexes: '6D', skills: { dodge: '8D' } }),
    ]);
    must(enc, { type: 'start' });
    expect(enc.state.current).toBe('a');
  });

  it('ties in the rolled total go down the ladder (Perception first)', () => {
    // a 2D+2: 3, 3 = 8; b 2D: 4, 4 = 8 → a's higher Perception wins.
    const enc = scripted({}, [c('b', { perception: '2D' }), c('a', { perception: '2D+2' })], [4, 4, 3, 3]);
    must(enc, { type: 'start' });
    expect(s(enc).combatants.a!.cs.initiative).toBe(8);
    expect(s(enc).combatants.b!.cs.initiative).toBe(8);
    expect(enc.state.current).toBe('a');
  });

  it('Optional Initiative Bonus: +1 per 2D of search over Perception, per 4D of Reflexes, per 6 ranks — in the breakdown', () => {
    const enc = scripted({ initiativeBonus: true }, [
      c('x', { perception: '3D', reflexes: '8D+2', skills: { search: '7D+1' }, initiativeBonusRanks: 13 }),
    ]);
    const x = enc.state.combatants.x! as never;
    expect(initiativeBonus(x)).toEqual({ search: 2, reflexes: 2, ranks: 2 });
    must(enc, { type: 'start' });
    const text = (enc.entries.find((e) => e.event.type === 'dice/rolled')!.event.roll as { text: string })
      .text;
    expect(text).toContain('@bonus.search(2) + @bonus.reflexes(2) + @bonus.ranks(2)');
  });

  it('the bonus is off unless the option is on', () => {
    const enc = scripted({}, [c('x', { reflexes: '8D' })], [1, 1, 2]);
    must(enc, { type: 'start' });
    expect(s(enc).combatants.x!.cs.initiative).toBe(4);
  });

  it('ladder keys compare untrained search and dodge as Perception and Reflexes', () => {
    const enc = scripted(method1, [c('p', {})]);
    expect(ladder(enc.state.combatants.p! as never)).toEqual([-0, -9, -9, -9, -9, -0]);
  });
});

describe('002 Multi-action Penalty: −1D per action beyond the first (or the allotment) on skill and attribute rolls', () => {
  it('trying to do four actions in one round gives −3D to each roll', () => {
    // dodge 4D+1 at −3D = 1D+1: the Wild Die alone, 4.
    const enc = scripted(method1, [kira, thug], [4]);
    must(enc, { type: 'start', first: 'kira' });
    const declared = must(enc, { type: 'declare', actor: 'kira', actions: 4 })[0]!.event;
    expect(declared.penalty).toBe(3);
    expect((declared.effective as Record<string, { effective: string }>).Perception!.effective).toBe('0D');
    const [roll] = rolls(must(enc, { type: 'roll', actor: 'kira', skill: 'dodge' }));
    expect(roll).toMatchObject({ code: '4D+1', penalty: 3, effective: '1D+1' });
    expect((roll!.roll as { total: number }).total).toBe(5);
    expect(refused(enc, { type: 'roll', actor: 'kira', skill: 'perception' }).code).toBe('skill/zero');
  });

  it('the effective code of each roll is shown (dodge 4D+1 → 3D+1) and rolled on request', () => {
    const enc = scripted(method1, [kira, thug], [3, 3, 3]);
    must(enc, { type: 'start', first: 'kira' });
    const entries = must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    const declared = entries[0]!.event;
    expect(declared.penalty).toBe(1);
    expect((declared.effective as Record<string, { effective: string }>).dodge!.effective).toBe('3D+1');
    const [roll] = rolls(must(enc, { type: 'roll', actor: 'kira', skill: 'dodge' }));
    expect(roll).toMatchObject({ code: '4D+1', penalty: 1, effective: '3D+1' });
    expect((roll!.roll as { total: number }).total).toBe(10);
  });

  it('not on damage, damage resistance or initiative rolls', () => {
    const enc = scripted(method1, [kira], [2, 2, 2, 2, 2, 2]);
    must(enc, { type: 'start', first: 'kira' });
    must(enc, { type: 'declare', actor: 'kira', actions: 3 });
    const [damage] = rolls(must(enc, { type: 'roll', actor: 'kira', code: '3D', kind: 'damage' }));
    expect(damage).toMatchObject({ penalty: 0, effective: '3D' });
    const [resist] = rolls(must(enc, { type: 'roll', actor: 'kira', code: '3D', kind: 'damage-resistance' }));
    expect(resist).toMatchObject({ penalty: 0, effective: '3D' });
  });

  it('the initiative roll takes no penalty', () => {
    const enc = scripted({ initiativeMethod: 'perception-per-round' }, [kira], [1, 1, 2, 1, 1, 2]);
    must(enc, { type: 'start' });
    must(enc, { type: 'declare', actor: 'kira', actions: 3 });
    const entries = must(enc, { type: 'next' });
    expect((rolls(entries)[0]!.roll as { notation: string }).notation).toBe('3D');
  });

  it('determining initiative, rolling to resist damage and rolling willpower or Presence for emotional effects are not character actions', () => {
    const calm = { ...kira, stats: { ...kira.stats, attributes: { Presence: '3D' } } };
    const enc = scripted(
      { initiativeMethod: 'perception-per-round' },
      [calm],
      [1, 1, 2, 3, 3, 3, 4, 4, 4, 1, 1, 2],
    );
    must(enc, { type: 'start' });
    must(enc, { type: 'declare', actor: 'kira', actions: 1 });
    must(enc, { type: 'roll', actor: 'kira', code: '3D', kind: 'damage-resistance' });
    must(enc, { type: 'roll', actor: 'kira', skill: 'Presence' }); // the scene's emotional effects
    expect(s(enc).combatants.kira!.cs.used).toBe(0);
    must(enc, { type: 'act', actor: 'kira', action: 'ready-weapon' });
    must(enc, { type: 'next' }); // a new round's initiative roll uses none of round 2's actions
    expect(s(enc).combatants.kira!.cs).toMatchObject({ used: 0, declared: null });
  });

  it('with an allotment of eight, nine actions are each at −1D', () => {
    const enc = scripted(method1, [{ ...kira, stats: { ...kira.stats, actionAllotment: 8 } }]);
    must(enc, { type: 'start' });
    expect(must(enc, { type: 'declare', actor: 'kira', actions: 9 })[0]!.event.penalty).toBe(1);
  });

  it('a skill reduced to 0D cannot be used', () => {
    const enc = scripted(method1, [kira, thug]);
    must(enc, { type: 'start', first: 'kira' });
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    const r = refused(enc, { type: 'act', actor: 'kira', action: 'punch' });
    expect(r.code).toBe('skill/zero');
    expect(r.message).toContain('brawling is 1D; at −1D it is 0D');
    const legal = openD6.legalActions(s(enc), 'kira').find((l) => l.action.id === 'punch')!;
    expect(legal).toMatchObject({ enabled: false, code: 'skill/zero' });
  });

  it('a 0D skill on the sheet cannot be used even without a penalty', () => {
    const enc = scripted(method1, [{ ...kira, stats: { ...kira.stats, skills: { brawling: '0D+2' } } }]);
    must(enc, { type: 'start' });
    must(enc, { type: 'declare', actor: 'kira', actions: 1 });
    expect(refused(enc, { type: 'roll', actor: 'kira', skill: 'brawling' }).code).toBe('skill/zero');
  });
});

describe('002 Performing Actions in Rounds: declaring, waiting, unused actions, interrupting, moving up', () => {
  function started(dice: number[] = []) {
    const enc = scripted(method1, [kira, thug], dice);
    must(enc, { type: 'start', first: 'kira' });
    return enc;
  }

  it('the number of actions is declared when the turn comes, once; no actions may be added after', () => {
    const enc = started();
    expect(refused(enc, { type: 'declare', actor: 'thug', actions: 1 }).code).toBe('turn/not-yours');
    expect(refused(enc, { type: 'act', actor: 'kira', action: 'waiting' }).code).toBe('actions/undeclared');
    must(enc, { type: 'declare', actor: 'kira', actions: 1 });
    expect(refused(enc, { type: 'declare', actor: 'kira', actions: 2 }).code).toBe('actions/declared');
    must(enc, { type: 'act', actor: 'kira', action: 'ready-weapon' });
    const r = refused(enc, { type: 'act', actor: 'kira', action: 'ready-weapon' });
    expect(r.code).toBe('actions/exhausted');
    expect(r.message).toContain('no actions may be added once the multi-action penalty is figured');
  });

  it('waiting counts as an action each time', () => {
    const enc = started();
    must(enc, { type: 'declare', actor: 'kira', actions: 3 });
    must(enc, { type: 'act', actor: 'kira', action: 'waiting' });
    must(enc, { type: 'act', actor: 'kira', action: 'waiting' });
    expect(s(enc).combatants.kira!.cs.used).toBe(2);
  });

  it('waiting lasts until the next action: after acting again, the character must wait again to interrupt', () => {
    const enc = started([4, 3, 5]);
    must(enc, { type: 'declare', actor: 'kira', actions: 4 });
    must(enc, { type: 'act', actor: 'kira', action: 'waiting' });
    expect(s(enc).combatants.kira!.cs.waiting).toBe(true);
    must(enc, { type: 'act', actor: 'kira', action: 'speak' });
    expect(s(enc).combatants.kira!.cs.waiting).toBe(true); // a free action does not end the watch
    must(enc, { type: 'act', actor: 'kira', action: 'ready-weapon' });
    expect(s(enc).combatants.kira!.cs.waiting).toBe(false);
    must(enc, { type: 'next' });
    must(enc, { type: 'declare', actor: 'thug', actions: 1 });
    must(enc, { type: 'act', actor: 'thug', action: 'slash' });
    expect(refused(enc, { type: 'interrupt', actor: 'kira', action: 'dodge' }).code).toBe(
      'interrupt/not-waiting',
    );
  });

  it('free actions take no action', () => {
    const enc = started();
    must(enc, { type: 'declare', actor: 'kira', actions: 1 });
    must(enc, { type: 'act', actor: 'kira', action: 'speak' });
    expect(s(enc).combatants.kira!.cs.used).toBe(0);
  });

  it("a quick glance is a free action, and may roll Perception at the round's penalty", () => {
    // Perception 3D at −1D = 2D: 3, wild 4.
    const enc = started([3, 4]);
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    const [roll] = rolls(must(enc, { type: 'act', actor: 'kira', action: 'glance', skill: 'perception' }));
    expect(roll).toMatchObject({ skill: 'Perception', code: '3D', penalty: 1, effective: '2D' });
    expect(s(enc).combatants.kira!.cs.used).toBe(0);
  });

  it('a free action as an interrupt (a shouted warning) takes no action and keeps the wait', () => {
    const enc = started([4, 3, 5, 5, 2, 4]);
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    must(enc, { type: 'act', actor: 'kira', action: 'waiting' });
    must(enc, { type: 'next' });
    must(enc, { type: 'declare', actor: 'thug', actions: 1 });
    must(enc, { type: 'act', actor: 'thug', action: 'slash' });
    must(enc, { type: 'interrupt', actor: 'kira', action: 'speak' });
    expect(s(enc).combatants.kira!.cs).toMatchObject({ used: 1, waiting: true });
    must(enc, { type: 'interrupt', actor: 'kira', action: 'dodge' });
    expect(s(enc).combatants.kira!.cs).toMatchObject({ used: 2, waiting: false });
  });

  it('unused declared actions are lost at the end of the round', () => {
    const enc = started();
    must(enc, { type: 'declare', actor: 'kira', actions: 3 });
    must(enc, { type: 'next' });
    const entries = must(enc, { type: 'next' });
    expect(entries.find((e) => e.event.type === 'opend6/actions-lost')!.event).toMatchObject({
      combatant: 'kira',
      count: 3,
    });
    expect(s(enc).combatants.kira!.cs.declared).toBeNull();
  });

  it('only a character who waited may interrupt, after the roll and before the result', () => {
    const enc = started([4, 3, 5, 5, 2, 4]);
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    must(enc, { type: 'next' });
    must(enc, { type: 'declare', actor: 'thug', actions: 1 });
    expect(refused(enc, { type: 'interrupt', actor: 'kira', action: 'dodge' }).code).toBe(
      'interrupt/not-waiting',
    );
    must(enc, { type: 'act', actor: 'thug', action: 'slash' });
    expect(refused(enc, { type: 'interrupt', actor: 'kira', action: 'dodge' }).code).toBe(
      'interrupt/not-waiting',
    );
    expect(refused(enc, { type: 'interrupt', actor: 'thug', action: 'dodge' }).code).toBe(
      'interrupt/own-turn',
    );
  });

  it('an interrupt comes after the roll, before the result; once the result is declared it is too late', () => {
    const enc = started([4, 3, 5, 5, 2, 4, 1, 1]);
    must(enc, { type: 'declare', actor: 'kira', actions: 3 });
    must(enc, { type: 'act', actor: 'kira', action: 'waiting' });
    must(enc, { type: 'next' });
    must(enc, { type: 'declare', actor: 'thug', actions: 1 });
    must(enc, { type: 'act', actor: 'thug', action: 'slash' });
    must(enc, { type: 'result' });
    expect(refused(enc, { type: 'interrupt', actor: 'kira', action: 'dodge' }).code).toBe(
      'interrupt/no-roll',
    );
    expect(refused(enc, { type: 'result' }).code).toBe('result/no-roll');
  });

  it('the interrupt sits on the clock just after the roll, inside the interrupted turn', () => {
    const enc = started([4, 3, 5, 5, 2, 4]);
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    must(enc, { type: 'act', actor: 'kira', action: 'waiting' });
    must(enc, { type: 'next' });
    const turnAt = enc.state.now!;
    must(enc, { type: 'declare', actor: 'thug', actions: 1 });
    must(enc, { type: 'act', actor: 'thug', action: 'slash' });
    must(enc, { type: 'interrupt', actor: 'kira', action: 'dodge' });
    expect(enc.state.now).toEqual({ round: 1, at: [...turnAt.at, 0] });
    expect(enc.state.current).toBe('thug');
    const t = openD6.timeline(s(enc));
    const lane = t.lanes.find((l) => l.id === 'kira')!;
    expect(lane.markers.map((m) => [m.kind, m.at])).toEqual([
      ['wait', 1],
      ['reaction', 2],
    ]);
    expect(renderTimelineAscii(t)).toContain('Kira');
  });

  it('a waiting character may resume right after the current turn', () => {
    const enc = started();
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    must(enc, { type: 'act', actor: 'kira', action: 'waiting' });
    must(enc, { type: 'next' });
    must(enc, { type: 'resume', actor: 'kira' });
    expect(refused(enc, { type: 'resume', actor: 'kira' }).code).toBe('resume/not-waiting');
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('kira');
    expect(enc.state.round).toBe(1);
    must(enc, { type: 'act', actor: 'kira', action: 'ready-weapon' });
    must(enc, { type: 'next' });
    expect(enc.state.round).toBe(2);
  });

  it('"move up": the GM may let a character act before her turn; it takes one of her actions', () => {
    const enc = scripted(
      method1,
      [thug, { ...kira, stats: { ...kira.stats, skills: { throwing: '3D' } } }],
      [1, 2, 3],
    );
    must(enc, { type: 'start', first: 'thug' });
    const outOfTurn = refused(enc, { type: 'act', actor: 'kira', action: 'catch' });
    expect(outOfTurn.code).toBe('turn/not-yours');
    // It says what would make it legal, by the field the form shows; so does the palette's reason.
    expect(outOfTurn.message).toBe(
      `It is Thug's turn, not Kira's. The GM may also let Kira move up their turn for this action ("Move up the turn" with it).`,
    );
    expect(legalActions(enc.state, 'kira', registry).find((l) => l.action.id === 'catch')!.reason).toBe(
      `It is Thug's turn, not Kira's; Catch is one of the few reactions for which the GM may let Kira move up their turn ("Move up the turn" with it). It takes one of Kira's actions, and the round's number of actions is declared with it.`,
    );
    const byPlayer = enc.execute(
      { type: 'act', actor: 'kira', action: 'catch', moveUp: true, declare: 2 },
      { by: { role: 'player', combatants: ['kira'] } },
    );
    expect(isRejection(byPlayer) && byPlayer.code).toBe('move-up/gm-only');
    expect(isRejection(byPlayer) && byPlayer.message).toBe(
      "Only the GM may let Kira move up their turn (catch, resisting a mental attempt…); ask the GM to move up Kira's turn for this action, or wait for it.",
    );
    // The form asks for what the command takes, by the names a GM reads.
    const catchIt = legalActions(enc.state, 'kira', registry).find((l) => l.action.id === 'catch')!;
    expect(catchIt.params?.map((p) => p.label)).toEqual([
      'Target',
      'Skill or attribute',
      'Die code',
      'Roll the skill',
      'Actions this round',
      'Move up the turn',
    ]);
    must(enc, { type: 'act', actor: 'kira', action: 'catch', moveUp: true, declare: 2 });
    expect(s(enc).combatants.kira!.cs).toMatchObject({ declared: 2, used: 1 });
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('kira');
    expect(refused(enc, { type: 'declare', actor: 'kira', actions: 3 }).code).toBe('actions/declared');
  });

  it('a character whose turn has passed cannot move up', () => {
    const enc = started();
    must(enc, { type: 'next' });
    const r = refused(enc, { type: 'act', actor: 'kira', action: 'catch', moveUp: true, declare: 1 });
    expect(r.code).toBe('move-up/turn-passed');
  });

  it('refusals say why, and what would make the command legal', () => {
    const enc = started();
    expect(refused(enc, { type: 'resume', actor: 'kira' }).message).toContain(
      'takes the actions now, from the list of actions',
    );
    must(enc, { type: 'declare', actor: 'kira', actions: 1 });
    expect(refused(enc, { type: 'declare', actor: 'kira', actions: 1 }).message).toContain(
      'Kira already declared 1 action this round; no actions may be added once the multi-action penalty is figured. Kira declares again next round.',
    );
    must(enc, { type: 'act', actor: 'kira', action: 'ready-weapon' });
    expect(refused(enc, { type: 'act', actor: 'kira', action: 'dodge' }).message).toContain(
      'Kira acts again next round (or takes a free action).',
    );
    must(enc, { type: 'next' });
    // Her turn is over and her one action used: no advice to wait "on her turn".
    expect(refused(enc, { type: 'resume', actor: 'kira' }).message).toBe(
      'Kira has not waited this round; only a character who waited takes more actions later in the round. Kira has used the one declared action and acts again next round.',
    );
    must(enc, { type: 'declare', actor: 'thug', actions: 1 });
    expect(refused(enc, { type: 'interrupt', actor: 'kira', action: 'dodge' }).message).toContain(
      'Kira has not waited this round; only a character who waited may interrupt.',
    );
    expect(refused(enc, { type: 'act', actor: 'kira', action: 'dodge' }).message).toBe(
      "It is Thug's turn, not Kira's. Kira's turn this round is over, so Kira acts again next round.",
    );
    expect(refused(enc, { type: 'recover', actor: 'kira' }).message).toContain(
      'Recover is for a character who',
    );
    must(enc, { type: 'incapacitate', actor: 'kira' });
    expect(refused(enc, { type: 'incapacitate', actor: 'kira' }).message).toContain(
      'press Recover when Kira can act again',
    );
  });

  it('Catch: the catcher must act later in the round than the thrower', () => {
    // Order: Ana, the thrower, Bren. Bren's turn comes after the throw, so the GM may move it up to
    // catch; Ana's turn came before the throw, so she cannot (unless she waited and interrupts).
    const ana = { id: 'ana', name: 'Ana', side: 'pc', stats: { skills: { throwing: '3D' } } };
    const bren = { ...ana, id: 'bren', name: 'Bren' };
    const thrower = { id: 'thrower', name: 'Thrower', side: 'npc', stats: { skills: { throwing: '3D' } } };
    const enc = scripted(method1, [ana, thrower, bren], [4, 2, 3, 5, 5, 2]);
    must(enc, { type: 'start', order: ['ana', 'thrower', 'bren'] });
    must(enc, { type: 'declare', actor: 'ana', actions: 1 });
    must(enc, { type: 'act', actor: 'ana', action: 'ready-weapon' });
    must(enc, { type: 'next' });
    must(enc, { type: 'declare', actor: 'thrower', actions: 1 });
    must(enc, { type: 'act', actor: 'thrower', action: 'throw', target: 'bren' });
    const early = refused(enc, { type: 'act', actor: 'ana', action: 'catch', moveUp: true });
    expect(early.code).toBe('move-up/turn-passed');
    expect(early.message).toContain('Ana has no turn left this round');
    must(enc, { type: 'act', actor: 'bren', action: 'catch', moveUp: true, declare: 1 });
    expect(s(enc).combatants.bren!.cs).toMatchObject({ declared: 1, used: 1 });
  });
});

describe('002 Unconscious or immobile characters lose their action for the round if not yet taken', () => {
  it('loses the coming turn, keeps it lost while unable, and acts again after recovering', () => {
    const enc = scripted(method1, [thug, kira]);
    must(enc, { type: 'start', first: 'thug' });
    const entries = must(enc, { type: 'incapacitate', actor: 'kira', condition: 'immobile' });
    expect(entries.some((e) => e.event.type === 'opend6/turn-lost')).toBe(true);
    expect(turnOrder(enc.state)).toEqual([]);
    expect(refused(enc, { type: 'act', actor: 'kira', action: 'catch', moveUp: true, declare: 1 }).code).toBe(
      'combatant/unable',
    );
    must(enc, { type: 'next' });
    expect(enc.state.round).toBe(2);
    expect(turnOrder(enc.state)).toEqual([]);
    must(enc, { type: 'recover', actor: 'kira' });
    must(enc, { type: 'next' });
    expect(turnOrder(enc.state)).toEqual(['kira']);
  });

  it('out of the fight when the order was decided: on being revived he gets a place from the next round', () => {
    // Method 2: Kira's Perception 3D at the start (3, 4, wild 2 = 9); the thug's 2D on his revival (5, wild 5).
    const enc = scripted({}, [kira, thug], [3, 4, 2, 5, 5]);
    must(enc, { type: 'defeat', combatant: 'thug' });
    must(enc, { type: 'start' });
    expect(s(enc).combatants.thug!.cs.orderKey).toBeNull();
    const entries = must(enc, { type: 'revive', combatant: 'thug' });
    expect(entries.some((e) => e.event.type === 'opend6/joins-next-round')).toBe(true);
    expect(s(enc).combatants.thug!.cs.initiative).toBe(10);
    expect(turnOrder(enc.state)).toEqual([]);
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('thug');
    expect(turnOrder(enc.state)).toEqual(['kira']);
  });

  it('Method 2: Character Points add Wild Dice to the roll made on recovering, and only to it', () => {
    // Kira's Perception 3D at the start (3, 4, wild 2); the thug's 2D on recovering (1, wild 2) + 1 CP die (4).
    const enc = scripted(
      {},
      [kira, { ...thug, stats: { ...thug.stats, characterPoints: 2 } }],
      [3, 4, 2, 1, 2, 4],
    );
    must(enc, { type: 'incapacitate', actor: 'thug' });
    must(enc, { type: 'start' });
    expect(refused(enc, { type: 'recover', actor: 'thug', characterPoints: 3 }).code).toBe(
      'initiative/character-points',
    );
    must(enc, { type: 'recover', actor: 'thug', characterPoints: 1 });
    expect(s(enc).combatants.thug!.cs).toMatchObject({ initiative: 7, characterPoints: 1 });
    must(enc, { type: 'incapacitate', actor: 'kira' });
    expect(refused(enc, { type: 'recover', actor: 'kira', characterPoints: 1 }).code).toBe(
      'initiative/not-rolled',
    );
  });

  it('Method 1: a character out of the fight when the GM set the order goes after everyone on his return', () => {
    const enc = scripted(method1, [thug, kira]);
    must(enc, { type: 'defeat', combatant: 'thug' });
    must(enc, { type: 'start', first: 'kira' });
    must(enc, { type: 'revive', combatant: 'thug' });
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('kira');
    expect(turnOrder(enc.state)).toEqual(['thug']);
  });

  it('a group member defeated and revived before his group acts loses that round, like a lone character', () => {
    const wolf = (id: string) => ({ id, name: id, side: 'npc', group: 'pack', stats: {} });
    const enc = scripted(method1, [kira, wolf('w1'), wolf('w2')]);
    must(enc, { type: 'start', first: 'kira' });
    must(enc, { type: 'defeat', combatant: 'w2' });
    must(enc, { type: 'revive', combatant: 'w2' });
    must(enc, { type: 'next' });
    expect(s(enc).rs.acting).toEqual(['w1']);
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    expect(s(enc).rs.acting).toEqual(['w2', 'w1']);
  });

  it("a group member unable as the round begins stays out of his group's turn even if he recovers first", () => {
    const wolf = (id: string) => ({ id, name: id, side: 'npc', group: 'pack', stats: {} });
    const enc = scripted(method1, [kira, wolf('w1'), wolf('w2')]);
    must(enc, { type: 'incapacitate', actor: 'w2' });
    must(enc, { type: 'start', first: 'kira' });
    must(enc, { type: 'recover', actor: 'w2' });
    must(enc, { type: 'next' });
    expect(s(enc).rs.acting).toEqual(['w1']);
  });

  it('a character already acting keeps what she did, and her remaining actions are lost', () => {
    const enc = scripted(method1, [kira, thug]);
    must(enc, { type: 'start', first: 'kira' });
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    must(enc, { type: 'act', actor: 'kira', action: 'waiting' });
    const entries = must(enc, { type: 'incapacitate', actor: 'kira' });
    expect(entries.find((e) => e.event.type === 'opend6/actions-lost')!.event.count).toBe(1);
    expect(refused(enc, { type: 'act', actor: 'kira', action: 'ready-weapon' }).code).toBe(
      'combatant/unable',
    );
  });
});

describe('002 Actions that Take Time and Free Actions: the catalog, GM-editable', () => {
  it('lists the seed actions with suggested skills, and the free actions', () => {
    const ids = OPEND6_CATALOG.map((a) => a.id);
    for (const id of [
      'bash',
      'catch',
      'choke',
      'dodge',
      'slash',
      'tackle',
      'vehicle-maneuver',
      'waiting',
      'speak',
    ]) {
      expect(ids).toContain(id);
    }
    expect(OPEND6_CATALOG.find((a) => a.id === 'lunge')!.data!.skills).toEqual(['melee combat']);
    expect(OPEND6_CATALOG.filter((a) => a.kind === 'free')).toHaveLength(3);
  });

  it('every action of the list, each one action, with the suggested skills of the text', () => {
    const suggested: Record<string, string[]> = {
      Bash: ['melee combat'],
      Catch: ['throwing'],
      Choke: ['brawling'],
      Communicate: ['persuasion'],
      Disarm: ['brawling', 'marksmanship', 'melee combat', 'missile weapons', 'throwing'],
      Dodge: ['dodge'],
      Entangle: ['throwing'],
      Escape: ['lifting'],
      Grab: ['brawling'],
      Kick: ['brawling'],
      Leap: ['jumping'],
      Lunge: ['melee combat'],
      Move: ['running', 'swimming'],
      Parry: ['brawling', 'melee combat'],
      Pin: ['brawling', 'melee combat', 'missile weapons', 'throwing'],
      Punch: ['brawling'],
      Push: ['brawling'],
      'Ready a Weapon': [],
      'Run Away': ['running'],
      Shoot: ['marksmanship', 'missile weapons'],
      Slash: ['melee combat'],
      'Switch a Weapon or Equipment’s Setting': [],
      Tackle: ['brawling'],
      'Throw a Weapon or Object': ['throwing'],
      Trip: ['brawling'],
      'Use a Skill or Ability': [],
      'Vehicle Maneuver': ['piloting'],
      Waiting: [],
    };
    const timed = OPEND6_CATALOG.filter((a) => a.kind !== 'free');
    expect(Object.fromEntries(timed.map((a) => [a.name, a.data!.skills]))).toEqual(suggested);
    for (const a of timed) expect(a.cost).toEqual({ actions: 1 });
    // "does not require a skill roll": Ready a Weapon, Switch a Setting, Waiting; Move only when the GM calls for it.
    const noRoll = timed.filter((a) => a.data!.roll === false).map((a) => a.id);
    expect(noRoll).toEqual(['move', 'ready-weapon', 'switch-setting', 'waiting']);
    expect(OPEND6_CATALOG.filter((a) => a.kind === 'free').map((a) => a.cost)).toEqual([
      { actions: 0 },
      { actions: 0 },
      { actions: 0 },
    ]);
  });

  it('Move rolls only when the GM calls for it (challenging terrain: roll: true)', () => {
    const runner = { ...kira, stats: { ...kira.stats, skills: { running: '3D' } } };
    const enc = scripted(method1, [runner], [2, 2, 2]);
    must(enc, { type: 'start' });
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    expect(rolls(must(enc, { type: 'act', actor: 'kira', action: 'move' }))).toHaveLength(0);
    const [roll] = rolls(must(enc, { type: 'act', actor: 'kira', action: 'move', roll: true }));
    expect(roll).toMatchObject({ skill: 'running', code: '3D', effective: '2D', penalty: 1 });
  });

  it('roll: true on an action whose skills are not on the sheet is refused with what to name', () => {
    const enc = scripted(method1, [kira]);
    must(enc, { type: 'start' });
    must(enc, { type: 'declare', actor: 'kira', actions: 1 });
    const r = refused(enc, { type: 'act', actor: 'kira', action: 'move', roll: true });
    expect(r.code).toBe('roll/what');
    expect(r.message).toContain('none of the skills suggested for Move (running, swimming)');
  });

  it('equipment suited only for one use a round: a GM-defined action with perRound is limited per round', () => {
    const enc = scripted(method1, [{ ...kira, stats: { ...kira.stats, skills: { marksmanship: '4D' } } }]);
    must(enc, {
      type: 'define-action',
      action: { id: 'musket', name: 'Fire the Musket', data: { skills: ['marksmanship'], perRound: 1 } },
    });
    expect(
      refused(enc, {
        type: 'define-action',
        action: { id: 'bad', name: 'Bad', data: { perRound: 0 } },
      }).code,
    ).toBe('action/invalid-flags');
    must(enc, { type: 'start' });
    must(enc, { type: 'declare', actor: 'kira', actions: 3 });
    must(enc, { type: 'act', actor: 'kira', action: 'musket', roll: false });
    const r = refused(enc, { type: 'act', actor: 'kira', action: 'musket', roll: false });
    expect(r.code).toBe('action/per-round');
    expect(r.message).toContain('Fire the Musket can be used once a round');
    expect(openD6.legalActions(s(enc), 'kira').find((l) => l.action.id === 'musket')).toMatchObject({
      enabled: false,
      code: 'action/per-round',
    });
    must(enc, { type: 'act', actor: 'kira', action: 'shoot', roll: false }); // a pistol: no limit
    must(enc, { type: 'act', actor: 'kira', action: 'shoot', roll: false });
    must(enc, { type: 'next' });
    must(enc, { type: 'declare', actor: 'kira', actions: 1 });
    must(enc, { type: 'act', actor: 'kira', action: 'musket', roll: false });
  });

  it('a GM-defined action is used like a catalog action, its flags read from data', () => {
    const enc = scripted(
      method1,
      [{ ...kira, stats: { ...kira.stats, skills: { willpower: '3D' } } }],
      [2, 2, 2],
    );
    must(enc, {
      type: 'define-action',
      action: {
        id: 'resist-mind',
        name: 'Resist a Mental Attempt',
        kind: 'action',
        data: { skills: ['willpower'], moveUp: true },
      },
    });
    expect(
      refused(enc, {
        type: 'define-action',
        action: { id: 'bad', name: 'Bad', data: { skills: 'willpower' } },
      }).code,
    ).toBe('action/invalid-flags');
    must(enc, { type: 'start' });
    must(enc, { type: 'declare', actor: 'kira', actions: 1 });
    const [roll] = rolls(must(enc, { type: 'act', actor: 'kira', action: 'resist-mind' }));
    expect(roll).toMatchObject({ skill: 'willpower', effective: '3D' });
  });
});

describe('legalActions: every catalog action with reasons and the penalty it would roll at', () => {
  it('shows the effective code of each choice and why others are disabled', () => {
    const enc = scripted(method1, [kira, thug]);
    must(enc, { type: 'start', first: 'kira' });
    must(enc, { type: 'declare', actor: 'kira', actions: 2 });
    const legal = openD6.legalActions(s(enc), 'kira');
    expect(legal).toHaveLength(OPEND6_CATALOG.length);
    const dodge = legal.find((l) => l.action.id === 'dodge')!;
    expect(dodge).toMatchObject({ enabled: true, cost: { actions: 1, penalty: 1 } });
    expect(dodge.preview!.label).toBe('on their turn: dodge 4D+1 −1D = 3D+1');
    // The button names the action; its preview does not say the name again.
    for (const l of legal) if (l.preview) expect(l.preview.label).not.toContain(l.action.name);
    const thugs = openD6.legalActions(s(enc), 'thug');
    expect(thugs.find((l) => l.action.id === 'slash')!.reason).toMatch(/Kira's turn/);
  });

  it('before declaring, each choice shows the penalty each number of actions would cause', () => {
    const enc = scripted(method1, [kira, thug]);
    must(enc, { type: 'start', first: 'kira' });
    const dodge = openD6.legalActions(s(enc), 'kira').find((l) => l.action.id === 'dodge')!;
    expect(dodge).toMatchObject({ enabled: false, code: 'actions/undeclared' });
    expect(dodge.reason).toContain(
      'Declaring 1 action: dodge 4D+1; 2 actions: dodge 3D+1 (−1D); 3 actions: dodge 2D+1 (−2D).',
    );
    const wait = openD6.legalActions(s(enc), 'kira').find((l) => l.action.id === 'waiting')!;
    expect(wait.reason).toContain('2 actions: −1D on every skill and attribute roll');
    expect(openD6.legalActions(s(enc), 'kira').find((l) => l.action.id === 'speak')!.enabled).toBe(true);
  });

  it('out of turn, Catch names the GM-permitted move-up; other actions say it is only for a few reactions', () => {
    const enc = scripted(method1, [kira, thug]);
    must(enc, { type: 'start', first: 'thug' });
    const legal = openD6.legalActions(s(enc), 'kira');
    expect(legal.find((l) => l.action.id === 'catch')!.reason).toContain(
      'Catch is one of the few reactions for which the GM may let Kira move up their turn',
    );
    expect(legal.find((l) => l.action.id === 'punch')!.reason).toContain('only for a few reactions');
  });
});

describe('timeline: the round in turn order, with waits, interrupts, resumed turns and lost actions', () => {
  it('puts each happening in the column of the turn it fell in', () => {
    const bren = { id: 'bren', name: 'Bren', side: 'pc', stats: { perception: '2D' } };
    const dan = { id: 'dan', name: 'Dan', side: 'pc', stats: { perception: '2D' } };
    // The thug's slash, melee combat 3D+2: 4, 3, wild 5; Kira's interrupting dodge at 3D+1: 5, 2, wild 4.
    const enc = scripted(method1, [kira, bren, thug, dan], [4, 3, 5, 5, 2, 4]);
    must(enc, { type: 'start', order: ['kira', 'bren', 'thug', 'dan'] });
    for (const id of ['kira', 'bren']) {
      must(enc, { type: 'declare', actor: id, actions: 2 });
      must(enc, { type: 'act', actor: id, action: 'waiting' });
      must(enc, { type: 'next' });
    }
    must(enc, { type: 'declare', actor: 'thug', actions: 1 });
    must(enc, { type: 'act', actor: 'thug', action: 'slash', target: 'kira' });
    must(enc, { type: 'interrupt', actor: 'kira', action: 'dodge' });
    must(enc, { type: 'result' });
    must(enc, { type: 'resume', actor: 'bren' });
    must(enc, { type: 'incapacitate', actor: 'dan' });
    must(enc, { type: 'next' });
    must(enc, { type: 'act', actor: 'bren', action: 'ready-weapon' });
    const t = openD6.timeline(s(enc));
    expect(t.axis.labels).toEqual({
      1: "Kira's turn",
      2: "Bren's turn",
      3: "Thug's turn",
      4: 'Bren acts after waiting',
      5: "Dan's turn",
    });
    const marks = (id: string) =>
      t.lanes.find((l) => l.id === id)!.markers.map((m) => [m.kind, m.at, m.label]);
    expect(marks('kira')).toEqual([
      ['wait', 1, 'Waiting'],
      ['reaction', 3, 'Dodge'],
    ]);
    expect(marks('bren')).toEqual([
      ['wait', 2, 'Waiting'],
      ['attack', 4, 'Ready a Weapon'],
      ['turn', 4, 'acting'],
    ]);
    expect(marks('thug')).toEqual([['attack', 3, 'Slash']]);
    expect(marks('dan')).toEqual([['forfeit', 3, 'loses the action']]);
    expect(t.now).toEqual({ round: 1, at: 4 });
    // The lane and the column name whose turn it is: a bar says which kind of turn.
    expect(t.lanes.find((l) => l.id === 'bren')!.spans.map((s) => [s.from, s.label])).toEqual([
      [2, 'turn'],
      [4, 'after waiting'],
    ]);
  });
});

describe("views: hidden group members and the GM's NPC Character Points stay secret", () => {
  it("a player's refusal does not name a hidden combatant whose turn it is", () => {
    const lurker = { id: 'lurker', name: 'Lurker', side: 'npc', hidden: true, stats: { perception: '2D' } };
    const enc = scripted(method1, [kira, lurker]);
    must(enc, { type: 'start', first: 'lurker' });
    const asPlayer = { by: { role: 'player' as const, combatants: ['kira'] } };
    for (const command of [
      { type: 'declare', actor: 'kira', actions: 1 },
      { type: 'act', actor: 'kira', action: 'dodge' },
    ]) {
      const r = enc.execute(command, asPlayer);
      expect(isRejection(r) && r.message).toContain("someone unseen's turn");
      expect(JSON.stringify(r)).not.toContain('Lurker');
      expect(refused(enc, command).message).toContain("Lurker's turn"); // the GM is told
    }
  });

  it('redacts state and events for the table and players', () => {
    const wolves = [
      { id: 'wolf1', name: 'Wolf 1', side: 'npc', group: 'pack', stats: { characterPoints: 4 } },
      { id: 'lurker', name: 'Lurker', side: 'npc', group: 'pack', hidden: true },
    ];
    const enc = encounter({ ruleset: 'opend6', combatants: [kira, ...wolves] }, registry);
    must(enc, { type: 'start' });
    for (let i = 0; i < 4; i++) must(enc, { type: 'next' });
    const table = view(enc.state, { role: 'table' }, openD6 as never);
    expect(JSON.stringify(table)).not.toContain('lurker');
    expect((table.combatants.wolf1!.cs as { characterPoints: number }).characterPoints).toBe(0);
    expect(
      (view(enc.state, { role: 'gm' }, openD6 as never).combatants.wolf1!.cs as { characterPoints: number })
        .characterPoints,
    ).toBe(4);
    const log = viewLog(enc.entries, { role: 'player', combatants: ['kira'] }, enc.state, openD6 as never);
    expect(JSON.stringify(log)).not.toContain('lurker');
  });
});

describe('properties: random command sequences keep fold(log) = state, plain JSON, never mutate or throw', () => {
  const ids = ['kira', 'thug', 'wolf1', 'wolf2'];
  const actions = ['dodge', 'waiting', 'slash', 'catch', 'speak', 'ready-weapon', 'punch'];
  const command = fc.oneof(
    fc.constant({ type: 'next' }),
    fc.constant({ type: 'result' }),
    fc.record({
      type: fc.constant('declare'),
      actor: fc.constantFrom(...ids),
      actions: fc.integer({ min: 1, max: 4 }),
    }),
    fc.record({
      type: fc.constant('act'),
      actor: fc.constantFrom(...ids),
      action: fc.constantFrom(...actions),
    }),
    fc.record({
      type: fc.constant('act'),
      actor: fc.constantFrom(...ids),
      action: fc.constantFrom(...actions),
      moveUp: fc.constant(true),
      declare: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({
      type: fc.constant('interrupt'),
      actor: fc.constantFrom(...ids),
      action: fc.constantFrom(...actions),
    }),
    fc.record({ type: fc.constant('resume'), actor: fc.constantFrom(...ids) }),
    fc.record({
      type: fc.constant('roll'),
      actor: fc.constantFrom(...ids),
      skill: fc.constantFrom('dodge', 'perception'),
    }),
    fc.record({ type: fc.constant('incapacitate'), actor: fc.constantFrom(...ids) }),
    fc.record({ type: fc.constant('recover'), actor: fc.constantFrom(...ids) }),
    fc.record({ type: fc.constant('defeat'), combatant: fc.constantFrom(...ids) }),
    fc.constant({ type: 'undo' }),
  );
  const wolves = [1, 2].map((n) => ({
    id: `wolf${n}`,
    name: `Wolf ${n}`,
    side: 'npc',
    group: 'pack',
    stats: { skills: { brawling: '3D' } },
  }));

  it('holds for every initiative method', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('first-significant-action', 'perception-per-scene', 'perception-per-round'),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(command, { maxLength: 30 }),
        (method, seed, commands) => {
          const enc = encounter(
            {
              ruleset: 'opend6',
              seed,
              options: { initiativeMethod: method },
              combatants: [kira, thug, ...wolves],
            },
            registry,
          );
          must(enc, { type: 'start' });
          const results = runFrozen(enc, commands);
          expect(results).toHaveLength(commands.length);
          for (const r of results) if (isRejection(r)) expect(r.code).not.toBe('engine/internal');
          checkInvariants(enc);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('opend6: commands and events are typed by their schemas', () => {
  it('a misspelt or mistyped field does not compile (checked by the typecheck)', () => {
    const events: Opend6Event[] = [
      { type: 'opend6/resumed', combatant: 'kira' },
      // @ts-expect-error `combatnt` is no field of an OpenD6 event.
      { type: 'opend6/resumed', combatnt: 'kira' },
      // @ts-expect-error a happening's kind is one of the timeline's kinds.
      { type: 'opend6/happened', happening: { round: 1, at: [0], combatant: 'kira', kind: 'x', label: 'x' } },
    ];
    const commands: Opend6Command[] = [
      { type: 'declare', actor: 'kira', actions: 2 },
      // @ts-expect-error the number of actions is a number.
      { type: 'declare', actor: 'kira', actions: '2' },
    ];
    expect([...events, ...commands].map((x) => x.type)).toEqual([
      'opend6/resumed',
      'opend6/resumed',
      'opend6/happened',
      'declare',
      'declare',
    ]);
  });
});
