import { scenarioSchema } from '@roundkeeper/engine';
import { z } from 'zod';
import {
  allowedSchema,
  combatantParam,
  commandBodySchema,
  eventsQuery,
  exportQuery,
  formSchema,
  importSchema,
  linkNameSchema,
  lookupSchema,
  patchSchema,
} from './app.js';
import {
  creatureParams,
  creatureSchema,
  IMPORT_MAX,
  importCreaturesBody,
  libraryParams,
  putCreatureBody,
} from './library.js';
import { idParam } from './request.js';
import { LIVE_ROUTE } from './transport.js';

/**
 * The API's OpenAPI 3.1 description, made from the zod schemas the routes read their bodies, parameters
 * and queries with (`z.toJSONSchema`, JSON Schema 2020-12, which is OpenAPI 3.1's own dialect): a route's
 * schema changed is its description changed. Responses are described by status and the error body; their
 * shapes are shown in docs/api.md, whose examples a test runs against a live server.
 */

type JsonSchema = { [key: string]: unknown };
type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

interface Operation {
  method: Method;
  /** Fastify's path, `:id` style. */
  path: string;
  summary: string;
  tags: string[];
  /** Who may call it: a link token (`link`), a library key (`key`, optional for reading), or anyone. */
  auth?: 'link' | 'key' | 'optional-key';
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Success status and its description. */
  ok: [number, string];
  /** The error statuses this route answers besides 400/429/500 (see docs/api.md). */
  errors?: number[];
  /** Not a plain HTTP exchange (the WebSocket upgrade). */
  upgrade?: boolean;
}

const liveQuery = z.object({
  token: z.string().min(1).describe('The link token (a browser cannot set headers on a WebSocket).'),
  after: z.coerce.number().int().min(0).optional().describe('The seq the client holds: the events since.'),
});

/** The body of every refusal: a code a script can branch on and a sentence for a person. */
export const errorSchema = z.object({
  error: z.object({
    code: z.string().describe('e.g. `request/invalid`, `link/missing`, `encounter/archived`'),
    message: z.string().describe('A sentence saying what was refused and why.'),
    details: z.record(z.string(), z.json()).optional(),
  }),
});

