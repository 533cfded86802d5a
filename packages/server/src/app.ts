import { existsSync } from 'node:fs';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import {
  combatantInputSchema,
  describeRulesets,
  isRejection,
  parseScenario,
  type RulesetRegistry,
  reject,
} from '@roundkeeper/engine';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { budgetsFor, StorageBudgets } from './budget.js';
import { DatabaseFaults } from './faults.js';
import { registerSecurityHeaders } from './headers.js';
import { Hub, HubError, type HubOptions, recordFor } from './hub.js';
import { registerLibrary } from './library.js';
import {
  checkInput,
  ENCOUNTER_LIMITS,
  encounterNameSchema,
  INPUT_LIMITS,
  scenarioRefusal,
} from './limits.js';
import { hashToken, type LinkName } from './links.js';
import { registerOpenApi } from './openapi.js';
import { errorBody, idParam, parse, tokenOf } from './request.js';
import { type Role, type Storage, StorageConflictError } from './storage/storage.js';
import { type AddressHeld, LIVE_ROUTE, registerLiveSocket } from './transport.js';
import { readWebIndex } from './web-index.js';

export interface AppOptions extends HubOptions {
  storage: Storage;
  registry: RulesetRegistry;
  /** Folder of the web app's production build; served with SPA fallback when present. */
  webRoot?: string;
  /** Requests per client per 10 s (0 = no limit). Default 600. */
  rateLimit?: number;
  /**
   * WebSocket messages per connection: a token bucket of `wsBurst` messages (default 30) refilled at
   * `wsRate` a second (default 50). A GM playing fast never empties it; a flood is refused. 0 = no limit.
   */
  wsRate?: number;
  wsBurst?: number;
  /** Encounters one client may create per window (ten times that overall); 0 = no storage budgets. */
  encounterBudget?: number;
  logLevel?: string;
  /** Heartbeat interval for WebSockets (ms). Default 15 s. */
  heartbeatMs?: number;
  /**
   * Bytes written and not yet sent that one live socket, and all the sockets of one address together,
   * may hold (defaults CONNECTION_LIMITS.heldBytes and addressHeldBytes).
   */
  heldBytes?: number;
  addressHeldBytes?: number;
  version?: string;
  /** Where share links point, given the origin the request came to (default: that origin). */
  linkOrigin?: (requestOrigin: string) => string;
  /**
   * The load balancer's addresses (or CIDR ranges). A request from one of them is the client's it names
   * in X-Forwarded-For (the per-address limits count that client) and X-Forwarded-Proto (links' scheme).
   */
  trustProxy?: string[];
  /** Origins that may embed the table's and players' pages in a frame (see headers.ts). */
  frameAncestors?: readonly string[];
}

export const importSchema = z.object({ scenario: z.unknown() }).strict();
export const formSchema = z
  .object({
    name: encounterNameSchema,
    ruleset: z.string().min(1).max(40),
    options: z.record(z.string(), z.json()).optional(),
    seed: z
      .number()
      .int()
      .min(-(2 ** 31))
      .max(2 ** 31 - 1)
      .optional(),
    combatants: z.array(combatantInputSchema).max(ENCOUNTER_LIMITS.combatants).optional(),
  })
  .strict();

/**
 * A new encounter's body: an import when it has a `scenario`, else the form. Read by the one schema it
 * means, so a refusal names the field and why ("name: Too small…"), not the union's "Invalid input".
 */
function createBody(body: unknown): z.output<typeof importSchema> | z.output<typeof formSchema> {
  const isImport = typeof body === 'object' && body !== null && Object.hasOwn(body, 'scenario');
  return isImport ? parse(importSchema, body, 'import') : parse(formSchema, body, 'new encounter');
}
export const lookupSchema = z.object({ tokens: z.array(z.string().max(100)).max(200) }).strict();
export const patchSchema = z
  .object({
    name: encounterNameSchema.optional(),
    status: z.enum(['active', 'archived']).optional(),
  })
  .strict();
