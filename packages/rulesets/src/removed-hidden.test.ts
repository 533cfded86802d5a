import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EncounterLog, isRejection, seededDice, type Viewer, view, viewLog } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { rulesets } from './index.js';
import { must } from './testing/harness.js';

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** The combatants of a ruleset's first shipped example, and its options. */
function partyOf(ruleset: string): {
  options: Record<string, unknown>;
  combatants: Array<Record<string, unknown>>;
} {
  const file = readdirSync(join(examples, ruleset)).sort()[0]!;
  const s = parseYaml(readFileSync(join(examples, ruleset, file), 'utf8')) as {
    options?: Record<string, unknown>;
    combatants: Array<Record<string, unknown>>;
  };
  return { options: s.options ?? {}, combatants: s.combatants };
}

/** A ruleset's first example's party, a PC among them, and a hidden NPC with a distinctive id. */
function withHiddenSpy(ruleset: string): { enc: EncounterLog; pc: string } {
  const { options, combatants } = partyOf(ruleset);
  const enc = EncounterLog.create(
    { id: 'spy', name: 'Spy', ruleset, options, dice: seededDice(1) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of combatants) must(enc, { type: 'add-combatant', combatant });
  const npc = combatants.find((c) => c.side !== 'pc') ?? combatants[0]!;
  const pc = enc.state.roster.find((id) => enc.state.combatants[id]!.side === 'pc')!;
  must(enc, { type: 'add-combatant', combatant: { ...npc, id: 'spyzq', name: 'Spyzq', hidden: true } });
  return { enc, pc };
}

describe('a hidden combatant removed from the fight stays hidden in the state', () => {
  for (const ruleset of Object.keys(rulesets)) {
    it(`${ruleset}: an effect it caused does not name it to the table or a player`, () => {
      const { enc, pc } = withHiddenSpy(ruleset);
      must(enc, {
        type: 'add-effect',
        target: pc,
        source: 'spyzq',
        name: 'Marked',
        duration: { kind: 'until-turn-end', combatant: 'spyzq' },
      });
      must(enc, { type: 'remove-combatant', combatant: 'spyzq' });
      const viewers: Viewer[] = [{ role: 'table' }, { role: 'player', combatants: [pc] }];
      for (const viewer of viewers) {
        const seen = JSON.stringify(view(enc.state, viewer, rulesets[ruleset]!, enc.everHidden));
        expect(seen).not.toMatch(/spyzq/i);
      }
      // The GM still sees the effect and who caused it.
      expect(JSON.stringify(view(enc.state, { role: 'gm' }, rulesets[ruleset]!, enc.everHidden))).toContain(
        'spyzq',
      );
    });
  }
});

describe('an effect counted on a hidden combatant’s turns', () => {
  for (const ruleset of Object.keys(rulesets)) {
    it(`${ruleset}: is not shown to the table, in the state or the log, even with no source`, () => {
      const { enc, pc } = withHiddenSpy(ruleset);
      must(enc, {
        type: 'add-effect',
        target: pc,
        name: 'Marked',
        duration: { kind: 'until-turn-start', combatant: 'spyzq' },
      });
      const table = { role: 'table' } as const;
      const rules = rulesets[ruleset]!;
      expect(JSON.stringify(view(enc.state, table, rules, enc.everHidden))).not.toMatch(/spyzq/i);
      expect(JSON.stringify(viewLog(enc.entries, table, enc.state, rules, enc.everHidden))).not.toMatch(
        /spyzq/i,
      );
    });
  }
});
