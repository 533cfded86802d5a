import { EncounterLog, isRejection, seededDice } from '@roundkeeper/engine';
import fc from 'fast-check';
import { rulesets } from '../index.js';
import { runFrozen } from './harness.js';

/**
 * Random play for property tests: each step is either one of the current actor's enabled actions (so
 * fights go deep), a command of the ruleset's own vocabulary with random combatants, an engine command,
 * or junk. A hidden NPC with a distinctive id and name is in every fight.
 */
export const HIDDEN_ID = 'qzhidden';
export const HIDDEN_NAME = 'Qzxwvut';
/** The id of a late second "Orc": never shown where a name belongs. */
export const LATE_ID = 'qzlate';
const ids = ['ana', 'bren', 'orc', HIDDEN_ID];

/** A step, resolved against the state when it runs (so it can pick an action that is legal then). */
export type Step =
  | { kind: 'legal'; pick: number; target: number }
  | { kind: 'own'; type: number; actor: number; action: number }
  | { kind: 'raw'; command: unknown };

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant('legal' as const), pick: fc.nat(1000), target: fc.nat(3) }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('own' as const),
      type: fc.nat(1000),
      actor: fc.nat(3),
      action: fc.nat(1000),
    }),
  },
  { weight: 5, arbitrary: fc.constant({ kind: 'raw' as const, command: { type: 'next' } }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Step>(
      { kind: 'raw', command: { type: 'undo' } },
      { kind: 'raw', command: { type: 'redo' } },
      { kind: 'raw', command: { type: 'damage', combatant: 'orc', amount: 3 } },
      { kind: 'raw', command: { type: 'defeat', combatant: HIDDEN_ID } },
      {
        kind: 'raw',
        command: {
          type: 'add-effect',
          target: 'ana',
          source: HIDDEN_ID,
          name: 'Marked',
          duration: { kind: 'until-turn-start', combatant: HIDDEN_ID },
        },
      },
      {
        kind: 'raw',
        command: { type: 'add-combatant', combatant: { name: 'Late', side: 'npc', hp: 5 } },
      },
      // A second of a name already there (named "Orc 2" by the engine), with an id a log line must never show.
      {
        kind: 'raw',
        command: { type: 'add-combatant', combatant: { id: LATE_ID, name: 'Orc', side: 'npc', hp: 5 } },
      },
      { kind: 'raw', command: { type: 'remove-combatant', combatant: 'orc' } },
      { kind: 'raw', command: { type: 'remove-combatant', combatant: LATE_ID } },
      // HP as the GM chooses, and a timed event on the clock (refused where the clock has no place).
      { kind: 'raw', command: { type: 'set-hp-display', pc: 'descriptors', npc: 'hidden' } },
      { kind: 'raw', command: { type: 'add-timed-event', name: 'Lair', at: 3, note: 'Rocks fall.' } },
    ),
  },
  { weight: 1, arbitrary: fc.anything().map((command) => ({ kind: 'raw' as const, command })) },
);

export function fresh(rulesetId: string, seed: number): EncounterLog {
  const enc = EncounterLog.create(
    { id: 'p', name: 'Property', ruleset: rulesetId, dice: seededDice(seed) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  const people = [
    { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
    { id: 'bren', name: 'Bren', side: 'pc', hp: 20 },
    { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
    { id: HIDDEN_ID, name: HIDDEN_NAME, side: 'npc', hp: 15, hidden: true },
  ];
  for (const combatant of people) {
    const r = enc.execute({ type: 'add-combatant', combatant });
    if (isRejection(r)) throw new Error(`${rulesetId}: ${r.message}`);
  }
  return enc;
}

function commandFor(enc: EncounterLog, step: Step): unknown {
  const state = enc.state;
  const ruleset = rulesets[state.ruleset]!;
  if (step.kind === 'raw') return step.command;
  if (step.kind === 'legal') {
    if (state.status === 'setup') return { type: 'start' };
    const actor = state.current ?? state.roster[step.pick % state.roster.length];
    if (!actor || !state.combatants[actor]) return { type: 'next' };
    const legal = ruleset.legalActions(state, actor).filter((l) => l.enabled);
    if (legal.length === 0) return { type: 'next' };
    const chosen = legal[step.pick % legal.length]!;
    const target = ids.filter((id) => id !== actor)[step.target % 3];
    // A ruleset that plans ahead (tempo) plans between turns; the others act.
    const type = !state.current && 'plan' in ruleset.commands ? 'plan' : 'act';
    return { type, actor, action: chosen.action.id, target };
  }
  const types = Object.keys(ruleset.commands);
  const type = types[step.type % types.length]!;
  const catalog = ruleset.catalog(state);
  const action = catalog.length ? catalog[step.action % catalog.length]!.id : 'none';
  const who = ids[step.actor]!;
  return { type, actor: who, combatant: who, action, target: ids[(step.actor + 1) % 4] };
}

/** Plays the steps; returns the commands as sent, so a replay can send exactly the same. */
export function play(enc: EncounterLog, steps: Step[]): unknown[] {
  const sent: unknown[] = [];
  for (const step of steps) {
    const command = commandFor(enc, step);
    sent.push(command);
    runFrozen(enc, [command]);
  }
  return sent;
}
