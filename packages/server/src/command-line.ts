import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { parsePublicUrl } from './network.js';
import type { ServeOptions } from './server.js';

// The server's one command line: `npx roundkeeper serve`, `npm start` and packages/server/dist/main.js all
// come here. Only node's own modules are imported above: the server itself loads in `serveCommandLine`,
// after the memory settings are in place.

export const SERVER_HELP = `roundkeeper serve — the server: the web app and its API, on an embedded SQLite database.

Usage: roundkeeper serve [options]     (in the clone: npx roundkeeper serve; npm start -- [options]
                                      is the same server)

Options (each can also be set in the environment variable named; a flag wins):
  --port <port>         port, 0 for any free one (RK_PORT or PORT; default 4321)
  --host <host>         address to listen on (RK_HOST or HOST; default 127.0.0.1)
  --lan                 listen on the local network so that players join from their phones on the
                        same Wi-Fi: prints the addresses they can open, and share links point there
                        (RK_LAN=1)
  --public-url <url>    where players reach a hosted server, e.g. behind a proxy: share links point
                        there, e.g. https://rk.example.org (RK_PUBLIC_URL)
  --data-dir <dir>      where the database file lives (RK_DATA_DIR; default ./data)
  --database-url <url>  postgres://… : keep encounters in PostgreSQL instead, shared by every
                        instance given the same URL (RK_DATABASE_URL; see docs/deploy.md)
  --trust-proxy <addresses>
                        the load balancer's addresses, comma-separated (CIDR ranges too, e.g.
                        10.0.0.0/8): requests through them count against the per-address limits
                        by the client address it forwards (RK_TRUST_PROXY; see docs/deploy.md)
  --frame-ancestors <origins>
                        origins (comma-separated) whose pages may embed the table's and the players'
                        pages in a frame, e.g. a streaming scene or a virtual tabletop; the GM's
                        page and the rest are never framed (RK_FRAME_ANCESTORS; default: none)
  --web-root <dir>      the web app's build (RK_WEB_ROOT; default packages/web/dist)
  --log-level <level>   fatal, error, warn, info or debug (RK_LOG_LEVEL; default warn)
  --rate-limit <n>      requests per client per 10 s, 0 for none (RK_RATE_LIMIT; default 600)
  --socket-rate <n>     messages a second on one live connection, after a burst of 30; 0 for no
                        limit (RK_SOCKET_RATE; default 50)
  --encounter-budget <n>
                        encounters one address may create in 10 minutes, ten times that for all;
                        0 for no storage budgets (RK_ENCOUNTER_BUDGET; default 100)
  --synchronous <mode>  normal: commits survive a crash of the process (default);
                        full: also a power cut, with an fsync per command (RK_SYNCHRONOUS)
  --json                a refusal to start as JSON on stderr, as the API's errors:
                        {"error": {"code": "usage/invalid-option", "message": "…"}}
  -h, --help            show this help

Memory: the server holds V8's young generation at its first size (~30 MB less resident memory; a
--max-semi-space-size in NODE_OPTIONS wins) and lets its old generation grow 20 % past what is live
(8 MB at least) before collecting it (~10 MB less after a burst of requests; a node flag
--heap-growing-percent wins); \`npx roundkeeper serve\` and \`npm start\` set MALLOC_ARENA_MAX=2
(~10 MB less) and MALLOC_MMAP_THRESHOLD_=32768 (~3–5 MB less) unless they are set already: set them
yourself when you start packages/server/dist/main.js another way.

Stop with Ctrl-C: open connections and the database close cleanly.

Examples:
  $ roundkeeper serve
  $ npm start -- --lan
  $ roundkeeper serve --port 8080 --data-dir ~/.roundkeeper
  $ PORT=8080 RK_PUBLIC_URL=https://rk.example.org roundkeeper serve`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug'];

/** A command line the server cannot start from, with the sentence that says why. */
export class ServerUsageError extends Error {}

