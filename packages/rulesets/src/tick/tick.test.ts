import {
  type Command,
  describeEvent,
  EncounterLog,
  isRejection,
  legalActions,
  renderTimelineAscii,
  scriptedDice,
  view,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from '../index.js';
import { must, refused, stateOf } from '../testing/harness.js';
import { fresh, play, stepArb } from '../testing/random-play.js';
import { tick } from './index.js';
import type { TickTypes } from './types.js';

/** Rules by number: docs/rulesets/tick.md. */

const party = [
  { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { initiative: 2, weaponSpeed: 5 } },
  { id: 'bren', name: 'Bren', side: 'pc', hp: 24, stats: { initiative: 3, weaponSpeed: 6 } },
  { id: 'orc', name: 'Orc', side: 'npc', hp: 20, stats: { initiative: 1, weaponSpeed: 7 } },
];

/** An encounter with scripted d6s (in roster order at the start), the party added. */
function fight(
  dice: number[],
  options: Record<string, unknown> = {},
  people: Array<Record<string, unknown>> = party,
): EncounterLog {
  const enc = EncounterLog.create(
    { id: 't', name: 'Tick', ruleset: 'tick', options, dice: scriptedDice(dice, { seed: 1 }) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of people) must(enc, { type: 'add-combatant', combatant });
  return enc;
}

const st = (enc: EncounterLog) => stateOf<TickTypes>(enc);
const at = (enc: EncounterLog) => enc.state.now?.at[0];
const markers = (enc: EncounterLog) =>
  Object.fromEntries(enc.state.roster.map((id) => [id, st(enc).combatants[id]?.cs.tick ?? null]));
const lines = (enc: EncounterLog, command: Command) => {
  const entries = must(enc, command);
  return entries.map((e) => describeEvent(e.event, enc.state, tick)).filter(Boolean);
};

describe('tick rule 1: no rounds, a counter that only moves forward', () => {
  it('reads instants as ticks and never starts a round', () => {
    const enc = fight([4, 5, 4]);
    must(enc, { type: 'start' });
    expect(tick.clock.describe(st(enc), { round: 0, at: [17, 3] })).toBe('Tick 17');
    for (let i = 0; i < 12; i++) {
      const actor = enc.state.current!;
      must(enc, { type: 'act', actor, action: 'attack' });
    }
    expect(enc.state.round).toBe(0);
    expect(enc.entries.some((e) => e.event.type === 'round/started')).toBe(false);
  });

  it('the counter never goes back, whatever is played (undo aside)', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), fc.integer(), (steps, seed) => {
        const enc = fresh('tick', seed);
        let last = 0;
        for (const step of steps) {
          const [sent] = play(enc, [step]);
          const now = enc.state.now?.at[0] ?? 0;
          // An undo or a redo goes back or forth in the log, not on the clock.
          const type = typeof sent === 'object' && sent && 'type' in sent ? sent.type : undefined;
          if (type !== 'undo' && type !== 'redo') expect(now).toBeGreaterThanOrEqual(last);
          last = now;
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('tick rule 2: the first tick is the dice less the Initiative stat, at least 1', () => {
  it('rolls 1d6 − Initiative, never below tick 1, or takes the GM value', () => {
    const enc = fight([4, 1]);
    must(enc, { type: 'start', initiative: { orc: 9 } });
    expect(markers(enc)).toEqual({ ana: 2, bren: 1, orc: 9 });
    expect(st(enc).combatants.orc?.cs.initiative).toBe(9);
  });

  it('takes the dice from the options', () => {
    const enc = fight([9, 9, 9], { initiativeDice: '1d10' });
    must(enc, { type: 'start' });
    expect(markers(enc)).toEqual({ ana: 7, bren: 6, orc: 8 });
  });
});

describe("tick rule 2: the GM's value, any time", () => {
  it('moves a marker to a tick from the counter on; on its own turn, the next marker acts', () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    expect(lines(enc, { type: 'set-tick', actor: 'orc', tick: 2 })).toEqual([
      "The GM puts Orc's marker on tick 2.",
    ]);
    expect(enc.state.agenda.map((e) => e.combatant)).toEqual(['orc', 'bren']);
    must(enc, { type: 'set-tick', actor: 'ana', tick: 9 });
    expect([enc.state.current, at(enc), markers(enc).ana]).toEqual(['orc', 2, 9]);
    expect(refused(enc, { type: 'set-tick', actor: 'bren', tick: 1 }).message).toBe(
      'Tick 1 has passed; the counter is at 2: enter 2 or later.',
    );
    // On the current tick, right after this moment: the clock does not go back.
    must(enc, { type: 'set-tick', actor: 'bren', tick: 2 });
    must(enc, { type: 'act', actor: 'orc', action: 'move' });
    expect([enc.state.current, at(enc)]).toEqual(['bren', 2]);
  });
});

describe('tick rule 3: the lowest marker acts; ties by arrival, Initiative, roster order', () => {
  it('a shared first tick goes to the higher Initiative stat, then the roster order', () => {
    const enc = fight([4, 5, 3]);
    must(enc, { type: 'start' });
    // Ana 2, Bren 2, Orc 2: Bren (Initiative 3), then Ana before the orc (roster order).
    expect(enc.state.current).toBe('bren');
    must(enc, { type: 'act', actor: 'bren', action: 'move' });
    expect(enc.state.current).toBe('ana');
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    expect(enc.state.current).toBe('orc');
  });

  it('by default, the one that got to a tick first acts first there', () => {
    const enc = fight([4, 5, 4]);
    must(enc, { type: 'start', initiative: { ana: 2, bren: 4, orc: 1 } });
    // Orc 1 → move → 4, arriving after Bren (placed at the start on 4).
    must(enc, { type: 'act', actor: 'orc', action: 'move' });
    must(enc, { type: 'act', actor: 'ana', action: 'ready-item' }); // Ana 2 → 5
    expect(at(enc)).toBe(4);
    expect(enc.state.current).toBe('bren');
  });

  it('with ties by Initiative, the higher stat goes first whoever arrived first', () => {
    const people = party.map((p) =>
      p.id === 'orc' ? { ...p, stats: { initiative: 5, weaponSpeed: 7 } } : p,
    );
    const byArrival = fight([], {}, people);
    const byStat = fight([], { ties: 'initiative' }, people);
    for (const enc of [byArrival, byStat]) {
      must(enc, { type: 'start', initiative: { ana: 2, bren: 4, orc: 1 } });
      must(enc, { type: 'act', actor: 'orc', action: 'move' }); // the orc arrives on 4 after Bren
      must(enc, { type: 'act', actor: 'ana', action: 'ready-item' });
    }
    expect(byArrival.state.current).toBe('bren');
    expect(byStat.state.current).toBe('orc');
  });
});

describe('tick rule 4: an action costs ticks and the next marker acts', () => {
  it("an attack costs the weapon's speed, and the next marker acts at once", () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    expect(lines(enc, { type: 'act', actor: 'ana', action: 'attack', target: 'orc' })).toContain(
      'Ana: Attack → Orc (5 ticks, next at tick 6).',
    );
    expect(enc.state.current).toBe('bren');
    expect(markers(enc).ana).toBe(6);
    const cost = legalActions(enc.state, 'bren', rulesets).find((l) => l.action.id === 'attack');
    expect(cost?.cost).toEqual({ ticks: 6 });
    expect(cost?.preview?.to.at).toEqual([9]);
  });

  it('refuses an action out of turn, saying when the combatant acts', () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    const r = refused(enc, { type: 'act', actor: 'orc', action: 'move' });
    expect(r.code).toBe('turn/not-yours');
    expect(r.message).toBe(
      "It is Ana's turn (tick 1); Orc acts at tick 4, and takes Move when the counter gets there.",
    );
  });

  it('a custom action costs its ticks; one without a tick cost is refused', () => {
    const enc = fight([]);
    must(enc, {
      type: 'define-action',
      action: { id: 'shove', name: 'Shove', kind: 'action', cost: { ticks: 4 }, tags: [], text: 'Push.' },
    });
    const bad = refused(enc, {
      type: 'define-action',
      action: { id: 'nap', name: 'Nap', kind: 'action', cost: {}, tags: [], text: 'Zzz.' },
    });
    expect(bad.message).toContain('needs a cost in ticks');
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    must(enc, { type: 'act', actor: 'ana', action: 'shove', target: 'orc' });
    expect(markers(enc).ana).toBe(5);
  });

  it('an Active defense outside the turn moves the marker on, and the turn goes on', () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    must(enc, { type: 'act', actor: 'bren', action: 'defend' });
    expect(enc.state.current).toBe('ana');
    expect(markers(enc).bren).toBe(6);
    expect(refused(enc, { type: 'act', actor: 'bren', action: 'move' }).code).toBe('turn/not-yours');
  });
});

describe('tick rule 5: continuous actions, interruptions and waiting', () => {
  it('a continuous action completes when the counter reaches its end tick', () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 20 } });
    must(enc, { type: 'act', actor: 'ana', action: 'cast', ticks: 8 });
    expect(st(enc).combatants.ana?.cs.busy).toMatchObject({ from: 1, to: 9 });
    expect(enc.state.agenda.find((e) => e.combatant === 'ana')?.label).toBe('Ana: Cast a spell completes');
    const lane = tick.timeline(st(enc)).lanes.find((l) => l.id === 'ana');
    expect(lane?.spans).toEqual([
      { round: 0, from: 1, to: 9, kind: 'spell', label: 'Cast a spell until tick 9', planned: true },
    ]);
    const busy = tick.present?.gauges?.(st(enc), st(enc).combatants.ana!);
    expect(busy?.find((g) => g.label === 'Cast a spell')).toMatchObject({ value: 'until tick 9' });
    const done = lines(enc, { type: 'act', actor: 'bren', action: 'attack' }); // Bren 3 → 9
    expect(done).toEqual([
      'Bren: Attack (6 ticks, next at tick 9).',
      'Ana completes Cast a spell.',
      "Ana's turn.",
    ]);
    expect(st(enc).combatants.ana?.cs.busy).toBeNull();
  });

  it('the GM interrupts a continuous action unless the options forbid it', () => {
    const on = fight([]);
    must(on, { type: 'start', initiative: { ana: 1, bren: 3, orc: 20 } });
    must(on, { type: 'act', actor: 'ana', action: 'aim', ticks: 5 });
    must(on, { type: 'interrupt', actor: 'ana' });
    expect(st(on).combatants.ana?.cs.busy).toBeNull();
    expect(markers(on).ana).toBe(6);
    const off = fight([], { interruptible: false });
    must(off, { type: 'start', initiative: { ana: 1, bren: 3, orc: 20 } });
    must(off, { type: 'act', actor: 'ana', action: 'aim', ticks: 5 });
    expect(refused(off, { type: 'interrupt', actor: 'ana' }).message).toContain(
      'the GM can allow interruptions',
    );
  });

  it('a waiting combatant steps in at the current tick before the one whose turn it was', () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    must(enc, { type: 'wait', actor: 'ana' });
    expect(enc.state.current).toBe('bren');
    expect(markers(enc).ana).toBeNull();
    must(enc, { type: 'step-in', actor: 'ana' });
    expect([enc.state.current, at(enc)]).toEqual(['ana', 3]);
    must(enc, { type: 'act', actor: 'ana', action: 'move' });
    expect([enc.state.current, at(enc)]).toEqual(['bren', 3]);
    expect(refused(enc, { type: 'step-in', actor: 'ana' }).code).toBe('tick/not-waiting');
  });

  it('Next makes the current combatant wait; with everyone waiting the counter stands still', () => {
    const enc = fight([], {}, party.slice(0, 2));
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3 } });
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    expect(enc.state.current).toBeNull();
    expect(tick.present?.phase?.(st(enc))).toBe('Everyone is waiting: press Act now for whoever steps in');
    expect(refused(enc, { type: 'next' }).code).toBe('turn/none');
    must(enc, { type: 'step-in', actor: 'bren' });
    expect([enc.state.current, at(enc)]).toEqual(['bren', 3]);
  });

  it('during a hidden combatant’s turn nobody is told everyone is waiting', () => {
    const hidden = {
      id: 'spy',
      name: 'Spy',
      side: 'npc',
      hidden: true,
      stats: { initiative: 1, weaponSpeed: 5 },
    };
    const enc = fight([], {}, [...party, hidden]);
    must(enc, { type: 'start', initiative: { spy: 1, ana: 2, bren: 3, orc: 4 } });
    expect(enc.state.current).toBe('spy');
    for (const viewer of [
      { role: 'gm' as const },
      { role: 'table' as const },
      { role: 'player' as const, combatants: ['ana'] },
    ]) {
      const seen = view(enc.state, viewer, tick);
      expect(tick.present?.phase?.(seen as never) ?? null, viewer.role).toBeNull();
    }
  });
});

