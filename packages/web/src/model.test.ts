import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { fieldsOf, parseFields } from './fields.js';
import { backoff, mergeEntries } from './merge.js';
import { expandCombatants } from './model.js';

describe('web model helpers', () => {
  it('adds several combatants at once as an NPC group with unique ids', () => {
    const cmds = expandCombatants({ name: 'Goblin', side: 'npc', hp: 7, stats: {} }, 3, ['goblin-1']);
    expect(cmds.map((c) => (c.combatant as { id: string }).id)).toEqual([
      'goblin-1-2',
      'goblin-2',
      'goblin-3',
    ]);
    expect(cmds.map((c) => (c.combatant as { name: string }).name)).toEqual([
      'Goblin 1',
      'Goblin 2',
      'Goblin 3',
    ]);
    expect((cmds[0]!.combatant as { group: string }).group).toBe('Goblin');
  });

  it('merges log entries by seq without duplicates', () => {
    const e = (seq: number) => ({ seq, group: 1, event: { type: 'x' } });
    expect(mergeEntries([e(1), e(2)], [e(2), e(3)]).map((x) => x.seq)).toEqual([1, 2, 3]);
    expect(backoff(0)).toBe(300);
    expect(backoff(10)).toBe(5000);
  });

  it('reads command forms from the rulesets’ schemas', () => {
    const fields = fieldsOf(rulesets.opend6!.commands.declare!);
    expect(fields.map((f) => f.name)).toEqual(['actor', 'actions']);
    expect(parseFields(fields, { actor: 'ana', actions: '2' })).toEqual({ actor: 'ana', actions: 2 });
  });
});
