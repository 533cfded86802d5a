import { paramsOfSchema } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import {
  addRow,
  fieldErrors,
  issueErrors,
  nameKey,
  payloadOf,
  type RawForm,
  readForm,
  removeRow,
  rowIds,
  type SchemaIssue,
  valuesOf,
} from './form.js';

const statsOf = (id: string) => {
  const rs = rulesets[id]!;
  return { params: paramsOfSchema(rs.statsSchema), schema: rs.statsSchema };
};
const ctx = { round: 1 };

/** The schema's issues with a payload, as the editor checks it before sending. */
function check(id: string, raw: RawForm) {
  const { params, schema } = statsOf(id);
  const { value, errors } = readForm(params, raw, ctx, 'stats');
  expect(errors).toEqual([]);
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : issueErrors(params, raw, 'stats', parsed.error.issues as SchemaIssue[]);
}

describe('list fields: a sheet’s weapons as rows', () => {
  const { params } = statsOf('tempo');
  const weapons = params.find((p) => p.name === 'weapons')!;

  it('shows the weapons on the sheet as rows, and sends them back as they were', () => {
    const stats = {
      speed: 6,
      weapons: [
        { name: 'Dagger', speed: 'quick' },
        { name: 'Axe', speed: 'slow' },
      ],
    };
    const raw = valuesOf(params, stats, 'stats');
    expect(rowIds(raw, 'stats.weapons')).toEqual(['0', '1']);
    expect(raw['stats.weapons.1.name']).toBe('Axe');
    expect(payloadOf(params, raw, ctx, 'stats')).toMatchObject(stats);
  });

  it('adds a row with its fields at their defaults, and removes one with nothing left of it', () => {
    let raw = valuesOf(params, { weapons: [{ name: 'Dagger', speed: 'quick' }] }, 'stats');
    const added = addRow(raw, 'stats.weapons', weapons);
    expect(added.id).toBe('1');
    raw = { ...added.raw, 'stats.weapons.1.name': 'Spear', 'stats.weapons.1.speed': 'standard' };
    expect(readForm(params, raw, ctx, 'stats').value.weapons).toEqual([
      { name: 'Dagger', speed: 'quick' },
      { name: 'Spear', speed: 'standard' },
    ]);
    raw = removeRow(raw, 'stats.weapons', '0');
    expect(Object.keys(raw).some((k) => k.startsWith('stats.weapons.0'))).toBe(false);
    expect(readForm(params, raw, ctx, 'stats').value.weapons).toEqual([{ name: 'Spear', speed: 'standard' }]);
    // Emptied, the list is sent empty: the weapons are gone, not kept from before.
    raw = removeRow(raw, 'stats.weapons', '1');
    expect(readForm(params, raw, ctx, 'stats').value.weapons).toEqual([]);
  });

  it('an NPC’s action set added with a name and no id is sent without one (the rules make it)', () => {
    const sets = params.find((p) => p.name === 'actionSets')!;
    const raw = addRow(valuesOf(params, {}, 'stats'), 'stats.actionSets', sets).raw;
    const filled = { ...raw, 'stats.actionSets.0.name': 'Roar', 'stats.actionSets.0.tempo': '2' };
    const { value, errors } = readForm(params, filled, ctx, 'stats');
    expect(errors).toEqual([]);
    expect(value.actionSets).toEqual([{ name: 'Roar', tempo: 2 }]);
    expect(statsOf('tempo').schema.safeParse(value).success).toBe(true);
  });

  it('puts what is missing on the field of its row, and says which row', () => {
    const raw = addRow(valuesOf(params, {}, 'stats'), 'stats.weapons', weapons).raw;
    const { errors } = readForm(params, { ...raw, 'stats.weapons.0.name': 'Club' }, ctx, 'stats');
    expect(errors).toEqual([
      { key: 'stats.weapons.0.speed', message: 'Fill in Weapon Speed.', where: 'Weapons 1' },
    ]);
    expect(payloadOf(params, { ...raw, 'stats.weapons.0.name': 'Club' }, ctx, 'stats')).toBe(
      'Weapons 1: Fill in Weapon Speed.',
    );
  });

  it('puts the rules’ refusal on the field it is about', () => {
    const raw = valuesOf(params, { weapons: [{ name: 'Club', speed: 'slow' }] }, 'stats');
    const errors = check('tempo', { ...raw, 'stats.weapons.0.name': 'x'.repeat(61) });
    expect(fieldErrors(errors)).toEqual({ 'stats.weapons.0.name': 'Name takes at most 60 characters.' });
    expect(errors[0]!.where).toBe('Weapons 1');
  });
});

