import { coreCommandSchemas, isRejection } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { fresh } from './testing/random-play.js';

/**
 * A refusal that reaches a GM says what is wrong in words: a limit as a number a person reads ("must be
 * at most 1,000,000"), never zod's wording ("Too big: expected int to be <=9007199254740991").
 */
const zodWording = /expected|<=|>=|Invalid input|Invalid option|Too big|Too small|received|9007199254740991/;

const value = fc.oneof(
  fc.integer({ min: -(2 ** 60), max: 2 ** 60 }).map(Number),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 3 }),
  fc.string({ minLength: 81, maxLength: 100 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant({}),
  fc.constant([]),
);
const fields = [
  'actor',
  'combatant',
  'action',
  'amount',
  'value',
  'name',
  'current',
  'max',
  'target',
  'roll',
];
const payload = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 4 });

describe.each(Object.keys(rulesets).sort())('refusals say limits in words: %s', (rulesetId) => {
  it('any command with any payload is taken or refused in words', () => {
    const ruleset = rulesets[rulesetId]!;
    const types = [...Object.keys(coreCommandSchemas), ...Object.keys(ruleset.commands)].filter(
      (t) => t !== 'undo' && t !== 'redo',
    );
    fc.assert(
      fc.property(fc.constantFrom(...types), payload, fc.boolean(), (type, fields, started) => {
        const enc = fresh(rulesetId, 1);
        if (started) enc.execute({ type: 'start' });
        const combatant = type === 'add-combatant' ? { combatant: { name: 'Orc', ...fields } } : fields;
        const r = enc.execute({ ...combatant, type });
        if (isRejection(r)) expect(r.message, `${type} ${JSON.stringify(fields)}`).not.toMatch(zodWording);
      }),
      { numRuns: 150 },
    );
  });
});