describe('tick rule 6: durations in ticks', () => {
  it('an effect for N ticks ends when the counter reaches it', () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 7 } });
    const added = lines(enc, {
      type: 'add-effect',
      target: 'orc',
      name: 'Dazed',
      duration: { kind: 'for', amount: 5 },
    });
    expect(added).toEqual(['Orc gains Dazed for 5 ticks (until tick 6).']);
    must(enc, { type: 'act', actor: 'ana', action: 'move' }); // Ana 1 → 4; Bren at 3
    expect(enc.state.effects).toHaveLength(1);
    must(enc, { type: 'act', actor: 'bren', action: 'move' }); // Bren 3 → 6; Ana at 4
    must(enc, { type: 'act', actor: 'ana', action: 'move' }); // Ana 4 → 7; Bren at 6
    expect(enc.state.effects).toEqual([]);
  });

  it('has no rounds to last until the end of', () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 7 } });
    const r = refused(enc, {
      type: 'add-effect',
      target: 'orc',
      name: 'Dazed',
      duration: { kind: 'until-round-end' },
    });
    expect([r.code, r.message]).toEqual([
      'effect/no-rounds',
      "Tick Timeline has no rounds; make the effect last a number of ticks, until someone's turn, or until removed.",
    ]);
  });
});