/** The first of these environment variables that is set and not empty. */
function fromEnv(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/**
 * Reads the server's flags and environment variables: a flag wins over its `RK_*` variable, which wins
 * over the conventional `PORT`/`HOST`. Returns `help` for -h/--help.
 */
export function parseServerCommandLine(args: string[], env: NodeJS.ProcessEnv): ServeOptions | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        lan: { type: 'boolean' },
        'public-url': { type: 'string' },
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        'trust-proxy': { type: 'string' },
        'frame-ancestors': { type: 'string' },
        'web-root': { type: 'string' },
        'log-level': { type: 'string' },
        'rate-limit': { type: 'string' },
        'socket-rate': { type: 'string' },
        'encounter-budget': { type: 'string' },
        synchronous: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new ServerUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const flag = (name: string) => values[name] as string | undefined;
  /** What a refusal calls a setting: its flag, or the environment variable it came from (PORT=99999). */
  const named = (name: string, ...envNames: string[]) =>
    flag(name) !== undefined
      ? `--${name}`
      : (envNames.find((v) => env[v] !== undefined && env[v] !== '') ?? `--${name}`);

  const portText = flag('port') ?? fromEnv(env, 'RK_PORT', 'PORT') ?? '4321';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new ServerUsageError(
      `${named('port', 'RK_PORT', 'PORT')} must be a whole number from 0 to 65535, not "${portText}".`,
    );

  const lanText = fromEnv(env, 'RK_LAN');
  if (lanText !== undefined && lanText !== '1' && lanText !== '0')
    throw new ServerUsageError(`RK_LAN is 1 (listen on the local network) or 0, not "${lanText}".`);
  const lan = values.lan === true || lanText === '1';
  if (lan && flag('host') !== undefined)
    throw new ServerUsageError(
      '--lan listens on every network of this machine; leave out --host, or leave out --lan to listen on one address.',
    );
  // With --lan a host from the environment does not narrow it back to one address.
  const host = lan ? undefined : (flag('host') ?? fromEnv(env, 'RK_HOST', 'HOST') ?? '127.0.0.1');

  const publicText = flag('public-url') ?? fromEnv(env, 'RK_PUBLIC_URL');
  let publicUrl: string | undefined;
  if (publicText !== undefined) {
    const parsed = parsePublicUrl(publicText);
    if ('error' in parsed) throw new ServerUsageError(parsed.error);
    publicUrl = parsed.origin;
  }

  const logLevel = flag('log-level') ?? fromEnv(env, 'RK_LOG_LEVEL') ?? 'warn';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ServerUsageError(
      `${named('log-level', 'RK_LOG_LEVEL')} must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}".`,
    );

  const rateText = flag('rate-limit') ?? fromEnv(env, 'RK_RATE_LIMIT');
  const rateLimit = rateText === undefined ? undefined : Number(rateText);
  if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 0))
    throw new ServerUsageError(
      `${named('rate-limit', 'RK_RATE_LIMIT')} must be a whole number ≥ 0, not "${rateText}".`,
    );

  const budgetText = flag('encounter-budget') ?? fromEnv(env, 'RK_ENCOUNTER_BUDGET');
  const encounterBudget = budgetText === undefined ? undefined : Number(budgetText);
  if (encounterBudget !== undefined && (!Number.isInteger(encounterBudget) || encounterBudget < 0))
    throw new ServerUsageError(
      `${named('encounter-budget', 'RK_ENCOUNTER_BUDGET')} must be a whole number ≥ 0, not "${budgetText}".`,
    );
  const socketText = flag('socket-rate') ?? fromEnv(env, 'RK_SOCKET_RATE');
  const socketRate = socketText === undefined ? undefined : Number(socketText);
  if (socketRate !== undefined && (!Number.isInteger(socketRate) || socketRate < 0))
    throw new ServerUsageError(
      `${named('socket-rate', 'RK_SOCKET_RATE')} must be a whole number ≥ 0, not "${socketText}".`,
    );

  const synchronous = flag('synchronous') ?? fromEnv(env, 'RK_SYNCHRONOUS') ?? 'normal';
  if (synchronous !== 'normal' && synchronous !== 'full')
    throw new ServerUsageError(
      `${named('synchronous', 'RK_SYNCHRONOUS')} is "normal" or "full", not "${synchronous}".`,
    );

  const trustText = flag('trust-proxy') ?? fromEnv(env, 'RK_TRUST_PROXY');
  const trustProxy = trustText === undefined ? undefined : proxyAddresses(trustText);

  const ancestorsText = flag('frame-ancestors') ?? fromEnv(env, 'RK_FRAME_ANCESTORS');
  const frameAncestors = ancestorsText === undefined ? undefined : origins(ancestorsText);

  const webRoot = flag('web-root') ?? fromEnv(env, 'RK_WEB_ROOT');
  const databaseUrl = flag('database-url') ?? fromEnv(env, 'RK_DATABASE_URL');
  return {
    ...(host !== undefined ? { host } : {}),
    port,
    lan,
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    dataDir: flag('data-dir') ?? fromEnv(env, 'RK_DATA_DIR') ?? 'data',
    ...(webRoot !== undefined ? { webRoot } : {}),
    logLevel,
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...(socketRate !== undefined ? { socketRate } : {}),
    ...(encounterBudget !== undefined ? { encounterBudget } : {}),
    synchronous,
    ...(databaseUrl !== undefined ? { databaseUrl } : {}),
    ...(trustProxy !== undefined ? { trustProxy } : {}),
    ...(frameAncestors !== undefined ? { frameAncestors } : {}),
  };
}

