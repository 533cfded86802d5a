import { EncounterLog, isRejection, seededDice, view } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { EncounterStore } from '../store/encounter-store.js';
import { cardOf, cardPart } from './card-model.js';

function fight() {
  const enc = EncounterLog.create({ id: 'e', name: 'E', ruleset: 'classic', dice: seededDice(1) }, rulesets);
  if (isRejection(enc)) throw new Error(enc.message);
  for (const name of ['Ana', 'Orc'])
    enc.execute({ type: 'add-combatant', combatant: { name, side: 'pc', hp: 9 } });
  return enc;
}

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

describe("a card's model, as its selector reads it from the store", () => {
  it('is the same object when another combatant changed, a new one when its own did', () => {
    const enc = fight();
    const s = store();
    const before = view(enc.state, { role: 'gm' }, rulesets.classic!);
    const ana = cardPart(s, { view: before }, 'ana', true, true);
    const orc = cardPart(s, { view: before }, 'orc', true, true);
    const r = enc.execute({ type: 'damage', combatant: 'orc', amount: 2 });
    if (isRejection(r)) throw new Error(r.message);
    // A view from the server, parsed anew: nothing in it is the same object as before.
    const after = JSON.parse(JSON.stringify(view(enc.state, { role: 'gm' }, rulesets.classic!)));
    expect(cardPart(s, { view: after }, 'ana', true, true)).toBe(ana);
    const orcAfter = cardPart(s, { view: after }, 'orc', true, true);
    expect(orcAfter).not.toBe(orc);
    expect(orcAfter?.res).toEqual(cardOf(after, 'orc', true, true)?.res);
    // What did not change inside the changed card keeps its identity too.
    expect(orcAfter?.conds).toBe(orc?.conds);
  });

  it('is worked out once per view, however many times the page asks during one change', () => {
    const s = store();
    const v = view(fight().state, { role: 'gm' }, rulesets.classic!);
    let computed = 0;
    const part = () => s.derive('card:ana', v, () => ++computed && { hp: 9 });
    const first = part();
    expect(part()).toBe(first);
    expect(part()).toBe(first);
    expect(computed).toBe(1);
    // Another view is worked out again, and a part equal to the last is the same object.
    expect(s.derive('card:ana', { ...v }, () => ++computed && { hp: 9 })).toBe(first);
    expect(computed).toBe(2);
  });
});
