import { describeEvent, EncounterLog, isRejection, reduce, seededDice, stateAt } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { fresh, play, stepArb } from './testing/random-play.js';

/**
 * A log line is worded against the round and the instant the fight had reached at its entry
 * (`stateAt`), so a page loaded later reads the same lines as the page that saw them happen.
 */
const ids_ = Object.keys(rulesets).sort();

describe.each(ids_)('a log entry is worded at its own round and instant: %s', (rulesetId) => {
  it('stateAt gives the round and the instant the log had folded to at each entry', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), fc.integer(), (steps, seed) => {
        const enc = fresh(rulesetId, seed);
        play(enc, steps);
        const entries = enc.entries;
        // Undo takes a group back out of the fold, not out of the log: compare the entries before one.
        const undo = entries.findIndex((e) => e.event.type === 'undo' || e.event.type === 'redo');
        const upTo = undo < 0 ? entries.length : undo;
        for (let i = 0; i < upTo; i++) {
          const then = reduce(entries.slice(0, i + 1), rulesets);
          const at = stateAt(enc.state, entries, i, rulesets[rulesetId]!);
          expect(at.round, `entry ${i} (${entries[i]!.event.type})`).toBe(then.round);
          expect(at.now, `entry ${i} (${entries[i]!.event.type})`).toEqual(then.now);
        }
      }),
      { numRuns: 15 },
    );
  });
});

/** Events after which a line may read differently later by design: names and options are the current ones. */
const CHANGES_WORDS = new Set(['undo', 'redo', 'combatant/updated', 'combatant/removed', 'options/set']);

describe.each(ids_)('a log read later reads as it was said live: %s', (rulesetId) => {
  it('each entry, worded at its stateAt, is the line the state it led to gave when it came', () => {
    const ruleset = rulesets[rulesetId]!;
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), fc.integer(), (steps, seed) => {
        const enc = fresh(rulesetId, seed);
        // What the fight was set up with was never said live: compare what the steps brought.
        const first = enc.entries.length;
        const live: (string | null)[] = enc.entries.map(() => null);
        for (const step of steps) {
          const from = enc.entries.length;
          play(enc, [step]);
          for (const e of enc.entries.slice(from)) live.push(describeEvent(e.event, enc.state, ruleset));
        }
        const entries = enc.entries;
        if (entries.some((e) => CHANGES_WORDS.has(e.event.type))) return;
        for (let i = first; i < entries.length; i++) {
          const later = describeEvent(entries[i]!.event, stateAt(enc.state, entries, i, ruleset), ruleset);
          expect(later, `entry ${i} (${entries[i]!.event.type})`).toBe(live[i]);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('tara-corax: the log read later says each turn’s own Mark', () => {
  it('a page loaded after three turns reads "Mark N: … acts." at each turn’s Mark, as said live', () => {
    const enc = EncounterLog.create(
      { id: 't', name: 'T', ruleset: 'tara-corax', options: {}, dice: seededDice(1) },
      rulesets,
    );
    if (isRejection(enc)) throw new Error(enc.message);
    for (const id of ['h1', 'h2', 'h3']) {
      const r = enc.execute({
        type: 'add-combatant',
        combatant: { id, name: `Hero ${id[1]}`, side: 'pc', hp: 9, stats: {} },
      });
      if (isRejection(r)) throw new Error(r.message);
    }
    const ruleset = rulesets['tara-corax']!;
    const acts = (lines: (string | null)[]) => lines.filter((l): l is string => !!l?.includes(' acts.'));
    // Live: each command's lines worded against the state it led to, as the pages do when it arrives.
    const live: string[] = [];
    for (const command of [{ type: 'start' }, { type: 'next' }, { type: 'next' }] as const) {
      const from = enc.entries.length;
      const r = enc.execute(command);
      if (isRejection(r)) throw new Error(r.message);
      live.push(...acts(enc.entries.slice(from).map((e) => describeEvent(e.event, enc.state, ruleset))));
    }
    expect(live).toHaveLength(3);
    expect(new Set(live.map((l) => /Mark (\d+)/.exec(l)?.[1])).size).toBe(3);
    // Read later, each at its own entry: the same lines.
    const later = acts(
      enc.entries.map((e, i) => describeEvent(e.event, stateAt(enc.state, enc.entries, i, ruleset), ruleset)),
    );
    expect(later).toEqual(live);
    // Against the state as it is now alone, every line said the last Mark.
    const naive = acts(enc.entries.map((e) => describeEvent(e.event, enc.state, ruleset)));
    expect(new Set(naive.map((l) => /Mark (\d+)/.exec(l)?.[1])).size).toBe(1);
  });
});

describe('six-second: a late arrival renumbers the instant without time passing', () => {
  it('stateAt follows the slot the acting combatant moved to, as the fold does (ClockSpec.renumbers)', () => {
    // Found by the property above (seed 1605352400): the first legal action, then a late arrival who
    // rolls higher than the acting Orc and takes the first slot; the Orc's turn moves from slot 1 to 2.
    const enc = fresh('six-second', 0);
    play(enc, [
      { kind: 'legal', pick: 0, target: 0 },
      { kind: 'raw', command: { type: 'add-combatant', combatant: { name: 'Late', side: 'npc', hp: 5 } } },
    ]);
    const entries = enc.entries;
    const order = entries.findLastIndex((e) => e.event.type === 'six-second/order');
    expect((entries[order]!.event as { shiftFrom?: number }).shiftFrom).toBe(1);
    const ruleset = rulesets['six-second']!;
    for (let i = 0; i < entries.length; i++) {
      const then = reduce(entries.slice(0, i + 1), rulesets);
      expect(stateAt(enc.state, entries, i, ruleset).now, `entry ${i}`).toEqual(then.now);
    }
    // Without the ruleset's renumbering the entries after the order would read the slot before it.
    const none = { ...ruleset, clock: { ...ruleset.clock, renumbers: undefined } };
    expect(stateAt(enc.state, entries, order, none).now).not.toEqual(
      reduce(entries.slice(0, order + 1), rulesets).now,
    );
  });
});
