import {
  describeEvent,
  EncounterLog,
  type EngineEvent,
  isRejection,
  renderTimelineAscii,
  scriptedDice,
  view,
  viewLog,
} from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { planned } from './tempo/fixtures.js';
import { encounter, must, refused } from './testing/harness.js';

/**
 * Timed events on the clock (lair actions): where each ruleset puts one, that it fires there once a round
 * — a log line, never a combatant, never a turn — and that its GM note stays the GM's.
 */

/** The fight as it unfolds: each round, each turn that starts, each timed event that fires. */
function trace(enc: EncounterLog, from: number): string[] {
  return enc.entries.slice(from).flatMap(({ event }: { event: EngineEvent }) => {
    if (event.type === 'round/started') return [`R${event.round}`];
    if (event.type === 'turn/started') return [String(event.combatant)];
    if (event.type === 'timed/fired') return ['LAIR'];
    return [];
  });
}

/** Presses next `n` times (tempo's planning phase counted through with `skipPlanning`). */
function next(enc: EncounterLog, n: number): void {
  for (let i = 0; i < n; i++)
    must(enc, { type: 'next', ...(enc.state.ruleset === 'tempo' ? { skipPlanning: true } : {}) });
}

function lair(enc: EncounterLog, at: number) {
  must(enc, { type: 'add-timed-event', name: 'Lair action', at, note: 'The ceiling drops rocks.' });
}

describe('classic: a lair action at initiative 20, losing ties', () => {
  const party = [
    { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 }, hp: 20 },
    { id: 'bren', name: 'Bren', side: 'pc', stats: { initiative: 1 }, hp: 24 },
    { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 }, hp: 15 },
  ];

  it('fires after everyone on 20 and before 15, once each round, as a log line with its note', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    lair(enc, 20);
    const from = enc.entries.length;
    must(enc, { type: 'start', initiative: { ana: 22, bren: 20, orc: 15 } });
    next(enc, 5);
    expect(trace(enc, from)).toEqual([
      'R1',
      'ana',
      'bren',
      'LAIR',
      'orc',
      'R2',
      'ana',
      'bren',
      'LAIR',
      'orc',
    ]);
    const lines = enc.entries.map((e) => describeEvent(e.event, enc.state, rulesets.classic!));
    expect(lines).toContain('Lair action (initiative 20, losing ties): The ceiling drops rocks.');
    // Never a combatant.
    expect(enc.state.roster).toEqual(['ana', 'bren', 'orc']);
  });

  it('at the end of the round when nobody comes after it', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    lair(enc, 2);
    const from = enc.entries.length;
    must(enc, { type: 'start', initiative: { ana: 22, bren: 20, orc: 15 } });
    next(enc, 3);
    expect(trace(enc, from)).toEqual(['R1', 'ana', 'bren', 'orc', 'LAIR', 'R2', 'ana']);
  });

  it('the table and players see what and when, not the GM note; removed, it fires no more', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    lair(enc, 20);
    must(enc, { type: 'start', initiative: { ana: 22, bren: 20, orc: 15 } });
    next(enc, 2);
    const table = { role: 'table' } as const;
    expect(JSON.stringify(view(enc.state, table, rulesets.classic!))).not.toContain('ceiling');
    const seen = viewLog(enc.entries, table, enc.state, rulesets.classic!);
    expect(JSON.stringify(seen)).not.toContain('ceiling');
    expect(seen.map((e) => describeEvent(e.event, enc.state, rulesets.classic!))).toContain(
      'Lair action (initiative 20, losing ties).',
    );
    const id = enc.state.timed![0]!.id;
    must(enc, { type: 'remove-timed-event', id });
    const from = enc.entries.length;
    next(enc, 3);
    expect(trace(enc, from)).not.toContain('LAIR');
  });

  it('refuses a count off the clock, and a timed event it does not have, in words', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    expect(refused(enc, { type: 'add-timed-event', name: 'Lair', at: 500 }).message).toContain(
      'from -100 to 200',
    );
    expect(refused(enc, { type: 'remove-timed-event', id: 'nope' }).message).toBe(
      'There is no timed event "nope". There are: none.',
    );
  });
});

describe('stamina: at an initiative total, losing ties', () => {
  it('fires between the totals around it', () => {
    const enc = encounter({
      ruleset: 'stamina',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc' },
        { id: 'bren', name: 'Bren', side: 'pc' },
      ],
    });
    lair(enc, 5);
    const from = enc.entries.length;
    must(enc, { type: 'start', initiative: { ana: 9, bren: 1 } });
    next(enc, 1);
    expect(trace(enc, from).slice(0, 4)).toEqual(['R1', 'ana', 'LAIR', 'bren']);
  });
});

