import { describeEvent, ownConditionRefusal, type view, viewLog } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from '../index.js';
import { encounter, must } from '../testing/harness.js';

const classic = rulesets.classic!;
const party = [
  { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 3 }, hp: 40 },
  { id: 'bren', name: 'Bren', side: 'pc', stats: { initiative: 1 }, hp: 24 },
  { id: 'orc', name: 'Orc', side: 'npc', stats: { initiative: 1 }, hp: 15 },
];
const forever = { kind: 'indefinite' } as const;
const lines = (enc: ReturnType<typeof encounter>) =>
  enc.entries.map((e) => describeEvent(e.event, enc.state, classic)).filter((l) => l !== null);

describe('classic: the concentration marker', () => {
  it('damage to its bearer reminds the GM of the save: DC 10, or half the damage when higher', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'add-effect', target: 'ana', name: 'Concentrating: Bless', duration: forever });
    must(enc, { type: 'damage', combatant: 'ana', amount: 7 });
    must(enc, { type: 'damage', combatant: 'ana', amount: 26 });
    const said = lines(enc);
    expect(said).toContain(
      'Ana took 7 damage while concentrating (Concentrating: Bless): Constitution save, DC 10, or it ends.',
    );
    expect(said).toContain(
      'Ana took 26 damage while concentrating (Concentrating: Bless): Constitution save, DC 13, or it ends.',
    );
  });

  it('no reminder without the marker, for healing, or for someone else hit', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'damage', combatant: 'ana', amount: 7 });
    must(enc, { type: 'add-effect', target: 'ana', name: 'Concentration', duration: forever });
    must(enc, { type: 'heal', combatant: 'ana', amount: 3 });
    must(enc, { type: 'damage', combatant: 'bren', amount: 5 });
    must(enc, {
      type: 'add-effect',
      target: 'bren',
      name: 'Hex',
      duration: forever,
      data: { concentration: true },
    });
    must(enc, { type: 'damage', combatant: 'bren', amount: 2 });
    const checks = enc.entries.filter((e) => e.event.type === 'classic/concentration-check');
    expect(checks.map((e) => [e.event.combatant, e.event.effect])).toEqual([['bren', 'Hex']]);
  });

  it('temporary HP lost count as damage taken', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'set-hp', combatant: 'ana', temp: 5 });
    must(enc, { type: 'add-effect', target: 'ana', name: 'Concentrating', duration: forever });
    must(enc, { type: 'damage', combatant: 'ana', amount: 4 });
    expect(lines(enc).at(-1)).toContain('took 4 damage');
  });

  it('the reminder, which tells the damage, goes only to those who see that HP as numbers', () => {
    const enc = encounter({ ruleset: 'classic', combatants: party });
    must(enc, { type: 'set-hp-display', pc: 'hidden' });
    must(enc, { type: 'add-effect', target: 'ana', name: 'Concentrating', duration: forever });
    must(enc, { type: 'damage', combatant: 'ana', amount: 7 });
    const types = (viewer: Parameters<typeof view>[1]) =>
      viewLog(enc.entries, viewer, enc.state, classic).map((e) => e.event.type);
    expect(types({ role: 'gm' })).toContain('classic/concentration-check');
    expect(types({ role: 'player', combatants: ['ana'] })).toContain('classic/concentration-check');
    expect(types({ role: 'table' })).not.toContain('classic/concentration-check');
    expect(types({ role: 'player', combatants: ['bren'] })).not.toContain('classic/concentration-check');
  });
});

describe('a player adds and removes conditions on their own character only', () => {
  const enc = encounter({
    ruleset: 'classic',
    combatants: [...party, { id: 'spy', name: 'Spy', side: 'npc', hidden: true }],
  });
  must(enc, { type: 'add-effect', target: 'orc', name: 'Prone', duration: forever });
  must(enc, { type: 'add-effect', target: 'ana', name: 'Blessed', duration: forever });
  const [prone, blessed] = enc.state.effects;
  const ana = ['ana'];

  it('their own: add and remove', () => {
    expect(
      ownConditionRefusal(enc.state, ana, { type: 'add-effect', target: 'ana', name: 'Concentrating' }),
    ).toBeUndefined();
    expect(
      ownConditionRefusal(enc.state, ana, { type: 'remove-effect', effect: blessed!.id }),
    ).toBeUndefined();
  });

  it("another's: refused in words, naming nobody hidden", () => {
    const add = ownConditionRefusal(enc.state, ana, { type: 'add-effect', target: 'orc', name: 'Prone' });
    expect(add?.message).toBe(
      'A player adds conditions only to their own character (Ana); ask the GM to put Prone on Orc.',
    );
    const remove = ownConditionRefusal(enc.state, ana, { type: 'remove-effect', effect: prone!.id });
    expect(remove?.message).toBe('That condition is on Orc, not on Ana; ask the GM to remove it.');
    const spy = ownConditionRefusal(enc.state, ana, { type: 'add-effect', target: 'spy', name: 'Marked' });
    expect(spy?.message).not.toContain('Spy');
    const fromOrc = ownConditionRefusal(enc.state, ana, {
      type: 'add-effect',
      target: 'ana',
      name: 'Marked',
      source: 'orc',
    });
    expect(fromOrc?.code).toBe('link/not-your-character');
  });
});