export const commandBodySchema = z.object({ command: z.unknown() }).strict();
export const allowedSchema = z.object({ allowed: z.array(z.string().min(1).max(40)).max(50) }).strict();
/** Revoking or rotating a link: the GM names it as {link: 'gm' | 'table'} or {link: 'player', combatant}. */
export const linkNameSchema = z.discriminatedUnion('link', [
  z.object({ link: z.literal('gm') }).strict(),
  z.object({ link: z.literal('table') }).strict(),
  z.object({ link: z.literal('player'), combatant: z.string().min(1).max(64) }).strict(),
]);
export const eventsQuery = z.object({ after: z.coerce.number().int().min(0).default(0) }).passthrough();
export const exportQuery = z.object({ format: z.enum(['json', 'yaml']).default('json') }).passthrough();
export const combatantParam = z.object({ combatant: z.string().min(1).max(64) }).passthrough();
/** How long a live connection has to answer the server's close on shutdown. */
const SHUTDOWN_GRACE_MS = 1_000;

const tooLargeBody = () =>
  reject(
    'request/too-large',
    `The request body is too large (the limit is ${INPUT_LIMITS.bodyBytes / 1024} KiB).`,
  );

/** Builds the server: the API, the live WebSocket, and the web app's static files. */
export async function buildApp(
  options: AppOptions,
): Promise<{ app: FastifyInstance; hub: Hub; addressHeld: AddressHeld }> {
  const hub = new Hub(options.storage, options.registry, options);
  const budgets = new StorageBudgets(budgetsFor(options.encounterBudget));
  const faults = new DatabaseFaults();
  const app = Fastify({
    bodyLimit: INPUT_LIMITS.bodyBytes,
    ...(options.trustProxy?.length ? { trustProxy: options.trustProxy } : {}),
    logger: {
      level: options.logLevel ?? 'info',
      // Tokens travel in the Authorization header and in ?token=: neither is ever logged.
      serializers: {
        req: (req: FastifyRequest) => ({ method: req.method, url: req.url.split('?')[0] }),
      },
    },
  });

  // A client that asks before sending its body (`Expect: 100-continue`, as curl does past 1 KiB) is told
  // a body over the limit is too large before it sends it: Node's own answer let it send the body, which
  // the connection then dropped unread (a reset instead of 413).
  app.server.on('checkContinue', (req, res) => {
    const length = Number(req.headers['content-length']);
    if (Number.isFinite(length) && length > INPUT_LIMITS.bodyBytes) {
      const body = JSON.stringify(errorBody(tooLargeBody()));
      res.writeHead(413, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        connection: 'close',
      });
      res.end(body);
      return;
    }
    res.writeContinue();
    app.server.emit('request', req, res);
  });

  // The API speaks JSON only.
  app.removeContentTypeParser('text/plain');
  // Plain JSON.parse, as for socket messages: checkInput (below) then refuses a `__proto__` key with the
  // same sentence for both transports (the default parser's refusal read as malformed JSON).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (body === '') {
      done(Object.assign(new Error('empty'), { statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' }));
      return;
    }
    try {
      done(null, JSON.parse(body as string));
    } catch (error) {
      done(Object.assign(error as Error, { statusCode: 400 }));
    }
  });

  await registerSecurityHeaders(app, {
    storage: options.storage,
    ...(options.frameAncestors ? { frameAncestors: options.frameAncestors } : {}),
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (error instanceof HubError) return reply.status(error.status).send(errorBody(error.rejection));
    if (error instanceof StorageConflictError) {
      return reply.status(409).send(errorBody(reject('encounter/conflict', error.message)));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply
        .status(429)
        .send(
          errorBody(
            reject(
              'request/rate-limited',
              'Too many requests from this client; wait a few seconds and try again.',
            ),
          ),
        );
    }
    if (status < 500) {
      const messages: Record<string, [string, string]> = {
        FST_ERR_CTP_BODY_TOO_LARGE: [tooLargeBody().code, tooLargeBody().message],
        FST_ERR_CTP_INVALID_MEDIA_TYPE: [
          'request/media-type',
          'Send JSON with the header Content-Type: application/json.',
        ],
        FST_ERR_CTP_EMPTY_JSON_BODY: ['request/empty', 'The request body is empty; send a JSON object.'],
        FST_ERR_CTP_INVALID_JSON_BODY: [
          'request/malformed-json',
          `The body is not valid JSON: ${error.message}`,
        ],
      };
      const [code, message] = messages[error.code ?? ''] ?? [
        error instanceof SyntaxError ? 'request/malformed-json' : 'request/invalid',
        error instanceof SyntaxError ? `The body is not valid JSON: ${error.message}` : error.message,
      ];
      return reply.status(status).send(errorBody(reject(code, message)));
    }
    const fault = faults.refusal(error);
    if (fault) {
      req.log.error({ err: error }, 'database fault');
      return reply.status(fault.status).send(errorBody(fault.rejection));
    }
    req.log.error({ err: error }, 'unexpected error');
    return reply
      .status(500)
      .send(
        errorBody(
          reject('server/internal', 'Something went wrong on the server; nothing was changed. Try again.'),
        ),
      );
  });

  // Every JSON body, before any route reads it: the same check as for WebSocket messages.
  app.addHook('preValidation', async (req) => {
    const refused = checkInput(req.body, 'request body');
    if (refused) throw new HubError(400, refused);
  });

  // On shutdown every live connection is told the server is going away (1001), before the socket
  // plugin's own pre-close step closes what is left without a code (clients saw 1005).
  app.addHook('preClose', (done) => {
    hub.closeAll();
    const server = (app as { websocketServer?: { clients: Set<import('ws').WebSocket> } }).websocketServer;
    for (const client of server?.clients ?? []) client.close(1001, 'closing');
    // A client that does not read never answers the close: it is cut off after a second rather than
    // holding the shutdown for ws's 30 s. So is every HTTP connection still open then: Node's close()
    // ends only idle ones, and waits its header timeout (~60 s) for a connection a browser opened ahead
    // of need or a request whose headers never end. A request under way has had its second.
    setTimeout(() => {
      for (const client of server?.clients ?? []) client.terminate();
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
    done();
  });
  await app.register(websocket, { options: { maxPayload: INPUT_LIMITS.socketFrameBytes } });
  // An upgrade anywhere but the live route is refused before it is upgraded (the plugin upgraded it,
  // closed it, and then waited ~30 s for the client's close, outside the per-address cap).
  app.addHook('onRequest', async (req, reply) => {
    if (!req.ws || req.routeOptions.url === LIVE_ROUTE) return;
    return reply
      .status(404)
      .header('connection', 'close')
      .send(
        errorBody(
          reject(
            'live/not-here',
            `There is no live connection at ${req.url.split('?')[0]}; it is at /api/encounters/<id>/live.`,
          ),
        ),
      );
  });
  const limit = options.rateLimit ?? 600;
  if (limit > 0) {
    // Each link has its own budget (players behind one home router share an address), but a client
    // cannot multiply its budget by inventing tokens: everything from one address together gets at most
    // four links' worth per window.
    const perAddress = limit * 4;
    let window = new Map<string, number>();
    const reset = setInterval(() => {
      window = new Map();
    }, 10_000);
    reset.unref();
    app.addHook('onClose', async () => clearInterval(reset));
    app.addHook('onRequest', async (req, reply) => {
      const n = (window.get(req.ip) ?? 0) + 1;
      window.set(req.ip, n);
      if (n > perAddress) {
        reply.header('retry-after', '10');
        throw Object.assign(new Error('rate limited'), { statusCode: 429 });
      }
    });
    await app.register(rateLimit, {
      max: limit,
      timeWindow: 10_000,
      // The web app's own files (a page, its chunks, icons, the service worker's precache) are not counted
      // against a link's budget: one page load asks for dozens of them, and a table's devices behind one
      // router load at once. They still count toward the address's cap above.
      allowList: (req) => isWebFile(req),
      keyGenerator: (req) => {
        const t = tokenOf(req);
        return t ? `t:${hashToken(t).slice(0, 16)}` : `ip:${req.ip}`;
      },
    });
  }

  const base = (req: FastifyRequest) => {
    const origin = `${req.protocol}://${req.host}`;
    return options.linkOrigin ? options.linkOrigin(origin) : origin;
  };
  const pageUrl = (req: FastifyRequest, id: string, token: string) => `${base(req)}/e/${id}?token=${token}`;

  // The API's OpenAPI description; registered before the API's routes so that it sees each of them.
  registerOpenApi(app, { version: options.version ?? '0.1.0' });

  // Whether this instance can serve: a load balancer takes it out while its database is unreachable.
  app.get('/api/health', async (_req, reply) => {
    const version = options.version ?? '0.1.0';
    const reachable = await Promise.race([
      options.storage.ping().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref()),
    ]);
    if (!reachable) return reply.status(503).send({ ok: false, version, database: 'unreachable' });
    // Reachable, yet the requests of the last minute met a full disk or a damaged file.
    const fault = faults.current();
    if (fault) return reply.status(503).send({ ok: false, version, database: fault });
    return { ok: true, version, database: 'reachable' };
  });
  registerLibrary(app, { ...options, budgets });

  // The same for every request (the registry does not change): built once, on the first.
  let rulesetList: unknown;
  app.get('/api/rulesets', async () => {
    rulesetList ??= describeRulesets(options.registry);
    return rulesetList;
  });

  app.post('/api/encounters', async (req, reply) => {
    const body = createBody(req.body);
    const overBudget = budgets.refusal(req.ip, 'encounters') ?? budgets.refusal(req.ip, 'bytes');
    if (overBudget) throw new HubError(429, overBudget);
    // Counted when tried, not when it succeeds: an import the rules refuse halfway still cost its work.
    budgets.spend(req.ip, 'encounters', 1);
    let created: Awaited<ReturnType<Hub['create']>>;
    if ('scenario' in body) {
      const scenario = parseScenario(body.scenario);
      if (isRejection(scenario)) throw new HubError(400, scenario);
      const tooLarge = scenarioRefusal(scenario);
      if (tooLarge) throw new HubError(400, tooLarge);
      if (!options.registry[scenario.ruleset]) {
        throw new HubError(
          400,
          reject(
            'ruleset/unknown',
            `There is no ruleset "${scenario.ruleset}". Choose one of: ${Object.keys(options.registry).join(', ')}.`,
          ),
        );
      }
      created = await hub.create({ scenario });
    } else {
      if (!options.registry[body.ruleset]) {
        throw new HubError(
          400,
          reject(
            'ruleset/unknown',
            `There is no ruleset "${body.ruleset}". Choose one of: ${Object.keys(options.registry).join(', ')}.`,
          ),
        );
      }
      const input: Parameters<Hub['create']>[0] = { name: body.name, ruleset: body.ruleset };
      if (body.options) input.options = body.options;
      if (body.seed !== undefined) input.seed = body.seed;
      if (body.combatants) input.combatants = body.combatants;
      created = await hub.create(input);
    }
    budgets.spend(req.ip, 'bytes', created.stored);
    const { record, tokens } = created;
    const players: Record<string, string> = {};
    for (const [cid, t] of Object.entries(tokens.players)) players[cid] = pageUrl(req, record.id, t);
    return reply.status(201).send({
      encounter: record,
      links: {
        gm: pageUrl(req, record.id, tokens.gm),
        table: pageUrl(req, record.id, tokens.table),
        players,
      },
      tokens,
    });
  });

  app.post('/api/encounters/lookup', async (req) => {
    const { tokens } = parse(lookupSchema, req.body, 'lookup');
    const out = [];
    for (const t of tokens) {
      const link = /^[A-Za-z0-9_-]{16,64}$/.test(t)
        ? await options.storage.findLink(hashToken(t))
        : undefined;
      if (!link) continue;
      const record = await options.storage.getEncounter(link.encounterId);
      if (record) {
        out.push({
          encounter: recordFor(record, link.role),
          role: link.role,
          combatants: link.combatants,
          token: t,
        });
      }
    }
    return { encounters: out };
  });

  app.get('/api/encounters/:id', async (req) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const link = await hub.link(tokenOf(req), id);
    const { record, seq, state } = await hub.snapshotFor(id, link);
    return {
      encounter: recordFor(record, link.role),
      role: link.role,
      combatants: link.combatants,
      allowed: link.allowed,
      seq,
      state,
    };
  });

  app.patch('/api/encounters/:id', async (req) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const link = await hub.link(tokenOf(req), id);
    hub.requireGm(link);
    const patch = parse(patchSchema, req.body, 'change');
    const p: { name?: string; status?: 'active' | 'archived' } = {};
    if (patch.name !== undefined) p.name = patch.name;
    if (patch.status !== undefined) p.status = patch.status;
    return { encounter: await hub.update(id, p) };
  });

  app.delete('/api/encounters/:id', async (req, reply) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const link = await hub.link(tokenOf(req), id);
    hub.requireGm(link);
    await hub.delete(id);
    return reply.status(204).send();
  });

  app.get('/api/encounters/:id/events', async (req, reply) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const link = await hub.link(tokenOf(req), id);
    const q = parse(eventsQuery, req.query, 'query');
    return reply.type('application/json; charset=utf-8').send(await hub.eventsSinceJson(id, link, q.after));
  });

  app.post('/api/encounters/:id/commands', async (req) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const link = await hub.link(tokenOf(req), id);
    const { command } = parse(commandBodySchema, req.body, 'command request');
    const overBudget = budgets.refusal(req.ip, 'bytes');
    if (overBudget) throw new HubError(429, overBudget);
    const { seq, entries, stored } = await hub.command(id, link, command);
    budgets.spend(req.ip, 'bytes', stored);
    return { seq, entries };
  });

  app.get('/api/encounters/:id/export', async (req, reply) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const link = await hub.link(tokenOf(req), id);
    hub.requireGm(link);
    const q = parse(exportQuery, req.query, 'query');
    const scenario = await hub.exportScenario(id);
    if (q.format === 'yaml') {
      // Loaded on the first export: the YAML library is ~9 MB resident a server need not hold until then.
      const { scenarioYaml } = await import('./export-yaml.js');
      return reply.type('application/yaml; charset=utf-8').send(await scenarioYaml(scenario));
    }
    return scenario;
  });

  app.get('/api/encounters/:id/links', async (req) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const token = tokenOf(req);
    const link = await hub.link(token, id);
    hub.requireGm(link);
    return linksBody(req, id, await hub.links(id, token!));
  });

  const linksBody = (req: FastifyRequest, id: string, links: Awaited<ReturnType<Hub['links']>>) => ({
    gm: pageUrl(req, id, links.gm),
    table: links.table === null ? null : pageUrl(req, id, links.table),
    players: links.players.map((p) => (p.token ? { ...p, url: pageUrl(req, id, p.token) } : p)),
  });

  const linkName = (body: unknown): LinkName => {
    const named = parse(linkNameSchema, body, 'link to change');
    return named.link === 'player' ? { role: 'player', combatant: named.combatant } : { role: named.link };
  };

  app.post('/api/encounters/:id/links/revoke', async (req) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const token = tokenOf(req);
    hub.requireGm(await hub.link(token, id));
    await hub.revokeLink(id, token!, linkName(req.body));
    return linksBody(req, id, await hub.links(id, token!));
  });

  app.post('/api/encounters/:id/links/rotate', async (req) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const token = tokenOf(req);
    hub.requireGm(await hub.link(token, id));
    const gm = await hub.rotateLink(id, token!, linkName(req.body));
    return { ...linksBody(req, id, await hub.links(id, gm)), token: gm };
  });

  app.patch('/api/encounters/:id/links/:combatant', async (req) => {
    const { id } = parse(idParam, req.params, 'encounter id');
    const combatant = parse(combatantParam, req.params, 'combatant').combatant;
    const token = tokenOf(req);
    const link = await hub.link(token, id);
    hub.requireGm(link);
    const { allowed } = parse(allowedSchema, req.body, 'link change');
    await hub.setAllowed(id, token!, combatant, allowed);
    return { ok: true };
  });

  const addressHeld = registerLiveSocket(app, {
    hub,
    faults,
    budgets,
    wsRate: options.wsRate ?? 50,
    wsBurst: options.wsBurst ?? 30,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    ...(options.heldBytes !== undefined ? { heldBytes: options.heldBytes } : {}),
    ...(options.addressHeldBytes !== undefined ? { addressHeldBytes: options.addressHeldBytes } : {}),
  });

  // The web app: static files with a fallback to index.html for its own routes. An encounter's page
  // (`/e/<id>?token=…`) names its ruleset's chunks and its role's screen's for the browser to preload
  // (web-index.ts).
  const webRoot = options.webRoot;
  const index = webRoot ? join(webRoot, 'index.html') : undefined;
  if (webRoot && index && existsSync(index)) {
    await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: ['index.html'] });
  }
  // Read once at start-up (and at the first request after a build, when the app was not built yet).
  let web = webRoot ? readWebIndex(webRoot) : undefined;
  const webIndex = () => {
    if (!web && webRoot) web = readWebIndex(webRoot);
    return web;
  };
  /** The ruleset of the encounter a page's address names and the link's role, when its token is valid for it. */
  const encounterOfPage = async (url: string): Promise<{ ruleset?: string; role?: Role }> => {
    const { pathname, searchParams } = new URL(url, 'http://page');
    const m = /^\/e\/([^/]+)\/?$/.exec(pathname);
    const token = searchParams.get('token');
    if (!m || !token) return {};
    try {
      const id = decodeURIComponent(m[1]!);
      const link = await hub.link(token, id);
      const ruleset = (await options.storage.getEncounter(link.encounterId))?.ruleset;
      return ruleset !== undefined ? { ruleset, role: link.role } : {};
    } catch {
      // A bad link or address gets the plain page, which says what is wrong.
      return {};
    }
  };
  app.setNotFoundHandler(async (req, reply: FastifyReply) => {
    if (req.url.startsWith('/api/') || req.method !== 'GET') {
      return reply
        .status(404)
        .send(
          errorBody(reject('request/not-found', `There is no ${req.method} ${req.url.split('?')[0]} here.`)),
        );
    }
    const page = webIndex();
    if (page) {
      const { ruleset, role } = await encounterOfPage(req.url);
      return reply.type('text/html; charset=utf-8').send(page.page(ruleset, role));
    }
    return reply
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><title>Roundkeeper</title><p>Roundkeeper is running. The web app is not built yet: run <code>npm run build</code>.</p>',
      );
  });

  // Encounters nobody watches leave memory (hub.sweep): memory follows the live encounters, not the stored ones.
  const sweeper = setInterval(() => hub.sweep(), 1_000);
  sweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    hub.closeAll();
  });
  return { app, hub, addressHeld };
}

/** A GET or HEAD of the web app's files (anything outside `/api/`): cheap, and no link's budget. */
export function isWebFile(req: Pick<FastifyRequest, 'method' | 'url'>): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/') && req.url !== '/api'
  );
}
