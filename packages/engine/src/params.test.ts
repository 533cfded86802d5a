import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveParams } from './legal.js';
import {
  actorField,
  combatantField,
  combatantsIn,
  diceField,
  explainCommandError,
  humanize,
  labelPath,
  paramsOfSchema,
} from './params.js';
import type { Combatant, EncounterState } from './types.js';

const cast = z.object({
  actor: actorField(),
  castingTime: z.number().int().min(1).max(30).meta({ label: 'Casting Time (Marks)' }).optional(),
  target: combatantField('Target', 'enemies').optional(),
  roll: diceField().optional(),
  weapon: z.string().meta({ label: 'Weapon', from: 'stat:weapons' }).optional(),
  mode: z.enum(['safe', 'reckless']).default('safe'),
  reach: z
    .enum(['penalty', 'free-strike'])
    .meta({
      label: 'Longer reach',
      choices: { penalty: 'Take the penalty dice', 'free-strike': 'Grant a free strike' },
    })
    .optional(),
  wielded: z
    .union([z.string(), z.array(z.string()).min(1)])
    .meta({ label: 'Weapons', from: 'stat:weapons' })
    .optional(),
  bonusDice: z.number().int().min(0).max(20).optional().describe('Extra dice for a Reckless attack.'),
  spend: z.record(actorField(), z.number().int().min(0).max(5)).optional(),
  spell: z.object({ difficulty: z.number().int().min(0), cost: z.number().int().default(0) }).optional(),
});

describe('params: a command schema read as form fields', () => {
  const params = paramsOfSchema(cast);
  const by = (name: string) => params.find((p) => p.name === name)!;

  it('reads labels, bounds, requiredness and help from the schema', () => {
    expect(by('castingTime')).toMatchObject({
      label: 'Casting Time (Marks)',
      type: 'integer',
      min: 1,
      max: 30,
      required: false,
    });
    expect(by('bonusDice')).toMatchObject({ label: 'Bonus dice', help: 'Extra dice for a Reckless attack.' });
    expect(by('actor')).toMatchObject({ type: 'combatant', required: true });
  });

  it('knows combatants, dice, sheet lists, fixed choices, maps and groups', () => {
    expect(by('target')).toMatchObject({ type: 'combatant', from: 'enemies' });
    expect(by('roll').type).toBe('dice');
    expect(by('weapon')).toMatchObject({ type: 'choice', from: 'stat:weapons' });
    expect(by('mode')).toMatchObject({ type: 'choice', default: 'safe', required: false });
    expect(by('mode').options?.map((o) => o.value)).toEqual(['safe', 'reckless']);
    expect(by('spend')).toMatchObject({ type: 'per-combatant', of: { type: 'integer', max: 5 } });
    expect(by('spell').fields?.map((f) => [f.name, f.required])).toEqual([
      ['difficulty', true],
      ['cost', false],
    ]);
  });

  it('names fixed choices for a person, and offers one pick where one or several are taken', () => {
    expect(by('reach').options).toEqual([
      { value: 'penalty', label: 'Take the penalty dice' },
      { value: 'free-strike', label: 'Grant a free strike' },
    ]);
    expect(by('wielded')).toMatchObject({ type: 'choice', from: 'stat:weapons', label: 'Weapons' });
  });

  it('says where a value is refused by the labels of its fields, never their names', () => {
    const bad = cast.safeParse({ actor: 'ana', castingTime: 99, spell: { difficulty: -1 }, bonusDice: 'x' });
    expect(bad.success).toBe(false);
    const message = explainCommandError(bad.error!, 'cast', cast);
    expect(message).toMatch(/^Cast was not taken: /);
    expect(message).toContain('Casting Time (Marks) can be at most 30');
    expect(message).toContain('Spell › Difficulty cannot be negative');
    expect(message).toContain('Bonus dice must be a number');
    expect(message).not.toMatch(/expected|<=|>=/);
    expect(message).not.toMatch(/castingTime|bonusDice/);
    expect(labelPath(cast, ['spend', 'bren'])).toBe('Spend › bren');
  });

  it('humanizes field names it has no label for', () => {
    expect(humanize('castingTime')).toBe('Casting time');
    expect(humanize('two-handed')).toBe('Two handed');
  });
});

