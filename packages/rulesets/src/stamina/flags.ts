import type { ActionDef, ActionParamRef } from '@roundkeeper/engine';

/** The text's action groups: "Move actions", "Melee Actions", "Ranged Actions", "Magic Actions", "Defensive Actions", "Reactions". */
export type ActionKind = 'move' | 'melee' | 'ranged' | 'magic' | 'defensive' | 'reaction';
export const ACTION_KINDS: readonly ActionKind[] = [
  'move',
  'melee',
  'ranged',
  'magic',
  'defensive',
  'reaction',
];

/**
 * How a catalog action's rules read as data (ActionDef.data). Custom actions use the same flags.
 * - firstMoveFree: "turn requirement reduced to zero if it's the first move action the character takes during their turn"
 * - reducible: the text lets the character reduce the requirement to zero for a price ('penalty-die': Ready/Stow;
 *   'first-time-penalty-die': Ready/stow weapon/ammo, "the first time it is taken in a turn"; 'cantrip': Cast Cantrip)
 * - oncePerRound: "Limit once per round."
 * - notAfterRequirement: Quick attack "can not be taken if the character has already taken an action with a turn requirement of one"
 * - repeatable: a turn-requirement-0 action whose text allows more than one use a turn (none in the text; for custom actions)
 * - penaltyDice: the penalty dice the text adds to the action's own skill check; where the text makes them depend
 *   on the situation (shield, two-handed weapon, reach, ranks, a Dash this turn) `ownPenaltyDice` adjusts them
 * - staminaFrom: '*' and "varies" costs ('action': Free attack; 'weapon': Load weapon)
 * - arcane: the Magic Actions' role in gathering ('gather', 'shape', 'release', 'cantrip', 'gated', 'ungated')
 * - regain: which check a defensive action makes ('composure' or 'restoration')
 */
export type ActionFlags = {
  firstMoveFree?: boolean;
  reducible?: 'penalty-die' | 'first-time-penalty-die' | 'cantrip';
  oncePerRound?: boolean;
  notAfterRequirement?: boolean;
  repeatable?: boolean;
  penaltyDice?: number;
  staminaFrom?: 'action' | 'weapon';
  arcane?: 'gather' | 'shape' | 'release' | 'cantrip' | 'gated' | 'ungated';
  regain?: 'composure' | 'restoration';
  /** Needs a target (attacks, Aim). */
  targeted?: boolean;
  /** Base movement multiplier in meters moved (Walk ½, Dash 1, Scramble 1). */
  movement?: number;
};

/** Actions a Free attack may be made as: "a basic attack action, off handed attack action, loose/shoot/fire action, or a throw action". */
export const FREE_ATTACK_AS = [
  'basic-attack',
  'off-hand-attack',
  'loose',
  'throw-weapon',
  'throw-spell',
] as const;

export function def(
  id: string,
  name: string,
  kind: ActionKind,
  stamina: number,
  turnRequirement: number,
  text: string,
  flags: ActionFlags = {},
  tags: string[] = [],
  params?: ActionParamRef[],
): ActionDef {
  const attack = tags.includes('attack');
  return {
    id,
    name,
    kind,
    cost: { stamina, turnRequirement },
    tags: [kind, ...tags],
    text,
    data: { ...flags, ...(attack && flags.targeted === undefined ? { targeted: true } : {}) },
    ...(params ? { params } : {}),
  };
}

export const ATTACK = ['attack'];

/** Whom an attack is against: it needs one ("an attack against an opponent"). */
export const TARGET: ActionParamRef = { name: 'target', required: true };
/** A melee attack: its target, the weapon it is made with, and what to do against a longer reach. */
export const MELEE: ActionParamRef[] = [TARGET, 'weapon', 'reachChoice'];
/** An attack whose check's outcome decides what follows (prone, a weapon knocked away, defense lost). */
export const MELEE_CHECKED: ActionParamRef[] = [...MELEE, 'check'];
/** A ranged attack with a weapon: the target, the weapon, and the wind for this shot. */
export const RANGED: ActionParamRef[] = [TARGET, 'weapon', 'wind'];
/** The check of a defensive or magic action, as rolled at the table (rolled here when left empty). */
export const CHECK: ActionParamRef[] = ['check'];
/** Casting a spell: its difficulty and cost are needed. */
export const SPELL: ActionParamRef[] = [{ name: 'spell', required: true }, 'check'];

export function flagsOf(action: ActionDef): ActionFlags {
  return (action.data ?? {}) as ActionFlags;
}

export function isActionKind(kind: string): kind is ActionKind {
  return ACTION_KINDS.some((k) => k === kind);
}

export function kindOf(action: ActionDef): ActionKind | 'custom' {
  return isActionKind(action.kind) ? action.kind : 'custom';
}

export function isAttack(action: ActionDef): boolean {
  return action.tags.includes('attack');
}