/** The origins that may embed the table's and players' pages (`https://obs.example,https://vtt.example`). */
function origins(text: string): string[] {
  const entries = text
    .split(/[,\s]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0)
    throw new ServerUsageError(
      '--frame-ancestors needs the origins that may embed the pages, e.g. https://vtt.example.',
    );
  return entries.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const bare = entry.replace(/\/$/, '');
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== bare)
      throw new ServerUsageError(
        `--frame-ancestors takes origins such as https://vtt.example or http://localhost:8080 (no path), separated by commas; "${entry}" is not one.`,
      );
    return url.origin;
  });
}

/** The load balancer's addresses and ranges (`10.0.0.11,10.0.1.0/24`), each checked. */
function proxyAddresses(text: string): string[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0)
    throw new ServerUsageError(
      "--trust-proxy needs the load balancer's addresses, e.g. 127.0.0.1 or 10.0.0.0/8.",
    );
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || extra !== undefined)
      throw new ServerUsageError(
        `--trust-proxy takes addresses or ranges of addresses such as 127.0.0.1 or 10.0.0.0/8, separated by commas; "${entry}" is neither.`,
      );
  }
  return entries;
}

/**
 * A server's garbage is short-lived (a request, a broadcast): V8's young generation grows to 32 MiB by
 * default, which only adds resident memory here. Held at its first size (1 MiB semi-spaces) it is
 * scavenged more often, each time in well under a millisecond, and the process keeps ~30 MiB less.
 * It must be set before the server's modules load (loading them grows it); an explicit
 * --max-semi-space-size (node flag or NODE_OPTIONS) wins.
 */
export function holdYoungGeneration(): void {
  if (!nodeFlagGiven('semi-space')) v8.setFlagsFromString('--semi-space-growth-factor=1');
}

/** Whether node was given a flag naming `part`, on its command line or in NODE_OPTIONS: it then wins. */
function nodeFlagGiven(part: string): boolean {
  return `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`.includes(part);
}

/** The old generation's growth between two full collections, once the server sets it (see boundHeapGrowth). */
export const HEAP_GROWING_PERCENT = 20;

