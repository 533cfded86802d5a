import { coreCommandSchemas, isCoreCommand } from './commands.js';
import { combatantsIn, jsonSchemaOf } from './params.js';
import type { AnyRuleset } from './ruleset.js';
import { type EncounterState, type Rejection, reject } from './types.js';

/** A command's schema: the engine's own, or the ruleset's; undefined for a command nobody knows. */
export function commandSchema(ruleset: AnyRuleset, type: string) {
  if (isCoreCommand(type)) return coreCommandSchemas[type];
  return Object.hasOwn(ruleset.commands, type) ? ruleset.commands[type] : undefined;
}

/**
 * Every combatant a command acts for or changes, from its own declaration: its actor fields, and the keys
 * of maps such as initiative overrides or Character Points spent (fields marked `combatant: 'actor'`).
 * Targets it only names are not among them. Read from the raw command: fields that are not strings are
 * skipped here and refused by validation.
 */
export function actsFor(ruleset: AnyRuleset, command: { type: string; [key: string]: unknown }): string[] {
  const schema = commandSchema(ruleset, command.type);
  const ids = schema ? combatantsIn(schema, command, 'actor') : [];
  // `actor` acts for someone in every command, declared or not.
  if (typeof command.actor === 'string') ids.push(command.actor);
  return [...new Set(ids)];
}

/** Whether a command is the GM's by declaration (`.meta({ gm: true })` on its schema). */
export function isGmCommand(ruleset: AnyRuleset, type: string): boolean {
  const schema = commandSchema(ruleset, type);
  return schema ? jsonSchemaOf(schema).gm === true : false;
}

/** The commands of a player's own conditions (issue 33): what a GM allows a player link, or not. */
export const OWN_CONDITION_COMMANDS = ['add-effect', 'remove-effect'] as const;

/**
 * A player's own conditions: when the GM allows a player link `add-effect` and `remove-effect`, it adds
 * and removes conditions on its own characters (`combatants`) only — never on another's, and never one
 * another combatant is the source of (a player does not put a Marked from the Orc on themselves). Returns
 * the refusal in words, or undefined when the command is theirs to send. For other commands: undefined
 * (they are judged by `actsFor`).
 */
export function ownConditionRefusal(
  state: EncounterState,
  combatants: readonly string[],
  command: { type: string; [key: string]: unknown },
): Rejection | undefined {
  // A hidden combatant is not named to a player, nor one the state does not have.
  const nameOf = (id: string) => {
    const c = Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
    return c && (!c.hidden || combatants.includes(id)) ? c.name : 'someone else';
  };
  const mine = combatants.map(nameOf).join(', ') || 'no character';
  if (command.type === 'add-effect') {
    const target = typeof command.target === 'string' ? command.target : '';
    if (!combatants.includes(target))
      return reject(
        'link/not-your-character',
        `A player adds conditions only to their own character (${mine}); ask the GM to put ${typeof command.name === 'string' ? command.name : 'it'} on ${nameOf(target)}.`,
      );
    const source = typeof command.source === 'string' ? command.source : undefined;
    if (source !== undefined && !combatants.includes(source))
      return reject(
        'link/not-your-character',
        `A player's own conditions come from their own character (${mine}), not from ${nameOf(source)}; ask the GM.`,
      );
    return undefined;
  }
  if (command.type === 'remove-effect') {
    const effect = state.effects.find((e) => e.id === command.effect);
    // An unknown effect is refused by the engine, in its own words.
    if (effect && !combatants.includes(effect.target))
      return reject(
        'link/not-your-character',
        `That condition is on ${nameOf(effect.target)}, not on ${mine}; ask the GM to remove it.`,
      );
  }
  return undefined;
}
