import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rulesets } from '@roundkeeper/rulesets';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { PostgresFanout } from './fanout.js';
import { PostgresStorage } from './storage/postgres.js';
import { SqliteStorage } from './storage/sqlite.js';

export interface ServeOptions {
  host?: string;
  port?: number;
  dataDir?: string;
  webRoot?: string;
  logLevel?: string;
  rateLimit?: number;
  synchronous?: 'full' | 'normal';
  /** A PostgreSQL URL: encounters live there, shared with the other instances using it (not SQLite). */
  databaseUrl?: string;
}

/** The web app's production build, beside this package in the workspace. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Starts the server on an SQLite file under the data directory, or on PostgreSQL with `databaseUrl`
 * (then it hears the other instances' changes through LISTEN/NOTIFY); resolves once it listens.
 */
export async function startServer(
  opts: ServeOptions = {},
): Promise<{ app: FastifyInstance; url: string; close(): Promise<void> }> {
  const dataDir = opts.dataDir ?? 'data';
  const postgres = opts.databaseUrl ? await PostgresStorage.open(opts.databaseUrl) : undefined;
  const fanout = postgres ? await PostgresFanout.open(opts.databaseUrl!, postgres.pool) : undefined;
  const storage =
    postgres ??
    new SqliteStorage(join(dataDir, 'roundkeeper.sqlite'), {
      synchronous: opts.synchronous ?? 'normal',
    });
  const { app } = await buildApp({
    storage,
    registry: rulesets,
    webRoot: opts.webRoot ?? DEFAULT_WEB_ROOT,
    logLevel: opts.logLevel ?? 'warn',
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
    ...(fanout ? { fanout } : {}),
  });
  app.addHook('onClose', async () => {
    await fanout?.close();
    await storage.close();
  });
  const address = await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 4321 });
  const url = address.replace('[::1]', 'localhost');
  return { app, url, close: () => app.close() };
}