/**
 * V8 sizes the heap before its next full collection from how fast the program allocates: after a burst
 * (a thousand encounters created in a row, a table's screens reconnecting) it lets the old generation
 * grow to two or more times what is live, and keeps the pages afterwards (+10 MB resident in the
 * benchmark). A fixed 20 % (never less than V8's own step of 8 MB) keeps it near what is live; a server
 * allocates little that lives long, so the collections this adds are few (measured in
 * docs/benchmarks.md, "Server memory"). An explicit --heap-growing-percent wins.
 */
export function boundHeapGrowth(): void {
  if (!nodeFlagGiven('heap-growing-percent')) {
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  }
}

/** Refuses to start: the sentence and how to get help, or with --json the API's error shape. */
function fail(json: boolean, code: string, message: string): never {
  process.stderr.write(
    json
      ? `${JSON.stringify({ error: { code, message } })}\n`
      : `roundkeeper serve: ${message}\n(run with --help for usage)\n`,
  );
  process.exit(1);
}

/** What the server prints once it listens: where to open it and, on the local network, where phones go. */
export function startupMessage(
  server: { url: string; lanUrls: string[] },
  options: Pick<ServeOptions, 'lan' | 'publicUrl'>,
): string {
  const lines = [`Roundkeeper listening on ${server.url}`];
  if (options.lan) {
    const [first, ...others] = server.lanUrls;
    if (first) {
      lines.push(`Players on this machine's network (the same Wi-Fi) open: ${first}`);
      if (others.length) lines.push(`  other addresses of this machine: ${others.join(', ')}`);
    } else {
      lines.push(
        'This machine has no address on a local network: connect it to the Wi-Fi the phones use, then restart.',
      );
    }
  }
  if (options.publicUrl) lines.push(`Share links point to ${options.publicUrl}`);
  else if (options.lan && server.lanUrls[0]) lines.push(`Share links point to ${server.lanUrls[0]}`);
  return `${lines.join('\n')}\n`;
}

/** Starts the server from a command line, prints where to open it, and closes it cleanly on a signal. */
export async function serveCommandLine(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const json = args.includes('--json');
  let options: ServeOptions | 'help';
  try {
    options = parseServerCommandLine(
      args.filter((arg) => arg !== '--json'),
      env,
    );
  } catch (error) {
    if (error instanceof ServerUsageError) fail(json, 'usage/invalid-option', error.message);
    throw error;
  }
  if (options === 'help') {
    process.stdout.write(`${SERVER_HELP}\n`);
    return;
  }
  holdYoungGeneration();
  boundHeapGrowth();
  const { startServer } = await import('./server.js');
  try {
    const server = await startServer(options);
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
    process.on('SIGINT', () => shutdown('SIGINT'));
    // Said once the signals are heard: a supervisor that stops the server as soon as it reads this line
    // (a pipe's write is synchronous) found it still without them, and the signal killed it uncleanly.
    process.stdout.write(startupMessage(server, options));
    // Diagnostics: `kill -USR2 <pid>` prints memory use to stderr.
    process.on('SIGUSR2', () => {
      const spaces = Object.fromEntries(
        v8.getHeapSpaceStatistics().map((sp) => [sp.space_name, Math.round(sp.space_size / 1024)]),
      );
      process.stderr.write(`${JSON.stringify({ ...process.memoryUsage(), spacesKiB: spaces })}\n`);
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const port = options.port ?? 4321;
    if (e.code === 'EADDRINUSE')
      fail(
        json,
        'server/port-in-use',
        `port ${port} is in use; pick another with --port (0 picks any free one).`,
      );
    if (e.code === 'EACCES')
      fail(
        json,
        'server/port-forbidden',
        `not allowed to listen on port ${port}; pick one above 1023 with --port.`,
      );
    if (e.code === 'EADDRNOTAVAIL')
      fail(
        json,
        'server/no-such-address',
        `this machine has no address ${options.host}; leave out --host, or use --lan for every network.`,
      );
    fail(json, 'server/cannot-start', e.message);
  }
}
