import {
  type AnyRuleset,
  explainZodError,
  type Json,
  type RulesetRegistry,
  reject,
  unknownStats,
} from '@roundkeeper/engine';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { StorageBudgets } from './budget.js';
import { HubError } from './hub.js';
import { hashToken } from './links.js';
import type { CreatureRecord, Storage } from './storage/storage.js';

/**
 * The creature library: a GM's combatant templates, per ruleset (a template's stats mean something only
 * in its ruleset: a Dexterity code is nothing to a 6-second sheet), stored on the server under the
 * browser's library key (a random token the browser keeps; the server stores only its SHA-256), with a
 * few ready examples per ruleset. Routes in docs/api.md.
 */

/** How many creatures one library may hold, every ruleset together. */
export const LIBRARY_MAX = 500;
/** How many creatures one import may bring. */
export const IMPORT_MAX = 200;

const KEY = /^[A-Za-z0-9_-]{22,64}$/;

export const creatureSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    side: z.enum(['pc', 'npc']).default('npc'),
    hp: z.number().int().min(0).max(1_000_000).optional(),
    group: z.string().trim().min(1).max(80).optional(),
    hidden: z.boolean().optional(),
    notes: z.string().max(2000).optional(),
    stats: z.record(z.string(), z.json()).default({}),
  })
  .strict();
export type Creature = z.output<typeof creatureSchema>;

/** The ruleset's ready creatures (`present.creatures`), as library entries. */
export function examplesOf(rs: AnyRuleset): Creature[] {
  return (rs.present?.creatures ?? []).map((c) => ({ side: 'npc', ...c }));
}

/** A creature checked against its ruleset: its stats must be the ruleset's, by name and by value. */
export function checkCreature(rs: AnyRuleset, input: unknown): Creature {
  const parsed = creatureSchema.safeParse(input);
  if (!parsed.success)
    throw new HubError(400, reject('library/invalid', explainZodError(parsed.error, 'creature')));
  const creature = parsed.data;
  // In the words a new combatant's unknown stat is refused with, under the library's own code.
  const unknown = unknownStats(rs, creature.stats, creature.name);
  if (unknown) throw new HubError(400, { ...unknown, code: 'library/unknown-stat' });
  const stats = rs.statsSchema.safeParse(creature.stats);
  if (!stats.success) {
    throw new HubError(
      400,
      reject('library/invalid', explainZodError(stats.error, `${rs.name} stats of ${creature.name}`)),
    );
  }
  return creature;
}

function rulesetOf(registry: RulesetRegistry, id: string): AnyRuleset {
  const rs = Object.hasOwn(registry, id) ? registry[id] : undefined;
  if (!rs) {
    throw new HubError(
      404,
      reject(
        'ruleset/unknown',
        `There is no ruleset "${id}". Choose one of: ${Object.keys(registry).join(', ')}.`,
      ),
    );
  }
  return rs;
}

function ownerOf(req: FastifyRequest, required: true): string;
function ownerOf(req: FastifyRequest, required: false): string | undefined;
function ownerOf(req: FastifyRequest, required: boolean): string | undefined {
  const h = req.headers.authorization;
  const key = h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
  if (key && KEY.test(key)) return hashToken(key);
  if (!required) return undefined;
  throw new HubError(
    401,
    reject(
      'library/key',
      'A library needs its key: send the key this browser keeps (22–64 letters, digits, - or _).',
    ),
  );
}

export const libraryParams = z.object({ ruleset: z.string().min(1).max(40) });
export const creatureParams = z.object({
  ruleset: z.string().min(1).max(40),
  name: z.string().min(1).max(80),
});
export const putCreatureBody = z.object({ creature: z.unknown() }).strict();
export const importCreaturesBody = z.object({ creatures: z.array(z.unknown()).max(IMPORT_MAX) }).strict();

function parse<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const r = schema.safeParse(data);
  if (!r.success) throw new HubError(400, reject('request/invalid', explainZodError(r.error, what)));
  return r.data;
}

async function room(storage: Storage, owner: string, adding: number): Promise<void> {
  const have = await storage.countCreatures(owner);
  if (have + adding > LIBRARY_MAX) {
    throw new HubError(
      413,
      reject(
        'library/full',
        `A library holds at most ${LIBRARY_MAX} creatures; this one has ${have}. Remove some first.`,
      ),
    );
  }
}

export function registerLibrary(
  app: FastifyInstance,
  options: { storage: Storage; registry: RulesetRegistry; budgets: StorageBudgets },
): void {
  const { storage, registry, budgets } = options;
  // A library needs no link, only a key the browser makes: what it stores counts against the address's
  // and everyone's storage budgets, as a new encounter's events do, or fresh keys would store without end.
  const spend = async (req: FastifyRequest, records: CreatureRecord[]) => {
    const overBudget = budgets.refusal(req.ip, 'bytes');
    if (overBudget) throw new HubError(429, overBudget);
    await storage.putCreatures(records);
    budgets.spend(req.ip, 'bytes', JSON.stringify(records).length);
  };
  const record = (owner: string, ruleset: string, creature: Creature): CreatureRecord => ({
    owner,
    ruleset,
    name: creature.name,
    creature: creature as unknown as Json,
    updatedAt: new Date().toISOString(),
  });

  app.get('/api/library/:ruleset', async (req) => {
    const { ruleset } = parse(libraryParams, req.params, 'library');
    const rs = rulesetOf(registry, ruleset);
    const owner = ownerOf(req, false);
    const creatures = owner ? (await storage.listCreatures(owner, ruleset)).map((r) => r.creature) : [];
    return { ruleset, creatures, examples: examplesOf(rs) };
  });

  app.put('/api/library/:ruleset', async (req) => {
    const { ruleset } = parse(libraryParams, req.params, 'library');
    const rs = rulesetOf(registry, ruleset);
    const owner = ownerOf(req, true);
    const creature = checkCreature(rs, parse(putCreatureBody, req.body, 'creature').creature);
    const existing = (await storage.listCreatures(owner, ruleset)).some((r) => r.name === creature.name);
    if (!existing) await room(storage, owner, 1);
    await spend(req, [record(owner, ruleset, creature)]);
    return { creature };
  });

  app.post('/api/library/:ruleset/import', async (req) => {
    const { ruleset } = parse(libraryParams, req.params, 'library');
    const rs = rulesetOf(registry, ruleset);
    const owner = ownerOf(req, true);
    const { creatures } = parse(importCreaturesBody, req.body, 'import');
    // All or nothing: the first creature that does not fit its ruleset refuses the file, by name.
    const checked = creatures.map((x, i) => {
      try {
        return checkCreature(rs, x);
      } catch (e) {
        if (e instanceof HubError)
          throw new HubError(400, { ...e.rejection, message: `Creature ${i + 1}: ${e.rejection.message}` });
        throw e;
      }
    });
    const have = new Set((await storage.listCreatures(owner, ruleset)).map((r) => r.name));
    await room(storage, owner, new Set(checked.map((x) => x.name).filter((n) => !have.has(n))).size);
    await spend(
      req,
      checked.map((x) => record(owner, ruleset, x)),
    );
    return { added: checked.length };
  });

  app.delete('/api/library/:ruleset/:name', async (req, reply) => {
    const { ruleset, name } = parse(creatureParams, req.params, 'creature');
    rulesetOf(registry, ruleset);
    await storage.deleteCreature(ownerOf(req, true), ruleset, name);
    return reply.status(204).send();
  });
}
