import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { addRow, fieldErrors, nameKey } from './form.js';
import { changedOptions, optionDefaults, optionParams, optionValues, readOptions } from './options.js';

const setup = (id: string) => {
  const rs = rulesets[id]!;
  const params = optionParams(rs);
  return { rs, params, raw: optionValues(params, optionDefaults(rs)) };
};

describe('ruleset options as a form', () => {
  it('starts from the ruleset’s defaults and sends them back unchanged', () => {
    for (const rs of Object.values(rulesets)) {
      const { params, raw } = setup(rs.id);
      expect(readOptions(rs, params, raw), rs.id).toEqual({ options: optionDefaults(rs) });
    }
  });

  it('offers an enum as labelled choices and sends the ruleset’s value', () => {
    const { rs, params, raw } = setup('tara-corax');
    const mode = params.find((p) => p.name === 'roundMode')!;
    expect(mode.type).toBe('choice');
    expect(mode.options?.map((o) => o.label)).toEqual(['Full Round', 'Simple Round', 'Very Simply']);
    const read = readOptions(rs, params, { ...raw, roundMode: 'simple' });
    expect(read).toMatchObject({ options: { roundMode: 'simple' } });
  });

  it('sends an unticked check as no, even where the default is yes', () => {
    const { rs, params, raw } = setup('six-second');
    expect(raw.carryOver).toBe(true);
    expect(readOptions(rs, params, { ...raw, carryOver: false })).toMatchObject({
      options: { carryOver: false },
    });
  });

  it('edits six-second’s action seconds as a table of actions and their seconds', () => {
    const { rs, params, raw } = setup('six-second');
    const times = params.find((p) => p.name === 'actionSeconds')!;
    const added = addRow(raw, 'actionSeconds', times);
    const filled = {
      ...added.raw,
      [nameKey('actionSeconds', added.id)]: 'melee-attack',
      [`actionSeconds.${added.id}`]: '3',
    };
    expect(readOptions(rs, params, filled)).toMatchObject({
      options: { actionSeconds: { 'melee-attack': 3 } },
    });
    const tooLong = { ...filled, [`actionSeconds.${added.id}`]: '900' };
    const refused = readOptions(rs, params, tooLong);
    expect('errors' in refused && fieldErrors(refused.errors)).toEqual({
      [`actionSeconds.${added.id}`]: 'Seconds can be at most 600.',
    });
  });

  it('turns an emptied field back into the default (a cap back to none)', () => {
    const { rs, params, raw } = setup('six-second');
    const read = readOptions(rs, params, { ...raw, zeroSecondCap: '' });
    expect(read).toMatchObject({ options: { zeroSecondCap: null } });
    if ('options' in read)
      expect(changedOptions(read.options, { ...optionDefaults(rs), zeroSecondCap: 2 })).toEqual({
        zeroSecondCap: null,
      });
  });

  it('refuses a value out of bounds in words, on its field', () => {
    const { rs, params, raw } = setup('tempo');
    const read = readOptions(rs, params, { ...raw, actionsPerRound: '9' });
    expect('errors' in read && fieldErrors(read.errors)).toEqual({
      actionsPerRound: 'Actions per round can be at most 6.',
    });
  });
});
