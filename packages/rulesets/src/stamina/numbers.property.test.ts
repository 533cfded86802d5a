import { describeEvent, type EncounterState, type Viewer, view, viewLog } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encounter, must } from '../testing/harness.js';
import { play, stepArb } from '../testing/random-play.js';
import { stamina } from './index.js';
import type { State } from './types.js';

const table: Viewer = { role: 'table' };
const player: Viewer = { role: 'player', combatants: ['ana'] };
const gm: Viewer = { role: 'gm' };

function fight(shown: boolean, seed: number) {
  const enc = encounter({
    ruleset: 'stamina',
    seed,
    options: shown ? { npcNumbersShown: true } : {},
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { stamina: 12, defense: 7 } },
      { id: 'bren', name: 'Bren', side: 'pc', hp: 20 },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 15, stats: { stamina: 987, defense: 913 } },
    ],
  });
  must(enc, { type: 'start' });
  return enc;
}

const seen = (s: EncounterState, v: Viewer) => view(s, v, stamina) as State;

/**
 * An NPC's Stamina and Defense are the GM's (issue 30): after any random play the table's and a player's
 * view carry neither the pools nor the sheet's maximums, no card gauge or timeline lane shows them, and no
 * log entry carries the sheet's numbers; the GM sees them all, and so does everyone when the GM shows them.
 */
describe("stamina: NPCs' Stamina and Defense are the GM's unless shown", () => {
  it('hidden from the table and players after any play; a player keeps their own', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.array(stepArb, { maxLength: 30 }), (seed, steps) => {
        const enc = fight(false, seed);
        play(enc, steps);
        const orc = (enc.state as State).combatants.orc;
        if (!orc) return; // removed by the play: nothing of it to show
        for (const v of [table, player]) {
          const s = seen(enc.state, v);
          const o = s.combatants.orc!;
          expect([o.cs.stamina, o.cs.defense, o.stats.stamina, o.stats.defense]).toEqual([0, 0, 0, 0]);
          const labels = stamina.present?.gauges?.(s, o).map((g) => g.label) ?? [];
          expect(labels).not.toContain('Stamina');
          expect(labels).not.toContain('Defense');
          const lane = stamina.timeline(s).lanes.find((l) => l.id === 'orc');
          if (lane) expect(lane.label).toBe('Orc');
          const entries = viewLog(enc.entries, v, enc.state, stamina);
          const log = JSON.stringify(entries);
          expect(log).not.toContain('987');
          expect(log).not.toContain('913');
          // What the Orc spent is the GM's too: not in the log's events or lines, nor on its lane.
          for (const { event } of entries)
            if (event.type === 'stamina/acted' && event.combatant === 'orc') {
              expect([event.stamina, event.defense, event.costsUnseen]).toEqual([0, 0, true]);
              expect(describeEvent(event, s, stamina)).not.toMatch(/\d+ (stamina|defense)\b/);
            }
          for (const e of s.rs.spent)
            if (e.combatant === 'orc') expect([e.stamina, e.defense]).toEqual([0, 0]);
          for (const label of [...(lane?.spans ?? []), ...(lane?.markers ?? [])].map((x) => x.label))
            expect(label).not.toMatch(/\d+ ?(st|def|stamina|defense)\b/);
        }
        const own = seen(enc.state, player).combatants.ana!;
        expect(own.cs.stamina).toBe((enc.state as State).combatants.ana!.cs.stamina);
        const g = seen(enc.state, gm).combatants.orc!;
        expect([g.cs.stamina, g.stats.defense]).toEqual([orc.cs.stamina, 913]);
      }),
      { numRuns: 25 },
    );
  });

  it("an NPC's sheet edited during the fight keeps its Stamina and Defense the GM's", () => {
    const enc = fight(false, 5);
    must(enc, { type: 'update-combatant', combatant: 'orc', stats: { stamina: 975, defense: 931 } });
    for (const v of [table, player]) {
      const log = JSON.stringify(viewLog(enc.entries, v, enc.state, stamina));
      expect(log).not.toContain('975');
      expect(log).not.toContain('931');
    }
    expect(JSON.stringify(viewLog(enc.entries, gm, enc.state, stamina))).toContain('975');
  });

  it("an NPC's costs show in the log when the GM shows its numbers", () => {
    const enc = fight(true, 5);
    for (let i = 0; i < 12 && enc.state.current !== 'orc'; i++) must(enc, { type: 'next' });
    const attack = stamina
      .legalActions(seen(enc.state, gm), 'orc')
      .find((l) => l.enabled && /attack/i.test(l.action.id));
    if (!attack) throw new Error('the Orc has an attack');
    must(enc, { type: 'act', actor: 'orc', action: attack.action.id, target: 'ana' });
    const acted = viewLog(enc.entries, table, enc.state, stamina).find(
      (e) => e.event.type === 'stamina/acted',
    );
    expect(acted?.event.costsUnseen).toBeUndefined();
    expect(describeEvent(acted!.event, seen(enc.state, table), stamina)).toMatch(/\d+ stamina/);
  });

  it('shown to everyone when the GM chooses (npcNumbersShown)', () => {
    const enc = fight(true, 3);
    for (const v of [table, player]) {
      const s = seen(enc.state, v);
      expect(s.combatants.orc!.stats.stamina).toBe(987);
      expect(stamina.timeline(s).lanes.find((l) => l.id === 'orc')?.label).toBe('Orc 987st/913def');
      expect(stamina.present?.gauges?.(s, s.combatants.orc!).map((g) => g.value)).toContain('987/987');
    }
  });
});
