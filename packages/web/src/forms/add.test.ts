import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AddDraft,
  afterAdd,
  countOf,
  freshDraft,
  MOST_AT_ONCE,
  readDraft,
  statParamsOf,
} from './add.js';
import { addRow, fieldErrors, nameKey } from './form.js';

const form = (id: string) => {
  const rs = rulesets[id]!;
  const params = statParamsOf(rs);
  return { rs, params, fresh: freshDraft(params) };
};
const errorsOf = (r: ReturnType<typeof readDraft>) => ('errors' in r ? fieldErrors(r.errors) : {});

describe('the add form', () => {
  it('starts from the ruleset’s defaults, and returns to them after an add', () => {
    const { rs, params, fresh } = form('opend6');
    expect(fresh).toMatchObject({ name: '', side: 'npc', hp: '', count: '1', keep: false });
    const jax: AddDraft = {
      ...fresh,
      name: 'Jax',
      side: 'pc',
      hp: '12',
      count: '2',
      group: 'Crew',
      hidden: true,
      notes: 'owes money',
      stats: { ...fresh.stats, 'stats.characterPoints': '5' },
    };
    const read = readDraft(jax, rs, params);
    expect(read).toMatchObject({
      creature: { name: 'Jax', side: 'pc', hp: 12, stats: { characterPoints: 5 } },
    });
    // Nothing of Jax is carried onto the next combatant: every field is back at the ruleset's default.
    expect(afterAdd(jax, params)).toEqual(fresh);
  });

  it('keeps side, HP, how many and stats when the GM asks to, never the name, group, hiding or notes', () => {
    const { params, fresh } = form('tempo');
    const weapons = params.find((p) => p.name === 'weapons')!;
    const armed = addRow(fresh.stats, 'stats.weapons', weapons).raw;
    const ana: AddDraft = {
      ...fresh,
      name: 'Ana',
      side: 'pc',
      hp: '20',
      count: '3',
      group: 'Heroes',
      hidden: true,
      notes: 'x',
      keep: true,
      stats: { ...armed, 'stats.weapons.0.name': 'Sword', 'stats.weapons.0.speed': 'standard' },
    };
    const next = afterAdd(ana, params);
    expect(next).toMatchObject({
      name: '',
      group: '',
      hidden: false,
      notes: '',
      side: 'pc',
      hp: '20',
      count: '3',
      keep: true,
    });
    expect(next.stats['stats.weapons.0.name']).toBe('Sword');
    // Unticked, the sword stays with Ana.
    expect(afterAdd({ ...ana, keep: false }, params).stats).toEqual(fresh.stats);
  });

  it('says limits in words: HP too big, negative HP, How many above its limit (never clamped)', () => {
    const { rs, params, fresh } = form('classic');
    const named = { ...fresh, name: 'Orc' };
    expect(errorsOf(readDraft({ ...named, hp: '99999999999999999999' }, rs, params))).toEqual({
      hp: 'HP can be at most 1,000,000.',
    });
    expect(errorsOf(readDraft({ ...named, hp: '-4' }, rs, params))).toEqual({ hp: 'HP cannot be negative.' });
    expect(errorsOf(readDraft({ ...named, hp: '2.5' }, rs, params))).toEqual({
      hp: 'HP must be a whole number.',
    });
    expect(errorsOf(readDraft({ ...named, count: '60' }, rs, params))).toEqual({
      count: `How many can be at most ${MOST_AT_ONCE}.`,
    });
    expect(errorsOf(readDraft({ ...named, count: '0' }, rs, params))).toEqual({
      count: 'How many must be at least 1.',
    });
    expect(errorsOf(readDraft({ ...fresh, name: '  ' }, rs, params))).toEqual({
      name: 'Give the combatant a name.',
    });
    expect(errorsOf(readDraft({ ...named, name: 'O'.repeat(81) }, rs, params))).toEqual({
      name: 'Name takes at most 80 characters.',
    });
  });

  it('refuses every How many outside 1…50 and accepts every one inside, as it was typed', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (n) => {
        const r = countOf(String(n));
        if (n >= 1 && n <= MOST_AT_ONCE) expect(r).toBe(n);
        else expect(r).toMatch(/^How many (can be at most 50|must be at least 1)\.$/);
      }),
    );
  });

  it('picks stamina skill ranks by name from a list, and sends the rules’ name', () => {
    const { rs, params, fresh } = form('stamina');
    const ranks = params.find((p) => p.name === 'ranks')!;
    expect(ranks.key?.options?.find((o) => o.value === 'recklessAttack')?.label).toBe('Reckless attack');
    const added = addRow(fresh.stats, 'stats.ranks', ranks);
    const stats = {
      ...added.raw,
      [nameKey('stats.ranks', added.id)]: 'recklessAttack',
      [`stats.ranks.${added.id}`]: '2',
    };
    expect(readDraft({ ...fresh, name: 'Kael', stats }, rs, params)).toMatchObject({
      creature: { stats: { ranks: { recklessAttack: 2 } } },
    });
  });

  it('every ruleset’s fresh form is an add the rules accept', () => {
    for (const id of Object.keys(rulesets)) {
      const { rs, params, fresh } = form(id);
      expect(readDraft({ ...fresh, name: 'Someone' }, rs, params), id).toHaveProperty('creature');
    }
  });
});
