import type { ActionDef, ActionParamRef, JsonObject } from '@roundkeeper/engine';

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
export interface ActionFlags {
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
}

/** Actions a Free attack may be made as: "a basic attack action, off handed attack action, loose/shoot/fire action, or a throw action". */
export const FREE_ATTACK_AS = [
  'basic-attack',
  'off-hand-attack',
  'loose',
  'throw-weapon',
  'throw-spell',
] as const;

function def(
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
    data: { ...(flags as JsonObject), ...(attack && flags.targeted === undefined ? { targeted: true } : {}) },
    ...(params ? { params } : {}),
  };
}

const ATTACK = ['attack'];

/** Whom an attack is against: it needs one ("an attack against an opponent"). */
const TARGET: ActionParamRef = { name: 'target', required: true };
/** A melee attack: its target, the weapon it is made with, and what to do against a longer reach. */
const MELEE: ActionParamRef[] = [TARGET, 'weapon', 'reachChoice'];
/** An attack whose check's outcome decides what follows (prone, a weapon knocked away, defense lost). */
const MELEE_CHECKED: ActionParamRef[] = [...MELEE, 'check'];
/** A ranged attack with a weapon: the target, the weapon, and the wind for this shot. */
const RANGED: ActionParamRef[] = [TARGET, 'weapon', 'wind'];
/** The check of a defensive or magic action, as rolled at the table (rolled here when left empty). */
const CHECK: ActionParamRef[] = ['check'];
/** Casting a spell: its difficulty and cost are needed. */
const SPELL: ActionParamRef[] = [{ name: 'spell', required: true }, 'check'];