/** Every route the server answers, in the order docs/api.md lists them. */
export function operations(): Operation[] {
  const encounter = { params: idParam, auth: 'link' as const };
  return [
    {
      method: 'get',
      path: '/api/health',
      summary: 'Whether this instance can serve (its database answers)',
      tags: ['server'],
      ok: [200, '`{ok: true, version, database: "reachable"}`'],
      errors: [503],
    },
    {
      method: 'get',
      path: '/api/openapi.json',
      summary: 'This document',
      tags: ['server'],
      ok: [200, 'The OpenAPI 3.1 description of the API'],
    },
    {
      method: 'get',
      path: '/api/rulesets',
      summary: 'The rulesets: commands, options, stats schema and actions',
      tags: ['rulesets'],
      ok: [200, 'A list of ruleset descriptions'],
    },
    {
      method: 'post',
      path: '/api/encounters',
      summary: 'Create an encounter from the form or from a scenario file',
      tags: ['encounters'],
      body: z.union([formSchema, importSchema.extend({ scenario: scenarioSchema() })]),
      ok: [201, '`{encounter, links: {gm, table, players}, tokens: {gm, table, players}}`'],
    },
    {
      method: 'post',
      path: '/api/encounters/lookup',
      summary: 'The encounters these link tokens open, and the role each gives',
      tags: ['encounters'],
      body: lookupSchema,
      ok: [200, '`{encounters: [{encounter, role, combatants, token}]}`'],
    },
    {
      method: 'get',
      path: '/api/encounters/{id}',
      summary: "The encounter as this link's role sees it",
      tags: ['encounters'],
      ...encounter,
      ok: [200, '`{encounter, role, combatants, allowed, seq, state}`'],
      errors: [401, 404],
    },
    {
      method: 'patch',
      path: '/api/encounters/{id}',
      summary: 'Rename, archive or reactivate (GM)',
      tags: ['encounters'],
      ...encounter,
      body: patchSchema,
      ok: [200, '`{encounter}`'],
      errors: [401, 403, 404],
    },
    {
      method: 'delete',
      path: '/api/encounters/{id}',
      summary: 'Delete the encounter (GM)',
      tags: ['encounters'],
      ...encounter,
      ok: [204, 'Deleted'],
      errors: [401, 403, 404],
    },
    {
      method: 'get',
      path: '/api/encounters/{id}/events',
      summary: 'Log entries after a seq, redacted for the viewer',
      tags: ['encounters'],
      ...encounter,
      query: eventsQuery,
      ok: [200, '`{seq, entries}`'],
      errors: [401, 404],
    },
    {
      method: 'post',
      path: '/api/encounters/{id}/commands',
      summary: "Send a command of the encounter's ruleset (GM, player)",
      tags: ['encounters'],
      ...encounter,
      body: commandBodySchema.extend({
        command: z
          .object({ type: z.string() })
          .loose()
          .describe("A command of the encounter's ruleset; `GET /api/rulesets` lists them and their fields."),
      }),
      ok: [200, '`{seq, entries}`, redacted for the sender'],
      errors: [401, 403, 404, 409, 422],
    },
    {
      method: 'get',
      path: '/api/encounters/{id}/export',
      summary: 'The encounter as a scenario file that replays to the same state (GM)',
      tags: ['encounters'],
      ...encounter,
      query: exportQuery,
      ok: [200, 'The scenario, as JSON or YAML'],
      errors: [401, 403, 404],
    },
    {
      method: 'get',
      path: '/api/encounters/{id}/links',
      summary: 'Every link of the encounter (GM)',
      tags: ['links'],
      ...encounter,
      ok: [200, '`{gm, table, players: [{combatant, name, url, token, allowed}]}`'],
      errors: [401, 403, 404],
    },
    {
      method: 'post',
      path: '/api/encounters/{id}/links/revoke',
      summary: "Revoke the table's or a player's link (GM)",
      tags: ['links'],
      ...encounter,
      body: linkNameSchema,
      ok: [200, 'The links, as `GET …/links` lists them'],
      errors: [401, 403, 404],
    },
    {
      method: 'post',
      path: '/api/encounters/{id}/links/rotate',
      summary: 'Replace a link by a new token (GM)',
      tags: ['links'],
      ...encounter,
      body: linkNameSchema,
      ok: [200, 'The links, as `GET …/links` lists them, and `token`: the GM token'],
      errors: [401, 403, 404],
    },
    {
      method: 'patch',
      path: '/api/encounters/{id}/links/{combatant}',
      summary: "What a player's link may send (GM)",
      tags: ['links'],
      ...encounter,
      params: idParam.extend(combatantParam.shape),
      body: allowedSchema,
      ok: [200, '`{ok: true}`'],
      errors: [401, 403, 404],
    },
    {
      method: 'get',
      path: toOpenApiPath(LIVE_ROUTE),
      summary: 'The live WebSocket (messages in docs/api.md, "Live")',
      tags: ['live'],
      params: idParam,
      query: liveQuery,
      ok: [101, 'Switching to the WebSocket protocol'],
      errors: [401, 404],
      upgrade: true,
    },
    {
      method: 'get',
      path: '/api/library/{ruleset}',
      summary: "The library's creatures for a ruleset (none without a key) and the ready examples",
      tags: ['library'],
      auth: 'optional-key',
      params: libraryParams,
      ok: [200, '`{ruleset, creatures, examples}`'],
      errors: [404],
    },
    {
      method: 'put',
      path: '/api/library/{ruleset}',
      summary: 'Add or replace a creature, by name',
      tags: ['library'],
      auth: 'key',
      params: libraryParams,
      body: putCreatureBody.extend({ creature: creatureSchema }),
      ok: [200, '`{creature}`'],
      errors: [401, 404, 413],
    },
    {
      method: 'post',
      path: '/api/library/{ruleset}/import',
      summary: 'Add creatures, all or nothing',
      tags: ['library'],
      auth: 'key',
      params: libraryParams,
      body: importCreaturesBody.extend({ creatures: z.array(creatureSchema).max(IMPORT_MAX) }),
      ok: [200, '`{added}`'],
      errors: [401, 404, 413],
    },
    {
      method: 'delete',
      path: '/api/library/{ruleset}/{name}',
      summary: 'Remove a creature',
      tags: ['library'],
      auth: 'key',
      params: creatureParams,
      ok: [204, 'Removed'],
      errors: [401, 404],
    },
  ];
}

/** `/api/encounters/:id` → `/api/encounters/{id}`. */
export function toOpenApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed or invalid: the message names the field and why',
  401: 'No link token, or one that opens nothing here (`link/missing`, `link/invalid`, `link/revoked`)',
  403: "Not allowed for this link's role",
  404: 'Unknown',
  409: 'Conflict (an archived encounter, a concurrent change)',
  413: 'Too large (`request/too-large`: the body is over 256 KiB; `library/full`)',
  422: 'Refused by the rules: the message is their reason',
  429: 'Too many requests, or over a storage budget',
  500: 'The server failed, or its database file is damaged (`server/database-damaged`); nothing was changed',
  503: 'This instance cannot serve now (its database)',
  507: "The database's disk is full (`server/disk-full`); nothing was changed",
};

