import { describe, expect, it } from 'vitest';
import { seededDice } from './dice/rng.js';
import { foldWork, newDraft } from './draft.js';
import { decideSettled } from './engine.js';
import { EncounterLog } from './log.js';
import { roundRobin } from './test-ruleset.js';
import { type Command, type EncounterState, isRejection } from './types.js';

const registry = { 'round-robin': roundRobin };

function started(): EncounterState {
  const enc = EncounterLog.create(
    { id: 'e', name: 'E', ruleset: 'round-robin', dice: seededDice(3) },
    registry,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const name of ['Ana', 'Bren', 'Cato']) {
    const r = enc.execute({ type: 'add-combatant', combatant: { name, hp: 30 } });
    if (isRejection(r)) throw new Error(r.message);
  }
  const r = enc.execute({ type: 'start' });
  if (isRejection(r)) throw new Error(r.message);
  return enc.state;
}

/** A fight's commands: damage and healing on every combatant, rolls, turns. */
function commands(state: EncounterState, rolls = true): Command[] {
  const out: Command[] = [];
  for (let i = 0; i < 12; i++) {
    const id = state.roster[i % state.roster.length]!;
    out.push({ type: 'damage', combatant: id, amount: 2 });
    if (rolls) out.push({ type: 'roll', actor: id });
    if (i % 3 === 2) out.push({ type: 'heal', combatant: id, amount: 1 });
    out.push({ type: 'next' });
  }
  return out;
}

function play(state: EncounterState, draft?: ReturnType<typeof newDraft>, rolls = true): EncounterState[] {
  const states: EncounterState[] = [];
  for (const command of commands(state, rolls)) {
    const settled = decideSettled(state, command, registry, draft ? { draft } : {});
    if (isRejection(settled)) throw new Error(settled.message);
    state = draft ? settled.state : structuredClone(settled.state);
    states.push(draft ? structuredClone(state) : state);
  }
  return states;
}

describe("a caller's draft across decisions (a simulator's trial)", () => {
  it('gives every decision the same state as deciding without it, copying the combatants once', () => {
    const start = started();
    const frozen = structuredClone(start);
    const draft = newDraft();
    expect(play(start, draft)).toEqual(play(start));
    expect(draft.spoiled).toBe(false);
    // The engine's own changes (damage, healing, turns): the first fold copies the record of 3
    // combatants and every later one writes into that copy (the test ruleset's roll copies by itself).
    const plain = play(start, undefined, false);
    foldWork.entriesCopied = 0;
    expect(play(start, newDraft(), false)).toEqual(plain);
    expect(foldWork.entriesCopied).toBe(3);
    // The state the draft started from is not the caller's to lose: nothing it was given is written.
    expect(start).toEqual(frozen);
  });

  it('a refusal before any event is applied leaves the draft usable; a fold that fails spoils it', () => {
    const draft = newDraft();
    const state = started();
    const refused = decideSettled(state, { type: 'damage', combatant: 'nobody', amount: 1 }, registry, {
      draft,
    });
    expect(isRejection(refused)).toBe(true);
    expect(draft.spoiled).toBe(false);
    const failing = {
      'round-robin': {
        ...roundRobin,
        evolve: () => {
          throw new Error('a broken evolve');
        },
      },
    };
    const failed = decideSettled(state, { type: 'roll', actor: state.roster[0]! }, failing, { draft });
    expect(isRejection(failed) && failed.code).toBe('engine/internal');
    expect(draft.spoiled).toBe(true);
  });
});
