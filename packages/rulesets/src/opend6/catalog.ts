import {
  type ActionDef,
  type ActionParamRef,
  type JsonObject,
  type Rejection,
  reject,
} from '@roundkeeper/engine';

/**
 * What an action's `data` may say (catalog and GM-defined actions alike):
 * - `skills`: the suggested skills, first one rolled by default;
 * - `roll: false`: no skill roll is needed (Ready a Weapon);
 * - `wait: true`: the action is Waiting;
 * - `moveUp: true`: the GM may let the character "move up" her turn for it (Catch).
 * - `perRound: n`: at most n uses per character per round — 002: "Only equipment and weapons suited
 *   for quick multiple actions may be used several times (up to the limit of their capabilities) in a
 *   round" (a GM-defined "Fire the musket" with `perRound: 1`). Absent: no limit.
 * A `kind: 'free'` action is a free action: it takes no action and adds no penalty.
 */
export interface ActionFlags {
  skills: string[];
  roll: boolean;
  wait: boolean;
  moveUp: boolean;
  free: boolean;
  perRound: number | null;
}

/**
 * What every action takes: the skill or die code to roll instead of the suggested one, whether to roll,
 * the round's actions when not declared yet, and the GM's permission to move up the turn.
 */
const TAKES: ActionParamRef[] = ['skill', 'code', 'roll', 'declare', 'moveUp'];
/** An action against someone (an opponent, or whom a character talks to or catches). */
const AT: ActionParamRef[] = ['target', ...TAKES];

const act = (
  id: string,
  name: string,
  skills: string[],
  text: string,
  data: JsonObject = {},
  params: ActionParamRef[] = TAKES,
): ActionDef => ({
  id,
  name,
  kind: 'action',
  cost: { actions: 1 },
  tags: skills.length > 0 ? ['skill'] : [],
  text,
  data: { skills, ...data },
  params,
});

/** A free action takes no action: it may still be rolled (a quick glance's Perception). */
const free = (id: string, name: string, text: string): ActionDef => ({
  id,
  name,
  kind: 'free',
  cost: { actions: 0 },
  tags: ['free'],
  text,
  data: { skills: [], roll: false },
  params: ['skill', 'code', 'roll'],
});

