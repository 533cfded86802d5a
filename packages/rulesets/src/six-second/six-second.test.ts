import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  describeEvent,
  EncounterLog,
  type EncounterState,
  type EngineEvent,
  isRejection,
  legalActions,
  parseScenario,
  renderTimelineAscii,
  runScenario,
  scriptedDice,
  view,
  viewLog,
} from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { encounter, must, refused, registryWith, stateOf } from '../testing/harness.js';
import type { SixSecondEvent } from './events.js';
import { SIX_SECOND_CATALOG, type SixSecondTypes, sixSecond } from './index.js';
import { dueOf } from './turns.js';

const registry = registryWith(sixSecond);
/** A log line, as the engine asks the ruleset for it. */
const describeSix = (event: EngineEvent, state: EncounterState<SixSecondTypes>) =>
  describeEvent(event, state, registry[sixSecond.id]!);
type Enc = ReturnType<typeof encounter>;
const st = (enc: Enc) => stateOf<SixSecondTypes>(enc);
const cs = (enc: Enc, id: string) => st(enc).combatants[id]!.cs;
const events = (entries: { event: EngineEvent }[], type: string) =>
  entries.map((e) => e.event).filter((e) => e.type === type);

const party = [
  { id: 'ana', name: 'Ana', side: 'pc', stats: { dexterity: 2 } },
  { id: 'bren', name: 'Bren', side: 'pc', stats: { dexterity: 1 } },
  { id: 'orc', name: 'Orc', side: 'npc', stats: { dexterity: 0 } },
];

function fight(options: Record<string, unknown> = {}, combatants = party, seed = 1): Enc {
  return encounter({ ruleset: 'six-second', options, combatants, seed }, registry);
}

/** Ana 20, Bren 15, Orc 10: Ana first. */
function started(options: Record<string, unknown> = {}): Enc {
  const enc = fight(options);
  must(enc, { type: 'start', initiative: { ana: 20, bren: 15, orc: 10 } });
  return enc;
}

/** An encounter whose dice are scripted faces (then a seed). */
function scripted(
  faces: number[],
  combatants: Array<Record<string, unknown>> = party,
  options: Record<string, unknown> = {},
): EncounterLog {
  const enc = EncounterLog.create(
    { id: 't', name: 'T', ruleset: 'six-second', options, dice: scriptedDice(faces, { seed: 1 }) },
    registry,
  );
  if ('code' in enc) throw new Error(enc.message);
  for (const combatant of combatants) must(enc, { type: 'add-combatant', combatant });
  return enc;
}

describe('001 Initiative: a Reflex check (dice configurable, default 1d20) + Dexterity, highest first', () => {
  it('rolls 1d20 + Dexterity for everyone, records every face, and orders highest first', () => {
    const enc = scripted([7, 19, 12]);
    const entries = must(enc, { type: 'start' });
    const rolls = events(entries, 'dice/rolled');
    expect(rolls.map((r) => (r.roll as { faces: number[] }).faces)).toEqual([[7], [19], [12]]);
    expect([cs(enc, 'ana').initiative, cs(enc, 'bren').initiative, cs(enc, 'orc').initiative]).toEqual([
      9, 20, 12,
    ]);
    expect(st(enc).rs.order).toEqual(['bren', 'orc', 'ana']);
    expect(enc.state.current).toBe('bren');
  });

  it('uses the encounter’s Reflex dice, or a character’s own', () => {
    const enc = scripted(
      [3, 4, 5, 6, 1],
      [...party.slice(0, 2), { id: 'orc', name: 'Orc', stats: { reflexDice: '1d4' } }],
      {
        initiativeDice: '2d10',
      },
    );
    const entries = must(enc, { type: 'start' });
    const notations = events(entries, 'dice/rolled').map((r) => (r.roll as { notation: string }).notation);
    expect(notations[0]).toMatch(/2d10/);
    expect(notations[2]).toMatch(/1d4/);
    expect(cs(enc, 'ana').initiative).toBe(3 + 4 + 2);
    expect(cs(enc, 'orc').initiative).toBe(1);
  });

  it('refuses Reflex dice that are not dice notation', () => {
    const enc = EncounterLog.create(
      {
        id: 't',
        name: 'T',
        ruleset: 'six-second',
        options: { initiativeDice: 'lots' },
        dice: scriptedDice([]),
      },
      registry,
    );
    expect('code' in enc && enc.code).toBe('options/invalid');
  });
});

describe('001 Initiative ties: the tied roll again among themselves until it breaks, shown as roll-offs', () => {
  it('rolls off a tie, again while still tied, and orders by the roll-offs', () => {
    // Ana and Bren tie at 15 (given); roll-off 1: 10+2 vs 11+1 (tie again); roll-off 2: 3+2 vs 9+1.
    const enc = scripted([10, 11, 3, 9]);
    const entries = must(enc, { type: 'start', initiative: { ana: 15, bren: 15, orc: 4 } });
    const rollOffs = events(entries, 'six-second/roll-off');
    expect(rollOffs.map((e) => e.totals)).toEqual([
      [12, 12],
      [5, 10],
    ]);
    expect(rollOffs.every((e) => JSON.stringify(e.combatants) === '["ana","bren"]')).toBe(true);
    expect(st(enc).rs.order).toEqual(['bren', 'ana', 'orc']);
    expect(cs(enc, 'bren').rollOffs).toEqual([12, 10]);
  });

  it('only the tied roll again: the others keep their place', () => {
    const enc = scripted([1, 20]);
    must(enc, { type: 'start', initiative: { ana: 30, bren: 8, orc: 8 } });
    expect(st(enc).rs.order).toEqual(['ana', 'orc', 'bren']);
  });
});

