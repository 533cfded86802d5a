import { EncounterLog, isRejection, seededDice, view } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { statusOrderOf } from '../cards/StatusList.js';
import { EncounterStore } from '../store/encounter-store.js';
import { firedOf } from '../timeline/FiredLine.js';
import { nextRoundOf } from './NextRound.js';

const store = () =>
  new EncounterStore('e', 'tok', {
    socket: () => {
      throw new Error('no socket here');
    },
    api: {
      get: async () => {
        throw new Error('no api here');
      },
      events: async () => ({ seq: 0, entries: [] }),
      command: async () => ({ seq: 0, entries: [] }),
    },
    commit: (f) => f(),
    timers: { set: () => 0, clear: () => undefined },
    location: { protocol: 'http:', host: 'here' },
  });

function running() {
  const enc = EncounterLog.create({ id: 'e', name: 'E', ruleset: 'classic', dice: seededDice(1) }, rulesets);
  if (isRejection(enc)) throw new Error(enc.message);
  for (const name of ['Ana', 'Orc', 'Bren'])
    enc.execute({ type: 'add-combatant', combatant: { name, side: 'pc', hp: 9 } });
  const r = enc.execute({ type: 'start', initiative: { ana: 15, orc: 10, bren: 5 } });
  if (isRejection(r)) throw new Error(r.message);
  return enc;
}

/** The page's snapshot after a change, as the server sends it: nothing in it the same object as before. */
const snapshot = (enc: EncounterLog) =>
  JSON.parse(
    JSON.stringify({ view: view(enc.state, { role: 'gm' }, rulesets.classic!), entries: enc.entries }),
  );

describe('the own slices of the status list, the next round and the fired line', () => {
  it('is the same object after a change that moves no one and passes no turn, a new one when the turn passes', () => {
    const enc = running();
    const s = store();
    const before = statusOrderOf(s, snapshot(enc));
    expect(before?.current).toBe('ana');
    expect(before?.order).toEqual(['ana', 'orc', 'bren']);
    const hurt = enc.execute({ type: 'damage', combatant: 'orc', amount: 2 });
    if (isRejection(hurt)) throw new Error(hurt.message);
    expect(statusOrderOf(s, snapshot(enc))).toBe(before);
    const next = enc.execute({ type: 'next' });
    if (isRejection(next)) throw new Error(next.message);
    const after = statusOrderOf(s, snapshot(enc));
    expect(after).not.toBe(before);
    expect(after?.current).toBe('orc');
  });

  it('the next round and the fired lines are the same objects after a change that leaves them', () => {
    const enc = running();
    const s = store();
    const first = snapshot(enc);
    const round = nextRoundOf(s, first);
    const fired = firedOf(s, first);
    expect(round).toEqual(['Ana', 'Orc', 'Bren']);
    expect(fired).toEqual([]);
    const hurt = enc.execute({ type: 'damage', combatant: 'orc', amount: 2 });
    if (isRejection(hurt)) throw new Error(hurt.message);
    const second = snapshot(enc);
    expect(second.view).not.toBe(first.view);
    expect(nextRoundOf(s, second)).toBe(round);
    expect(firedOf(s, second)).toBe(fired);
  });
});
