import {
  type ActionDef,
  type ActionParamRef,
  type Combatant,
  once,
  type Rejection,
  reject,
} from '@roundkeeper/engine';
import { z } from 'zod';
import type { TickTypes } from './types.js';

/*
 * Rule 4: every action costs ticks. An attack costs the weapon's speed (a sheet stat); the others a fixed
 * number, or — continuous actions (rule 5) — a length the player chooses, with a default.
 */

const a = (
  id: string,
  name: string,
  kind: string,
  ticks: number,
  text: string,
  data: { weapon?: true; continuous?: true; variable?: true } = {},
  params?: ActionParamRef[],
): ActionDef => ({
  id,
  name,
  kind,
  cost: { ticks },
  // An attack is tagged one, as in every ruleset (a simulation's policies and its attacks count by it).
  tags: kind === 'attack' ? ['attack', `${ticks} ticks`] : [`${ticks} ticks`],
  text,
  data: { ticks, ...data },
  ...(params ? { params } : {}),
});

/** The default catalog; a GM adds others with a tick cost (`define-action`, cost: {ticks: N}). */
export const TICK_CATALOG: readonly ActionDef[] = [
  a(
    'attack',
    'Attack',
    'attack',
    6,
    "Strike with the weapon in hand: its speed in ticks (the sheet's).",
    { weapon: true },
    ['target', 'roll'],
  ),
  a('move', 'Move', 'move', 3, 'Move a short way.'),
  a(
    'defend',
    'Active defense',
    'reaction',
    3,
    'Parry or dodge an attack, even outside your turn: your marker moves 3 ticks on.',
    {},
    ['roll'],
  ),
  a('ready-item', 'Ready an item', 'action', 3, 'Draw a weapon, pick something up, drink a potion.'),
  a(
    'cast',
    'Cast a spell',
    'spell',
    10,
    'A continuous action: the spell takes its casting time and goes off when the counter reaches its end.',
    { continuous: true, variable: true },
    [{ name: 'ticks', label: 'Casting time (ticks)', default: 10 }, 'target'],
  ),
  a(
    'aim',
    'Aim',
    'action',
    3,
    'A continuous action: take aim for as many ticks as you like; it completes at its end tick.',
    { continuous: true, variable: true },
    [{ name: 'ticks', label: 'Aim for (ticks)', default: 3 }, 'target'],
  ),
];

/** Every action this encounter knows: the catalog, then the GM's custom actions. */
export function actionsOf(state: { customActions: ActionDef[] }): ActionDef[] {
  return [...TICK_CATALOG, ...state.customActions];
}

export function isContinuous(action: ActionDef): boolean {
  return action.data?.continuous === true;
}

/** An action whose length the player chooses (a casting time). */
export function isVariable(action: ActionDef): boolean {
  return action.data?.variable === true;
}

/** What an action costs this combatant, in ticks: the weapon's speed, the chosen length, or its cost. */
export function ticksOf(action: ActionDef, c: Pick<Combatant<TickTypes>, 'stats'>, chosen?: number): number {
  if (action.data?.weapon === true) return c.stats.weaponSpeed;
  if (isVariable(action) && chosen !== undefined) return chosen;
  const cost = action.cost.ticks ?? action.data?.ticks;
  return typeof cost === 'number' && cost >= 1 ? cost : 1;
}

const customData = once(() =>
  z
    .object({
      ticks: z.number().int().min(1).max(100).optional(),
      continuous: z.boolean().optional(),
      variable: z.boolean().optional(),
    })
    .loose(),
);

/** A custom action states its ticks as `cost.ticks`, whole ticks from 1 to 100. */
export function validateCustomAction(action: ActionDef): Rejection | undefined {
  const ticks = action.cost.ticks;
  if (ticks === undefined) {
    return reject(
      'action/missing-ticks',
      `"${action.name}" needs a cost in ticks: give it a tick cost from 1 to 100.`,
    );
  }
  if (!Number.isInteger(ticks) || ticks < 1 || ticks > 100) {
    return reject(
      'action/invalid-ticks',
      `"${action.name}" costs ${ticks} ticks; an action costs whole ticks from 1 to 100.`,
    );
  }
  if (!customData().safeParse(action.data ?? {}).success) {
    return reject(
      'action/invalid-data',
      `"${action.name}" has flags this ruleset cannot read: continuous and variable are yes or no.`,
    );
  }
  return undefined;
}