describe('map fields: entries by name (skills, each a die code)', () => {
  const { params } = statsOf('opend6');
  const skills = params.find((p) => p.name === 'skills')!;

  it('shows each skill as a name and its die code, renamed and changed as the GM writes', () => {
    let raw = valuesOf(params, { skills: { dodge: '3D', search: '2D+1' } }, 'stats');
    expect(rowIds(raw, 'stats.skills')).toEqual(['0', '1']);
    expect(raw[nameKey('stats.skills', '1')]).toBe('search');
    raw = { ...raw, [nameKey('stats.skills', '0')]: 'melee combat', 'stats.skills.0': '4D' };
    raw = addRow(raw, 'stats.skills', skills).raw;
    raw = { ...raw, [nameKey('stats.skills', '2')]: 'dodge', 'stats.skills.2': '3D+2' };
    expect(readForm(params, raw, ctx, 'stats').value.skills).toEqual({
      'melee combat': '4D',
      search: '2D+1',
      dodge: '3D+2',
    });
  });

  it('refuses an entry with no name or a name taken twice, on its name', () => {
    let raw = valuesOf(params, { skills: { dodge: '3D' } }, 'stats');
    raw = addRow(raw, 'stats.skills', skills).raw;
    expect(fieldErrors(readForm(params, raw, ctx, 'stats').errors)).toEqual({
      [nameKey('stats.skills', '1')]: 'Fill in Name.',
    });
    raw = { ...raw, [nameKey('stats.skills', '1')]: ' dodge ', 'stats.skills.1': '2D' };
    expect(fieldErrors(readForm(params, raw, ctx, 'stats').errors)).toEqual({
      [nameKey('stats.skills', '1')]: 'Another entry is already named “dodge”.',
    });
  });

  it('puts a die code the rules refuse on that skill’s field, in the rules’ words', () => {
    const raw = valuesOf(params, { skills: { dodge: '3D' } }, 'stats');
    const errors = check('opend6', { ...raw, 'stats.skills.0': '4d' });
    expect(errors).toEqual([
      {
        key: 'stats.skills.0',
        message: 'Die code: write a D6 die code like 3D, 3D+1 or 4D-1 (a capital D, pips after it).',
        where: 'Skills “dodge”',
      },
    ]);
  });

  it('puts a name the rules refuse on the name field, and a group of fields per entry', () => {
    const stamina = statsOf('stamina').params;
    const raw = valuesOf(stamina, { ranks: { aim: 2 }, weapons: { Bow: { kind: 'ranged' } } }, 'stats');
    expect(raw['stats.weapons.0.kind']).toBe('ranged');
    // A bound the form knows is said at once, on the field of that entry…
    const local = readForm(stamina, { ...raw, 'stats.weapons.0.parry': '30' }, ctx, 'stats').errors;
    expect(local).toEqual([
      { key: 'stats.weapons.0.parry', message: 'Parry can be at most 20.', where: 'Weapons “Bow”' },
    ]);
    // …and a name the rules refuse, on the name's field.
    const errors = check('stamina', { ...raw, [nameKey('stats.ranks', '0')]: 'Aim' });
    expect(fieldErrors(errors)).toEqual({
      [nameKey('stats.ranks', '0')]: 'Skill: use camelCase letters, e.g. regainComposure.',
    });
  });
});
