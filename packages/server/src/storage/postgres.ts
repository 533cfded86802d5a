import type { EncounterState, LogEntry } from '@roundkeeper/engine';
// Loaded when a PostgreSQL database is opened: a server on SQLite does without it (~15 MB less resident).
import type pg from 'pg';
import { READ_PAGE, Slices } from '../limits.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';
import { type EncounterRow, entryReader, type LinkRow, toLink, toRecord } from './rows.js';
import {
  type CommandRecord,
  type CreatureRecord,
  type EncounterRecord,
  type LinkRecord,
  type Storage,
  StorageConflictError,
} from './storage.js';

/**
 * The channel every append notifies, inside its own transaction (so the notification goes out exactly
 * when the events are committed, and never for a rolled-back append). Payload: `PostgresChange` JSON.
 */
export const POSTGRES_CHANNEL = 'roundkeeper_changes';

/** Where a connection string points, without its password (for messages and logs). */
function where(connectionString: string): string {
  try {
    const u = new URL(connectionString);
    return `${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

/** PostgreSQL's code for a unique-key violation. */
const UNIQUE_VIOLATION = '23505';

const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;

/** Rows of entries as the arrays `unnest` takes: one round trip whatever their number. */
function entryColumns(entries: LogEntry[]): [number[], number[], Array<string | null>, string[]] {
  return [
    entries.map((e) => e.seq),
    entries.map((e) => e.group),
    entries.map((e) => e.time ?? null),
    entries.map((e) => JSON.stringify(e.event)),
  ];
}

/**
 * Appends when the encounter is still at `afterSeq`, in one statement (so one round trip and its own
 * transaction): the UPDATE takes the encounter's row lock, and a second writer that waited for it sees
 * the seq it moved and matches no row. The inserts and the notification only happen for the row it
 * updated. Returns one row when it appended, none when the encounter was elsewhere (or absent).
 */
const APPEND_SQL = `
  WITH moved AS (
    UPDATE encounters SET seq = $2, updated_at = $3 WHERE id = $1 AND seq = $4 RETURNING id
  ), logged AS (
    INSERT INTO events (encounter_id, seq, grp, time, event)
    SELECT moved.id, e.seq, e.grp, e.time, e.event
    FROM moved, unnest($5::int[], $6::int[], $7::text[], $8::text[]) AS e(seq, grp, time, event)
  ), accepted AS (
    INSERT INTO commands (encounter_id, grp, command, role)
    SELECT moved.id, $9, $10, $11 FROM moved WHERE $10::text IS NOT NULL
  )
  SELECT pg_notify('${POSTGRES_CHANNEL}', json_build_object('encounter', moved.id, 'kind', 'appended', 'seq', $2::int)::text)
  FROM moved`;

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number;
}

/**
 * Encounters in PostgreSQL, for several server instances on one database (node-postgres, a pool).
 * Appends are compare-and-set on the encounter's seq under its row lock, so two instances deciding at
 * once never fork the log: the second one's append is refused and it decides again (`Hub.command`).
 */
export class PostgresStorage implements Storage {
  readonly kind = 'postgres';

  private constructor(readonly pool: pg.Pool) {}

  /** Connects, runs the migrations that have not run yet, and resolves once the database is usable. */
  static async open(connectionString: string, options: PostgresOptions = {}): Promise<PostgresStorage> {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString, max: options.max ?? 10, connectionTimeoutMillis: 5000 });
    // An idle connection the server drops (a restart, a failover) must not crash the process: the pool
    // replaces it on the next query.
    pool.on('error', () => undefined);
    const storage = new PostgresStorage(pool);
    try {
      await storage.migrate();
    } catch (error) {
      await pool.end();
      throw new Error(
        `Could not open the PostgreSQL database ${where(connectionString)}: ${(error as Error).message}. Check --database-url (or RK_DATABASE_URL) and that the database server runs and lets this role in.`,
      );
    }
    return storage;
  }

  /**
   * Runs the missing migrations in one transaction, under an advisory lock: instances started together
   * wait for the first one instead of running a migration twice.
   */
  private async migrate(): Promise<void> {
    await this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock(hashtext('roundkeeper:migrations'))");
      await c.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      const done = new Set(
        (await c.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id),
      );
      for (const m of POSTGRES_MIGRATIONS) {
        if (done.has(m.id)) continue;
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, $3)', [
          m.id,
          m.name,
          new Date().toISOString(),
        ]);
      }
    });
  }

  /** Which migrations have run (for tests and diagnostics). */
  async migrations(): Promise<number[]> {
    const r = await this.pool.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
    return r.rows.map((row) => row.id);
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async createEncounter(
    record: EncounterRecord,
    entries: LogEntry[],
    commands: CommandRecord[],
    links: LinkRecord[],
  ): Promise<void> {
    try {
      await this.transaction(async (c) => {
        await c.query(
          'INSERT INTO encounters (id, name, ruleset, status, created_at, updated_at, seq, origin) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [
            record.id,
            record.name,
            record.ruleset,
            record.status,
            record.createdAt,
            record.updatedAt,
            record.seq,
            JSON.stringify(record.origin),
          ],
        );
        await c.query(
          `INSERT INTO events (encounter_id, seq, grp, time, event)
           SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[], $5::text[])`,
          [record.id, ...entryColumns(entries)],
        );
        await c.query(
          `INSERT INTO commands (encounter_id, grp, command, role)
           SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[])`,
          [
            record.id,
            commands.map((x) => x.group),
            commands.map((x) => JSON.stringify(x.command)),
            commands.map((x) => x.role),
          ],
        );
        await this.insertLinks(c, links);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new StorageConflictError(`Encounter ${record.id} already exists.`);
      throw error;
    }
  }

  /** Links of existing encounters; a hash already stored keeps its first grant. */
  private async insertLinks(c: pg.Pool | pg.PoolClient, links: LinkRecord[]): Promise<void> {
    if (links.length === 0) return;
    await c.query(
      `INSERT INTO links (hash, encounter_id, role, combatants, allowed, label, created_at, generation, revoked)
       SELECT l.* FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                              $8::int[], $9::boolean[])
         AS l(hash, encounter_id, role, combatants, allowed, label, created_at, generation, revoked)
       WHERE EXISTS (SELECT 1 FROM encounters WHERE id = l.encounter_id)
       ON CONFLICT (hash) DO NOTHING`,
      [
        links.map((l) => l.hash),
        links.map((l) => l.encounterId),
        links.map((l) => l.role),
        links.map((l) => JSON.stringify(l.combatants)),
        links.map((l) => JSON.stringify(l.allowed)),
        links.map((l) => l.label),
        links.map((l) => l.createdAt),
        links.map((l) => l.generation ?? 0),
        links.map((l) => l.revoked === true),
      ],
    );
  }

  async getEncounter(id: string): Promise<EncounterRecord | undefined> {
    const r = await this.pool.query<EncounterRow>('SELECT * FROM encounters WHERE id = $1', [id]);
    return r.rows[0] ? toRecord(r.rows[0]) : undefined;
  }

  async listEncounters(ids: string[]): Promise<EncounterRecord[]> {
    const r = await this.pool.query<EncounterRow>('SELECT * FROM encounters WHERE id = ANY($1::text[])', [
      [...new Set(ids)],
    ]);
    return r.rows.map(toRecord).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  async countEncounters(): Promise<number> {
    const r = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM encounters');
    return r.rows[0]!.n;
  }

  async updateEncounter(
    id: string,
    patch: { name?: string; status?: 'active' | 'archived' },
    now: string,
  ): Promise<void> {
    await this.pool.query(
      'UPDATE encounters SET name = coalesce($2, name), status = coalesce($3, status), updated_at = $4 WHERE id = $1',
      [id, patch.name ?? null, patch.status ?? null, now],
    );
  }

  async deleteEncounter(id: string): Promise<void> {
    await this.pool.query('DELETE FROM encounters WHERE id = $1', [id]);
  }

  async append(
    id: string,
    afterSeq: number,
    entries: LogEntry[],
    command: CommandRecord | null,
    now: string,
  ): Promise<number> {
    const last = entries.at(-1)?.seq ?? afterSeq;
    const columns = entryColumns(entries);
    const commandText = command ? JSON.stringify(command.command) : null;
    let appended: number;
    try {
      const r = await this.pool.query(APPEND_SQL, [
        id,
        last,
        now,
        afterSeq,
        ...columns,
        command?.group ?? null,
        commandText,
        command?.role ?? null,
      ]);
      appended = r.rowCount ?? 0;
    } catch (error) {
      // The (encounter, seq) key: entries that were not written after `afterSeq` by this writer.
      if (isUniqueViolation(error))
        throw new StorageConflictError(
          `Encounter ${id} has moved past seq ${afterSeq}; the log never forks.`,
        );
      throw error;
    }
    if (appended === 1) return columns[3].reduce((n, text) => n + text.length, commandText?.length ?? 0);
    const row = await this.pool.query<{ seq: number }>('SELECT seq FROM encounters WHERE id = $1', [id]);
    if (!row.rows[0]) throw new StorageConflictError(`There is no encounter ${id}.`);
    throw new StorageConflictError(
      `Encounter ${id} is at seq ${row.rows[0].seq}, not ${afterSeq}; the log never forks.`,
    );
  }

  async readEntries(id: string, afterSeq = 0): Promise<LogEntry[]> {
    const out: LogEntry[] = [];
    const slices = new Slices();
    const entry = entryReader();
    for (let after = afterSeq; ; ) {
      const r = await this.pool.query<{ seq: number; grp: number; time: string | null; event: string }>(
        'SELECT seq, grp, time, event FROM events WHERE encounter_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [id, after, READ_PAGE],
      );
      for (const row of r.rows) out.push(entry(row.seq, row.grp, row.time, row.event));
      if (r.rows.length < READ_PAGE) return out;
      after = r.rows.at(-1)!.seq;
      await slices.pause();
    }
  }

  async readCommands(id: string): Promise<CommandRecord[]> {
    const out: CommandRecord[] = [];
    const slices = new Slices();
    for (let after = -1; ; ) {
      const r = await this.pool.query<{ grp: number; command: string; role: CommandRecord['role'] }>(
        'SELECT grp, command, role FROM commands WHERE encounter_id = $1 AND grp > $2 ORDER BY grp LIMIT $3',
        [id, after, READ_PAGE],
      );
      for (const row of r.rows)
        out.push({ group: row.grp, command: JSON.parse(row.command), role: row.role });
      if (r.rows.length < READ_PAGE) return out;
      after = r.rows.at(-1)!.grp;
      await slices.pause();
    }
  }

  async saveSnapshot(id: string, seq: number, state: EncounterState): Promise<void> {
    // Only the latest snapshot is ever read (loading folds the log after it): drop the older ones.
    await this.pool.query(
      `WITH saved AS (
         INSERT INTO snapshots (encounter_id, seq, state)
         SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM encounters WHERE id = $1)
         ON CONFLICT (encounter_id, seq) DO UPDATE SET state = excluded.state
         RETURNING seq
       )
       DELETE FROM snapshots WHERE encounter_id = $1 AND seq < (SELECT seq FROM saved)`,
      [id, seq, JSON.stringify(state)],
    );
  }

  async latestSnapshot(id: string): Promise<{ seq: number; state: EncounterState } | undefined> {
    const r = await this.pool.query<{ seq: number; state: string }>(
      'SELECT seq, state FROM snapshots WHERE encounter_id = $1 ORDER BY seq DESC LIMIT 1',
      [id],
    );
    const row = r.rows[0];
    return row ? { seq: row.seq, state: JSON.parse(row.state) } : undefined;
  }

  async addLinks(links: LinkRecord[]): Promise<void> {
    await this.insertLinks(this.pool, links);
  }

  async findLink(hash: string): Promise<LinkRecord | undefined> {
    const r = await this.pool.query<LinkRow>('SELECT * FROM links WHERE hash = $1', [hash]);
    return r.rows[0] ? toLink(r.rows[0]) : undefined;
  }

  async listLinks(encounterId: string): Promise<LinkRecord[]> {
    const r = await this.pool.query<LinkRow>(
      // Byte order, as SQLite and JavaScript compare: not the database's locale.
      'SELECT * FROM links WHERE encounter_id = $1 ORDER BY created_at COLLATE "C", hash COLLATE "C"',
      [encounterId],
    );
    return r.rows.map(toLink);
  }

  async updateLink(
    hash: string,
    patch: { allowed?: string[]; label?: string; revoked?: true },
  ): Promise<void> {
    // A revocation is for good: `revoked OR $4` never turns it back.
    await this.pool.query(
      'UPDATE links SET allowed = coalesce($2, allowed), label = coalesce($3, label), revoked = revoked OR $4 WHERE hash = $1',
      [
        hash,
        patch.allowed ? JSON.stringify(patch.allowed) : null,
        patch.label ?? null,
        patch.revoked === true,
      ],
    );
  }

  async listCreatures(owner: string, ruleset: string): Promise<CreatureRecord[]> {
    const r = await this.pool.query<{ name: string; creature: string; updated_at: string }>(
      'SELECT name, creature, updated_at FROM creatures WHERE owner = $1 AND ruleset = $2 ORDER BY name COLLATE "C"',
      [owner, ruleset],
    );
    return r.rows.map((row) => ({
      owner,
      ruleset,
      name: row.name,
      creature: JSON.parse(row.creature),
      updatedAt: row.updated_at,
    }));
  }

  async countCreatures(owner: string): Promise<number> {
    const r = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM creatures WHERE owner = $1', [
      owner,
    ]);
    return Number(r.rows[0]?.n ?? 0);
  }

  async putCreatures(records: CreatureRecord[]): Promise<void> {
    await this.transaction(async (c) => {
      for (const x of records) {
        await c.query(
          `INSERT INTO creatures (owner, ruleset, name, creature, updated_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (owner, ruleset, name) DO UPDATE SET creature = EXCLUDED.creature, updated_at = EXCLUDED.updated_at`,
          [x.owner, x.ruleset, x.name, JSON.stringify(x.creature), x.updatedAt],
        );
      }
    });
  }

  async deleteCreature(owner: string, ruleset: string, name: string): Promise<void> {
    await this.pool.query('DELETE FROM creatures WHERE owner = $1 AND ruleset = $2 AND name = $3', [
      owner,
      ruleset,
      name,
    ]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
