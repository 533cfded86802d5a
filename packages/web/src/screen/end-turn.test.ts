import { EncounterLog, isRejection, seededDice, view, viewLog } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { EncounterStore, type StoreDeps } from '../store/encounter-store.js';
import { endTurnPart } from './react.js';
import { GO_ON, screenOf } from './screen.js';

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

describe("a player's Next that leads to their own next action", () => {
  it('tara-corax: when the same character acts again at once, the button says so instead of ending the turn', () => {
    const enc = EncounterLog.create(
      { id: 't', name: 'Tara', ruleset: 'tara-corax', dice: seededDice(2) },
      rulesets,
    );
    if (isRejection(enc)) throw new Error(enc.message);
    for (const combatant of [
      { id: 'kael', name: 'Kael', side: 'pc', hp: 20 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 9 },
    ])
      expect(enc.execute({ type: 'add-combatant', combatant })).not.toHaveProperty('code');
    expect(enc.execute({ type: 'start', rolls: { kael: 25, orc: 3 } })).not.toHaveProperty('code');
    expect(enc.state.current).toBe('kael');
    const rs = rulesets['tara-corax']!;
    const kaelsPage = () => {
      const viewer = { role: 'player' as const, combatants: ['kael'] };
      return screenOf({
        view: view(enc.state, viewer, rs, enc.everHidden),
        viewer,
        ruleset: rs,
        entries: viewLog(enc.entries, viewer, enc.state, rs, enc.everHidden),
      }).endTurn;
    };
    // A Draw (5 Marks) puts Kael's next action at Mark 20, long before the Orc's Mark 3.
    expect(enc.execute({ type: 'act', actor: 'kael', action: 'draw' })).not.toHaveProperty('code');
    expect(kaelsPage()?.label).toBe(GO_ON);
    expect(
      enc.execute({ type: 'next' }, { by: { role: 'player', combatants: ['kael'] } }),
    ).not.toHaveProperty('code');
    expect(enc.state.current).toBe('kael');
  });
});

describe('"End my turn" worked out once per view for every part that asks', () => {
  it('the button, the palette and the status line get the same answer from one dry run', () => {
    const enc = EncounterLog.create(
      { id: 'e', name: 'Tempo', ruleset: 'tempo', dice: seededDice(4) },
      rulesets,
    );
    if (isRejection(enc)) throw new Error(enc.message);
    for (const combatant of [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    ])
      expect(enc.execute({ type: 'add-combatant', combatant })).not.toHaveProperty('code');
    expect(enc.execute({ type: 'start' })).not.toHaveProperty('code');
    for (const [actor, action] of [
      ['ana', 'mark'],
      ['orc', 'move'],
    ] as const)
      expect(enc.execute({ type: 'plan', actor, action })).not.toHaveProperty('code');
    expect(enc.execute({ type: 'next', skipPlanning: true })).not.toHaveProperty('code');
    const rs = rulesets.tempo!;
    const viewer = { role: 'player' as const, combatants: ['ana'] };
    const store = new EncounterStore('e', 'tok', {} as StoreDeps);
    const v = view(enc.state, viewer, rs, enc.everHidden);
    const first = endTurnPart(store, v, viewer);
    expect(first.end?.label).toBe('End my turn');
    expect(endTurnPart(store, v, viewer), 'asked again for the same view').toBe(first);
    // A change that leaves the answer as it was keeps it as the same object (nothing that shows it redraws).
    expect(endTurnPart(store, view(enc.state, viewer, rs, enc.everHidden), viewer)).toBe(first);
    expect(enc.execute({ type: 'next' }, { by: viewer })).not.toHaveProperty('code');
    expect(endTurnPart(store, view(enc.state, viewer, rs, enc.everHidden), viewer).end).toBeNull();
  });
});