describe('001 Initiative out of combat: "who does something first" is a Reflex check for initiative', () => {
  it('ranks the contesting characters, ties rolling again, before any fight starts', () => {
    // Ana 10+2, Bren 11+1 (tie at 12); roll-off: Ana 3+2, Bren 9+1.
    const enc = scripted([10, 11, 3, 9]);
    const entries = must(enc, {
      type: 'contest',
      actors: ['ana', 'bren'],
      about: 'who grabs the cursed item first',
    });
    expect(events(entries, 'six-second/contest-roll-off')[0]?.totals).toEqual([5, 10]);
    const result = events(entries, 'six-second/contest')[0]!;
    expect(result).toMatchObject({ order: ['bren', 'ana'], totals: [12, 12] });
    expect(describeSix(result, st(enc))).toBe(
      'Reflex checks for initiative, who grabs the cursed item first: Bren (12), then Ana (12).',
    );
    expect(enc.state.status).toBe('setup');
    expect(cs(enc, 'ana')).toMatchObject({ initiative: null, rollOffs: [] });
  });

  it('in the fight it settles who is first without touching the turn order or the Initiative', () => {
    const enc = scripted([1, 20]);
    must(enc, { type: 'start', initiative: { ana: 20, bren: 15, orc: 10 } });
    const entries = must(enc, { type: 'contest', actors: ['ana', 'orc'] });
    expect(events(entries, 'six-second/contest')[0]).toMatchObject({
      order: ['orc', 'ana'],
      totals: [20, 3],
    });
    expect(st(enc).rs.order).toEqual(['ana', 'bren', 'orc']);
    expect([cs(enc, 'ana').initiative, enc.state.current]).toEqual([20, 'ana']);
  });

  it('refuses an unknown or repeated character, and a contest of one', () => {
    const enc = started();
    expect(refused(enc, { type: 'contest', actors: ['ana', 'nobody'] }).code).toBe('combatant/unknown');
    const twice = refused(enc, { type: 'contest', actors: ['ana', 'ana'] });
    expect(twice.code).toBe('contest/duplicate');
    expect(twice.message).toBe('Ana is named twice; each contesting character makes one Reflex check.');
    expect(refused(enc, { type: 'contest', actors: ['ana'] }).code).toBe('command/invalid');
  });
});

describe('001 Late Arrivals: roll Initiative and insert by the result', () => {
  it('inserts a latecomer later in the order into this round, renumbering the slots after it', () => {
    const enc = scripted([12]);
    must(enc, { type: 'start', initiative: { ana: 20, bren: 15, orc: 10 } });
    must(enc, { type: 'add-combatant', combatant: { id: 'wolf', name: 'Wolf', stats: { dexterity: 0 } } });
    expect(st(enc).rs.order).toEqual(['ana', 'bren', 'wolf', 'orc']);
    const turns = enc.state.agenda.filter((e) => e.kind === 'turn').map((e) => [e.combatant, e.at.at[0]]);
    expect(turns).toEqual([
      ['bren', 2],
      ['wolf', 3],
      ['orc', 4],
    ]);
  });

  it('a latecomer who ties a placed character rolls off against them until one is higher', () => {
    // Wolf 15 ties Bren (given 15); roll-off 1: 9+0 vs 8+1 (tie again); roll-off 2: 12+0 vs 3+1.
    const enc = scripted([15, 9, 8, 12, 3]);
    must(enc, { type: 'start', initiative: { ana: 20, bren: 15, orc: 10 } });
    const entries = must(enc, {
      type: 'add-combatant',
      combatant: { id: 'wolf', name: 'Wolf', stats: { dexterity: 0 } },
    });
    expect(events(entries, 'six-second/roll-off').map((e) => [e.combatants, e.totals])).toEqual([
      [
        ['wolf', 'bren'],
        [9, 9],
      ],
      [
        ['wolf', 'bren'],
        [12, 4],
      ],
    ]);
    expect(cs(enc, 'wolf')).toMatchObject({ initiative: 15, rollOffs: [9, 12] });
    expect(st(enc).rs.order).toEqual(['ana', 'wolf', 'bren', 'orc']);
  });

  it('a latecomer whose place has passed this round acts from the next round; the running turn is renumbered', () => {
    const enc = scripted([20]);
    must(enc, { type: 'start', initiative: { ana: 20, bren: 15, orc: 10 } });
    must(enc, { type: 'next' });
    must(enc, { type: 'act', actor: 'bren', action: 'move' });
    const entries = must(enc, {
      type: 'add-combatant',
      combatant: { id: 'wolf', name: 'Wolf', stats: { dexterity: 5 } },
    });
    expect(events(entries, 'six-second/joins-next-round')).toHaveLength(1);
    expect(st(enc).rs.order).toEqual(['wolf', 'ana', 'bren', 'orc']);
    expect(enc.state.now).toEqual({ round: 1, at: [3, 1] });
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('orc');
    must(enc, { type: 'next' });
    expect([enc.state.round, enc.state.current]).toEqual([2, 'wolf']);
  });
});