/** Every action of the text's "Combat Actions", with its stamina cost in parentheses as the text gives it. */
export const STAMINA_CATALOG: ActionDef[] = [
  // Move actions: the text gives no turn requirement, but "reduced to zero if … first move action" implies one.
  def('walk', 'Walk', 'move', 0, 1, 'Move half your base movement in meters, round down.', {
    firstMoveFree: true,
    movement: 0.5,
  }),
  def('dash', 'Dash', 'move', 1, 1, 'Move up to your base movement in meters.', {
    firstMoveFree: true,
    movement: 1,
  }),
  // Sprint lacks the reduction sentence, but Jump's "if you've taken a dash or sprint action already this turn"
  // needs a Sprint and a Jump in one turn, which only a free first Sprint allows.
  def(
    'sprint',
    'Sprint',
    'move',
    3,
    1,
    'The character makes a sprint skill check and resolves its effects.',
    { firstMoveFree: true },
  ),
  def(
    'swim',
    'Swim',
    'move',
    2,
    1,
    'Body + personal movement check, difficulty 10-30; on a success move through water 1 m per swim rank plus 1 m per additional success.',
    { firstMoveFree: true },
  ),
  def(
    'climb',
    'Climb',
    'move',
    2,
    1,
    'Body + personal movement check, difficulty 10-30; on a success climb 1 m per climb rank plus 1 m per success; a critical failure falls.',
    { firstMoveFree: true },
    [],
    CHECK,
  ),
  def(
    'jump',
    'Jump',
    'move',
    2,
    1,
    'Body + personal movement check, difficulty 10; jump rank meters plus 1 m per two additional successes (half vertically); +50% after a dash or sprint this turn.',
    { firstMoveFree: true },
  ),
  // Melee actions: "Unless stated otherwise, melee actions have a turn requirement of one."
  def(
    'basic-attack',
    'Basic attack',
    'melee',
    1,
    1,
    "Make an attack with the character's body or readied melee weapon.",
    {},
    ATTACK,
    MELEE,
  ),
  def(
    'bash',
    'Bash',
    'melee',
    2,
    1,
    'An attack to send the target to the ground; two penalty dice unless performed with a shield; knocks back, to the knees or prone by damage against defense.',
    { penaltyDice: 2 },
    ATTACK,
    [...MELEE, 'shield'],
  ),
  def(
    'bull-rush',
    'Bull Rush',
    'melee',
    2,
    1,
    'Body as weapon and attribute, ignoring shield bonuses; pushes the target back one meter and deals concussive damage equal to body.',
    {},
    ATTACK,
    [TARGET, 'reachChoice'],
  ),
  def(
    'disarm',
    'Disarm',
    'melee',
    2,
    1,
    "Targets an opponent's weapon: two penalty dice if it is wielded one-handed, four if two-handed; on a success the weapon is knocked to the ground.",
    { penaltyDice: 2 },
    ATTACK,
    [...MELEE_CHECKED, 'targetWeapon', 'twoHanded'],
  ),
  def(
    'distracting-attack',
    'Distracting attack',
    'melee',
    2,
    1,
    "Two penalty dice (three if the opponent's reach is greater); the target loses 1 + distracting attack rank defense, 2 more per additional success spent.",
    { penaltyDice: 2 },
    ATTACK,
    MELEE_CHECKED,
  ),
  def(
    'flurry-of-blows',
    'Flurry of blows',
    'melee',
    3,
    1,
    "Two penalty dice; additional successes above the flurry of blows rank are ignored; the check's result resolves twice.",
    { penaltyDice: 2 },
    ATTACK,
    MELEE,
  ),
  def(
    'half-sword',
    'Half-Sword',
    'melee',
    2,
    1,
    'A one-handed thrust weapon used two-handed at half reach; gains APV equal to the half-sword rank.',
    {},
    ATTACK,
    MELEE,
  ),
  def(
    'lunge',
    'Lunge',
    'melee',
    2,
    1,
    "Reach doubled plus lunge rank; two penalty dice; loses the weapon's parry bonus until the beginning of the next turn unless the weapon has Thrust.",
    { penaltyDice: 2 },
    ATTACK,
    [...MELEE, 'thrust'],
  ),
  def(
    'off-hand-attack',
    'Off-hand attack',
    'melee',
    1,
    0,
    "An attack with the off-hand weapon, turn requirement zero, two penalty dice (less the off-hand attack rank) plus the off-hand die; loses the weapon's parry bonus until the beginning of the next turn. Limit once per round.",
    { oncePerRound: true, penaltyDice: 3 },
    ATTACK,
    MELEE,
  ),
  def(
    'power-attack',
    'Power attack',
    'melee',
    2,
    1,
    'Two penalty dice, none if this is the first attack after a dash this turn; body counts as higher by the power attack rank for damage.',
    { penaltyDice: 2 },
    ATTACK,
    MELEE,
  ),
  def(
    'quick-attack',
    'Quick attack',
    'melee',
    2,
    0,
    'An attack with a turn requirement of 0; additional successes above the quick attack rank are ignored. Limit once per round. Not after an action with a turn requirement of one.',
    { oncePerRound: true, notAfterRequirement: true },
    ATTACK,
    MELEE,
  ),
  def(
    'ready-stow-weapon',
    'Ready/Stow Weapon',
    'melee',
    0,
    1,
    "Ready or stow one or more weapons within easy reach. The turn requirement can be reduced to zero by adding a penalty die to all other skill checks until the beginning of the character's next turn.",
    { reducible: 'penalty-die' },
    [],
    ['weapon', 'stow', 'reduce'],
  ),
  def(
    'reckless-attack',
    'Reckless attack',
    'melee',
    2,
    1,
    'Gain 1 to 3 (plus reckless attack rank) bonus dice; afterwards lose defense equal to twice the bonus dice, less the reckless attack rank, minimum one.',
    {},
    ATTACK,
    [TARGET, { name: 'bonusDice', required: true }, 'weapon', 'reachChoice'],
  ),
  def(
    'tackle',
    'Tackle',
    'melee',
    2,
    1,
    'A trip attack with the body, body as attribute, without the trip penalty dice; the character always ends prone.',
    {},
    ATTACK,
    [TARGET, 'reachChoice', 'check'],
  ),
  def(
    'trip',
    'Trip',
    'melee',
    2,
    1,
    "Two penalty dice plus the defender's balance rank, no damage; on a success the target is prone. A failed body trip costs the attacker 3 defense; a critical failure leaves them prone.",
    { penaltyDice: 2 },
    ATTACK,
    [...MELEE_CHECKED, 'body'],
  ),
  // Ranged actions: "Unless stated otherwise, ranged actions have a turn requirement of one."
  def(
    'aim',
    'Aim',
    'ranged',
    0,
    1,
    "Select a target: ranged attacks against it gain 1 + aim rank bonus dice until the end of the character's next turn.",
    { targeted: true },
    [],
    [{ name: 'target', required: true, label: 'Aim at' }],
  ),
  def(
    'load-weapon',
    'Load weapon',
    'ranged',
    0,
    1,
    "Refer to the weapon's description for details on turn and loading requirements (cost varies).",
    { staminaFrom: 'weapon' },
    [],
    ['weapon', 'load'],
  ),
  def(
    'loose',
    'Loose/shoot/fire',
    'ranged',
    0,
    1,
    'Make an attack with a readied, loaded, ranged weapon.',
    {},
    ATTACK,
    RANGED,
  ),
  def(
    'ready-stow-ammo',
    'Ready/stow weapon/ammo',
    'ranged',
    0,
    1,
    "Ready or stow a ranged weapon or 1 + reload rank pieces of ammunition. The first time in a turn the requirement may be reduced to zero by adding a penalty die to all skill checks until the beginning of the character's next turn.",
    { reducible: 'first-time-penalty-die' },
    [],
    ['weapon', 'ammo', 'stow', 'reduce'],
  ),
  def(
    'throw-spell',
    'Throw Spell',
    'ranged',
    0,
    1,
    'Make a ranged attack with a cast spell; spells rank counts one higher per arcane aptitude targeting rank.',
    {},
    ATTACK,
    [TARGET],
  ),
  def(
    'throw-weapon',
    'Throw Weapon',
    'ranged',
    1,
    1,
    'Make a ranged attack with a readied throwing weapon.',
    {},
    ATTACK,
    RANGED,
  ),
  // Magic actions: "Magic actions have a turn requirement of one and may only be taken by characters with an arcane trait."
  def(
    'cast-cantrip',
    'Cast Cantrip',
    'magic',
    2,
    1,
    'Cast a known cantrip. The turn requirement may be reduced to zero: one penalty die on all other actions until the beginning of your next turn, and no additional magic action until then.',
    { reducible: 'cantrip', arcane: 'cantrip' },
    [],
    ['reduce'],
  ),
  def(
    'cast-gated-spell',
    'Cast gated spell',
    'magic',
    0,
    1,
    "Arcane aptitude check against the spell's difficulty: on a success the spell resolves gated and the caster suffers dues equal to its cost; on a failure dues equal to the successes rolled.",
    { arcane: 'gated' },
    [],
    SPELL,
  ),
  def(
    'cast-ungated-spell',
    'Cast ungated spell',
    'magic',
    0,
    1,
    "Arcane aptitude check against 1 + the spell's difficulty: on a success, dues equal to the successes rolled plus the spell's cost modifier; on a failure, dues equal to the successes rolled.",
    { arcane: 'ungated' },
    [],
    [{ name: 'spell', required: true, label: 'Spell (cost modifier)' }, 'check'],
  ),
  def(
    'gather-arcane-energy',
    'Gather arcane energy',
    'magic',
    0,
    1,
    'Arcane aptitude check whose successes are stored. Only as many turns in a row as the arcane aptitude rank. Any other turn-requirement-1 action except shaping loses the store with dues as if released.',
    { arcane: 'gather' },
    [],
    CHECK,
  ),
  def(
    'shape-arcane-energy',
    'Shape arcane energy',
    'magic',
    0,
    1,
    'With stored energy: arcane aptitude check; each success adds one stored success to a power of the crafted effect.',
    { arcane: 'shape' },
    [],
    CHECK,
  ),
  def(
    'release-crafted-effect',
    'Release crafted effect',
    'magic',
    0,
    1,
    'Release the crafted effect (activated now, or thrown within arcane aptitude rank rounds). Dues: the stored successes plus one per gather or shape action; unshaped successes are lost.',
    { arcane: 'release' },
  ),
  // Defensive actions: "a turn requirement of one and a character who made a defensive action on their turn cannot make an attack until their next turn."
  def(
    'defensive-stance',
    'Defensive Stance',
    'defensive',
    0,
    1,
    'Regain composure check to regain defense; melee defense bonus (not parry or cover) doubled until their next turn.',
    { regain: 'composure' },
    [],
    CHECK,
  ),
  def(
    'disengage',
    'Disengage',
    'defensive',
    0,
    1,
    'Regain composure check to regain defense; a situational 10 defense bonus against free attacks until their next turn.',
    { regain: 'composure' },
    [],
    CHECK,
  ),
  def(
    'dodge',
    'Dodge',
    'defensive',
    0,
    1,
    'Regain composure check to regain defense; ranged defense bonus (not cover) doubled and a situational bonus equal to the distance moved this turn, until their next turn.',
    { regain: 'composure' },
    [],
    ['check', 'distance'],
  ),
  def(
    'restoration',
    'Restoration action',
    'defensive',
    0,
    1,
    'Restoration check to regain stamina; also regain defense equal to personal defense rank + regain composure rank.',
    { regain: 'restoration' },
    [],
    CHECK,
  ),
  // Reactions: "Reactions have no turn requirement even if they specify taking an action that normally would."
  def(
    'scramble',
    'Scramble',
    'reaction',
    2,
    0,
    'Move up to base movement in meters; move actions on the next turn cannot have their turn requirement reduced.',
    { movement: 1 },
  ),
  def(
    'free-attack',
    'Free attack',
    'reaction',
    0,
    0,
    'When an opponent provokes a free attack: a basic attack, off-hand attack, loose/shoot/fire or throw against them. Costs the stamina of the action taken.',
    { staminaFrom: 'action', targeted: true },
    ATTACK,
    [TARGET, 'as', 'weapon', 'reachChoice', 'wind'],
  ),
  def(
    'take-cover',
    'Take cover',
    'reaction',
    2,
    0,
    'The text is cut off after "Take cover(2)": the character takes cover; the GM gives the cover bonus (+1 to +9).',
    {},
    [],
    ['cover'],
  ),
];

export function flagsOf(action: ActionDef): ActionFlags {
  return (action.data ?? {}) as ActionFlags;
}

export function kindOf(action: ActionDef): ActionKind | 'custom' {
  return (ACTION_KINDS as readonly string[]).includes(action.kind) ? (action.kind as ActionKind) : 'custom';
}

export function isAttack(action: ActionDef): boolean {
  return action.tags.includes('attack');
}
