import {
  type ActionDef,
  type ActionParamRef,
  catalogWith,
  once,
  perObject,
  type Rejection,
  reject,
} from '@roundkeeper/engine';
import { z } from 'zod';
import { CATEGORIES, CATEGORY_MARKS, type Category, isCategory } from './marks.js';

/** What an action does beyond spending Marks: the rules that are special in 000 get a name. */
const actionRule = once(() =>
  z.enum([
    'generic',
    'move',
    'set',
    'melee-attack',
    'ranged-attack',
    'desperate-shot',
    'cast',
    'channel',
    'break-channel',
    'combat-casting-move',
  ]),
);
export type ActionRule = z.output<ReturnType<typeof actionRule>>;

/** The Marks a kind of action costs (free, quarter, half, full), if the kind is one of those. */
function marksOfKind(kind: string): number | undefined {
  return isCategory(kind) ? CATEGORY_MARKS[kind] : undefined;
}

/** What each action takes beyond its actor: whom an attack or a spell is against, and what its rule reads. */
// Whom the mover closes in on: "Someone enters melee with him" (the Mage's example).
const MOVE_PARAMS: ActionParamRef[] = ['units', 'target'];
const PARAMS: Record<string, ActionParamRef[]> = {
  'combat-casting-move': ['units', 'check'],
  'melee-attack': ['target', 'defending'],
  'ranged-attack': ['target', 'throwing'],
  'desperate-shot': ['target', 'faces'],
  cast: [{ name: 'castingTime', required: true }, 'spell', 'target', 'combatCasting'],
  maneuver: ['target'],
  'attacking-item': ['target'],
  move: MOVE_PARAMS,
};

const act = (
  id: string,
  name: string,
  category: Category,
  text: string,
  rule: ActionRule = 'generic',
  tags: string[] = [],
  extra: { attack?: true } = {},
): ActionDef => ({
  id,
  name,
  kind: category,
  cost: { marks: CATEGORY_MARKS[category] },
  tags: [category, ...tags],
  text,
  data: { category, rule, ...extra },
  ...(PARAMS[id] ? { params: PARAMS[id] } : {}),
});