describe('001 Combat Rounds: every round each combatant gets one turn of 6 seconds (configurable)', () => {
  it('gives each combatant one turn per round, in order, with a fresh 6-second countdown', () => {
    const enc = started();
    const seen: string[] = [enc.state.current!];
    for (let i = 0; i < 5; i++) {
      must(enc, { type: 'next' });
      seen.push(enc.state.current!);
    }
    expect(seen).toEqual(['ana', 'bren', 'orc', 'ana', 'bren', 'orc']);
    expect(enc.state.round).toBe(2);
    expect(cs(enc, 'orc').secondsUsed).toBe(0);
  });

  it('counts the seconds down like a d6 and shows it in the log', () => {
    const enc = started();
    const entries = must(enc, { type: 'act', actor: 'ana', action: 'melee-attack', target: 'orc' });
    expect(cs(enc, 'ana').secondsUsed).toBe(2);
    const text = describeSix(entries[0]!.event, st(enc));
    expect(text).toBe('Ana: Single Melee attack → Orc (2 s, seconds 1–2) — 4 s left.');
  });

  it('turn length is an option (8 s), fixed once the fight starts', () => {
    const enc = started({ turnSeconds: 8 });
    must(enc, { type: 'act', actor: 'ana', action: 'combo' });
    must(enc, { type: 'act', actor: 'ana', action: 'combo' });
    expect(cs(enc, 'ana').secondsUsed).toBe(8);
    expect(refused(enc, { type: 'set-options', options: { turnSeconds: 6 } }).code).toBe(
      'options/turn-length-locked',
    );
    must(enc, { type: 'set-options', options: { zeroSecondCap: 3 } });
  });

  it('actions take whole seconds and must fit what is left (or carry over, when allowed)', () => {
    const enc = started({ carryOver: false });
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell' });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'combo' });
    expect(r.code).toBe('seconds/insufficient');
    expect(r.message).toBe(
      'Use a Combo needs 4 s, 2 s left — it would continue into the next turn: not allowed in this encounter (option carryOver is off).',
    );
    must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'move' }).code).toBe('seconds/none-left');
    expect(refused(enc, { type: 'act', actor: 'bren', action: 'move' }).code).toBe('turn/not-yours');
  });

  it('unused seconds pass when the turn ends', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    const entries = must(enc, { type: 'next' });
    expect(events(entries, 'six-second/turn-closed')[0]?.unused).toBe(5);
  });
});

describe('001 Zero-Second Actions: any number "within reason" — a per-turn cap the GM can set', () => {
  it('allows any number by default, even with no seconds left', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'combo' });
    must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    for (let i = 0; i < 10; i++) must(enc, { type: 'act', actor: 'ana', action: 'talk' });
    expect(cs(enc, 'ana').zeroUsed).toBe(10);
    expect(cs(enc, 'ana').secondsUsed).toBe(6);
  });

  it('refuses zero-second actions past the GM’s cap, and the cap resets next turn', () => {
    const enc = started({ zeroSecondCap: 2 });
    must(enc, { type: 'act', actor: 'ana', action: 'talk' });
    must(enc, { type: 'act', actor: 'ana', action: 'drop-object' });
    const r = refused(enc, { type: 'act', actor: 'ana', action: 'talk' });
    expect(r.code).toBe('zero-second/cap');
    expect(r.message).toContain('zeroSecondCap 2');
    for (let i = 0; i < 3; i++) must(enc, { type: 'next' });
    must(enc, { type: 'act', actor: 'ana', action: 'talk' });
  });

  it('a delayed turn is the same turn: zero-second actions taken before delaying count toward the cap', () => {
    const enc = started({ zeroSecondCap: 2 });
    must(enc, { type: 'act', actor: 'ana', action: 'talk' });
    must(enc, { type: 'delay', actor: 'ana' });
    must(enc, { type: 'take-turn', actor: 'ana' });
    must(enc, { type: 'act', actor: 'ana', action: 'talk' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'drop-object' }).code).toBe('zero-second/cap');
  });
});

