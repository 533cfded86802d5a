import { describe, expect, it } from 'vitest';
import { describeEvent } from './describe.js';
import { seededDice } from './dice/rng.js';
import { hpWord } from './hp-display.js';
import { EncounterLog } from './log.js';
import { roundRobin } from './test-ruleset.js';
import { type Command, isRejection, type Viewer } from './types.js';
import { view, viewLog } from './view.js';

const registry = { 'round-robin': roundRobin };
const table: Viewer = { role: 'table' };
const anaPlayer: Viewer = { role: 'player', combatants: ['ana'] };

function make() {
  const enc = EncounterLog.create(
    { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(1) },
    registry,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  ok(enc, { type: 'add-combatant', combatant: { id: 'ana', name: 'Ana', side: 'pc', hp: 40 } });
  ok(enc, { type: 'add-combatant', combatant: { id: 'orc', name: 'Orc', side: 'npc', hp: 30 } });
  return enc;
}

function ok(enc: EncounterLog, command: Command) {
  const r = enc.execute(command);
  if (isRejection(r)) throw new Error(`${command.type}: ${r.message}`);
  return r;
}

const lines = (enc: EncounterLog, viewer: Viewer) =>
  viewLog(enc.entries, viewer, enc.state, roundRobin).map((e) =>
    describeEvent(e.event, enc.state, roundRobin),
  );

describe('HP as the GM chooses', () => {
  it('descriptors: unhurt at the maximum, hurt below, bloodied at half or below, down at 0', () => {
    const at = (current: number) => hpWord({ current, max: 30, temp: 0 });
    expect([30, 29, 16, 15, 1, 0, -3].map(at)).toEqual([
      'unhurt',
      'hurt',
      'hurt',
      'bloodied',
      'bloodied',
      'down',
      'down',
    ]);
  });

  it('numbers by default, for everyone', () => {
    const enc = make();
    ok(enc, { type: 'damage', combatant: 'orc', amount: 16 });
    expect(view(enc.state, table, roundRobin).combatants.orc?.hp?.current).toBe(14);
    expect(lines(enc, table)).toContain('Orc: HP 30 → 14/30.');
  });

  it('NPC HP as descriptors: the table reads "bloodied", never the numbers; the GM still does', () => {
    const enc = make();
    ok(enc, { type: 'set-hp-display', npc: 'descriptors' });
    ok(enc, { type: 'damage', combatant: 'orc', amount: 16 });
    ok(enc, { type: 'damage', combatant: 'orc', amount: 1 });
    const orc = view(enc.state, table, roundRobin).combatants.orc!;
    expect(orc.hp).toBeUndefined();
    expect(orc.hpWord).toBe('bloodied');
    const seen = lines(enc, table).join('\n');
    expect(seen).toContain('Orc is bloodied.');
    expect(seen).not.toMatch(/\b(30|14|13|16)\b/);
    // The second hit left it bloodied: no line says more.
    expect(seen.match(/Orc is/g)).toHaveLength(1);
    expect(view(enc.state, { role: 'gm' }, roundRobin).combatants.orc?.hp?.current).toBe(13);
    expect(lines(enc, { role: 'gm' })).toContain('Orc: HP 14 → 13/30.');
  });

  it('hidden PC HP: gone from the table, yet a player sees their own character in numbers', () => {
    const enc = make();
    ok(enc, { type: 'set-hp-display', pc: 'hidden' });
    ok(enc, { type: 'damage', combatant: 'ana', amount: 5 });
    const ana = view(enc.state, table, roundRobin).combatants.ana!;
    expect(ana.hp).toBeUndefined();
    expect(ana.hpWord).toBeUndefined();
    expect(lines(enc, table).join('\n')).not.toContain('Ana:');
    expect(view(enc.state, anaPlayer, roundRobin).combatants.ana?.hp?.current).toBe(35);
    expect(lines(enc, anaPlayer)).toContain('Ana: HP 40 → 35/40.');
    // NPCs are still numbers.
    expect(view(enc.state, table, roundRobin).combatants.orc?.hp?.current).toBe(30);
  });

  it('a combatant added after the setting arrives without its numbers', () => {
    const enc = make();
    ok(enc, { type: 'set-hp-display', npc: 'hidden' });
    ok(enc, { type: 'add-combatant', combatant: { id: 'ogre', name: 'Ogre', side: 'npc', hp: 59 } });
    const seen = viewLog(enc.entries, table, enc.state, roundRobin);
    expect(JSON.stringify(seen)).not.toContain('59');
  });

  it('the change is logged, and refused in words when it says nothing or changes nothing', () => {
    const enc = make();
    ok(enc, { type: 'set-hp-display', pc: 'descriptors', npc: 'hidden' });
    expect(lines(enc, table).at(-1)).toBe(
      'HP shown: PC HP as descriptors, NPC HP hidden for the table and players (the GM sees numbers).',
    );
    const same = enc.execute({ type: 'set-hp-display', pc: 'descriptors' });
    expect(isRejection(same) && same.message).toBe(
      'Already so: PC HP as descriptors, NPC HP hidden for the table and players.',
    );
    const empty = enc.execute({ type: 'set-hp-display' });
    expect(isRejection(empty) && empty.code).toBe('hp-display/empty');
    const wrong = enc.execute({ type: 'set-hp-display', pc: 'percent' });
    expect(isRejection(wrong)).toBe(true);
    // Never said before: numbers is the default, and saying it makes it the encounter's explicit choice.
    const fresh = make();
    ok(fresh, { type: 'set-hp-display', npc: 'numbers' });
    expect(fresh.state.hpDisplay).toEqual({ pc: 'numbers', npc: 'numbers' });
    const again = fresh.execute({ type: 'set-hp-display', npc: 'numbers' });
    expect(isRejection(again) && again.code).toBe('hp-display/unchanged');
    // Undone, numbers again.
    ok(enc, { type: 'undo' });
    expect(view(enc.state, table, roundRobin).combatants.orc?.hp?.current).toBe(30);
  });
});
