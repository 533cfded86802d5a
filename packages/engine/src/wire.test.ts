import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactEntries, deltaOfView, receiveChange } from './change.js';
import { seededDice } from './dice/rng.js';
import { EncounterLog } from './log.js';
import { roundRobin } from './test-ruleset.js';
import { type Command, isRejection } from './types.js';
import { view } from './view.js';
import { parseServerMessage, type ServerMessage } from './wire.js';

const encounter = {
  id: 'e1',
  name: 'Ambush',
  ruleset: 'round-robin',
  status: 'active',
  createdAt: '2026-11-23T20:00:00.000Z',
  updatedAt: '2026-11-23T20:00:00.000Z',
  seq: 3,
};

function read(text: string): ServerMessage {
  const r = parseServerMessage(text);
  if (!r.ok) throw new Error(r.error);
  return r.message;
}

describe('the live socket messages', () => {
  it('reads every message the server sends, as it writes it', () => {
    const enc = EncounterLog.create(
      { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
      { 'round-robin': roundRobin },
    );
    if (isRejection(enc)) throw new Error(enc.message);
    enc.execute({ type: 'add-combatant', combatant: { name: 'Ana' } });
    const state = view(enc.state, { role: 'gm' }, roundRobin);
    const hello = read(JSON.stringify({ type: 'hello', role: 'gm', encounter, seq: 3, state }));
    expect(hello).toEqual({ type: 'hello', role: 'gm', encounter, seq: 3, state });
    const player = read(
      JSON.stringify({ type: 'hello', role: 'player', combatants: ['ana'], encounter, seq: 3, state }),
    );
    expect(player.type === 'hello' && player.combatants).toEqual(['ana']);
    const allowing = read(
      JSON.stringify({
        type: 'hello',
        role: 'player',
        combatants: ['ana'],
        allowed: ['act'],
        encounter,
        seq: 3,
        state,
      }),
    );
    expect(allowing.type === 'hello' && allowing.allowed).toEqual(['act']);
    expect(read(JSON.stringify({ type: 'allowed', allowed: ['act', 'add-effect'] }))).toEqual({
      type: 'allowed',
      allowed: ['act', 'add-effect'],
    });
    expect(() => read(JSON.stringify({ type: 'allowed', allowed: 'act' }))).toThrow(/allowed without/);
    expect(read('{"type":"events","entries":[]}')).toEqual({ type: 'events', entries: [] });
    expect(read(JSON.stringify({ type: 'result', id: 'c1', ok: true, seq: 4 }))).toEqual({
      type: 'result',
      id: 'c1',
      ok: true,
      seq: 4,
    });
    const error = { code: 'rules/not-your-turn', message: 'It is Orc’s turn.' };
    expect(read(JSON.stringify({ type: 'result', id: 'c2', ok: false, error }))).toEqual({
      type: 'result',
      id: 'c2',
      ok: false,
      error,
    });
    expect(read(JSON.stringify({ type: 'error', error }))).toEqual({ type: 'error', error });
    for (const type of ['pong', 'revoked', 'deleted'] as const)
      expect(read(`{"type":"${type}"}`)).toEqual({ type });
  });

  it('reads a change however it carries its events and view, and the page applies it', () => {
    const steps = fc.array(
      fc.constantFrom<Command>(
        { type: 'start' },
        { type: 'next' },
        { type: 'next' },
        { type: 'undo' },
        { type: 'redo' },
        { type: 'add-combatant', combatant: { name: 'Dag' } },
        { type: 'damage', combatant: 'bren', amount: 1 },
      ),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(steps, (commands) => {
        const enc = EncounterLog.create(
          { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
          { 'round-robin': roundRobin },
        );
        if (isRejection(enc)) throw new Error(enc.message);
        for (const name of ['Ana', 'Bren']) enc.execute({ type: 'add-combatant', combatant: { name } });
        let held = { seq: enc.entries.length, state: view(enc.state, { role: 'table' }, roundRobin) };
        for (const command of commands) {
          const from = enc.entries.length;
          const r = enc.execute(command);
          if (isRejection(r)) continue;
          const seq = enc.entries.length;
          const next = view(enc.state, { role: 'table' }, roundRobin);
          const compact = compactEntries(r, from, seq);
          const delta = deltaOfView(
            held.state,
            next,
            r.map((e) => e.event),
          );
          // The server's text: its head (compact events, or whole entries), then a delta or the whole view.
          const head = compact
            ? JSON.stringify({ type: 'change', seq, from, ...compact })
            : JSON.stringify({ type: 'change', seq, from, entries: r });
          const text = `${head.slice(0, -1)},"delta":${JSON.stringify(delta)}}`;
          const message = read(text);
          expect(message.type).toBe('change');
          if (message.type !== 'change') return;
          const applied = receiveChange(held, message);
          if ('resync' in applied) throw new Error(applied.resync);
          expect(applied.held.state).toEqual({ ...next, seq: applied.held.seq });
          expect(applied.entries).toEqual(r);
          held = applied.held;
          const whole = read(`${head.slice(0, -1)},"state":${JSON.stringify(next)}}`);
          expect(whole.type === 'change' && whole.state).toEqual(next);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('says why a text is not a message, instead of guessing', () => {
    const bad: Array<[string, RegExp]> = [
      ['not json', /not JSON/],
      ['[1]', /not an object/],
      ['{"kind":"hello"}', /without a type/],
      ['{"type":"surprise"}', /unknown message "surprise"/],
      ['{"type":"hello","role":"king"}', /role/],
      ['{"type":"change","seq":4}', /seqs/],
      ['{"type":"change","seq":4,"from":3}', /without its view/],
      ['{"type":"change","seq":4,"from":3,"events":[[1]],"delta":{}}', /events are not events/],
      ['{"type":"result","id":"c1","ok":false}', /reason/],
      ['{"type":"result","id":"c1"}', /neither/],
      ['{"type":"events","entries":[{"seq":1}]}', /without entries/],
      ['{"type":"error","error":"boom"}', /reason/],
    ];
    for (const [text, why] of bad) {
      const r = parseServerMessage(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.error).toMatch(why);
    }
  });
});