describe('001 Consecutive seconds: a long action continues into the same character’s next turn', () => {
  it('takes the last seconds of this turn and the first of the next (3 + 1 for a 4-second cast)', () => {
    const enc = started();
    for (let i = 0; i < 3; i++) must(enc, { type: 'act', actor: 'ana', action: 'move' });
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell' });
    expect(cs(enc, 'ana').carry).toMatchObject({ action: 'cast-spell', secondsLeft: 1 });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    const entries = must(enc, { type: 'next' });
    expect(events(entries, 'six-second/continued')[0]).toMatchObject({ from: 1, to: 1, completes: true });
    expect(cs(enc, 'ana').secondsUsed).toBe(1);
    expect(cs(enc, 'ana').carry).toBeNull();
    expect(refused(enc, { type: 'delay', actor: 'ana' }).code).toBe('delay/acted');
  });

  it('a custom 14-second ritual runs through a whole turn and finishes in the one after', () => {
    const enc = started();
    must(enc, {
      type: 'define-action',
      action: { id: 'ritual', name: 'Ritual', kind: 'spell', cost: { seconds: 14 }, data: { delay: 0 } },
    });
    const cast = must(enc, { type: 'act', actor: 'ana', action: 'ritual', effect: 'Ward' });
    expect(describeSix(cast[0]!.event, st(enc))).toBe(
      "Ana: Ritual (14 s, seconds 1–6, 8 s more over Ana's next 2 turns) — 0 s left.",
    );
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      must(enc, { type: 'next' });
      if (enc.state.current === 'ana') seen.push(cs(enc, 'ana').secondsUsed);
    }
    expect(seen).toEqual([6, 2]);
    expect(
      cs(enc, 'ana')
        .history.filter((h) => h.kind === 'effect')
        .map((h) => h.label),
    ).toEqual(['Ward takes effect']);
  });
});

describe('001 Delays: N seconds after the action, counted in the actor’s own turn seconds', () => {
  it('the due second follows the rule as stated (4 s + 2 s delay → second 6; 4 s + 11 s → second 3, two turns on)', () => {
    expect(dueOf(1, 4, 2, 6)).toEqual({ turn: 1, second: 6 });
    expect(dueOf(1, 4, 11, 6)).toEqual({ turn: 3, second: 3 });
    expect(dueOf(1, 5, 2, 6)).toEqual({ turn: 2, second: 1 });
    expect(dueOf(1, 6, 6, 6)).toEqual({ turn: 2, second: 6 });
    expect(dueOf(1, 6, 7, 6)).toEqual({ turn: 3, second: 1 });
  });

  it('schedules the effect on the agenda and shows its remaining seconds on the timeline', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell', delay: 11, effect: 'Slow Doom' });
    const entry = enc.state.agenda.find((e) => e.kind === 'six-second/delayed-effect')!;
    expect(entry.at).toEqual({ round: 3, at: [1, 3] });
    const t = sixSecond.timeline(st(enc));
    const marker = t.lanes.find((l) => l.id === 'ana')!.markers.find((m) => m.kind === 'resolve')!;
    expect(marker).toMatchObject({ round: 3, at: 3, label: 'Slow Doom: 11 s left', planned: true });
    must(enc, { type: 'next' });
    const after = sixSecond
      .timeline(st(enc))
      .lanes.find((l) => l.id === 'ana')!
      .markers.find((m) => m.kind === 'resolve')!;
    expect(after.label).toBe('Slow Doom: 9 s left');
  });

  it('counts the acting character’s seconds, not whoever’s turn it is: the effect waits for Ana’s turn', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell', delay: 3, effect: 'Spark' });
    must(enc, { type: 'next' });
    must(enc, { type: 'act', actor: 'bren', action: 'combo' });
    must(enc, { type: 'next' });
    expect(cs(enc, 'ana').pending).toHaveLength(1);
    const entries = must(enc, { type: 'next' }); // Ana's turn, round 2
    expect(events(entries, 'six-second/effect-occurred')).toHaveLength(0);
    const fired = must(enc, { type: 'act', actor: 'ana', action: 'move' });
    expect(events(fired, 'six-second/effect-occurred')[0]).toMatchObject({
      name: 'Spark',
      round: 2,
      second: 1,
    });
  });

  it('a zero delay takes effect as the action completes; a catalog action may bring its own delay', () => {
    const enc = started();
    must(enc, {
      type: 'define-action',
      action: { id: 'glyph', name: 'Glyph', kind: 'spell', cost: { seconds: 2 }, data: { delay: 1 } },
    });
    const now = must(enc, { type: 'act', actor: 'ana', action: 'move', delay: 0, effect: 'Shout' });
    expect(events(now, 'six-second/effect-occurred')).toHaveLength(1);
    must(enc, { type: 'act', actor: 'ana', action: 'glyph' });
    expect(cs(enc, 'ana').pending[0]).toMatchObject({ name: 'Glyph', delay: 1, due: { turn: 1, second: 4 } });
  });

  it('a delay of a character who is out of the fight never ends: it is cancelled', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell', delay: 5 });
    const entries = must(enc, { type: 'defeat', combatant: 'ana' });
    expect(events(entries, 'six-second/effect-cancelled')).toHaveLength(1);
    expect(enc.state.agenda.some((e) => e.kind === 'six-second/delayed-effect')).toBe(false);
  });
});

