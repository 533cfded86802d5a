#!/usr/bin/env node
import { parseArgs } from 'node:util';
import v8 from 'node:v8';

// A server's garbage is short-lived (a request, a broadcast): V8's young generation grows to 32 MiB by
// default, which only adds resident memory here. Held at its first size (1 MiB semi-spaces) it is
// scavenged more often, each time in well under a millisecond, and the process keeps ~30 MiB less.
// Set before the rest of the server loads; an explicit --max-semi-space-size (node flag or NODE_OPTIONS) wins.
if (!`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`.includes('semi-space')) {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}
const { startServer } = await import('./server.js');

const HELP = `roundkeeper-server — Roundkeeper's server: the web app and its API, on an embedded SQLite database.

Usage: roundkeeper-server [options]

Options:
  --host <host>        address to listen on (env RK_HOST; default 127.0.0.1)
  --port <port>        port, 0 for any free one (env RK_PORT; default 4321)
  --data-dir <dir>     where the database file lives (env RK_DATA_DIR; default ./data)
  --database-url <url> postgres://… : keep encounters in PostgreSQL instead, shared by every
                       instance given the same URL (env RK_DATABASE_URL)
  --web-root <dir>     the web app's build (default: packages/web/dist)
  --log-level <level>  fatal, error, warn, info, debug (env RK_LOG_LEVEL; default warn)
  --rate-limit <n>     requests per client per 10 s, 0 for none (env RK_RATE_LIMIT; default 600)
  --synchronous <mode> normal: commits survive a crash of the process (default);
                       full: also a power cut, with an fsync per command
  -h, --help           show this help

Example:
  roundkeeper-server --port 8080 --data-dir ~/.roundkeeper`;

function fail(message: string): never {
  process.stderr.write(`roundkeeper-server: ${message}\n(run with --help for usage)\n`);
  process.exit(1);
}

let values: Record<string, string | boolean | undefined>;
try {
  values = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      'web-root': { type: 'string' },
      'log-level': { type: 'string' },
      'rate-limit': { type: 'string' },
      synchronous: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (values.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}

const env = process.env;
const portText = (values.port as string | undefined) ?? env.RK_PORT ?? '4321';
const port = Number(portText);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a whole number from 0 to 65535, not "${portText}".`);
const rateText = (values['rate-limit'] as string | undefined) ?? env.RK_RATE_LIMIT;
const rateLimit = rateText === undefined ? undefined : Number(rateText);
if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 0))
  fail(`--rate-limit must be a whole number ≥ 0, not "${rateText}".`);

const synchronous = (values.synchronous as string | undefined) ?? 'normal';
if (synchronous !== 'normal' && synchronous !== 'full')
  fail(`--synchronous is "normal" or "full", not "${synchronous}".`);

try {
  const server = await startServer({
    synchronous,
    host: (values.host as string | undefined) ?? env.RK_HOST ?? '127.0.0.1',
    port,
    dataDir: (values['data-dir'] as string | undefined) ?? env.RK_DATA_DIR ?? 'data',
    ...(values['web-root'] ? { webRoot: values['web-root'] as string } : {}),
    logLevel: (values['log-level'] as string | undefined) ?? env.RK_LOG_LEVEL ?? 'warn',
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    databaseUrl: (values['database-url'] as string | undefined) ?? env.RK_DATABASE_URL,
  });
  process.stdout.write(`Roundkeeper listening on ${server.url}\n`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`${signal}: closing connections and the database…\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Diagnostics: `kill -USR2 <pid>` prints memory use to stderr.
  process.on('SIGUSR2', () => {
    const spaces = Object.fromEntries(
      v8.getHeapSpaceStatistics().map((sp) => [sp.space_name, Math.round(sp.space_size / 1024)]),
    );
    process.stderr.write(`${JSON.stringify({ ...process.memoryUsage(), spacesKiB: spaces })}\n`);
  });
  process.on('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE')
    fail(`port ${port} is in use; pick another with --port (0 picks any free one).`);
  if (e.code === 'EACCES') fail(`not allowed to listen on port ${port}; pick one above 1023 with --port.`);
  fail(e.message);
}