/** 002 "Actions that Take Time" (each one action, ≤ 5 seconds; suggested skill in parentheses) and "Free Actions". */
export const OPEND6_CATALOG: ActionDef[] = [
  act('bash', 'Bash', ['melee combat'], 'Hit an opponent with a blunt weapon.', {}, AT),
  act(
    'catch',
    'Catch',
    ['throwing'],
    'Stop the movement of a thrown or dropped object or person. The catcher must act later in the round than the thrower; one of the few cases where a character may "move up" their turn.',
    { moveUp: true },
    AT,
  ),
  act('choke', 'Choke', ['brawling'], 'Grab a person’s neck and grip tightly.', {}, AT),
  act(
    'communicate',
    'Communicate',
    ['persuasion'],
    'Relay plans or exchange complex ideas (more than a few words). An interaction skill, or only roleplaying.',
    {},
    AT,
  ),
  act(
    'disarm',
    'Disarm',
    ['brawling', 'marksmanship', 'melee combat', 'missile weapons', 'throwing'],
    'Remove an object from an opponent’s hand; treated as a called shot.',
    {},
    AT,
  ),
  act('dodge', 'Dodge', ['dodge'], 'Actively evade an attack.'),
  act('entangle', 'Entangle', ['throwing'], 'Throw an entangling weapon at an opponent.', {}, AT),
  act('escape', 'Escape', ['lifting'], 'Break a hold.'),
  act('grab', 'Grab', ['brawling'], 'Latch onto an opponent.', {}, AT),
  act('kick', 'Kick', ['brawling'], 'Strike out at an opponent with a foot.', {}, AT),
  act('leap', 'Leap', ['jumping'], 'Jump over an opponent or onto a table, or a similar maneuver.'),
  act(
    'lunge',
    'Lunge',
    ['melee combat'],
    'Stab forward with a pointed weapon, such as a sword or a knife.',
    {},
    AT,
  ),
  act(
    'move',
    'Move',
    ['running', 'swimming'],
    'Maneuver 51% of the character’s Move or more. Roll only when the GM calls for it: challenging terrain or complex maneuvering (Roll the skill).',
    { roll: false },
  ),
  act('parry', 'Parry', ['brawling', 'melee combat'], 'Block an opponent’s blow.'),
  act(
    'pin',
    'Pin',
    ['brawling', 'melee combat', 'missile weapons', 'throwing'],
    'Trap an opponent, holding them down or tacking clothing to a wall; prevents use of the fastened part.',
    {},
    AT,
  ),
  act('punch', 'Punch', ['brawling'], 'Strike out at an opponent with a fist.', {}, AT),
  act('push', 'Push', ['brawling'], 'Forcibly move an opponent.', {}, AT),
  act(
    'ready-weapon',
    'Ready a Weapon',
    [],
    'Draw or reload a gun or bow, unsheathe a knife. Generally no skill roll.',
    { roll: false },
  ),
  act('run-away', 'Run Away', ['running'], 'Flee from the scene.'),
  act('shoot', 'Shoot', ['marksmanship', 'missile weapons'], 'Fire a missile or projectile weapon.', {}, AT),
  act('slash', 'Slash', ['melee combat'], 'Swing an edged weapon.', {}, AT),
  act(
    'switch-setting',
    'Switch a Weapon or Equipment’s Setting',
    [],
    'Change a weapon’s or item’s damage or effect setting. Generally no skill roll.',
    { roll: false },
  ),
  act(
    'tackle',
    'Tackle',
    ['brawling'],
    'Bodily overcome an opponent, who can then only speak or try to break the grip.',
    {},
    AT,
  ),
  act('throw', 'Throw a Weapon or Object', ['throwing'], 'Toss something at an opponent.', {}, AT),
  act('trip', 'Trip', ['brawling'], 'Quickly force one or both of an opponent’s legs upward.', {}, AT),
  act(
    'use-skill',
    'Use a Skill or Ability',
    [],
    'A quick action with a special ability the character has or a skill (untrained possibly at a penalty). Name the skill when rolling.',
  ),
  act('vehicle-maneuver', 'Vehicle Maneuver', ['piloting'], 'Perform a stunt in a moving vehicle.'),
  act(
    'waiting',
    'Waiting',
    [],
    'Watch for a better opportunity. No skill roll, but it takes concentration and counts as an action each time.',
    { roll: false, wait: true },
  ),
  free('speak', 'Speak a Few Words', 'Speak a few words to someone nearby.'),
  free('glance', 'Quick Glance', 'A quick glance around a room (possibly a Perception roll).'),
  free(
    'short-move',
    'Short Move',
    'Move 50% or less of Move over easy ground, or up to a meter over challenging terrain.',
  ),
];

/** Each action's flags, read once per action object (an action is never changed; a new one is a new object). */
const FLAGS = new WeakMap<ActionDef, ActionFlags>();

/** The flags of an action, catalog or custom, with the defaults for anything not said. Read only. */
export function flagsOf(action: ActionDef): ActionFlags {
  let flags = FLAGS.get(action);
  if (flags === undefined) {
    flags = readFlags(action);
    FLAGS.set(action, flags);
  }
  return flags;
}

function readFlags(action: ActionDef): ActionFlags {
  const d = action.data ?? {};
  const skills = Array.isArray(d.skills) ? d.skills.filter((s): s is string => typeof s === 'string') : [];
  return {
    skills,
    roll: d.roll !== false,
    wait: d.wait === true,
    moveUp: d.moveUp === true,
    free: action.kind === 'free',
    perRound: typeof d.perRound === 'number' ? d.perRound : null,
  };
}

/** A GM-defined action's flags must have the types the ruleset reads. */
export function validateCustomAction(action: ActionDef): Rejection | undefined {
  const d = action.data ?? {};
  if (d.skills !== undefined && !(Array.isArray(d.skills) && d.skills.every((s) => typeof s === 'string'))) {
    return reject(
      'action/invalid-flags',
      `"${action.name}": data.skills must be a list of skill names, like ["melee combat"].`,
    );
  }
  for (const flag of ['roll', 'wait', 'moveUp'] as const) {
    if (d[flag] !== undefined && typeof d[flag] !== 'boolean') {
      return reject('action/invalid-flags', `"${action.name}": data.${flag} must be true or false.`);
    }
  }
  if (
    d.perRound !== undefined &&
    !(typeof d.perRound === 'number' && Number.isInteger(d.perRound) && d.perRound >= 1)
  ) {
    return reject(
      'action/invalid-flags',
      `"${action.name}": data.perRound must be a whole number of uses per round, 1 or more (leave it out for no limit).`,
    );
  }
  return undefined;
}
