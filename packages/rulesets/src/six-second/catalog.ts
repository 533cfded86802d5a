import {
  type ActionDef,
  type ActionParamRef,
  actionById as byId,
  type JsonObject,
  once,
  type Rejection,
  reject,
} from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * Where an action's time comes from: `text` — the prose of 001 fixes it; `default` — the table "Example
 * Actions / Time Taken" lost its number, so this is Roundkeeper's default (see docs/rulesets/six-second.md).
 */
type Source = 'text' | 'default';

/** What the catalog reads of an encounter: the GM's times and custom actions. */
type Encounter = { options: { actionSeconds: Record<string, number> }; customActions: ActionDef[] };

/** What an action takes beyond its actor: whom it is against, a spell's delay, a longer time. */
const PARAMS: Record<string, ActionParamRef[]> = {
  'cast-spell': ['target', 'delay', 'effect'],
  combo: ['target'],
  'melee-attack': ['target'],
  'ranged-attack': ['target'],
  run: ['seconds'],
};

const a = (
  id: string,
  name: string,
  kind: string,
  seconds: number,
  source: Source,
  text: string,
  extra: JsonObject = {},
): ActionDef => ({
  id,
  name,
  kind,
  cost: { seconds },
  tags: seconds === 0 ? ['0SA'] : [`${seconds}SA`],
  text,
  data: { seconds, source, ...extra },
  ...(PARAMS[id] ? { params: PARAMS[id] } : {}),
});

/** The default catalog. Every time is editable per encounter (option `actionSeconds`, or custom actions). */
export const SIX_SECOND_CATALOG: readonly ActionDef[] = [
  // 001: "In four, he could use a combo or cast a spell."
  a(
    'cast-spell',
    'Cast most spells',
    'spell',
    4,
    'text',
    'Cast a spell. Most spells take 4 seconds (a 4SA).',
  ),
  a('combo', 'Use a Combo', 'combo', 4, 'text', 'Use a combo: 4 seconds.'),
  a('melee-attack', 'Single Melee attack', 'attack', 2, 'default', 'One melee attack.'),
  a('ranged-attack', 'Single Ranged attack', 'attack', 2, 'default', 'One ranged attack.'),
  a('stand-from-prone', 'Stand up from prone', 'move', 2, 'default', 'Get up off the ground.'),
  a('run', 'Run (or longer)', 'move', 3, 'default', 'Run; may be declared longer than its minimum.', {
    variable: true,
  }),
  a('grab-object', 'Grab an object from a pack or pocket', 'action', 2, 'default', 'Fish something out.'),
  a('aim-weapon', 'Aim a ranged weapon', 'action', 2, 'default', 'Take careful aim.'),
  // 001: "In one second, a character may (for example) move or draw a weapon."
  a('move', 'Move', 'move', 1, 'text', 'Move (one step of movement).'),
  a('draw-weapon', 'Draw or sheathe a weapon', 'action', 1, 'text', 'Draw or sheathe a weapon: 1 second.'),
  a('aim-before-attack', 'Aim before a ranged attack', 'action', 1, 'default', 'A quick aim.'),
  a('stand-from-crouch', 'Stand up from crouch', 'move', 1, 'default', 'Rise from a crouch.'),
  a('prone-to-crouch', 'Go from prone to crouch', 'move', 1, 'default', 'From lying down to a crouch.'),
  a('crouch-or-prone', 'Crouch or go to prone', 'move', 0, 'default', 'Drop into a crouch or to the ground.'),
  // 001: "An example of a 0SA is talking, or dropping a held object."
  a('talk', 'Talk', 'free', 0, 'text', 'Say a few words (a 0SA).'),
  a('drop-object', 'Drop a held object', 'free', 0, 'text', 'Let go of something held (a 0SA).'),
];