describe('001 Delay Initiative: skip the turn, take it before the next — even between another’s actions', () => {
  it('delays only on the own turn, before spending seconds', () => {
    const enc = started();
    expect(refused(enc, { type: 'delay', actor: 'bren' }).code).toBe('turn/not-yours');
    must(enc, { type: 'act', actor: 'ana', action: 'talk' });
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    expect(refused(enc, { type: 'delay', actor: 'ana' }).code).toBe('delay/acted');
    expect(refused(enc, { type: 'take-turn', actor: 'bren' }).code).toBe('delay/not-delaying');
  });

  it('interrupts between two of the other’s actions; the interrupted turn resumes with its seconds', () => {
    const enc = started();
    must(enc, { type: 'delay', actor: 'ana' });
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'move' }).code).toBe('turn/delaying');
    must(enc, { type: 'act', actor: 'bren', action: 'move' });
    must(enc, { type: 'take-turn', actor: 'ana' });
    expect(enc.state.now).toEqual({ round: 1, at: [2, 1, 1, 0] });
    expect(enc.state.current).toBe('ana');
    expect(refused(enc, { type: 'delay', actor: 'ana' }).code).toBe('delay/already-delayed');
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell', delay: 1, effect: 'Flash' });
    const ended = must(enc, { type: 'next' });
    expect(events(ended, 'six-second/effect-occurred')[0]).toMatchObject({ name: 'Flash', second: 5 });
    expect(enc.state.current).toBe('bren');
    expect(cs(enc, 'bren').secondsUsed).toBe(1);
    must(enc, { type: 'act', actor: 'bren', action: 'combo' });
    expect(enc.state.now).toEqual({ round: 1, at: [2, 5] });
  });

  it('"the other character finishes" only if still in the fight: a paused turn of someone defeated is dropped', () => {
    const enc = started();
    must(enc, { type: 'delay', actor: 'ana' });
    must(enc, { type: 'delay', actor: 'bren' });
    must(enc, { type: 'act', actor: 'orc', action: 'move' });
    must(enc, { type: 'take-turn', actor: 'ana' });
    must(enc, { type: 'take-turn', actor: 'bren' });
    expect(st(enc).rs.interrupted).toEqual(['orc', 'ana']);
    must(enc, { type: 'defeat', combatant: 'ana' });
    const entries = must(enc, { type: 'next' });
    expect(events(entries, 'six-second/turn-resumed')[0]?.combatant).toBe('orc');
    expect(enc.state.current).toBe('orc');
    expect(st(enc).rs.interrupted).toEqual([]);
    expect(cs(enc, 'orc').secondsUsed).toBe(1);
    must(enc, { type: 'next' });
    expect([enc.state.round, enc.state.current]).toEqual([2, 'bren']);
  });

  it('after the last second of a turn whose action runs on into the next turn: the delayed turn comes there', () => {
    const enc = started();
    must(enc, { type: 'delay', actor: 'ana' });
    for (let i = 0; i < 3; i++) must(enc, { type: 'act', actor: 'bren', action: 'move' });
    must(enc, { type: 'act', actor: 'bren', action: 'cast-spell', effect: 'Mist' });
    expect(cs(enc, 'bren').carry).toMatchObject({ secondsLeft: 1 });
    must(enc, { type: 'take-turn', actor: 'ana' });
    expect(enc.state.current).toBe('ana');
    // Right after Bren's second 6, the last of this turn: not inside the cast's seconds of this turn.
    expect(enc.state.now).toEqual({ round: 1, at: [2, 6, 1, 0] });
    expect(cs(enc, 'bren').carry).toMatchObject({ secondsLeft: 1 });
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('bren');
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('orc');
  });

  it('a turn spent wholly on a running action can be followed by the delayed turn after its last second', () => {
    const enc = started();
    must(enc, {
      type: 'define-action',
      action: { id: 'ritual', name: 'Ritual', kind: 'spell', cost: { seconds: 14 } },
    });
    must(enc, { type: 'next' });
    must(enc, { type: 'act', actor: 'bren', action: 'ritual' });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, { type: 'delay', actor: 'ana' });
    // Round 2: Bren's whole turn continues the ritual (6 of its remaining 8 s).
    expect(enc.state.current).toBe('bren');
    expect(cs(enc, 'bren')).toMatchObject({ secondsUsed: 6, carry: { secondsLeft: 2 } });
    const entries = must(enc, { type: 'take-turn', actor: 'ana' });
    expect(events(entries, 'six-second/turn-interrupted')[0]).toMatchObject({
      second: 6,
      runningOn: 'Ritual',
    });
    expect(enc.state.now).toEqual({ round: 2, at: [2, 6, 1, 0] });
  });

  it('a delayed turn not taken before the next turn lapses; its pending delay elapses with it', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell', delay: 8, effect: 'Bolt' });
    for (let i = 0; i < 3; i++) must(enc, { type: 'next' });
    must(enc, { type: 'delay', actor: 'ana' });
    expect(enc.state.agenda.find((e) => e.kind === 'six-second/delayed-effect')!.at).toEqual({
      round: 3,
      at: [1, 0],
    });
    must(enc, { type: 'next' });
    const entries = must(enc, { type: 'next' });
    const kinds = entries.map((e) => e.event.type);
    expect(kinds.indexOf('six-second/delay-lapsed')).toBeGreaterThan(-1);
    expect(events(entries, 'six-second/effect-occurred')[0]).toMatchObject({ name: 'Bolt', lapsed: true });
    expect(kinds.indexOf('six-second/effect-occurred')).toBeLessThan(kinds.indexOf('turn/started'));
    // Taking it now is refused with what happened to it, not as if Ana had never delayed.
    const late = enc.execute({ type: 'take-turn', actor: 'ana' });
    expect(late).toMatchObject({ code: 'delay/not-delaying' });
    expect((late as { message: string }).message).toMatch(
      /^Ana's delayed turn lapsed when Ana's next turn came/,
    );
    // Once Ana's next turn has begun, a take-turn is plainly one with no delayed turn.
    for (let i = 0; i < 3; i++) must(enc, { type: 'next' });
    const later = enc.execute({ type: 'take-turn', actor: 'ana' });
    expect((later as { message: string }).message).toMatch(/^Ana has no delayed turn to take/);
  });

  it('a delayed turn taken early in the next round keeps its pending delays in its own seconds', () => {
    const enc = started();
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, { type: 'act', actor: 'orc', action: 'cast-spell', delay: 4, effect: 'Curse' });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' }); // Orc, round 2
    must(enc, { type: 'delay', actor: 'orc' });
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    must(enc, { type: 'take-turn', actor: 'orc' });
    expect(enc.state.agenda.find((e) => e.kind === 'six-second/delayed-effect')!.at).toEqual({
      round: 3,
      at: [1, 1, 1, 2],
    });
    const fired = must(enc, { type: 'act', actor: 'orc', action: 'combo' });
    expect(events(fired, 'six-second/effect-occurred')[0]).toMatchObject({ name: 'Curse', second: 2 });
  });
});

