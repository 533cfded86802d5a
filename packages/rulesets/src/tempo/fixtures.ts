import type { Command, EncounterLog } from '@roundkeeper/engine';
import { encounter, must, registryWith, stateOf } from '../testing/harness.js';
import { tempo } from './index.js';
import type { PlanItem, TempoTypes } from './types.js';

export const registry = registryWith(tempo);

/** Two PCs and two NPCs: Ana (FOR 1, two quick daggers, a sword), Bren (FOR 0, a greataxe), an Orc with action sets, a Wolf. */
export const party = [
  {
    id: 'ana',
    name: 'Ana',
    side: 'pc',
    player: 'alice',
    hp: 20,
    stats: {
      FOR: 1,
      speed: 6,
      weapons: [
        { name: 'Left Dagger', speed: 'quick' },
        { name: 'Right Dagger', speed: 'quick' },
        { name: 'Sword', speed: 'standard' },
      ],
      held: ['Left Dagger', 'Right Dagger'],
    },
  },
  {
    id: 'bren',
    name: 'Bren',
    side: 'pc',
    player: 'bob',
    hp: 24,
    stats: { FOR: 0, speed: 5, weapons: [{ name: 'Greataxe', speed: 'slow' }] },
  },
  {
    id: 'orc',
    name: 'Orc',
    side: 'npc',
    hp: 15,
    stats: {
      speed: 5,
      actionSets: [
        { id: 'roar', name: 'Roar', tempo: 2, text: 'Frightens those nearby.' },
        { id: 'cleave', name: 'Cleave', tempo: 5, text: 'A heavy swing.' },
      ],
    },
  },
  { id: 'wolf', name: 'Wolf', side: 'npc', hp: 11, stats: { speed: 8 } },
];

export function fight(seed = 1): EncounterLog {
  return encounter({ ruleset: 'tempo', combatants: party, seed }, registry);
}

export const ts = (enc: EncounterLog) => stateOf<TempoTypes>(enc);

/** Plans an action and returns the plan's id. */
export function plan(enc: EncounterLog, actor: string, action: string, extra: Partial<Command> = {}): string {
  const entries = must(enc, { type: 'plan', actor, action, ...extra });
  const planned = entries.find((e) => e.event.type === 'tempo/planned');
  return (planned!.event.plan as unknown as PlanItem).id;
}

/** Starts the fight and plans everyone's round: Ana Mark + Standard Attack, Bren Guard + Slow Attack, Orc Roar + Cleave, Wolf Move + Quick Attack. */
export function planned(enc: EncounterLog = fight()): EncounterLog {
  must(enc, { type: 'start' });
  plan(enc, 'ana', 'mark');
  plan(enc, 'ana', 'standard-attack');
  plan(enc, 'bren', 'guard');
  plan(enc, 'bren', 'slow-attack');
  plan(enc, 'orc', 'roar');
  plan(enc, 'orc', 'cleave');
  plan(enc, 'wolf', 'move');
  plan(enc, 'wolf', 'quick-attack');
  return enc;
}

/** Sends `next` until the current turn is `who` taking `action` (throws after 40 steps). */
export function until(enc: EncounterLog, who: string, action?: string): void {
  for (let i = 0; i < 40; i++) {
    const c = ts(enc).combatants[who];
    if (enc.state.current === who && (!action || c?.cs.turn?.action === action)) return;
    must(enc, { type: 'next' });
  }
  throw new Error(`never reached ${who} ${action ?? ''}`);
}
