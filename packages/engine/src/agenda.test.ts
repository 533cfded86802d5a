import { describe, expect, it } from 'vitest';
import { schedule, scheduleAll, scheduleTurns } from './agenda.js';
import { type ChangeMessage, compactEntries, deltaOfView, receiveChange } from './change.js';
import { seededDice } from './dice/rng.js';
import { evolve } from './evolve.js';
import { EncounterLog } from './log.js';
import { roundRobin } from './test-ruleset.js';
import { type AgendaEntry, type EncounterState, isRejection } from './types.js';
import { view, viewEvent } from './view.js';

function state(): EncounterState {
  const enc = EncounterLog.create(
    { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
    { 'round-robin': roundRobin },
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const name of ['Ana', 'Bren', 'Cato']) enc.execute({ type: 'add-combatant', combatant: { name } });
  return enc.state;
}

const turn = (combatant: string, at: number, more: Partial<AgendaEntry> = {}): AgendaEntry => ({
  id: `t-${combatant}`,
  at: { round: 2, at: [at] },
  kind: 'turn',
  combatant,
  label: `${combatant}'s turn`,
  ...more,
});

describe('a round’s turns scheduled at once', () => {
  const entries = [turn('cato', 3), turn('ana', 1), turn('bren', 2, { secret: true })];

  it('is one event, however many turns, and an empty round schedules nothing', () => {
    expect(scheduleAll(entries)).toEqual([{ type: 'agenda/scheduled-many', entries }]);
    expect(scheduleAll([])).toEqual([]);
    const events = scheduleTurns(entries);
    expect(events.map((e) => e.type)).toEqual([
      'agenda/scheduled-many',
      'agenda/removed',
      'clock/advanced',
      'turn/started',
    ]);
    // In clock order, and the first one reached.
    expect(events[0]).toMatchObject({
      entries: [{ combatant: 'ana' }, { combatant: 'bren' }, { combatant: 'cato' }],
    });
    expect(events[3]).toEqual({ type: 'turn/started', combatant: 'ana' });
  });

  it('leads to the same agenda as one `agenda/scheduled` per entry', () => {
    const s = { ...state(), agenda: [turn('ana', 2, { id: 'effect', kind: 'effect' })] };
    const many = evolve(s, scheduleAll(entries)[0]!, roundRobin);
    const oneByOne = entries.reduce((acc, e) => evolve(acc, schedule(e), roundRobin), s);
    expect(many.agenda).toEqual(oneByOne.agenda);
    expect(many.agenda.map((e) => e.id)).toEqual(['t-ana', 'effect', 't-bren', 't-cato']);
  });

  it('is seen entry by entry: a hidden combatant’s turn and another’s secret are left out', () => {
    const base = state();
    const s: EncounterState = {
      ...base,
      combatants: { ...base.combatants, cato: { ...base.combatants.cato!, hidden: true } },
    };
    const [event] = scheduleAll(entries);
    expect(viewEvent(event!, { role: 'gm' }, s, roundRobin)).toBe(event);
    expect(viewEvent(event!, { role: 'table' }, s, roundRobin)).toEqual({
      type: 'agenda/scheduled-many',
      entries: [entries[1]],
    });
    // Bren's player sees Bren's secret turn; nobody sees Cato's while Cato is hidden.
    expect(viewEvent(event!, { role: 'player', combatants: ['bren'] }, s, roundRobin)).toEqual({
      type: 'agenda/scheduled-many',
      entries: [entries[1], entries[2]],
    });
    // None left: no event at all.
    const [onlyCato] = scheduleAll([entries[0]!]);
    expect(viewEvent(onlyCato!, { role: 'table' }, s, roundRobin)).toBeNull();
  });

  it('is referred to entry by entry in a delta ("i.entries.j"), and the client resolves it', () => {
    const table = { role: 'table' } as const;
    const s = { ...state(), status: 'running' as const, round: 1, seq: 10 };
    const before = view(s, table, roundRobin);
    const [event] = scheduleAll(entries);
    const after = view({ ...evolve(s, event!, roundRobin), seq: 11 }, table, roundRobin);
    // The table's event: without Bren's secret turn, so its entries are Cato's and Ana's.
    const seen = viewEvent(event!, table, s, roundRobin)!;
    const delta = deltaOfView(before, after, [seen]);
    expect(delta).toMatchObject({ agenda: [0, ['0.entries.1', '0.entries.0']] });
    expect(JSON.stringify(delta)).not.toContain("'s turn");
    const message: ChangeMessage = {
      type: 'change',
      seq: 11,
      from: 10,
      ...compactEntries([{ seq: 11, group: 3, time: '2026-11-24T05:00:00.000Z', event: seen }], 10, 11),
      delta,
    };
    // The client gets the message as JSON, and resolves the references in the events it carries.
    const r = receiveChange({ seq: 10, state: before }, JSON.parse(JSON.stringify(message)));
    expect(r).toEqual({ held: { seq: 11, state: after }, entries: expect.any(Array) });
    // A reference past the entries is a mismatch: the client asks for the whole view.
    const wrong = { ...message, delta: { agenda: [0, ['0.entries.7']] } } as ChangeMessage;
    expect(receiveChange({ seq: 10, state: before }, wrong)).toHaveProperty('resync');
  });
});