describe('001 Example Actions: a default catalog (the table lost its numbers), GM-editable', () => {
  const byId = Object.fromEntries(SIX_SECOND_CATALOG.map((a) => [a.id, a]));
  it('keeps the times the prose fixes', () => {
    expect(byId['cast-spell']!.cost.seconds).toBe(4);
    expect(byId.combo!.cost.seconds).toBe(4);
    expect(byId.move!.cost.seconds).toBe(1);
    expect(byId['draw-weapon']!.cost.seconds).toBe(1);
    expect(byId.talk!.cost.seconds).toBe(0);
    expect(byId['drop-object']!.cost.seconds).toBe(0);
    for (const id of ['cast-spell', 'combo', 'move', 'draw-weapon', 'talk', 'drop-object']) {
      expect(byId[id]!.data?.source).toBe('text');
    }
  });

  it('lists every entry of the table with a documented default', () => {
    expect(SIX_SECOND_CATALOG.map((a) => a.name)).toEqual(
      expect.arrayContaining([
        'Single Melee attack',
        'Single Ranged attack',
        'Stand up from prone',
        'Run (or longer)',
        'Grab an object from a pack or pocket',
        'Aim a ranged weapon',
        'Aim before a ranged attack',
        'Stand up from crouch',
        'Go from prone to crouch',
        'Crouch or go to prone',
      ]),
    );
    for (const a of SIX_SECOND_CATALOG) expect(['text', 'default']).toContain(a.data?.source);
  });

  it('the GM overrides a time per encounter (actionSeconds) and adds custom actions with a seconds cost', () => {
    const enc = started({ actionSeconds: { 'melee-attack': 3 } });
    must(enc, { type: 'act', actor: 'ana', action: 'melee-attack' });
    expect(cs(enc, 'ana').secondsUsed).toBe(3);
    must(enc, { type: 'define-action', action: { id: 'kick', name: 'Kick', cost: { seconds: 1 } } });
    must(enc, { type: 'act', actor: 'ana', action: 'kick' });
    expect(cs(enc, 'ana').secondsUsed).toBe(4);
    expect(
      refused(enc, { type: 'define-action', action: { id: 'x', name: 'X', cost: { seconds: 1.5 } } }).code,
    ).toBe('action/invalid-seconds');
    expect(refused(enc, { type: 'define-action', action: { id: 'y', name: 'Y' } }).code).toBe(
      'action/missing-seconds',
    );
  });

  it('refuses a GM time for an action the catalog does not have, naming the ids it has', () => {
    const enc = started();
    const r = refused(enc, { type: 'set-options', options: { actionSeconds: { meleeattack: 3 } } });
    expect(r.code).toBe('options/invalid');
    expect(r.message).toContain('Action seconds › meleeattack: is not an action of the built-in catalog (');
    expect(r.message).toContain('melee-attack');
    const created = EncounterLog.create(
      {
        id: 't',
        name: 'T',
        ruleset: 'six-second',
        options: { actionSeconds: { kick: 1 } },
        dice: scriptedDice([]),
      },
      registry,
    );
    expect('code' in created && created.code).toBe('options/invalid');
  });

  it('the GM doc lists the catalog as shipped: every id with its seconds and its source', () => {
    const doc = readFileSync(
      fileURLToPath(new URL('../../../../docs/rulesets/six-second.md', import.meta.url)),
      'utf8',
    );
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` \| [^|]+ \| (\d+)[^|]* \| (text|default)/gm)].map((m) => [
      m[1],
      Number(m[2]),
      m[3],
    ]);
    expect(rows).toEqual(SIX_SECOND_CATALOG.map((a) => [a.id, a.cost.seconds, a.data?.source]));
  });

  it('"Run (or longer)" takes a declared longer time; fixed actions do not', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'run', seconds: 5 });
    expect(cs(enc, 'ana').secondsUsed).toBe(5);
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'move', seconds: 2 }).code).toBe(
      'action/fixed-seconds',
    );
    expect(refused(enc, { type: 'act', actor: 'ana', action: 'run', seconds: 1 }).message).toBe(
      'Run (or longer) takes at least 3 s; enter 3 s or more as its Seconds.',
    );
  });

  it('the palette asks Run for its Seconds and a spell for its target, delay and effect, by their labels', () => {
    const enc = started();
    const params = (id: string) =>
      legalActions(enc.state, 'ana', registry)
        .find((l) => l.action.id === id)
        ?.params?.map((p) => p.label);
    expect(params('run')).toEqual(['Seconds']);
    expect(params('cast-spell')).toEqual(['Target', 'Delay (seconds)', 'Effect']);
  });
});

describe('legalActions: every action with its seconds and the reason', () => {
  it('says when an action would continue into the next turn, allowed or not', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell' });
    const legal = sixSecond.legalActions(st(enc), 'ana');
    expect(legal).toHaveLength(SIX_SECOND_CATALOG.length);
    const combo = legal.find((l) => l.action.id === 'combo')!;
    expect(combo).toMatchObject({ enabled: true, cost: { seconds: 4 } });
    expect(combo.reason).toBe(
      "needs 4 s, 2 s left — it would continue into the next turn: allowed (it finishes at second 2 of Ana's next turn).",
    );
    expect(combo.preview?.to).toEqual({ round: 2, at: [1, 2] });
    const move = legal.find((l) => l.action.id === 'move')!;
    expect(move.preview).toMatchObject({ from: { round: 1, at: [1, 5] }, to: { round: 1, at: [1, 5] } });
    const off = sixSecond.legalActions(
      { ...st(enc), options: { ...st(enc).options, carryOver: false } },
      'ana',
    );
    expect(off.find((l) => l.action.id === 'combo')).toMatchObject({
      enabled: false,
      code: 'seconds/insufficient',
    });
    const bren = sixSecond.legalActions(st(enc), 'bren');
    expect(
      bren.every((l) => !l.enabled && l.reason === "It is Ana's turn; Bren acts on their own turn."),
    ).toBe(true);
  });
});

describe('timeline: spans per turn second, pending delays, the running turn', () => {
  it('draws what each second went to', () => {
    const enc = started();
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    must(enc, { type: 'act', actor: 'ana', action: 'cast-spell', delay: 2, effect: 'Fire' });
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    const t = sixSecond.timeline(st(enc));
    expect(t.axis).toMatchObject({ unit: 'second', from: 1, to: 6 });
    const lane = t.lanes.find((l) => l.id === 'ana')!;
    expect(lane.spans.map((s) => [s.from, s.to, s.kind])).toEqual([
      [1, 1, 'move'],
      [2, 5, 'spell'],
      [6, 6, 'move'],
    ]);
    expect(lane.spans.every((s) => s.round === 1)).toBe(true);
    expect(renderTimelineAscii(t)).toContain('Ana');
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    const later = sixSecond.timeline(st(enc)).lanes.find((l) => l.id === 'ana')!;
    expect(later.markers.find((m) => m.kind === 'effect')).toMatchObject({ round: 2, at: 1 });
  });

  it("a scenario's expectTimeline names the rows and spans the timeline must show, and fails on others", () => {
    const file = fileURLToPath(
      new URL('../../../../examples/six-second/delayed-turn-in-the-same-round.yaml', import.meta.url),
    );
    const data = parseYaml(readFileSync(file, 'utf8')) as { commands: Array<Record<string, unknown>> };
    data.commands.at(-1)!.expectTimeline = ['Troll (delayed turn) @ 2: Move', 'Troll (late)'];
    const scenario = parseScenario(data);
    if (isRejection(scenario)) throw new Error(scenario.message);
    const result = runScenario(scenario, registry);
    if (isRejection(result)) throw new Error(result.message);
    expect(result.failures).toEqual([
      'step 12 (act): timeline row "Troll (delayed turn)" in round 2: expected Move; got Move, Move',
      'step 12 (act): expected a timeline row "Troll (late)"; the rows are: Rogue | Knight | Troll | Troll (delayed turn)',
    ]);
  });

  it('shows a delayed turn taken in the same round as the own turn on a row of its own (examples/six-second/delayed-turn-in-the-same-round.yaml)', () => {
    const file = fileURLToPath(
      new URL('../../../../examples/six-second/delayed-turn-in-the-same-round.yaml', import.meta.url),
    );
    const scenario = parseScenario(parseYaml(readFileSync(file, 'utf8')));
    if (isRejection(scenario)) throw new Error(scenario.message);
    const result = runScenario(scenario, registry);
    if (isRejection(result)) throw new Error(result.message);
    expect(result.failures).toEqual([]);
    const t = sixSecond.timeline(result.encounter.state as unknown as EncounterState<SixSecondTypes>);
    // No row holds two spans over the same second of one round: each turn can be seen.
    for (const lane of t.lanes) {
      for (const a of lane.spans) {
        for (const b of lane.spans) {
          if (a === b || a.round !== b.round) continue;
          expect(a.to < b.from || b.to < a.from, `${lane.label}, round ${a.round}`).toBe(true);
        }
      }
    }
    const own = t.lanes.find((l) => l.id === 'troll')!;
    const delayed = t.lanes.find((l) => l.id === 'troll/delayed')!;
    expect(delayed.label).toBe('Troll (delayed turn)');
    expect(t.lanes.indexOf(delayed)).toBe(t.lanes.indexOf(own) + 1);
    expect(delayed.spans.map((s) => [s.round, s.from, s.to, s.label])).toEqual([
      [2, 1, 1, 'Move'],
      [2, 2, 2, 'Move'],
    ]);
    expect(own.spans.map((s) => [s.round, s.from, s.to, s.label])).toEqual([
      [1, 1, 6, 'delays'],
      [2, 1, 2, 'Single Melee attack'],
    ]);
    const ascii = renderTimelineAscii(t);
    expect(ascii).toContain('Troll (delayed');
  });

  it('describes instants in the GM’s words', () => {
    const s = st(started());
    expect(sixSecond.clock.describe(s, { round: 2, at: [2, 3] })).toBe("Round 2 · second 3 of Bren's turn");
    expect(sixSecond.clock.describe(s, { round: 1, at: [1, 0] })).toBe("Round 1 · start of Ana's turn");
    expect(sixSecond.clock.describe(s, { round: 1, at: [3, 2, 1, 4] })).toBe(
      "Round 1 · second 4 of a delayed turn taken after second 2 of Orc's turn",
    );
  });
});

describe('views: a hidden combatant never shows through the order, roll-offs or interruptions', () => {
  it('removes the hidden from state and events for the table', () => {
    const combatants = [...party, { id: 'spy', name: 'Spy', hidden: true, stats: { dexterity: 0 } }];
    const enc = encounter({ ruleset: 'six-second', combatants, seed: 4 }, registry);
    must(enc, { type: 'start', initiative: { ana: 20, bren: 15, orc: 10, spy: 15 } });
    while (enc.state.current !== 'spy') must(enc, { type: 'next' });
    must(enc, { type: 'delay', actor: 'spy' });
    must(enc, { type: 'take-turn', actor: 'spy' });
    const state = enc.state as EncounterState;
    const table = view(state, { role: 'table' }, sixSecond);
    expect(JSON.stringify(table)).not.toContain('spy');
    const log = viewLog(enc.entries, { role: 'table' }, state, sixSecond);
    expect(JSON.stringify(log)).not.toContain('spy');
    expect(JSON.stringify(log)).not.toContain('Spy');
    expect(log.some((e) => e.event.type === 'six-second/order')).toBe(true);
    const own = viewLog(enc.entries, { role: 'player', combatants: ['spy'] }, state, sixSecond);
    expect(JSON.stringify(own)).toContain('spy');
  });
});

describe('typed commands and events', () => {
  it('types each event by its schema: a misspelt or mistyped field does not compile', () => {
    const closed: SixSecondEvent = { type: 'six-second/turn-closed', combatant: 'ana', unused: 2 };
    // @ts-expect-error `unusd` is not a field of six-second/turn-closed (and `unused` is missing).
    const misspelt: SixSecondEvent = { type: 'six-second/turn-closed', combatant: 'ana', unusd: 2 };
    // @ts-expect-error an order is a list of ids.
    const mistyped: SixSecondEvent = { type: 'six-second/order', order: 'ana' };
    const fits = ({ type, ...fields }: SixSecondEvent) => sixSecond.events?.[type]?.safeParse(fields).success;
    expect([fits(closed), fits(misspelt), fits(mistyped)]).toEqual([true, false, false]);
  });
});

describe('the clock as the table reads it, with a hidden combatant in the order', () => {
  it('names the combatant whose turn it is, never another (the hidden one left out keeps the slots)', () => {
    const spy = { id: 'spy', name: 'Spy', side: 'npc', hidden: true, stats: { dexterity: 3 } };
    const enc = fight({}, [spy, ...party]);
    must(enc, { type: 'start', initiative: { spy: 25, ana: 20, bren: 15, orc: 10 } });
    const table = () => view(enc.state, { role: 'table' }, sixSecond);
    const said = () => sixSecond.clock.describe(table() as never, table().now!);
    expect(enc.state.current).toBe('spy');
    // The spy's own turn: a neutral moment, no name.
    expect(said()).not.toMatch(/Spy|Ana|Bren|Orc/);
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('ana');
    expect(said()).toContain("Ana's turn");
    must(enc, { type: 'next' });
    expect(said()).toContain("Bren's turn");
    expect(JSON.stringify(table())).not.toContain('spy');
  });
});