/** The built-in catalog with the GM's per-encounter times applied. */
export function builtInCatalog(state: Encounter): ActionDef[] {
  const override = state.options.actionSeconds;
  return SIX_SECOND_CATALOG.map((action) => {
    const seconds = Object.hasOwn(override, action.id) ? override[action.id] : undefined;
    if (seconds === undefined) return action;
    return {
      ...action,
      cost: { seconds },
      tags: seconds === 0 ? ['0SA'] : [`${seconds}SA`],
      data: { ...action.data, seconds, source: 'gm' },
    };
  });
}

/** `actionsOf`'s lists, by the encounter's times and custom actions (a new state keeps both objects). */
const ACTIONS = new WeakMap<object, WeakMap<readonly ActionDef[], readonly ActionDef[]>>();

/** The list `actionsOf` gave last, with what it was made from (held until another encounter asks). */
let last: { times: object | null; custom: readonly ActionDef[] | null; list: readonly ActionDef[] } = {
  times: null,
  custom: null,
  list: [],
};

/**
 * Every action this encounter knows: the catalog, then the GM's custom actions. Made once per set of
 * times and custom actions (states are never changed, and the fold gives a changed one a new object),
 * not at every legality check: read it, never change it.
 */
export function actionsOf(state: Encounter): readonly ActionDef[] {
  const times = state.options.actionSeconds;
  // The list asked for last, first: an encounter asks about the same one over and over.
  if (times === last.times && state.customActions === last.custom) return last.list;
  let byCustom = ACTIONS.get(times);
  if (byCustom === undefined) {
    byCustom = new WeakMap();
    ACTIONS.set(times, byCustom);
  }
  let list = byCustom.get(state.customActions);
  if (list === undefined) {
    list = [...builtInCatalog(state), ...state.customActions];
    byCustom.set(state.customActions, list);
  }
  last = { times, custom: state.customActions, list };
  return list;
}

/** The action `id` this encounter knows (`actionsOf(state).find` by id, without the walk). */
export function actionById(state: Encounter, id: string): ActionDef | undefined {
  return byId(actionsOf(state), id);
}

/** How many seconds an action takes: `cost.seconds`, else `data.seconds`, else 1. */
export function secondsOf(action: ActionDef): number {
  const fromCost = action.cost.seconds;
  if (typeof fromCost === 'number') return fromCost;
  const fromData = action.data?.seconds;
  return typeof fromData === 'number' ? fromData : 1;
}

export function isVariable(action: ActionDef): boolean {
  return action.data?.variable === true;
}

/** The delay an action brings by default (a spell "that has a 2-second delay"), if any. */
export function defaultDelay(action: ActionDef): number | null {
  const d = action.data?.delay;
  return typeof d === 'number' ? d : null;
}

const customData = once(() =>
  z
    .object({
      seconds: z.number().int().min(0).max(600).optional(),
      delay: z.number().int().min(0).max(600).optional(),
      variable: z.boolean().optional(),
    })
    .loose(),
);

/** A custom action states its time as `cost.seconds` (or `data.seconds`), whole seconds ≥ 0. */
export function validateCustomAction(action: ActionDef): Rejection | undefined {
  const seconds = action.cost.seconds;
  if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 0 || seconds > 600)) {
    return reject(
      'action/invalid-seconds',
      `"${action.name}" costs ${seconds} seconds; actions take whole seconds from 0 to 600 (cost: {seconds: 2}).`,
    );
  }
  const data = customData().safeParse(action.data ?? {});
  if (!data.success) {
    return reject(
      'action/invalid-data',
      `"${action.name}" has flags this ruleset cannot read: data.seconds and data.delay are whole seconds ≥ 0, data.variable is true or false.`,
    );
  }
  if (seconds === undefined && data.data.seconds === undefined) {
    return reject(
      'action/missing-seconds',
      `"${action.name}" needs a time in seconds: give it cost: {seconds: N} (0 for a zero-second action).`,
    );
  }
  return undefined;
}
