import type { ActionDef, ActionParamRef, JsonObject, Rejection } from '@roundkeeper/engine';
import { catalogWith, firstFree, reject, slugOf } from '@roundkeeper/engine';
import { WEAPON_SPEEDS, type WeaponSpeed } from './options.js';
import type { C, PlanSlot, State } from './types.js';

/**
 * What planning an action takes (a palette click plans it): a spell's tempo and name for Magic, a Strike
 * consumable for Inventory; and for any action, how it is taken (an Exerted action, an Extra one) and the
 * planned one it changes ("Players are free to change their upcoming action choices"). What the turn itself
 * takes (a weapon, a target) is entered when it comes.
 */
const PLANS: Record<string, ActionParamRef[]> = {
  magic: [{ name: 'tempo', required: true, label: "Spell's tempo" }, 'spell'],
  inventory: ['strike'],
};
const PLANNED_AS: ActionParamRef[] = ['slot', 'replace'];
/** A reaction answers its trigger now (a palette click uses it), against someone, with a roll. */
const REACTS: ActionParamRef[] = ['trigger', 'target', 'roll'];

const act = (
  id: string,
  name: string,
  tempo: number | null,
  text: string,
  data: JsonObject = {},
): ActionDef => ({
  id,
  name,
  kind: data.weaponSpeed ? 'attack' : id === 'magic' ? 'magic' : 'action',
  cost: { actions: 1 },
  tags: data.weaponSpeed ? ['attack'] : [],
  text,
  data: tempo === null ? { ...data, variableTempo: true } : { ...data, tempo },
  params: [...(PLANS[id] ?? []), ...PLANNED_AS],
});

const reaction = (
  id: string,
  name: string,
  tempo: number,
  text: string,
  prerequisite: string,
): ActionDef => ({
  id,
  name,
  kind: 'reaction',
  cost: { reactions: 1 },
  tags: ['Reaction'],
  text,
  data: { tempo, prerequisite },
  params: REACTS,
});

/** 003's action table, in its order, then the two reactions the text defines (Intercept, Dual Wield). */
export const TEMPO_CATALOG: ActionDef[] = [
  act('rest', 'Rest', 1, 'Begin Resting to later in the round take the Recover action (with Shift).'),
  act('scan', 'Scan', 2, 'Ask the GM one of a pre-set list of questions about a character in range.'),
  act('mark', 'Mark', 2, 'Apply Marked to a Character within Seek.'),
  act('quick-attack', 'Quick Attack', 3, 'Make an attack with a quick weapon.', { weaponSpeed: 'quick' }),
  act('help', 'Help', 3, 'Help an ally in Range 1 with a roll (Teamwork) or clear a Debuff or Prone.'),
  act('move', 'Move', 4, 'Move up to your Speed in addition to your Normal Move on this turn, or Jump.'),
  act(
    'guard',
    'Guard',
    4,
    'Protect an adjacent character; you gain the Intercept reaction until the end of the round.',
  ),
  act('standard-attack', 'Standard Attack', 5, 'Make an attack with a standard or quick weapon.', {
    weaponSpeed: 'standard',
  }),
  act('inventory', 'Inventory', 6, 'Load a Reload Weapon, stow and draw, or draw and consume a Consumable.'),
  act('hide', 'Hide', 6, 'Hide behind objects if no non-ally can draw Line of Sight to you.'),
  act('slow-attack', 'Slow Attack', 7, 'Make an attack with a weapon of any speed.', { weaponSpeed: 'slow' }),
  act('shift', 'Shift', 7, 'Switch Paradigms, Reclaim, and Recover if you took Rest this round.'),
  act('magic', 'Magic', null, "Commit Mana to cast a Spell; it happens at the spell's tempo."),
  reaction(
    'intercept',
    'Intercept',
    4,
    'When the Character you are Guarding is Hit by a Strike, take the damage instead of them.',
    'You are adjacent to the Character you Guarded this Round.',
  ),
  reaction(
    'dual-wield',
    'Dual Wield',
    0,
    'When you take the Attack action to Strike with one of two held weapons of equal speed, Strike with the other (Dice Value only).',
    'You are holding two weapons with the same Weapon Speed.',
  ),
];

