import { coreCommandSchemas, isCoreCommand } from './commands.js';
import { combatantsIn, jsonSchemaOf } from './params.js';
import type { AnyRuleset } from './ruleset.js';

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
