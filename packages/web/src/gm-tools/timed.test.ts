import { EncounterLog, isRejection, seededDice, view, viewLog } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { firedNow, momentWords, timedFields } from './timed.js';

function fight(ruleset: string, combatants: { id: string; name: string; side: string; hp: number }[]) {
  const enc = EncounterLog.create({ id: 'e', name: 'Lair', ruleset, dice: seededDice(7) }, rulesets);
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of combatants)
    expect(enc.execute({ type: 'add-combatant', combatant })).not.toHaveProperty('code');
  return enc;
}

describe('timed events on the page', () => {
  it("the form's fields are the command's: a name, the moment, a GM note", () => {
    expect(timedFields().map((p) => [p.name, p.label])).toEqual([
      ['name', 'Name'],
      ['at', 'At'],
      ['note', 'GM note'],
    ]);
  });

  it("reads the number typed back in the ruleset's words, or says why it has no moment", () => {
    const classic = fight('classic', []);
    expect(momentWords(rulesets.classic!, classic.state, '20')).toEqual({
      ok: true,
      words: 'initiative 20, losing ties, every round',
    });
    expect(momentWords(rulesets.classic!, classic.state, '900')?.ok).toBe(false);
    expect(momentWords(rulesets.classic!, classic.state, '')).toBeNull();
    expect(momentWords(rulesets.classic!, classic.state, '2.5')).toEqual({
      ok: false,
      words: 'A whole number.',
    });
    const tick = fight('tick', []);
    expect(momentWords(rulesets.tick!, tick.state, '6')).toEqual({ ok: true, words: 'every 6 ticks' });
    const tara = fight('tara-corax', []);
    expect(momentWords(rulesets['tara-corax']!, tara.state, '10')).toEqual({
      ok: true,
      words: 'Mark 10 each round',
    });
    expect(momentWords(rulesets.tempo!, fight('tempo', []).state, '5')?.words).toBe('tempo 5, every round');
  });

  it('announces a fired event for the turn it fired in, its note for the GM only, and no longer after', () => {
    const enc = fight('classic', [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ]);
    expect(
      enc.execute({ type: 'add-timed-event', name: 'Lair action', at: 20, note: 'the ceiling cracks' }),
    ).not.toHaveProperty('code');
    expect(enc.execute({ type: 'start', initiative: { ana: 22, orc: 12 } })).not.toHaveProperty('code');
    expect(firedNow(enc.entries)).toEqual([]);
    expect(enc.execute({ type: 'next' })).not.toHaveProperty('code');
    expect(enc.state.current).toBe('orc');
    expect(firedNow(enc.entries)).toMatchObject([
      { name: 'Lair action', when: 'initiative 20, losing ties', note: 'the ceiling cracks' },
    ]);
    const rs = rulesets.classic!;
    const table = { role: 'table' as const };
    const seen = viewLog(enc.entries, table, enc.state, rs, enc.everHidden);
    expect(firedNow(seen)).toEqual([expect.objectContaining({ name: 'Lair action' })]);
    expect(firedNow(seen)[0]).not.toHaveProperty('note');
    expect(view(enc.state, table, rs, enc.everHidden).timed?.[0]).not.toHaveProperty('note');
    // The Next undone: Ana's turn again, nothing fired in it; done again, announced again.
    expect(enc.execute({ type: 'undo' })).not.toHaveProperty('code');
    expect(enc.state.current).toBe('ana');
    expect(firedNow(enc.entries)).toEqual([]);
    expect(enc.execute({ type: 'redo' })).not.toHaveProperty('code');
    expect(firedNow(enc.entries)).toMatchObject([{ name: 'Lair action' }]);
    // Round 2, Ana's turn: the lair action has not come round again yet.
    expect(enc.execute({ type: 'next' })).not.toHaveProperty('code');
    expect(enc.state.current).toBe('ana');
    expect(firedNow(enc.entries)).toEqual([]);
    expect(enc.execute({ type: 'end' })).not.toHaveProperty('code');
    expect(firedNow(enc.entries)).toEqual([]);
  });
});
