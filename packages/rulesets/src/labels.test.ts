import { type Param, paramsOfSchema } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';

/** Every field of a form, nested ones too (a group's, a list's entry, a map's name and value). */
function* walk(params: readonly Param[], where: string): Generator<[string, Param]> {
  for (const p of params) {
    const here = `${where} › ${p.label}`;
    yield [here, p];
    if (p.fields) yield* walk(p.fields, here);
    if (p.of) yield* walk([p.of], here);
    if (p.key) yield* walk([p.key], here);
  }
}

describe('what a GM picks is labelled by the ruleset', () => {
  for (const rs of Object.values(rulesets)) {
    it(`${rs.id}: every option is a labelled choice, a number, a yes/no, dice or a structured list`, () => {
      for (const p of paramsOfSchema(rs.optionsSchema)) expect(p.help, `${rs.id} › ${p.label}`).toBeTruthy();
      for (const [where, p] of walk(paramsOfSchema(rs.optionsSchema), rs.id)) {
        expect(p.type, where).not.toBe('json');
        for (const o of p.options ?? [])
          expect(o.label, `${where}: ${String(o.value)} has no label`).not.toBe(String(o.value));
      }
    });
  }

  for (const rs of Object.values(rulesets)) {
    it(`${rs.id}: every fixed choice of a sheet is labelled`, () => {
      for (const [where, p] of walk(paramsOfSchema(rs.statsSchema), rs.id))
        for (const o of p.options ?? [])
          expect(o.label, `${where}: ${String(o.value)} has no label`).not.toBe(String(o.value));
    });
  }

  it('stamina: skill ranks are picked from the skills the rules know, by name', () => {
    const ranks = paramsOfSchema(rulesets.stamina!.statsSchema).find((p) => p.name === 'ranks')!;
    expect(ranks.key?.type).toBe('choice');
    expect(ranks.key?.options).toContainEqual({ value: 'recklessAttack', label: 'Reckless attack' });
    expect(ranks.key?.options).toContainEqual({ value: 'arcaneAptitude', label: 'Arcane Aptitude' });
  });

  it('six-second: action seconds are a table of the catalog’s actions and their seconds', () => {
    const times = paramsOfSchema(rulesets['six-second']!.optionsSchema).find(
      (p) => p.name === 'actionSeconds',
    )!;
    expect(times).toMatchObject({
      type: 'map',
      key: { type: 'choice', label: 'Action' },
      of: { label: 'Seconds' },
    });
    expect(times.key?.options).toContainEqual({
      value: 'melee-attack',
      label: expect.stringMatching(/melee/i),
    });
  });
});
