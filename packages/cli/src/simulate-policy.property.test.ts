import { isRejection, parseScenario } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MOMENTS } from './policy.js';
import { runTrials, simulateSectionSchema } from './simulate.js';

/**
 * Any policy a designer can write, in any ruleset: it is refused before the first trial with the rule's
 * place named, or it plays — every trial ends, and every choice the rules refuse is counted under the
 * rule that asked (nothing the rules refuse goes unexplained, nothing crashes inside the rules).
 */

const sheets: Record<string, Array<Record<string, unknown>>> = {
  classic: [{ initiative: 1 }, { initiative: 0 }],
  'tara-corax': [{ initiative: 9 }, { initiative: 4 }],
  'six-second': [{ dexterity: 2 }, { dexterity: 1 }],
  opend6: [{ skills: { 'melee combat': '4D' } }, { skills: { brawling: '3D' } }],
  tempo: [
    { speed: 6, weapons: [{ name: 'Dagger', speed: 'quick' }], held: ['Dagger'] },
    { speed: 5, weapons: [{ name: 'Axe', speed: 'slow' }], held: ['Axe'] },
  ],
  stamina: [{}, {}],
  tick: [
    { initiative: 2, weaponSpeed: 5 },
    { initiative: 2, weaponSpeed: 7 },
  ],
};

describe('simulate: any policy, any ruleset', () => {
  for (const [id, ruleset] of Object.entries(rulesets)) {
    it(`${id}: refused before it starts, or played with every refusal under its rule`, () => {
      const scenario = parseScenario({
        schema: 1,
        name: 'any',
        ruleset: id,
        combatants: (sheets[id] ?? [{}, {}]).map((stats, i) => ({
          id: `c${i}`,
          name: `C${i}`,
          side: i ? 'npc' : 'pc',
          hp: 20,
          stats,
        })),
      });
      if (isRejection(scenario)) throw new Error(scenario.message);
      const catalog = ruleset.catalog(
        // The catalog as a fresh encounter of this ruleset has it (options at their defaults).
        { options: ruleset.optionsSchema.parse({}), customActions: [] } as unknown as Parameters<
          typeof ruleset.catalog
        >[0],
      );
      const commands = Object.keys(ruleset.commands).filter((c) => c !== 'start' && c !== 'next');
      const rule = fc.record(
        {
          command: fc.constantFrom(...commands),
          action: fc.constantFrom(...catalog.map((a) => a.id)),
          target: fc.constantFrom('enemy', 'self', 'ally', 'random-enemy', 'c1'),
          on: fc.constantFrom(...MOMENTS),
          times: fc.integer({ min: 1, max: 2 }),
          when: fc.constantFrom(undefined, { delayedTurn: false }, { round: { max: 1 } }),
        },
        { requiredKeys: [] },
      );
      let played = 0;
      fc.assert(
        fc.property(fc.array(rule, { minLength: 1, maxLength: 4 }), fc.integer(), (policy, seed) => {
          const parsed = simulateSectionSchema.safeParse({
            rounds: 2,
            policies: {
              default: policy.map((r) =>
                Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)),
              ),
            },
          });
          if (!parsed.success) return;
          const t = runTrials({ scenario, sim: parsed.data }, rulesets, seed, 0, 2);
          if (isRejection(t)) {
            expect(t.code).toBe('policy/invalid');
            expect(t.message).toMatch(/^simulate\.policies\.default\[\d\]/);
            return;
          }
          played++;
          expect(t.trials).toBe(2);
          expect(t.refused['engine/internal']).toBeUndefined();
          const byRule = Object.values(t.refusedRules).reduce((n, r) => n + r.count, 0);
          const all = Object.values(t.refused).reduce((n, c) => n + c, 0);
          expect(byRule).toBeLessThanOrEqual(all);
        }),
        { numRuns: 150 },
      );
      // Not only refusals: a fair share of the random policies play (most random rules are refused before
      // the first trial; 150 runs keep "more than 3" from failing by chance, as it did now and then at 60).
      expect(played).toBeGreaterThan(3);
    });
  }
});