/** 000 "Actions in Combat": every example of each kind, plus the actions with their own rules. */
export const TARA_CATALOG: ActionDef[] = [
  // Free Actions: "take no Initiative and can be done whenever the Player wants".
  act('speak', 'Simple speaking', 'free', 'Say a few words.'),
  act(
    'reactive-ability',
    'Use a reactive ability',
    'free',
    'A Skill or Ability that reacts to a situation.',
    'generic',
    ['reactive'],
  ),
  act(
    'passive-skill',
    'On-going/passive Skill',
    'free',
    'Combat Casting, Endurance and other on-going Skills.',
  ),
  act('look-around', 'Look around briefly', 'free', 'A glance (no Observation or Detection).'),
  act(
    'combat-casting-move',
    'Combat Casting movement',
    'free',
    'While casting with Combat Casting: move 1 Unit per 3 over a Target Number of 2 on the Skill Check; counts against Land Speed.',
    'combat-casting-move',
    ['move'],
  ),
  act(
    'break-channel',
    'Break the Channel',
    'free',
    'Stop Channeling; only movement and Free Actions remain this Round.',
    'break-channel',
  ),
  // Quarter Actions (5 Marks).
  act(
    'set',
    'Set',
    'quarter',
    'Bring defenses up and get ready: needed to attack in melee after moving this Round, to shoot after moving or acting, and before Combat Casting.',
    'set',
  ),
  act('complex-speech', 'Complex speech', 'quarter', 'Give directions or answer a question.'),
  act('quick-skill', 'Quick Skill', 'quarter', 'A Skill needing little time or focus (Size Up, Intimidate).'),
  act('swap-weapon', 'Drop one weapon and ready another', 'quarter', 'Drop a weapon and ready another.'),
  act('draw', 'Draw a weapon or item', 'quarter', 'Draw a weapon or an easily reach item.'),
  act('stand-up', 'Stand up', 'quarter', 'Recover from falling down or stand up from prone.'),
  // Half Actions (10 Marks).
  act('drink-potion', 'Drink a potion', 'half', 'Drink a potion.'),
  act(
    'concentration-skill',
    'Concentration Skill',
    'half',
    'A Skill needing some concentration (Observation, Acrobatics).',
  ),
  act('activate-item', 'Activate a magical item', 'half', 'Activate a non-attacking magical item.'),
  act('sheathe', 'Sheathe a weapon', 'half', 'Sheathe a weapon.'),
  // Full Actions (15 Marks).
  act(
    'melee-attack',
    'Melee attacks',
    'full',
    'A full set of melee attacks, or a single one if the character moved this Round.',
    'melee-attack',
    ['attack'],
  ),
  act(
    'ranged-attack',
    'Ranged attacks',
    'full',
    'A full volley if the character has not acted this Round, else a single shot. Needs a Set unless the last action was an attack or the weapon is thrown.',
    'ranged-attack',
    ['attack'],
  ),
  act(
    'desperate-shot',
    'Desperate Shot',
    'full',
    'A single shot without Setting and without bonuses; a natural 5 or less on either attack die misses.',
    'desperate-shot',
    ['attack'],
  ),
  act(
    'cast',
    'Cast a Spell',
    'full',
    'Start a spell: it resolves after its Casting Time, maybe next Round; busy at least 15 Marks.',
    'cast',
    ['spell'],
  ),
  // A Maneuver and an attacking item are attacks: like them, they never carry over (000 Carry Over).
  act('maneuver', 'Weapon Maneuver', 'full', 'Perform a Maneuver with a weapon.', 'generic', [], {
    attack: true,
  }),
  act(
    'full-skill',
    'Full-concentration Skill',
    'full',
    'A Skill of 10 seconds or less needing full concentration (Read Scrolls, Monster Lore).',
  ),
  act(
    'attacking-item',
    'Activate an attacking item',
    'full',
    'Activate an attacking magical item.',
    'generic',
    [],
    { attack: true },
  ),
  act('pull-from-sack', 'Pull something out of a sack', 'full', 'Rummage in a sack.'),
  act('hide', 'Become Hidden', 'full', 'Become Hidden through a Skill.'),
  // Movement: 1 Mark per Unit, up to Land Speed per Round.
  {
    id: 'move',
    name: 'Move',
    kind: 'move',
    cost: { marksPerUnit: 1 },
    tags: ['move'],
    text: 'Move 1 Unit per Mark, up to Land Speed per Round.',
    data: { category: 'move', rule: 'move' },
    params: MOVE_PARAMS,
  },
  // Channeling: all of the Round's Initiative.
  {
    id: 'channel',
    name: 'Channel',
    kind: 'channel',
    cost: { marks: 0 },
    tags: ['channel'],
    text: 'Use ALL Initiative this Round; no other Action, not even a Free Action, until the Channel is broken.',
    data: { category: 'channel', rule: 'channel' },
  },
];

/**
 * Flags a GM gives a custom action (000: "The Storyteller makes the determination on all cases not
 * specifically covered"). The Warrior's CAR move is `{ freeMove: 10, autoSet: true, reactive: true,
 * countsAgainstLandSpeed: false }` at 0 Marks; Charge is `{ freeMove: 8, grantsAttack: 1 }` at 5 Marks;
 * Counter is `{ reactive: true, grantsAttack: 1 }` at 0 Marks.
 */
export const customFlags = once(() =>
  z
    .object({
      freeMove: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .describe('Units the action moves at no Mark cost.'),
      countsAgainstLandSpeed: z
        .boolean()
        .default(true)
        .describe('Whether that free movement counts against Land Speed (Combat Casting’s does).'),
      autoSet: z
        .boolean()
        .default(false)
        .describe('The action Sets the character (melee, ranged and for casting).'),
      grantsAttack: z
        .number()
        .int()
        .min(1)
        .max(5)
        .optional()
        .describe('The action grants this many attacks, now.'),
      reactive: z
        .boolean()
        .default(false)
        .describe('Usable outside the character’s own turn, as a reaction.'),
      attack: z
        .boolean()
        .default(false)
        .describe('An attack: like attacks and movement, it never carries over into the next Round.'),
    })
    .loose(),
);
export type CustomFlags = z.output<ReturnType<typeof customFlags>>;

