import {
  type Command,
  coreCommandSchemas,
  EncounterLog,
  isRejection,
  parseScenario,
  runScenario,
  SCENARIO_SCHEMA,
  seededDice,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { rulesets } from './index.js';
import { arbitraryOf } from './testing/arbitrary.js';

const people = [
  { id: 'ana', name: 'Ana', side: 'pc' as const, hp: 20 },
  { id: 'orc', name: 'Orc', side: 'npc' as const, hp: 15 },
];
const ids = ['ana', 'orc'];

/**
 * Export → import → replay is the identity: commands of every type the ruleset and the engine declare,
 * with every field their schemas have (a command's own `note` among them), played, written as a scenario
 * file (YAML), read back and replayed, give the same state. A step's keys and a command's fields no longer
 * share a namespace.
 */
describe('scenario files: export → import → replay gives the same state, for every command type', () => {
  for (const ruleset of Object.values(rulesets)) {
    const schemas = { ...coreCommandSchemas, ...ruleset.commands };
    const commandArb = fc.oneof(
      ...Object.entries(schemas).map(([type, schema]) =>
        arbitraryOf(schema, ids).map((fields) => ({ ...fields, type }) as Command),
      ),
      fc.constant<Command>({ type: 'start' }),
      fc.constant<Command>({ type: 'next' }),
      fc.constant<Command>({
        type: 'add-effect',
        target: 'orc',
        name: 'Marked',
        duration: { kind: 'indefinite' },
        note: 'a note that belongs to the effect',
      }),
    );
    it(ruleset.id, () => {
      fc.assert(
        fc.property(fc.array(commandArb, { maxLength: 25 }), fc.integer(), (commands, seed) => {
          const enc = EncounterLog.create(
            { id: 'x', name: 'X', ruleset: ruleset.id, dice: seededDice(seed) },
            rulesets,
          );
          if (isRejection(enc)) throw new Error(enc.message);
          const accepted: Command[] = [];
          for (const command of [
            ...people.map((combatant) => ({ type: 'add-combatant', combatant })),
            ...commands,
          ]) {
            if (!isRejection(enc.execute(command))) accepted.push(command);
          }
          const file = {
            schema: SCENARIO_SCHEMA,
            name: 'Round trip',
            ruleset: ruleset.id,
            seed,
            commands: accepted.map((command) => ({ command, note: 'a comment for readers' })),
          };
          const scenario = parseScenario(parse(stringify(file)));
          if (isRejection(scenario)) throw new Error(scenario.message);
          const replayed = runScenario(scenario, rulesets, 'x');
          if (isRejection(replayed)) throw new Error(replayed.message);
          expect(replayed.failures).toEqual([]);
          expect({ ...replayed.encounter.state, name: 'X' }).toEqual(enc.state);
        }),
        { numRuns: 25 },
      );
    });
  }

  it("reads schema 1 files: there a step's note is the reader's comment", () => {
    const scenario = parseScenario({
      schema: 1,
      name: 'Old',
      ruleset: 'classic',
      commands: [{ type: 'note', text: 'hello', note: 'a comment', expect: { status: 'setup' } }],
    });
    if (isRejection(scenario)) throw new Error(scenario.message);
    expect(scenario.commands[0]).toEqual({
      command: { type: 'note', text: 'hello' },
      note: 'a comment',
      expect: { status: 'setup' },
    });
  });
});