/**
 * Converts zod schemas to JSON Schema 2020-12 in one registry, so that recursive parts (`z.json()`)
 * become components referenced by `#/components/schemas/…` rather than `$defs` inside each schema.
 */
function convert(schemas: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }).schemas as Record<string, JsonSchema>;
  // zod puts what recursion shares under one `__shared` entry's `$defs`; each becomes its own component,
  // alike ones (each `z.json()` is its own recursion) merged into one.
  const shared = (out.__shared?.$defs ?? {}) as Record<string, JsonSchema>;
  delete out.__shared;
  const names = new Map<string, string>();
  const byShape = new Map<string, string>();
  const sharedRef = (name: string) => `#/components/schemas/__shared#/$defs/${name}`;
  for (const [name, schema] of Object.entries(shared)) {
    const shape = JSON.stringify(schema).replaceAll(JSON.stringify(sharedRef(name)), '"SELF"');
    const known = byShape.get(shape);
    const component = known ?? (byShape.size === 0 ? 'JsonValue' : `JsonValue${byShape.size + 1}`);
    if (!known) byShape.set(shape, component);
    names.set(sharedRef(name), `#/components/schemas/${component}`);
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      const entries = Object.entries(value).filter(([k]) => k !== '$schema' && k !== '$id');
      return Object.fromEntries(
        entries.map(([k, v]) => [
          k,
          k === '$ref' && typeof v === 'string' ? (names.get(v) ?? v) : rewrite(v),
        ]),
      );
    }
    return value;
  };
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(out)) result[id] = rewrite(schema) as JsonSchema;
  for (const [name, component] of names) {
    const id = component.slice('#/components/schemas/'.length);
    result[id] ??= rewrite(shared[name.slice(name.lastIndexOf('/') + 1)]) as JsonSchema;
  }
  return result;
}

/** The OpenAPI 3.1 document. */
export function openApiDocument(version: string): JsonSchema {
  const ops = operations();
  const named: Record<string, z.ZodType> = { Error: errorSchema };
  const bodyName = (op: Operation) =>
    `${op.method[0]!.toUpperCase()}${op.method.slice(1)}${op.path
      .replace(/^\/api/, '')
      .split(/[/{}-]+/)
      .filter(Boolean)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('')}Body`;
  for (const op of ops) {
    if (op.body) named[bodyName(op)] = op.body;
    if (op.params) named[`${bodyName(op)}Params`] = op.params;
    if (op.query) named[`${bodyName(op)}Query`] = op.query;
  }
  const schemas = convert(named);

  const parameters = (op: Operation): JsonSchema[] => {
    const list: JsonSchema[] = [];
    for (const [where, key] of [
      ['path', `${bodyName(op)}Params`],
      ['query', `${bodyName(op)}Query`],
    ] as const) {
      const schema = schemas[key];
      if (!schema) continue;
      delete schemas[key];
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      for (const [name, property] of Object.entries(properties)) {
        const { description, ...rest } = property;
        list.push({
          name,
          in: where,
          required: where === 'path' || required.has(name),
          ...(typeof description === 'string' ? { description } : {}),
          schema: rest,
        });
      }
    }
    return list;
  };

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of ops) {
    const responses: Record<string, JsonSchema> = {
      [String(op.ok[0])]: { description: op.ok[1] },
    };
    const errors = op.upgrade
      ? (op.errors ?? [])
      : [400, ...(op.errors ?? []), ...(op.body ? [413] : []), 429, 500, 507];
    for (const status of [...new Set(errors)].sort((a, b) => a - b)) {
      responses[String(status)] = {
        description: ERROR_TEXT[status] ?? 'Refused',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const operation: JsonSchema = {
      operationId: `${op.method}${bodyName(op)
        .replace(/^[A-Z][a-z]+/, '')
        .replace(/Body$/, '')}`,
      summary: op.summary,
      tags: op.tags,
      responses,
    };
    const params = parameters(op);
    if (params.length) operation.parameters = params;
    if (op.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${bodyName(op)}` } } },
      };
    }
    if (op.auth === 'link') operation.security = [{ link: [] }];
    if (op.auth === 'key') operation.security = [{ libraryKey: [] }];
    if (op.auth === 'optional-key') operation.security = [{}, { libraryKey: [] }];
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operation;
  }

  return {
    openapi: '3.1.1',
    info: {
      title: 'Roundkeeper',
      version,
      summary: 'Keeps the clock of tabletop role-playing combat: encounters, links and the live socket.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: ['server', 'rulesets', 'encounters', 'links', 'live', 'library'].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        link: {
          type: 'http',
          scheme: 'bearer',
          description: "A link's token (GM, table or player); its role decides what it may do.",
        },
        libraryKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A library key: 22–64 letters, digits, `-`, `_`, made by the browser.',
        },
      },
    },
  };
}