/**
 * The id of an action set the stat block gives none: "set-" and its name as letters, digits and dashes,
 * numbered after the first of the same name ("set-roar-2"), never one the block gives another set.
 */
function actionSetIds(sets: readonly { id?: string | undefined; name: string }[]): string[] {
  const used = new Set(sets.flatMap((s) => (s.id ? [s.id] : [])));
  return sets.map((s) => {
    if (s.id) return s.id;
    const id = firstFree(`set-${slugOf(s.name, 'action')}`, (x) => used.has(x));
    used.add(id);
    return id;
  });
}

/**
 * An NPC's action sets as actions, made once per stat block's list (a sheet is replaced, never changed in
 * place; the rules ask for a combatant's actions on every command).
 */
const SETS = new WeakMap<C['stats']['actionSets'], ActionDef[]>();

function actionSetsOf(c: C): readonly ActionDef[] {
  const sets = c.stats.actionSets;
  if (sets.length === 0) return NO_SETS;
  let made = SETS.get(sets);
  if (made === undefined) {
    made = makeActionSets(c);
    SETS.set(sets, made);
  }
  return made;
}

const NO_SETS: readonly ActionDef[] = [];

function makeActionSets(c: C): ActionDef[] {
  const ids = actionSetIds(c.stats.actionSets);
  return c.stats.actionSets.map((s, i) => ({
    id: ids[i]!,
    name: s.name,
    kind: 'action',
    cost: { actions: 1 },
    tags: ['action-set'],
    text: s.text,
    data: { tempo: s.tempo, actionSet: true },
    params: PLANNED_AS,
  }));
}

/** Every action this combatant could take: the catalog, the GM's custom actions, its action sets. */
export function actionsFor(state: State, c: C | undefined): readonly ActionDef[] {
  // Read only: the same list for the same custom actions and action sets (asked on every command).
  return catalogWith(catalogWith(TEMPO_CATALOG, state.customActions), c ? actionSetsOf(c) : NO_SETS);
}

/** The first of `actionsFor(state, c)` with this id, without building the list. */
export function findAction(state: State, c: C | undefined, id: string): ActionDef | undefined {
  for (const a of TEMPO_CATALOG) if (a.id === id) return a;
  for (const a of state.customActions) if (a.id === id) return a;
  if (c) for (const a of actionSetsOf(c)) if (a.id === id) return a;
  return undefined;
}

export function isReaction(a: ActionDef): boolean {
  return a.kind === 'reaction' || a.tags.some((t) => t.toLowerCase() === 'reaction');
}

const hasTag = (a: ActionDef, tag: string) => a.tags.some((t) => t.toLowerCase() === tag);

/** 003 "Extra"/"Free": the tag, or `data.timing`, on a GM-defined action. */
export function timingOf(a: ActionDef): 'extra' | 'free' | null {
  if (a.data?.timing === 'free' || hasTag(a, 'free')) return 'free';
  if (a.data?.timing === 'extra' || hasTag(a, 'extra')) return 'extra';
  return null;
}

/** The catalog action a granted action "lists under Tempo", if any. */
export function namedAction(_state: State, a: ActionDef): ActionDef | undefined {
  const as = a.data?.as;
  return typeof as === 'string' ? TEMPO_CATALOG.find((x) => x.id === as && x.id !== a.id) : undefined;
}

function isWeaponSpeed(x: unknown): x is WeaponSpeed {
  return WEAPON_SPEEDS.some((s) => s === x);
}

/** The Weapon Speed of an Attack action, or null when the action is no Attack. */
export function weaponSpeedOf(state: State, a: ActionDef): WeaponSpeed | null {
  const own = a.data?.weaponSpeed;
  if (isWeaponSpeed(own)) return own;
  const named = namedAction(state, a);
  return named ? weaponSpeedOf(state, named) : null;
}

