import {
  describeEvent,
  EncounterLog,
  everHiddenIn,
  isRejection,
  seededDice,
  type Viewer,
  view,
  viewLog,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { play, type Step, stepArb } from './testing/random-play.js';

/**
 * HP as the GM chooses, over every ruleset: with PC and NPC HP shown as descriptors or hidden, no HP number
 * reaches the table or a player — not in the view, not in an event, not in a log line — whatever is
 * played. The HP are distinctive (9xxx) so any leak shows; the player's own character (Bren, 20 HP) is
 * theirs to see in numbers.
 */
const LEAK = /(?<![\d.])9[0-9]{3}(?![\d.])/;
const viewers: Viewer[] = [{ role: 'table' }, { role: 'player', combatants: ['bren'] }];

function fight(rulesetId: string, seed: number): EncounterLog {
  const enc = EncounterLog.create(
    { id: 'p', name: 'Property', ruleset: rulesetId, dice: seededDice(seed) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of [
    { id: 'ana', name: 'Ana', side: 'pc', hp: 9800 },
    { id: 'bren', name: 'Bren', side: 'pc', hp: 20 },
    { id: 'orc', name: 'Orc', side: 'npc', hp: 9700 },
    { id: 'qzhidden', name: 'Qzxwvut', side: 'npc', hp: 9600, hidden: true },
  ]) {
    const r = enc.execute({ type: 'add-combatant', combatant });
    if (isRejection(r)) throw new Error(`${rulesetId}: ${r.message}`);
  }
  return enc;
}

const hpSteps: fc.Arbitrary<Step> = fc.oneof(
  stepArb,
  fc
    .record({
      type: fc.constantFrom('damage', 'heal'),
      combatant: fc.constantFrom('ana', 'orc', 'bren'),
      amount: fc.integer({ min: 0, max: 300 }),
    })
    .map((command) => ({ kind: 'raw' as const, command })),
  fc
    .record({ combatant: fc.constantFrom('ana', 'orc'), current: fc.integer({ min: 9000, max: 9999 }) })
    .map((c) => ({ kind: 'raw' as const, command: { type: 'set-hp', ...c } })),
  fc.constant<Step>({
    kind: 'raw',
    command: { type: 'add-combatant', combatant: { name: 'Brute', side: 'npc', hp: 9123 } },
  }),
);
const modes = fc.constantFrom('descriptors', 'hidden');

function leaks(enc: EncounterLog, viewer: Viewer): string[] {
  const ruleset = rulesets[enc.state.ruleset]!;
  const ever = everHiddenIn(enc.entries);
  const out: string[] = [];
  const state = JSON.stringify(view(enc.state, viewer, ruleset, ever));
  if (LEAK.test(state)) out.push(`view: ${state.match(LEAK)?.[0]}`);
  for (const entry of viewLog(enc.entries, viewer, enc.state, ruleset, ever)) {
    const text = JSON.stringify(entry.event);
    if (LEAK.test(text)) out.push(`event ${entry.event.type}: ${text}`);
    const line = describeEvent(entry.event, enc.state, ruleset);
    if (line && LEAK.test(line)) out.push(`line: ${line}`);
  }
  return out;
}

describe.each(Object.keys(rulesets).sort())('HP as the GM chooses: %s', (rulesetId) => {
  it('hidden or descriptors: no HP number in any view, event or log line for the table or a player', () => {
    fc.assert(
      fc.property(
        modes,
        modes,
        fc.boolean(),
        fc.array(hpSteps, { maxLength: 40 }),
        fc.integer(),
        (pc, npc, early, steps, seed) => {
          const enc = fight(rulesetId, seed);
          // Set before the fight or in the middle of it: the log before the setting is redacted too.
          const cut = early ? 0 : Math.floor(steps.length / 2);
          play(enc, steps.slice(0, cut));
          const set = enc.execute({ type: 'set-hp-display', pc, npc });
          // The random play may have made the same choice already (its own set-hp-display step).
          if (isRejection(set) && set.code !== 'hp-display/unchanged') throw new Error(set.message);
          play(
            enc,
            steps.slice(cut).filter((s) => !(s.kind === 'raw' && isUndo(s.command))),
          );
          for (const viewer of viewers) expect(leaks(enc, viewer), JSON.stringify(viewer)).toEqual([]);
          // The player still reads their own character's numbers.
          const own = view(enc.state, viewers[1]!, rulesets[rulesetId]!).combatants.bren;
          if (own) expect(own.hp).toBeDefined();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('numbers (the default): the same fight shows them, so the check above can fail', () => {
    const enc = fight(rulesetId, 1);
    play(enc, [{ kind: 'raw', command: { type: 'damage', combatant: 'orc', amount: 3 } }]);
    expect(leaks(enc, { role: 'table' }).length).toBeGreaterThan(0);
  });
});

/** An undo could take the setting back out: numbers again, by design. */
const isUndo = (c: unknown) =>
  typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'undo';
