import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encounter } from '../testing/harness.js';
import { defenseModifiers, fullyCovered } from './conditions.js';
import type { State } from './types.js';

const conditionArb = fc.record({
  target: fc.constantFrom('ana', 'bren'),
  condition: fc.constantFrom('cover', 'surprised', 'concealed', 'prone', 'kneeling', 'flanked'),
  value: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
});

/**
 * `fullyCovered` answers the attack check's question ("+9 cover: can not be attacked") without writing
 * `defenseModifiers`' notes: for any conditions and any readied shields it gives the same answer.
 */
describe('stamina: fullyCovered is defenseModifiers().fullyCovered', () => {
  it('for any conditions, shields and surprise', () => {
    fc.assert(
      fc.property(
        fc.array(conditionArb, { maxLength: 6 }),
        fc.integer({ min: 0, max: 9 }),
        fc.boolean(),
        (conditions, block, readied) => {
          const weapons = { Shield: { readied, block }, Sword: { readied: true, parry: 2 } };
          const enc = encounter({
            ruleset: 'stamina',
            combatants: [
              { id: 'ana', name: 'Ana', side: 'pc', stats: { weapons } },
              { id: 'bren', name: 'Bren', side: 'npc' },
            ],
          });
          for (const c of conditions) enc.execute({ type: 'condition', ...c });
          const state = enc.state as State;
          for (const id of ['ana', 'bren']) {
            expect(fullyCovered(state, id)).toBe(defenseModifiers(state, id).fullyCovered);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('can be true: cover adding up to +9, or a readied shield of block 9', () => {
    const enc = encounter({
      ruleset: 'stamina',
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', stats: { weapons: { S: { readied: true, block: 9 } } } },
      ],
    });
    expect(fullyCovered(enc.state as State, 'ana')).toBe(true);
    enc.execute({ type: 'condition', target: 'ana', condition: 'surprised' });
    expect(fullyCovered(enc.state as State, 'ana')).toBe(false);
  });
});