/**
 * What the Unique Action Restriction compares. 003: "All Attacks count as the same action"; a
 * granted action "is a unique action if it doesn't list another action under Tempo. If it does, then it
 * is that action"; Inventory consuming a Strike "also counts as an Attack action".
 */
export function uniqueKeys(state: State, a: ActionDef, strike = false): string[] {
  const named = namedAction(state, a);
  const base = named ? uniqueKeys(state, named) : weaponSpeedOf(state, a) ? ['attack'] : [a.id];
  return strike && !base.includes('attack') ? [...base, 'attack'] : base;
}

/** The usual tempo: the table's, the action's own, or the listed action's ("the usual tempo for that action"). */
export function usualTempo(state: State, a: ActionDef): number | null {
  const t = a.data?.tempo;
  if (typeof t === 'number') return t;
  const named = namedAction(state, a);
  return named ? usualTempo(state, named) : null;
}

export function variableTempo(state: State, a: ActionDef): boolean {
  if (a.data?.variableTempo === true) return true;
  const named = namedAction(state, a);
  return named ? variableTempo(state, named) : false;
}

/** Which slot a new plan of this action fills when the command does not say. */
export function defaultSlot(a: ActionDef): PlanSlot {
  return timingOf(a) ?? 'action';
}

/** 003 "Weapon Speed": "you can only Strike with a Weapon with a matching Weapon Speed or quicker." */
export function speedAllows(action: WeaponSpeed, weapon: WeaponSpeed): boolean {
  return WEAPON_SPEEDS.indexOf(weapon) <= WEAPON_SPEEDS.indexOf(action);
}

/** Checks a GM-defined action's flags. */
export function validateCustomAction(a: ActionDef): Rejection | undefined {
  const d = a.data ?? {};
  const tempo = d.tempo;
  if (
    tempo !== undefined &&
    (typeof tempo !== 'number' || !Number.isInteger(tempo) || tempo < 0 || tempo > 9)
  ) {
    return reject('tempo/invalid-action', `${a.name}: "data.tempo" must be a whole tempo from 0 to 9.`);
  }
  if (d.as !== undefined && !TEMPO_CATALOG.some((x) => x.id === d.as)) {
    return reject(
      'tempo/invalid-action',
      `${a.name}: "data.as" must name a catalog action (${TEMPO_CATALOG.map((x) => x.id).join(', ')}).`,
    );
  }
  if (d.timing !== undefined && d.timing !== 'extra' && d.timing !== 'free') {
    return reject('tempo/invalid-action', `${a.name}: "data.timing" is "extra" or "free".`);
  }
  if (d.weaponSpeed !== undefined && !isWeaponSpeed(d.weaponSpeed)) {
    return reject('tempo/invalid-action', `${a.name}: "data.weaponSpeed" is quick, standard or slow.`);
  }
  const usesPerRound = d.usesPerRound;
  if (usesPerRound !== undefined && (typeof usesPerRound !== 'number' || usesPerRound < 1)) {
    return reject('tempo/invalid-action', `${a.name}: "data.usesPerRound" must be 1 or more.`);
  }
  if (tempo === undefined && d.as === undefined && d.variableTempo !== true) {
    return reject(
      'tempo/invalid-action',
      `${a.name} needs a tempo: set "data.tempo" (0–9), or "data.as" to the action it counts as, or "data.variableTempo": true.`,
    );
  }
  return undefined;
}

/** A slot's name in a sentence. */
export const SLOT_WORD: Record<PlanSlot, string> = {
  action: 'action',
  extra: 'Extra action',
  free: 'Free action',
  exert: 'Exerted action',
};

/** The combatant's weapon of this name. */
export function weaponOf(c: C, name: string): { name: string; speed: WeaponSpeed } | undefined {
  // The name as written first (the common case), with nothing made for it; any case otherwise.
  const lower = name.toLowerCase();
  return c.stats.weapons.find((w) => w.name === name || w.name.toLowerCase() === lower);
}
