import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rulesets } from '@roundkeeper/rulesets';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { PostgresFanout } from './fanout.js';
import { lanAddresses, linkOrigin } from './network.js';
import { PostgresStorage } from './storage/postgres.js';
import { SqliteStorage } from './storage/sqlite.js';

export interface ServeOptions {
  host?: string;
  port?: number;
  dataDir?: string;
  webRoot?: string;
  logLevel?: string;
  rateLimit?: number;
  /** Messages a second on one live connection, after a burst (0 = no limit; default 50). */
  socketRate?: number;
  /** Encounters one address may create per 10 minutes (ten times that overall); 0 = no storage budgets. */
  encounterBudget?: number;
  synchronous?: 'full' | 'normal';
  /** Listen on every network of this machine (unless `host` says otherwise) and point links at a LAN address. */
  lan?: boolean;
  /** The origin share links point at (a hosted server behind a proxy): `https://rk.example.org`. */
  publicUrl?: string;
  /** A PostgreSQL URL: encounters live there, shared with the other instances using it (not SQLite). */
  databaseUrl?: string;
  /** The load balancer's addresses (or CIDR ranges): requests from them are the client's they forward. */
  trustProxy?: string[];
  /** Origins that may embed the table's and players' pages (default: none, every page DENY). */
  frameAncestors?: string[];
}

export interface RunningServer {
  app: FastifyInstance;
  /** The URL to open on this machine. */
  url: string;
  /** With `lan`: the URLs other devices on the local network can open, the likeliest first. */
  lanUrls: string[];
  close(): Promise<void>;
}

/** The web app's production build, beside this package in the workspace. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Starts the server on an SQLite file under the data directory, or on PostgreSQL with `databaseUrl`
 * (then it hears the other instances' changes through LISTEN/NOTIFY); resolves once it listens.
 */
export async function startServer(opts: ServeOptions = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? 'data';
  const postgres = opts.databaseUrl ? await PostgresStorage.open(opts.databaseUrl) : undefined;
  const fanout = postgres ? await PostgresFanout.open(opts.databaseUrl!, postgres.pool) : undefined;
  const storage =
    postgres ??
    new SqliteStorage(join(dataDir, 'roundkeeper.sqlite'), {
      synchronous: opts.synchronous ?? 'normal',
    });
  // Known once the server listens (the port may be 0 until then); links are built per request.
  let lanOrigin: string | undefined;
  const { app } = await buildApp({
    storage,
    registry: rulesets,
    webRoot: opts.webRoot ?? DEFAULT_WEB_ROOT,
    logLevel: opts.logLevel ?? 'warn',
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
    ...(opts.socketRate !== undefined ? { wsRate: opts.socketRate } : {}),
    ...(opts.encounterBudget !== undefined ? { encounterBudget: opts.encounterBudget } : {}),
    linkOrigin: (requestOrigin) => linkOrigin(requestOrigin, { publicUrl: opts.publicUrl, lanOrigin }),
    ...(fanout ? { fanout } : {}),
    ...(opts.trustProxy ? { trustProxy: opts.trustProxy } : {}),
    ...(opts.frameAncestors ? { frameAncestors: opts.frameAncestors } : {}),
  });
  app.addHook('onClose', async () => {
    await fanout?.close();
    await storage.close();
  });
  const host = opts.host ?? (opts.lan ? '0.0.0.0' : '127.0.0.1');
  const address = await app.listen({ host, port: opts.port ?? 4321 });
  const url = address.replace('[::1]', 'localhost');
  const port = new URL(url).port;
  const lanUrls = opts.lan ? lanAddresses().map((a) => `http://${a.address}:${port}`) : [];
  lanOrigin = lanUrls[0];
  return { app, url, lanUrls, close: () => app.close() };
}
