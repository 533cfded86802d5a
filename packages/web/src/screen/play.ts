import {
  type Command,
  EncounterLog,
  type EncounterState,
  isRejection,
  seededDice,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';

/**
 * Random play for the screen's property tests: fights of every ruleset with two PCs, an NPC and a hidden
 * NPC, where each step is an action the actor may take, Next, a second wave of the same creature, a late
 * arrival, a remove, undo and redo, heavy damage, or one of the ruleset's own commands (delays, readies…).
 */
export const HIDDEN_ID = 'qzhidden';
export const HIDDEN_NAME = 'Qzxwvut';
export const PLAYER = 'pcana';

export type Step =
  | { kind: 'act'; pick: number; target: number }
  | { kind: 'own'; type: number; who: number; action: number }
  | { kind: 'next' }
  | { kind: 'wave' }
  | { kind: 'late' }
  | { kind: 'remove'; who: number }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'hurt'; who: number; amount: number }
  | { kind: 'max'; who: number };

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant('act' as const), pick: fc.nat(1000), target: fc.nat(9) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('own' as const),
      type: fc.nat(1000),
      who: fc.nat(9),
      action: fc.nat(1000),
    }),
  },
  { weight: 6, arbitrary: fc.constant({ kind: 'next' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wave' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'late' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), who: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'undo' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redo' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('hurt' as const),
      who: fc.nat(9),
      amount: fc.integer({ min: 1, max: 40 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('max' as const), who: fc.nat(9) }) },
);

export function fresh(rulesetId: string, seed: number): EncounterLog {
  const enc = EncounterLog.create(
    { id: 'p', name: 'Property', ruleset: rulesetId, dice: seededDice(seed) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  const people = [
    { id: PLAYER, name: 'Ana', side: 'pc', hp: 20 },
    { id: 'pcbren', name: 'Bren', side: 'pc', hp: 20 },
    { id: 'npcorc', name: 'Orc', side: 'npc', hp: 15 },
    { id: HIDDEN_ID, name: HIDDEN_NAME, side: 'npc', hp: 15, hidden: true },
  ];
  for (const combatant of people) {
    const r = enc.execute({ type: 'add-combatant', combatant });
    if (isRejection(r)) throw new Error(`${rulesetId}: ${r.message}`);
  }
  return enc;
}

function pick<T>(list: readonly T[], n: number): T | undefined {
  return list.length ? list[n % list.length] : undefined;
}

/** The command a step sends, resolved against the state when it runs. */
export function commandFor(state: EncounterState, step: Step): Command {
  const ruleset = rulesets[state.ruleset]!;
  const ids = state.roster.filter((id) => state.combatants[id]);
  switch (step.kind) {
    case 'act': {
      if (state.status === 'setup') return { type: 'start' };
      const actor = state.current ?? pick(ids, step.pick);
      if (!actor) return { type: 'next' };
      const legal = ruleset.legalActions(state, actor).filter((l) => l.enabled);
      const chosen = pick(legal, step.pick);
      if (!chosen) return { type: 'next' };
      const target = pick(
        ids.filter((id) => id !== actor),
        step.target,
      );
      const type = !state.current && 'plan' in ruleset.commands ? 'plan' : 'act';
      return { type, actor, action: chosen.action.id, ...(target ? { target } : {}) };
    }
    case 'own': {
      const types = Object.keys(ruleset.commands);
      const type = pick(types, step.type)!;
      const catalog = ruleset.catalog(state);
      const who = pick(ids, step.who) ?? PLAYER;
      const action = pick(catalog, step.action)?.id ?? 'none';
      return { type, actor: who, combatant: who, action, target: pick(ids, step.who + 1) ?? who };
    }
    case 'next':
      return state.status === 'setup' ? { type: 'start' } : { type: 'next' };
    case 'wave':
      // The same creature again, as a GM adds a second wave or the same library creature twice.
      return { type: 'add-combatant', combatant: { name: 'Orc', side: 'npc', hp: 15 } };
    case 'late':
      return { type: 'add-combatant', combatant: { name: 'Wyrmling', side: 'npc', hp: 9 } };
    case 'remove':
      return { type: 'remove-combatant', combatant: pick(ids, step.who) ?? 'npcorc' };
    case 'undo':
    case 'redo':
      return { type: step.kind };
    case 'hurt':
      return { type: 'damage', combatant: pick(ids, step.who) ?? 'npcorc', amount: step.amount };
    case 'max': {
      const who = pick(ids, step.who) ?? 'npcorc';
      const max = state.combatants[who]?.hp?.max ?? 10;
      return { type: 'set-hp', combatant: who, max: max + 10 };
    }
  }
}
