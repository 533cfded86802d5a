import {
  type Command,
  describeEvent,
  EncounterLog,
  isRejection,
  seededDice,
  stateAt,
  view,
  viewLog,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { checkInvariants } from './testing/harness.js';
import { fresh, HIDDEN_ID, HIDDEN_NAME, LATE_ID, play, stepArb } from './testing/random-play.js';

/**
 * Invariants every shipped ruleset keeps, driven by random play (`testing/random-play.ts`): each step is
 * either one of the current actor's enabled actions (so fights go deep), a command of the ruleset's own
 * vocabulary with random combatants, an engine command, or junk. A hidden NPC with a distinctive id and
 * name is in every fight.
 */
const ids_ = Object.keys(rulesets).sort();

describe.each(ids_)('every ruleset keeps the engine invariants under random play: %s', (rulesetId) => {
  it('never throws, never mutates, folds the log to the live state and stays plain JSON', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), fc.integer(), (steps, seed) => {
        const enc = fresh(rulesetId, seed);
        play(enc, steps);
        checkInvariants(enc);
      }),
      { numRuns: 40 },
    );
  });

  it('same seed + same commands → the same events', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), fc.integer(), (steps, seed) => {
        const a = fresh(rulesetId, seed);
        const sent = play(a, steps);
        const b = fresh(rulesetId, seed);
        for (const c of sent) b.execute(structuredClone(c) as Command);
        expect(b.entries).toEqual(a.entries);
      }),
      { numRuns: 25 },
    );
  });

  it("no two combatants share a name, HP stays within the ruleset's bounds, and every log line names combatants, never by id, on every page", () => {
    const ruleset = rulesets[rulesetId]!;
    const anId = new RegExp(`${LATE_ID}|${HIDDEN_ID}|\\b(ana|bren|orc)\\b`);
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), fc.integer(), (steps, seed) => {
        const enc = fresh(rulesetId, seed);
        for (const step of steps) {
          play(enc, [step]);
          const names = Object.values(enc.state.combatants).map((c) => c.name.toLowerCase());
          expect(new Set(names).size, names.join(', ')).toBe(names.length);
          for (const c of Object.values(enc.state.combatants)) {
            if (!c.hp || ruleset.negativeHp) continue;
            expect(c.hp.current, `${c.name}'s HP`).toBeGreaterThanOrEqual(0);
            expect(c.hp.current, `${c.name}'s HP`).toBeLessThanOrEqual(c.hp.max);
          }
        }
        const viewers = [
          { role: 'gm' as const },
          { role: 'table' as const },
          { role: 'player' as const, combatants: ['ana'] },
        ];
        for (const viewer of viewers) {
          const seen = view(enc.state, viewer, ruleset);
          const log = viewLog(enc.entries, viewer, enc.state, ruleset);
          for (const [i, entry] of log.entries()) {
            const line = describeEvent(entry.event, stateAt(seen as never, log, i, ruleset), ruleset) ?? '';
            expect(line, `${viewer.role}: ${entry.event.type}`).not.toMatch(anId);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a hidden combatant never reaches the table or another player: state, log, log lines, timeline', () => {
    const ruleset = rulesets[rulesetId]!;
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), fc.integer(), (steps, seed) => {
        const enc = fresh(rulesetId, seed);
        play(enc, steps);
        const state = enc.state;
        for (const viewer of [{ role: 'table' as const }, { role: 'player' as const, combatants: ['ana'] }]) {
          const seen = view(state, viewer, ruleset);
          const log = viewLog(enc.entries, viewer, state, ruleset);
          const lines = log.map((e) => describeEvent(e.event, seen as never, ruleset));
          const timeline = ruleset.timeline(seen as never);
          for (const [what, text] of [
            ['state', JSON.stringify(seen)],
            ['log', JSON.stringify(log)],
            ['log lines', JSON.stringify(lines)],
            ['timeline', JSON.stringify(timeline)],
          ] as const) {
            if (text.includes(HIDDEN_ID) || text.includes(HIDDEN_NAME)) {
              throw new Error(
                `${rulesetId}: the hidden combatant shows through the ${viewer.role}'s ${what}`,
              );
            }
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe.each(ids_)('every ruleset starts a fight the same way: %s', (rulesetId) => {
  it('refuses to start an empty fight, and to start twice, saying what to do instead', () => {
    const empty = EncounterLog.create(
      { id: 'e', name: 'Empty', ruleset: rulesetId, dice: seededDice(1) },
      rulesets,
    );
    if (isRejection(empty)) throw new Error(empty.message);
    const none = empty.execute({ type: 'start' });
    expect(isRejection(none) && none.code).toBe('encounter/empty');
    expect(isRejection(none) && none.message).toMatch(/^Add at least one combatant/);
    const enc = fresh(rulesetId, 1);
    expect(isRejection(enc.execute({ type: 'start' }))).toBe(false);
    const twice = enc.execute({ type: 'start' });
    expect(isRejection(twice) && twice.code).toBe('encounter/started');
    expect(isRejection(twice) && twice.message).toContain('undo back to before the start');
  });

  it('refuses to go on with an ended fight, and its actions say it has ended, not that it has not started', () => {
    const enc = fresh(rulesetId, 1);
    const early = enc.execute({ type: 'next' });
    expect(isRejection(early) && early.code).toBe('encounter/not-started');
    expect(isRejection(enc.execute({ type: 'start' }))).toBe(false);
    expect(isRejection(enc.execute({ type: 'end' }))).toBe(false);
    const r = enc.execute({ type: 'next' });
    expect(isRejection(r) && r.code).toBe('encounter/ended');
    expect(isRejection(r) && r.message).toBe('The encounter has ended; undo the end to continue it.');
    const reasons = rulesets[rulesetId]!.legalActions(enc.state, 'ana').map((l) => l.reason ?? '');
    expect(reasons.some((why) => why.includes('The fight has ended'))).toBe(true);
    expect(reasons.some((why) => why.includes('has not started'))).toBe(false);
  });

  it('names an unknown combatant and lists the ones there are', () => {
    const enc = fresh(rulesetId, 1);
    enc.execute({ type: 'start' });
    const r = enc.execute({ type: 'delay', actor: 'zed', combatant: 'zed' });
    const unknown = isRejection(r) && r.code === 'combatant/unknown' ? r : null;
    // Rulesets without a "delay" command refuse it as unknown: ask with a core command instead.
    const x = unknown ?? enc.execute({ type: 'defeat', combatant: 'zed' });
    expect(isRejection(x) && x.code).toBe('combatant/unknown');
    expect(isRejection(x) && x.message).toContain('There is no combatant "zed" in this encounter');
    expect(isRejection(x) && x.message).toContain('ana, bren, orc');
  });
});
