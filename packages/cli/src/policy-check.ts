import type { AnyRuleset, EncounterState } from '@roundkeeper/engine';
import { z } from 'zod';
import { momentOf, type PolicyRule } from './policy.js';

/**
 * A policy read against the ruleset before any trial runs, with the schemas the page's forms use: each
 * rule's command is one the ruleset has, its action is in the catalog, and its fields (`with`) are the
 * command's own and valid there. A rule that fails says which rule, and what the ruleset offers instead.
 * What depends on the moment (a reaction too early, a plan too many) is the rules' to refuse in play: those
 * refusals are counted under the rule that asked (`SimTally.refusedRules`).
 */

function fieldsOf(schema: z.ZodType | undefined): string[] | undefined {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : undefined;
}

function zodWords(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** The first problem with a policy, in words naming the rule, or undefined when every rule reads right. */
export function checkPolicy(
  ruleset: AnyRuleset,
  state: EncounterState,
  owner: string,
  policy: readonly PolicyRule[],
): string | undefined {
  const commands = Object.keys(ruleset.commands);
  const catalog = [...ruleset.catalog(state), ...state.customActions];
  const actor = owner === 'default' ? state.roster[0] : owner;
  for (const [i, rule] of policy.entries()) {
    const where = `simulate.policies.${owner}[${i}]`;
    const moment = momentOf(rule);
    if (moment === 'roll') {
      const start = ruleset.commands.start;
      const fields = fieldsOf(start) ?? [];
      for (const [k, v] of Object.entries(rule.with ?? {})) {
        if (!fields.includes(k)) {
          return `${where} sends "${k}" with the initiative roll, which ${ruleset.name}'s roll does not take (it takes: ${fields.join(', ') || 'nothing'}).`;
        }
        if (actor === undefined || !start) continue;
        const parsed = start.safeParse({ [k]: { [actor]: v } });
        if (!parsed.success)
          return `${where}: ${zodWords(parsed.error)} (as ${ruleset.name}'s roll reads it).`;
      }
      continue;
    }
    const type = rule.command ?? 'act';
    const schema = ruleset.commands[type];
    if (!schema) {
      return `${where} asks for the command "${type}", which ${ruleset.name} does not have (its commands: ${commands.join(', ')}).`;
    }
    const fields = fieldsOf(schema);
    if (rule.action !== undefined && type === 'act' && !catalog.some((a) => a.id === rule.action)) {
      return `${where} names the action "${rule.action}", which is not in ${ruleset.name}'s catalog (${catalog.map((a) => a.id).join(', ')}).`;
    }
    if (rule.action !== undefined && fields && !fields.includes('action')) {
      return `${where} names an action, but ${ruleset.name}'s "${type}" takes none (it takes: ${fields.join(', ')}).`;
    }
    if (rule.target !== undefined && fields && !fields.includes('target')) {
      return `${where} names a target, but ${ruleset.name}'s "${type}" takes none (it takes: ${fields.join(', ')}).`;
    }
    for (const k of Object.keys(rule.with ?? {})) {
      if (fields && !fields.includes(k)) {
        return `${where} sends "${k}" with "${type}", which ${ruleset.name}'s "${type}" does not take (it takes: ${fields.join(', ')}).`;
      }
    }
    if (actor === undefined || !(schema instanceof z.ZodObject)) continue;
    // The fields as the page's form would check them (the target, resolved in play, left out).
    const probe: Record<string, unknown> = { ...rule.with };
    if (fields?.includes('actor')) probe.actor = actor;
    if (rule.action !== undefined) probe.action = rule.action;
    const parsed = schema.partial().safeParse(probe);
    if (!parsed.success)
      return `${where}: ${zodWords(parsed.error)} (as ${ruleset.name}'s "${type}" reads it).`;
  }
  return undefined;
}
