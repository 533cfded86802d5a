import {
  actionParams,
  commandForms,
  createEncounter,
  type EncounterState,
  isRejection,
  seededDice,
} from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';

describe('the SDK declarations of every ruleset', () => {
  for (const ruleset of Object.values(rulesets)) {
    const created = createEncounter(
      { id: 'e', name: 'e', ruleset: ruleset.id, dice: seededDice(1) },
      rulesets,
    );
    if (isRejection(created)) throw new Error(created.message);
    const state = created.state as unknown as EncounterState;

    it(`${ruleset.id}: every parameter an action names is a field of its act command`, () => {
      for (const action of ruleset.catalog(state)) {
        const names = (action.params ?? []).map((p) => (typeof p === 'string' ? p : p.name));
        expect(
          actionParams(ruleset, action).map((p) => p.name),
          action.id,
        ).toEqual(names);
      }
    });

    it(`${ruleset.id}: every command has a form with a label and no raw JSON field`, () => {
      for (const form of commandForms(ruleset)) {
        expect(form.label.length, form.type).toBeGreaterThan(0);
        const json = form.params.filter((p) => p.type === 'json').map((p) => p.name);
        expect(json, `${form.type}: fields with no description`).toEqual([]);
      }
    });
  }
});