export interface ActionInfo {
  rule: ActionRule;
  /** Marks the action costs (movement: per Unit). */
  marks: number;
  category: Category | 'move' | 'channel';
  flags: CustomFlags;
}

function categoryOfMarks(marks: number): Category | undefined {
  return CATEGORIES.find((c) => CATEGORY_MARKS[c] === marks);
}

const infoCategory = once(() => z.enum(['free', 'quarter', 'half', 'full', 'move', 'channel']));

/**
 * Reads an action's rule, cost and flags, once per action definition: the palette asks for every action of
 * the catalog on every change, and parsing their data took a third of the legal actions' time. Definitions
 * are plain JSON never changed in place (a new or edited custom action is a new object), so the answer
 * is kept for as long as the definition lives. Catalog and custom actions alike.
 */
export const infoOf: (action: ActionDef) => ActionInfo = perObject(readInfo);

function readInfo(action: ActionDef): ActionInfo {
  const data = action.data ?? {};
  const rule = actionRule().safeParse(data.rule).data ?? 'generic';
  const marks = action.cost.marks ?? action.cost.marksPerUnit ?? marksOfKind(action.kind) ?? 0;
  const category = infoCategory().safeParse(data.category).data ?? categoryOfMarks(marks) ?? 'full';
  const parsed = customFlags().safeParse(data);
  const flags = parsed.success ? parsed.data : customFlags().parse({});
  return { rule, marks, category, flags };
}

/** A custom action's cost must be whole Marks within a Round, and its flags must read. */
export function validateCustomAction(action: ActionDef): Rejection | undefined {
  const marks = action.cost.marks ?? marksOfKind(action.kind);
  if (marks === undefined) {
    return reject(
      'action/invalid',
      `"${action.name}" needs a cost in Marks ({ marks: 5 }) or a kind of free, quarter, half or full.`,
    );
  }
  if (!Number.isInteger(marks) || marks < 0 || marks > 30) {
    return reject(
      'action/invalid',
      `"${action.name}" costs ${marks} Marks; a cost is a whole number from 0 to 30.`,
    );
  }
  const flags = customFlags().safeParse(action.data ?? {});
  if (!flags.success) {
    const issue = flags.error.issues[0];
    return reject(
      'action/invalid',
      `"${action.name}" has a flag that does not read: ${issue?.path.join('.') ?? 'data'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  const rule = action.data?.rule;
  if (rule !== undefined && rule !== 'generic') {
    return reject(
      'action/invalid',
      `"${action.name}": custom actions use flags, not a catalog rule ("${String(rule)}").`,
    );
  }
  return undefined;
}

/** The catalog and the GM's custom actions (read only: the same list for the same custom actions). */
export function taraCatalog(state: { customActions: ActionDef[] }): readonly ActionDef[] {
  return catalogWith(TARA_CATALOG, state.customActions);
}

export function isFree(info: ActionInfo): boolean {
  return info.marks === 0 && info.rule !== 'move' && info.rule !== 'channel';
}

const NEVER_CARRIED: ReadonlySet<string> = new Set([
  'move',
  'melee-attack',
  'ranged-attack',
  'desperate-shot',
  'channel',
  'break-channel',
  'combat-casting-move',
]);

/**
 * 000 Carry Over: "Initiative can carry over into the following Round if there is a certain number of
 * Initiative Marks it takes to complete. This IS NOT the case with attacks and movement." A spell, a
 * potion, a Skill, an item: yes; an attack (or an ability that attacks or moves) and movement: no.
 */
export function carriesOver(info: ActionInfo): boolean {
  if (isFree(info) || NEVER_CARRIED.has(info.rule)) return false;
  const f = info.flags;
  return !f.attack && f.grantsAttack === undefined && f.freeMove === undefined;
}
