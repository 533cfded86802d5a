import { z } from 'zod';
import { seededDice } from './dice/rng.js';
import { createEncounter } from './engine.js';
import { createdState } from './evolve.js';
import { actionParams, commandForms } from './legal.js';
import { actionCommandOf } from './present.js';
import type { AnyRuleset, RulesetRegistry } from './ruleset.js';
import { type ActionDef, isRejection } from './types.js';

/** One option of a ruleset: its name, default, description and, where the schema says, type and choices. */
export interface RulesetOption {
  name: string;
  default: unknown;
  description: string;
  type: string | null;
  enum: unknown[] | null;
}

/** A ruleset as the API's `GET /api/rulesets` and the command line's `roundkeeper rulesets` describe it. */
export interface RulesetDescription {
  id: string;
  name: string;
  version: number;
  summary: string;
  unit: string;
  commands: string[];
  forms: ReturnType<typeof commandForms>;
  options: RulesetOption[];
  stats: unknown;
  /** The actions of a new encounter, each with the fields its command takes, resolved (`takes`). */
  catalog: Array<ActionDef & { takes: ReturnType<typeof actionParams> }>;
}

/**
 * Describes a ruleset once, for every client (the server's `GET /api/rulesets`, the command line's
 * `roundkeeper rulesets`): its commands and their forms, its options with their
 * defaults, its stats' JSON schema, and the catalog of actions a new encounter offers (read from a
 * probe encounter, since a catalog may depend on the state).
 */
export function describeRuleset(r: AnyRuleset, registry: RulesetRegistry): RulesetDescription {
  const defaults = r.optionsSchema.parse({}) as Record<string, unknown>;
  const schema = z.toJSONSchema(r.optionsSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { description?: string; type?: string; enum?: unknown[] }>;
  };
  const created = createEncounter(
    { id: 'probe', name: 'probe', ruleset: r.id, dice: seededDice(1) },
    registry,
  );
  const probe = isRejection(created) ? undefined : createdState({ seq: 1, group: 0, event: created });
  return {
    id: r.id,
    name: r.name,
    version: r.version,
    summary: r.summary,
    unit: r.clock.unit,
    commands: Object.keys(r.commands),
    forms: commandForms(r),
    options: Object.entries(schema.properties ?? {}).map(([name, p]) => ({
      name,
      default: defaults[name] ?? null,
      description: p.description ?? '',
      type: p.type ?? null,
      enum: p.enum ?? null,
    })),
    stats: z.toJSONSchema(r.statsSchema, { io: 'input', unrepresentable: 'any' }),
    catalog: (probe ? r.catalog(probe) : []).map((a) => ({
      ...a,
      takes: actionParams(r, a, probe ? actionCommandOf(r.present, probe, '', a).type : 'act'),
    })),
  };
}

/** Every ruleset of the registry, described (see describeRuleset). */
export function describeRulesets(registry: RulesetRegistry): RulesetDescription[] {
  return Object.values(registry).map((r) => describeRuleset(r, registry));
}
