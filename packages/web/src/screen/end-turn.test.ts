import { EncounterLog, isRejection, seededDice, view, viewLog } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { screenOf } from './screen.js';

/** Issue 30 "Players": where the rules let a player end their turn, their page has the control. */
describe("a player's End my turn", () => {
  it('tempo: the acting character’s player ends their turn; nobody else is offered it', () => {
    const enc = EncounterLog.create(
      { id: 'e', name: 'Tempo', ruleset: 'tempo', dice: seededDice(4) },
      rulesets,
    );
    if (isRejection(enc)) throw new Error(enc.message);
    for (const combatant of [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
      { id: 'bren', name: 'Bren', side: 'pc', hp: 20 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ])
      expect(enc.execute({ type: 'add-combatant', combatant })).not.toHaveProperty('code');
    expect(enc.execute({ type: 'start' })).not.toHaveProperty('code');
    for (const [actor, action] of [
      ['ana', 'mark'],
      ['bren', 'guard'],
      ['orc', 'move'],
    ] as const)
      expect(enc.execute({ type: 'plan', actor, action })).not.toHaveProperty('code');
    const rs = rulesets.tempo!;
    const screenFor = (combatants: string[]) => {
      const viewer = { role: 'player' as const, combatants };
      return screenOf({
        view: view(enc.state, viewer, rs, enc.everHidden),
        viewer,
        ruleset: rs,
        entries: viewLog(enc.entries, viewer, enc.state, rs, enc.everHidden),
      });
    };
    // Planning is the GM's to end.
    expect(screenFor(['ana']).endTurn).toBeNull();
    expect(enc.execute({ type: 'next', skipPlanning: true })).not.toHaveProperty('code');
    expect(enc.state.current).toBe('ana');
    expect(screenFor(['ana']).endTurn?.label).toBe('End my turn');
    expect(screenFor(['bren']).endTurn).toBeNull();
    // What it does: the count goes on, as the GM's Next.
    expect(enc.execute({ type: 'next' }, { by: { role: 'player', combatants: ['ana'] } })).not.toHaveProperty(
      'code',
    );
    expect(enc.state.current).toBe('bren');
  });
});
