import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeEvent, stateAt } from './describe.js';
import { seededDice } from './dice/rng.js';
import { distinctName, distinctNames } from './ids.js';
import { EncounterLog } from './log.js';
import { roundRobin } from './test-ruleset.js';
import { isRejection } from './types.js';

const registry = { 'round-robin': roundRobin };
const key = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

describe('distinct names', () => {
  it('numbers a second of the same name on from the highest number its base has', () => {
    expect(distinctName('Goblin', [])).toBe('Goblin');
    expect(distinctName('Goblin', ['Goblin'])).toBe('Goblin 2');
    expect(distinctName('goblin ', ['Goblin', 'Goblin 2'])).toBe('goblin 3');
    expect(distinctNames(['Orc 1', 'Orc 2', 'Orc 3', 'Orc 4'], ['Orc 1', 'Orc 2', 'Orc 3', 'Orc 4'])).toEqual(
      ['Orc 5', 'Orc 6', 'Orc 7', 'Orc 8'],
    );
    expect(distinctNames(['Goblin', 'Goblin'], ['Ana'])).toEqual(['Goblin', 'Goblin 2']);
  });

  it('the add event carries the final name: a second wave continues the numbering', () => {
    const enc = EncounterLog.create(
      { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
      registry,
    );
    if (isRejection(enc)) throw new Error(enc.message);
    for (const wave of [1, 2])
      for (const n of [1, 2, 3, 4]) {
        const r = enc.execute({ type: 'add-combatant', combatant: { name: `Orc ${n}` } });
        if (isRejection(r)) throw new Error(r.message);
        expect(r[0]?.event.type).toBe('combatant/added');
        expect(wave).toBeGreaterThan(0);
      }
    expect(enc.state.roster.map((id) => enc.state.combatants[id]!.name)).toEqual([
      'Orc 1',
      'Orc 2',
      'Orc 3',
      'Orc 4',
      'Orc 5',
      'Orc 6',
      'Orc 7',
      'Orc 8',
    ]);
    const rename = enc.execute({ type: 'update-combatant', combatant: enc.state.roster[7]!, name: 'orc 1' });
    expect(isRejection(rename) && rename.code).toBe('combatant/name-taken');
  });

  const ids = ['qx1', 'qx2', 'qx3'];
  const names = ['Orc 1', 'Orc 2', 'Orc', 'Goblin', 'goblin', 'Goblin 2', 'Ana'];
  const command = fc.oneof(
    fc
      .record({ id: fc.constantFrom(...ids), name: fc.constantFrom(...names) })
      .map((combatant) => ({ type: 'add-combatant', combatant })),
    fc
      .record({ combatant: fc.constantFrom(...ids), name: fc.constantFrom(...names) })
      .map((c) => ({ type: 'update-combatant', ...c })),
    fc.constantFrom(...ids).map((combatant) => ({ type: 'remove-combatant', combatant })),
    fc.constantFrom(...ids).map((combatant) => ({ type: 'damage', combatant, amount: 3 })),
    fc.constantFrom(...ids).map((combatant) => ({ type: 'defeat', combatant })),
    fc.record({ target: fc.constantFrom(...ids), anchor: fc.constantFrom(...ids) }).map((x) => ({
      type: 'add-effect',
      target: x.target,
      name: 'Bless',
      duration: { kind: 'until-turn-start', combatant: x.anchor },
    })),
    fc.constantFrom(...ids).map((actor) => ({ type: 'roll', actor })),
    fc.constantFrom(
      { type: 'start' },
      { type: 'next' },
      { type: 'undo' },
      { type: 'undo' },
      { type: 'redo' },
    ),
  );

  it('after any adds, renames, removes, undos and redos, no two combatants share a name and no log line shows an id', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        const enc = EncounterLog.create(
          { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
          registry,
        );
        if (isRejection(enc)) throw new Error(enc.message);
        for (const c of commands) {
          enc.execute(c);
          const shown = Object.values(enc.state.combatants).map((x) => key(x.name));
          expect(new Set(shown).size, shown.join(', ')).toBe(shown.length);
        }
        for (const [i, entry] of enc.entries.entries()) {
          const line = describeEvent(entry.event, stateAt(enc.state, enc.entries, i, roundRobin), roundRobin);
          expect(line ?? '', `${entry.event.type}`).not.toMatch(/qx\d/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
