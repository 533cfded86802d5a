import type pg from 'pg';
import { z } from 'zod';
import { backoffMs } from './backoff.js';
import { POSTGRES_CHANNEL } from './storage/postgres.js';

export type Listener = (change: Change | undefined) => void;

/** What changed in an encounter, as every server instance on the same database hears it. */
export type Change =
  | { encounter: string; kind: 'appended'; seq: number }
  | { encounter: string; kind: 'updated' }
  | { encounter: string; kind: 'deleted' }
  /** A link was revoked, rotated or given other commands: connections that came in with it re-check. */
  | { encounter: string; kind: 'links' };

const changeSchema = z.discriminatedUnion('kind', [
  z.object({ encounter: z.string(), kind: z.literal('appended'), seq: z.number().int() }),
  z.object({ encounter: z.string(), kind: z.literal('updated') }),
  z.object({ encounter: z.string(), kind: z.literal('deleted') }),
  z.object({ encounter: z.string(), kind: z.literal('links') }),
]);

/**
 * Tells the server instances sharing a database what changed, so each one folds what others appended
 * and sends its own viewers their views. A listener is called with `undefined` after a gap (the
 * connection was lost and restored): anything may have changed, and what an instance caches it checks
 * again.
 */
export interface Fanout {
  /**
   * Announces a change this instance made (an append may already have been announced by storage).
   * `by` is the publishing instance's own listener: a fanout may spare it the instance's own appends,
   * which it has already folded and sent.
   */
  publish(change: Change, by?: Listener): Promise<void>;
  listen(listener: (change: Change | undefined) => void): void;
  close(): Promise<void>;
}

/** One process, one database file: changes go to this process's listeners (SQLite, memory, tests). */
export class InProcessFanout implements Fanout {
  private readonly listeners: Listener[] = [];

  /**
   * An append goes to every listener but its publisher's (whose copy is already at the appended seq,
   * so hearing it would only queue a check that finds nothing to do): with a single server, nobody.
   */
  publish(change: Change, by?: Listener): Promise<void> {
    const to =
      change.kind === 'appended' && by ? this.listeners.filter((l) => l !== by) : this.listeners.slice();
    if (to.length === 0) return DONE;
    // After the publisher's turn, as a notification from the database would come.
    setImmediate(() => {
      for (const l of to) l(change);
    });
    return DONE;
  }

  listen(listener: Listener): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.listeners.length = 0;
  }
}

const DONE: Promise<void> = Promise.resolve();

/**
 * PostgreSQL's LISTEN/NOTIFY on one dedicated connection, no broker. Appends notify inside their own
 * statement (`PostgresStorage.append`), so `publish` only sends the other kinds. When the connection
 * drops, it reconnects (after 0.1–0.2 s, then up to 2.5–5 s apart, with jitter: see backoffMs) and tells its listeners to check everything.
 * A connection can also die without a word (a failover, a network cut: no reset ever arrives), and
 * would then listen to nothing: every `checkEveryMs` it must answer a query within as long, or it is
 * treated as dropped.
 */
export class PostgresFanout implements Fanout {
  private readonly listeners: Array<(change: Change | undefined) => void> = [];
  private client: pg.Client | undefined;
  private closed = false;
  /** Failed reconnections in a row (see backoffMs). */
  private attempts = 0;
  private retry: NodeJS.Timeout | undefined;
  private readonly check: NodeJS.Timeout;

  private constructor(
    private readonly connectionString: string,
    private readonly pool: pg.Pool,
    checkEveryMs: number,
  ) {
    this.check = setInterval(() => this.checkConnection(checkEveryMs), checkEveryMs);
    this.check.unref();
  }

  /** Listens before it resolves: no change committed after this is missed. */
  static async open(
    connectionString: string,
    pool: pg.Pool,
    { checkEveryMs = 10_000 }: { checkEveryMs?: number } = {},
  ): Promise<PostgresFanout> {
    const fanout = new PostgresFanout(connectionString, pool, checkEveryMs);
    try {
      await fanout.connect();
    } catch (error) {
      await fanout.close();
      throw error;
    }
    return fanout;
  }

  private checkConnection(withinMs: number): void {
    const client = this.client;
    if (!client) return;
    const silent = setTimeout(() => this.lost(client), withinMs);
    silent.unref();
    client.query('SELECT 1').then(
      () => clearTimeout(silent),
      () => {
        clearTimeout(silent);
        this.lost(client);
      },
    );
  }

  /** The listening connection is gone (or deaf): end it and listen on a new one. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.reconnect();
  }

  private async connect(): Promise<void> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: this.connectionString,
      keepAlive: true,
      // How an operator finds it in pg_stat_activity.
      application_name: 'roundkeeper-listen',
    });
    client.on('notification', (n) => {
      if (n.channel !== POSTGRES_CHANNEL || !n.payload) return;
      let parsed: z.output<typeof changeSchema> | undefined;
      try {
        parsed = changeSchema.parse(JSON.parse(n.payload));
      } catch {
        return;
      }
      this.emit(parsed);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN ${POSTGRES_CHANNEL}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    this.attempts = 0;
  }

  private reconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().then(
        // Whatever was notified while no connection listened is lost: check everything.
        () => this.emit(undefined),
        () => {
          this.attempts++;
          this.reconnect();
        },
      );
    }, backoffMs(this.attempts));
    this.retry.unref();
  }

  private emit(change: Change | undefined): void {
    for (const l of this.listeners) l(change);
  }

  async publish(change: Change): Promise<void> {
    if (change.kind === 'appended') return;
    await this.pool.query('SELECT pg_notify($1, $2)', [POSTGRES_CHANNEL, JSON.stringify(change)]);
  }

  listen(listener: (change: Change | undefined) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.check);
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.listeners.length = 0;
    await client?.end().catch(() => undefined);
  }
}