describe('tara-corax: Mark 10 each round', () => {
  it('fires after those who start above Mark 10 and before those below', () => {
    // Ana: Initiative 10 + 5 = Score 15; Bo: 5 + 3 = Score 8.
    const enc = EncounterLog.create(
      { id: 't', name: 'T', ruleset: 'tara-corax', dice: scriptedDice([5, 3, 5, 3, 5, 3]) },
      rulesets,
    );
    if (isRejection(enc)) throw new Error(enc.message);
    must(enc, { type: 'add-combatant', combatant: { id: 'ana', name: 'Ana', stats: { initiative: 10 } } });
    must(enc, { type: 'add-combatant', combatant: { id: 'bo', name: 'Bo', stats: { initiative: 5 } } });
    lair(enc, 10);
    const from = enc.entries.length;
    must(enc, { type: 'start' });
    next(enc, 6);
    const seen = trace(enc, from);
    const round1 = seen.slice(0, seen.indexOf('R2') < 0 ? seen.length : seen.indexOf('R2'));
    expect(round1.filter((x) => x === 'LAIR')).toHaveLength(1);
    expect(round1.indexOf('LAIR')).toBeGreaterThan(round1.indexOf('ana'));
    expect(round1.indexOf('LAIR')).toBeLessThan(round1.indexOf('bo'));
    expect(enc.entries.map((e) => describeEvent(e.event, enc.state, rulesets['tara-corax']!))).toContain(
      'Lair action (Mark 10 each round): The ceiling drops rocks.',
    );
  });
});

describe('tempo: tempo 3', () => {
  it('fires after the turns at tempo 2 and 3, before tempo 4', () => {
    const enc = planned();
    lair(enc, 3);
    const from = enc.entries.length;
    for (let i = 0; i < 5; i++) must(enc, { type: 'next' });
    const seen = trace(enc, from);
    // Tempo 2: Ana's Mark, the Orc's Roar; tempo 3: the Wolf's Quick Attack; tempo 4: Bren's Guard, the Wolf's Move.
    expect(seen.slice(0, 5)).toEqual(['ana', 'orc', 'wolf', 'LAIR', 'bren']);
  });
});

describe('opend6: at an initiative total, losing ties (the Perception methods)', () => {
  it('fires after the higher total and before the lower, and is refused under the first significant action', () => {
    const enc = encounter({
      ruleset: 'opend6',
      seed: 7,
      combatants: [
        { id: 'kira', name: 'Kira', side: 'pc', stats: { perception: '4D' } },
        { id: 'thug', name: 'Thug', side: 'npc', stats: { perception: '1D' } },
      ],
    });
    const from = enc.entries.length;
    must(enc, { type: 'start' });
    const total = (id: string) => (enc.state.combatants[id]!.cs as { initiative: number }).initiative;
    const [high, low] = ['kira', 'thug'].sort((a, b) => total(b) - total(a));
    expect(total(high!)).toBeGreaterThan(total(low!));
    lair(enc, total(high!));
    next(enc, 1);
    expect(trace(enc, from).slice(0, 4)).toEqual(['R1', high, 'LAIR', low]);
    const first = encounter({
      ruleset: 'opend6',
      options: { initiativeMethod: 'first-significant-action' },
      combatants: [{ id: 'kira', name: 'Kira', side: 'pc' }],
    });
    expect(refused(first, { type: 'add-timed-event', name: 'Lair', at: 10 }).message).toContain(
      'there is no moment for a timed event',
    );
  });
});

describe('tick: every 6 ticks', () => {
  it('fires as the counter reaches ticks 6, 12 and 18 (or passes them), before anyone acts there, never a marker', () => {
    const enc = encounter({
      ruleset: 'tick',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc' },
        { id: 'bren', name: 'Bren', side: 'pc' },
      ],
    });
    lair(enc, 6);
    const from = enc.entries.length;
    must(enc, { type: 'start', initiative: { ana: 3, bren: 4 } });
    // Moves of 3 ticks: Ana on 3, 6, 9…, Bren on 4, 7, 10…
    for (let i = 0; i < 12; i++) must(enc, { type: 'act', actor: enc.state.current!, action: 'move' });
    let tick = 0;
    const seen = enc.entries.slice(from).flatMap(({ event }) => {
      if (event.type === 'clock/advanced') tick = (event.to as { at: number[] }).at[0]!;
      if (event.type === 'turn/started') return [`${event.combatant}@${tick}`];
      if (event.type === 'timed/fired') return [`LAIR@${tick}`];
      return [];
    });
    const lairs = seen.filter((x) => x.startsWith('LAIR'));
    expect(lairs.slice(0, 3)).toEqual(['LAIR@6', 'LAIR@12', 'LAIR@18']);
    expect(seen.slice(seen.indexOf('LAIR@6') - 1, seen.indexOf('LAIR@6') + 2)).toEqual([
      'bren@4',
      'LAIR@6',
      'ana@6',
    ]);
    // Before the turns on that tick: the entry after each is a turn on the same tick or later.
    for (const l of lairs) {
      const next = seen[seen.indexOf(l) + 1];
      if (next) expect(Number(next.split('@')[1])).toBeGreaterThanOrEqual(Number(l.split('@')[1]));
    }
    expect(enc.state.roster).toEqual(['ana', 'bren']);
  });
});