describe('tick rule 7: a latecomer enters at the current tick plus its roll', () => {
  it('rolls and enters; with everyone waiting, it acts at once', () => {
    const enc = fight([5, 2]);
    must(enc, { type: 'start', initiative: { ana: 3, bren: 5, orc: 8 } });
    must(enc, {
      type: 'add-combatant',
      combatant: { id: 'wolf', name: 'Wolf', side: 'npc', stats: { initiative: 1 } },
    });
    expect(markers(enc).wolf).toBe(3 + 4);
    for (const _ of [1, 2, 3, 4]) must(enc, { type: 'next' });
    expect(enc.state.current).toBeNull();
    must(enc, {
      type: 'add-combatant',
      combatant: { id: 'rat', name: 'Rat', side: 'npc', stats: { initiative: 0 } },
    });
    expect([enc.state.current, at(enc), markers(enc).rat]).toEqual(['rat', 10, 10]);
  });
});

describe('tick rule 8: the defeated leave the timeline', () => {
  it('a defeated marker is removed; on its own turn, the next marker acts', () => {
    const enc = fight([]);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4 } });
    must(enc, { type: 'defeat', combatant: 'orc' });
    expect(markers(enc).orc).toBeNull();
    expect(enc.state.agenda.map((e) => e.combatant)).toEqual(['bren']);
    must(enc, { type: 'defeat', combatant: 'ana' });
    expect([enc.state.current, at(enc)]).toEqual(['bren', 3]);
    must(enc, { type: 'remove-combatant', combatant: 'bren' });
    expect(enc.state.current).toBeNull();
    must(enc, { type: 'revive', combatant: 'orc' });
    expect(enc.state.current).toBe('orc');
  });
});

describe('tick: what the apps show', () => {
  it('a card reads "Next at tick", and a player never sees a hidden marker on the timeline', () => {
    const people = [...party, { id: 'spy', name: 'Spy', side: 'npc', hidden: true, stats: {} }];
    const enc = fight([], {}, people);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 3, orc: 4, spy: 2 } });
    const gauges = tick.present?.gauges?.(st(enc), st(enc).combatants.bren!);
    expect(gauges?.[0]).toEqual({ label: 'Next at tick', value: '3' });
    const seen = view(enc.state, { role: 'player', combatants: ['ana'] }, rulesets.tick!);
    expect(JSON.stringify(tick.timeline(seen as never))).not.toContain('Spy');
    const t = tick.timeline(st(enc));
    expect(t.axis).toMatchObject({ unit: 'tick', from: 1 });
    // No rounds: the block is headed by its ticks, not "Round 0".
    expect(renderTimelineAscii(t).split('\n')[0]).toBe(`Ticks 1–${t.axis.to}`);
  });
});