describe('params: a sheet’s lists and named entries', () => {
  const sheet = z.object({
    weapons: z
      .array(
        z.object({
          name: z.string().min(1).max(60),
          speed: z.enum(['quick', 'slow']).meta({ label: 'Weapon Speed' }),
          bonus: z.number().int().min(0).max(5).default(0),
        }),
      )
      .max(20)
      .default([]),
    held: z.array(z.string().min(1)).max(2).optional(),
    skills: z
      .record(
        z.string(),
        z
          .string()
          .regex(/^\d+D$/)
          .meta({ label: 'Die code' }),
      )
      .default({}),
    ranks: z.record(z.string().meta({ label: 'Skill' }), z.object({ rank: z.number().int().min(0) })),
    anything: z.array(z.json()).optional(),
    loose: z.record(z.string(), z.json()).optional(),
  });
  const params = paramsOfSchema(sheet);
  const by = (name: string) => params.find((p) => p.name === name)!;

  it('reads a list of objects as rows of fields, with their labels, defaults and how many', () => {
    const weapons = by('weapons');
    expect(weapons).toMatchObject({ type: 'list', max: 20, default: [], required: false });
    expect(weapons.of?.type).toBe('group');
    expect(weapons.of?.fields?.map((f) => [f.name, f.label, f.type, f.required])).toEqual([
      ['name', 'Name', 'text', true],
      ['speed', 'Weapon Speed', 'choice', true],
      ['bonus', 'Bonus', 'integer', false],
    ]);
    expect(weapons.of?.fields?.[2]).toMatchObject({ min: 0, max: 5, default: 0 });
    expect(by('held')).toMatchObject({ type: 'list', max: 2, of: { type: 'text' } });
  });

  it('reads a record by name as named entries: the name, and the value or its fields', () => {
    expect(by('skills')).toMatchObject({
      type: 'map',
      key: { label: 'Name', type: 'text' },
      of: { label: 'Die code', type: 'text' },
    });
    expect(by('ranks')).toMatchObject({ type: 'map', key: { label: 'Skill' }, of: { type: 'group' } });
  });

  it('leaves lists and records of anything as JSON', () => {
    expect(by('anything').type).toBe('json');
    expect(by('loose').type).toBe('json');
  });
});

describe('params: choices resolved for an actor', () => {
  const c = (id: string, side: 'pc' | 'npc', extra: Partial<Combatant> = {}): Combatant => ({
    id,
    name: id.toUpperCase(),
    side,
    hidden: false,
    stats: {},
    cs: null,
    turnsStarted: 0,
    turnsEnded: 0,
    active: true,
    ...extra,
  });
  const state = {
    roster: ['ana', 'bren', 'orc', 'gone'],
    combatants: {
      ana: c('ana', 'pc', { stats: { weapons: [{ name: 'Bow' }, 'Dagger'] } }),
      bren: c('bren', 'pc'),
      orc: c('orc', 'npc'),
      gone: c('gone', 'npc', { active: false }),
    },
  } as unknown as EncounterState;
  const resolved = resolveParams(state, 'ana', paramsOfSchema(cast));
  const values = (name: string) => resolved.find((p) => p.name === name)!.options?.map((o) => o.value);

  it('lists enemies by side, never the actor, and only those still in the fight', () => {
    expect(values('target')).toEqual(['orc']);
  });
  it("lists the actor's own sheet entries", () => {
    expect(values('weapon')).toEqual(['Bow', 'Dagger']);
  });
  it('lists sheet entries keyed by their name', () => {
    const keyed = {
      ...state,
      combatants: {
        ...state.combatants,
        ana: c('ana', 'pc', { stats: { weapons: { Axe: {}, Sling: {} } } }),
      },
    } as unknown as EncounterState;
    const weapon = resolveParams(keyed, 'ana', paramsOfSchema(cast)).find((p) => p.name === 'weapon');
    expect(weapon?.options).toEqual([
      { value: 'Axe', label: 'Axe' },
      { value: 'Sling', label: 'Sling' },
    ]);
  });
});

describe('combatant references: read from the schema, not from field names', () => {
  it('finds actors in fields, map keys and lists, and refs apart', () => {
    const command = { actor: 'ana', target: 'orc', spend: { bren: 1, ana: 2 } };
    expect(combatantsIn(cast, command, 'actor').sort()).toEqual(['ana', 'ana', 'bren']);
    expect(combatantsIn(cast, command, 'ref')).toEqual(['orc']);
  });
  it('ignores what is not a string where an id should be', () => {
    expect(combatantsIn(cast, { actor: { toString: 1 }, spend: 'x' }, 'actor')).toEqual([]);
  });
});

describe('params: a map whose names come from a list', () => {
  it('offers the names as labelled choices, from a labelled string or an enum', () => {
    const sheet = z.object({
      ranks: z.record(
        z.string().meta({ label: 'Skill', choices: { aim: 'Aim', recklessAttack: 'Reckless attack' } }),
        z.number().int(),
      ),
      times: z.partialRecord(z.enum(['run', 'walk']), z.number().int()),
      named: z.record(z.string(), z.number().int()),
    });
    const [ranks, times, named] = paramsOfSchema(sheet);
    expect(ranks?.key).toEqual({
      name: 'name',
      label: 'Skill',
      type: 'choice',
      required: true,
      options: [
        { value: 'aim', label: 'Aim' },
        { value: 'recklessAttack', label: 'Reckless attack' },
      ],
    });
    expect(times?.key?.options?.map((o) => o.value)).toEqual(['run', 'walk']);
    // Names the GM writes stay text.
    expect(named?.key?.type).toBe('text');
  });
});