describe('six-second: second 3 of every turn', () => {
  it("fires as each turn's third second passes, in every turn, round after round", () => {
    const enc = encounter({
      ruleset: 'six-second',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc' },
        { id: 'bren', name: 'Bren', side: 'pc' },
      ],
    });
    lair(enc, 3);
    const from = enc.entries.length;
    must(enc, { type: 'start', initiative: { ana: 20, bren: 10 } });
    /** Whether the command made the timed event fire. */
    const step = (command: Record<string, unknown>) => {
      const at = enc.entries.length;
      must(enc, command as never);
      return enc.entries.slice(at).some((e) => e.event.type === 'timed/fired');
    };
    for (let round = 0; round < 2; round++)
      for (const who of ['ana', 'bren']) {
        // Seconds 1 and 2: nothing; the third second: the event.
        expect(step({ type: 'act', actor: who, action: 'move' })).toBe(false);
        expect(step({ type: 'act', actor: who, action: 'move' })).toBe(false);
        expect(step({ type: 'act', actor: who, action: 'move' })).toBe(true);
        expect(step({ type: 'next' })).toBe(false);
      }
    expect(enc.entries.slice(from).filter((e) => e.event.type === 'timed/fired')).toHaveLength(4);
    expect(enc.entries.map((e) => describeEvent(e.event, enc.state, rulesets['six-second']!))).toContain(
      'Lair action (second 3 of every turn): The ceiling drops rocks.',
    );
    expect(refused(enc, { type: 'add-timed-event', name: 'Lair', at: 7 }).message).toContain('from 1 to 6');
    const row = rulesets['six-second']!.timeline(enc.state).lanes.find((l) => l.id === '~timed');
    expect(row?.markers.map((m) => m.at)).toEqual([3]);
  });
});

describe('timed events on the timeline rows', () => {
  const row = (enc: EncounterLog) =>
    rulesets[enc.state.ruleset]!.timeline(enc.state).lanes.find((l) => l.id === '~timed');

  it('classic: a row of its own, at the slot it comes before; planned until it fires', () => {
    const enc = encounter({
      ruleset: 'classic',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc' },
        { id: 'orc', name: 'Orc', side: 'npc' },
      ],
    });
    lair(enc, 20);
    must(enc, { type: 'start', initiative: { ana: 22, orc: 15 } });
    expect(row(enc)?.markers).toEqual([
      { round: 1, at: 2, kind: 'timed', label: 'Lair action (initiative 20, losing ties)', planned: true },
    ]);
    next(enc, 1);
    expect(row(enc)?.markers[0]?.planned).toBeUndefined();
    expect(renderTimelineAscii(rulesets.classic!.timeline(enc.state))).toContain('Timed events');
  });

  it('tempo: at its tempo; tick: at its next tick', () => {
    const t = planned();
    lair(t, 3);
    expect(row(t)?.markers.map((m) => m.at)).toEqual([3]);
    const k = encounter({ ruleset: 'tick', combatants: [{ id: 'ana', name: 'Ana', side: 'pc' }] });
    lair(k, 6);
    must(k, { type: 'start', initiative: { ana: 3 } });
    expect(row(k)?.markers.map((m) => m.at)).toEqual([6]);
  });

  it('no timed events, no row', () => {
    const enc = encounter({ ruleset: 'classic', combatants: [{ id: 'ana', name: 'Ana', side: 'pc' }] });
    must(enc, { type: 'start' });
    expect(row(enc)).toBeUndefined();
  });
});

describe('the log line that adds a timed event', () => {
  it('says how often once: "every round" only where the moment does not say it already', () => {
    const added = (ruleset: string, at: number) => {
      const enc = encounter({ ruleset, combatants: [] });
      lair(enc, at);
      const entry = enc.entries.findLast((e) => e.event.type === 'timed/added')!;
      return describeEvent(entry.event, enc.state, rulesets[ruleset]!);
    };
    expect(added('classic', 20)).toBe('Timed event: Lair action, initiative 20, losing ties, every round.');
    expect(added('tara-corax', 10)).toBe('Timed event: Lair action, Mark 10 each round.');
    expect(added('tempo', 5)).toBe('Timed event: Lair action, tempo 5, every round.');
    expect(added('six-second', 3)).toBe('Timed event: Lair action, second 3 of every turn.');
    expect(added('tick', 6)).not.toMatch(/every round/);
  });
});
