import type { ActionDef, ActionParamRef } from '@roundkeeper/engine';

/** The one action a PC unconscious at 0 HP takes on their turn. */
export const DEATH_SAVE = 'death-save';

/** Which part of a turn an action uses: one action, one bonus action, one reaction between turns. */
export const SLOTS = ['action', 'bonus', 'reaction', 'free'] as const;
export type Slot = (typeof SLOTS)[number];

/** The part of a turn an action uses: its kind, or an action's for a kind that names none. */
export function slotOf(action: ActionDef): Slot {
  return SLOTS.find((slot) => slot === action.kind) ?? 'action';
}

const a = (
  id: string,
  name: string,
  slot: Slot,
  text: string,
  tags: string[] = [],
  params?: ActionParamRef[],
): ActionDef => ({
  id,
  name,
  kind: slot,
  cost: { [slot]: slot === 'free' ? 0 : 1 },
  tags,
  text,
  ...(params ? { params } : {}),
});

/** An attack or spell: whom it aims at, and the roll if the table rolls it here. */
const aimed: ActionParamRef[] = ['target', 'roll'];

/** The reference catalog: the action economy most GMs know (one action, one bonus action, one reaction). */
export const CLASSIC_CATALOG: ActionDef[] = [
  a('attack', 'Attack', 'action', 'Make a weapon attack.', ['attack'], aimed),
  a('cast', 'Cast a Spell', 'action', 'Cast a spell with a casting time of one action.', ['spell'], aimed),
  a('dash', 'Dash', 'action', 'Gain extra movement equal to your speed this turn.', ['move']),
  a('disengage', 'Disengage', 'action', 'Your movement does not provoke opportunity attacks this turn.'),
  a('dodge', 'Dodge', 'action', 'Attacks against you have disadvantage until the start of your next turn.'),
  a(
    'help',
    'Help',
    'action',
    'Give an ally advantage on their next check or attack.',
    [],
    [{ name: 'target', label: 'Ally to help' }],
  ),
  a('hide', 'Hide', 'action', 'Try to hide.'),
  a('search', 'Search', 'action', 'Look for something.'),
  a(
    'use-object',
    'Use an Object',
    'action',
    'Interact with a second object or use one that needs an action.',
  ),
  a('bonus-action', 'Bonus Action', 'bonus', 'Something an ability or spell lets you do as a bonus action.'),
  a(
    'opportunity-attack',
    'Opportunity Attack',
    'reaction',
    'Strike a creature leaving your reach.',
    ['attack'],
    aimed,
  ),
  a('reaction', 'Reaction', 'reaction', 'Something an ability or spell lets you do as a reaction.'),
  a('talk', 'Talk', 'free', 'Speak a few words.'),
  a(
    DEATH_SAVE,
    'Death Save',
    'action',
    'Unconscious at 0 HP: roll a d20 on your turn. 10 or more succeeds, a 1 counts two failures, a 20 brings you back with 1 HP. Three successes: stable; three failures: dead.',
    ['down'],
  ),
];
