import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EncounterState, LogEntry } from '@roundkeeper/engine';
import Database from 'better-sqlite3';
import { READ_PAGE, Slices } from '../limits.js';
import { MIGRATIONS } from './migrations.js';
import { type EncounterRow, entryReader, type LinkRow, toLink, toRecord } from './rows.js';
import {
  type CommandRecord,
  type CreatureRecord,
  type EncounterRecord,
  type LinkRecord,
  type Storage,
  StorageConflictError,
} from './storage.js';

export interface SqliteOptions {
  /** `full` (default) fsyncs every commit; `normal` survives a process crash but not a power cut. */
  synchronous?: 'full' | 'normal';
  /**
   * Who copies the WAL back into the database file: `periodic` (default for a file) runs a PASSIVE
   * checkpoint on this connection right after a write has been answered, at most once a second, and
   * once writes have stopped for a second; `inline` leaves it to SQLite, inside whichever commit
   * crosses 1,000 pages.
   */
  checkpoint?: 'periodic' | 'inline';
  /** SQLite's page cache, in KiB (default 2,048). */
  cacheKiB?: number;
  /**
   * Where a `periodic` checkpoint's fsyncs run: `pool` (default) on libuv's thread pool while the event
   * loop goes on (see `SqliteStorage.checkpoint`); `inline` inside the checkpoint, on the event loop
   * (8–9 ms once a second; kept to measure the difference).
   */
  checkpointSync?: 'pool' | 'inline';
  /** A WAL larger than this once writes stop is cut back to nothing (default 64 MiB). */
  walKeepBytes?: number;
}

/** See `SqliteOptions.walKeepBytes`: a day of play writes a few MiB; an import burst, hundreds. */
const WAL_KEEP_BYTES = 64 * 2 ** 20;

/** A database file the server cannot start from, with a sentence that names it and says what to do. */
export class StartupError extends Error {}

/** The 16 bytes every SQLite database file begins with. */
const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Opens the database file, checking first (without SQLite, so nothing is created beside it, no -wal or
 * -shm) that an existing file can be read and is an SQLite database; every failure names the file.
 */
function openChecked(file: string): Database.Database {
  if (file !== ':memory:' && existsSync(file)) {
    let head = '';
    try {
      const fd = openSync(file, 'r+');
      try {
        const buf = Buffer.alloc(16);
        const n = readSync(fd, buf, 0, 16, 0);
        head = buf.subarray(0, n).toString('latin1');
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new StartupError(
        code === 'EACCES' || code === 'EPERM'
          ? `cannot open the database ${file}: permission denied (the server needs to read and write it; check its owner and mode)`
          : `cannot open the database ${file}: ${(error as Error).message}`,
      );
    }
    // An empty file is a new database to SQLite; anything else must start as one does.
    if (head.length > 0 && head !== SQLITE_HEADER) {
      throw new StartupError(
        `${file} is not a Roundkeeper database (not an SQLite file): move it away, or choose another --data-dir`,
      );
    }
  }
  try {
    return new Database(file);
  } catch (error) {
    throw new StartupError(`cannot open the database ${file}: ${(error as Error).message}`);
  }
}

/**
 * Refuses to serve from a damaged database file (a torn page, a truncated copy): SQLite's quick check
 * reads every page once (about a second for a few hundred megabytes) and stops at the first 10 faults.
 */
function checkIntegrity(db: Database.Database, file: string): void {
  let faults: string[];
  try {
    faults = db
      .prepare<[], { quick_check: string }>('PRAGMA quick_check(10)')
      .all()
      .map((r) => r.quick_check);
  } catch (error) {
    db.close();
    throw new StartupError(
      `the database ${file} is damaged: ${(error as Error).message}; restore it from a backup`,
    );
  }
  if (faults.length === 1 && faults[0] === 'ok') return;
  db.close();
  throw new StartupError(
    `the database ${file} is damaged (${faults.slice(0, 3).join('; ')}); restore it from a backup`,
  );
}

/** How often, at most, the serving connection checkpoints the WAL (see `SqliteStorage.wrote`). */
const CHECKPOINT_EVERY_MS = 1000;

/** The embedded default: one SQLite file in WAL mode (better-sqlite3, synchronous calls). */
/**
 * An encounter's seq (of its row `e`): its log's last, or the row's for a log stored before migration 6 or
 * an encounter without events (an append writes only its events).
 */
const LOG_SEQ = 'max(seq, coalesce((SELECT max(v.seq) FROM events v WHERE v.encounter_id = e.id), 0))';

export class SqliteStorage implements Storage {
  readonly kind = 'sqlite';
  private readonly db: Database.Database;
  private readonly stmt;
  /** Fires once writes have stopped for `CHECKPOINT_EVERY_MS`: the last of them reach the file too. */
  private readonly idleCheckpoint: NodeJS.Timeout | undefined;
  private lastCheckpoint = Number.NEGATIVE_INFINITY;
  private checkpointQueued = false;
  private readonly file: string;
  private readonly synchronous: 'FULL' | 'NORMAL';
  private readonly syncInPool: boolean;
  /** The checkpoint under way while its fsyncs run on the thread pool. */
  private checkpointing: Promise<void> | undefined;
  /** A second connection whose read transaction keeps the WAL from restarting until the file is synced. */
  private guard: Database.Database | undefined;
  private handles: { wal: FileHandle; db: FileHandle } | undefined;
  /** Checkpoints whose fsyncs ran on the thread pool (for tests and diagnostics). */
  checkpointsSyncedInPool = 0;
  /** Times the WAL was cut back after growing past `walKeepBytes` (for tests and diagnostics). */
  walTruncations = 0;
  private readonly walKeepBytes: number;

  constructor(file: string, options: SqliteOptions = {}) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.file = file;
    this.synchronous = options.synchronous === 'normal' ? 'NORMAL' : 'FULL';
    this.syncInPool = (options.checkpointSync ?? 'pool') === 'pool';
    this.walKeepBytes = options.walKeepBytes ?? WAL_KEEP_BYTES;
    this.db = openChecked(file);
    try {
      // Before anything writes beside it (the WAL): a damaged file is refused as it is.
      if (file !== ':memory:') checkIntegrity(this.db, file);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${this.synchronous}`);
      this.db.pragma('foreign_keys = ON');
      this.db.pragma('busy_timeout = 5000');
      // better-sqlite3 builds SQLite with a 16 MiB page cache per connection, filled as the database grows:
      // resident memory that follows the stored encounters, not the live ones. The hot pages are few (the
      // tails of the logs being appended to, the link index), and the OS caches the file anyway.
      this.db.pragma(`cache_size = -${options.cacheKiB ?? 2048}`);
      this.migrate();
    } catch (error) {
      if (this.db.open) this.db.close();
      if (error instanceof StartupError) throw error;
      throw new StartupError(`cannot use the database ${file}: ${(error as Error).message}`);
    }
    if (file !== ':memory:' && (options.checkpoint ?? 'periodic') === 'periodic') {
      // SQLite's own checkpoint runs inside whichever commit crosses 1,000 WAL pages, copies them all and
      // fsyncs (tens of milliseconds, inside a request). Here it runs on this connection right after a
      // write has been answered (`wrote`), so the request that wrote never waits for it and the next one
      // rarely does, at most once a second: its fsyncs cost about the same whatever it copies, so fewer
      // and larger beat many small ones (every 200 ms, ~5 ms each, they sat in 2 % of the commands).
      // Those fsyncs still held the event loop 8–9 ms once a second: they run on libuv's thread pool
      // now (`checkpoint`), and the copy itself takes ~0.5 ms at 100 commands a second. A worker thread
      // with its own connection did this before: a second V8 isolate, 8–13 MB resident.
      this.db.pragma('wal_autocheckpoint = 0');
      // The WAL file keeps its largest size and is reused from its start after each checkpoint: a
      // size limit makes the commit that restarts the WAL truncate the file, and freeing the blocks
      // a burst of writes left (a thousand encounters created) held the event loop for 100–200 ms.
      // `close()` truncates it once, with nobody waiting.
      this.db.pragma('journal_size_limit = -1');
      this.idleCheckpoint = setTimeout(() => this.checkpoint(true), CHECKPOINT_EVERY_MS);
      this.idleCheckpoint.unref();
    } else {
      // Checkpoints inside commits: when the WAL restarts, its file is cut back to this size.
      this.db.pragma(`journal_size_limit = ${16 * 1024 * 1024}`);
    }
    const db = this.db;
    this.stmt = {
      insertEncounter: db.prepare(
        'INSERT INTO encounters (id, name, ruleset, status, created_at, updated_at, seq, origin) VALUES (@id, @name, @ruleset, @status, @createdAt, @updatedAt, @seq, @origin)',
      ),
      // The seq as `LOG_SEQ` reads it, and the time of the last change the later of the row's and the
      // last append's (an append writes only its events, not the encounter's row).
      getEncounter: db.prepare<[string], EncounterRow>(
        `SELECT id, name, ruleset, status, created_at, origin,
           ${LOG_SEQ} AS seq,
           coalesce(max(updated_at, (SELECT v.appended_at FROM events v WHERE v.encounter_id = e.id
             ORDER BY v.seq DESC LIMIT 1)), updated_at) AS updated_at
         FROM encounters e WHERE id = ?`,
      ),
      countEncounters: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM encounters'),
      seqOf: db.prepare<[string], { seq: number }>(`SELECT ${LOG_SEQ} AS seq FROM encounters e WHERE id = ?`),
      /** An append of no events still marks the encounter as changed. */
      touch: db.prepare('UPDATE encounters SET updated_at = ? WHERE id = ?'),
      rename: db.prepare('UPDATE encounters SET name = ?, updated_at = ? WHERE id = ?'),
      setStatus: db.prepare('UPDATE encounters SET status = ?, updated_at = ? WHERE id = ?'),
      deleteEncounter: db.prepare('DELETE FROM encounters WHERE id = ?'),
      /** An event, with the command that made it if it is that command's first event (else nulls). */
      insertEvent: db.prepare(
        'INSERT INTO events (encounter_id, seq, grp, time, event, command, role, appended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      readEvents: db.prepare<
        [string, number, number],
        { seq: number; grp: number; time: string | null; event: string }
      >('SELECT seq, grp, time, event FROM events WHERE encounter_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
      insertCommand: db.prepare(
        'INSERT INTO commands (encounter_id, grp, command, role) VALUES (?, ?, ?, ?)',
      ),
      /** The commands kept in their first event's row (from migration 5 on), a page in log order. */
      readEventCommands: db.prepare<
        [string, number, number],
        { seq: number; grp: number; command: string; role: CommandRecord['role'] }
      >(
        'SELECT seq, grp, command, role FROM events WHERE encounter_id = ? AND seq > ? AND command IS NOT NULL ORDER BY seq LIMIT ?',
      ),
      /** The commands' table: those stored before migration 5, and any without an event. */
      readCommands: db.prepare<
        [string, number, number],
        { grp: number; command: string; role: CommandRecord['role'] }
      >('SELECT grp, command, role FROM commands WHERE encounter_id = ? AND grp > ? ORDER BY grp LIMIT ?'),
      insertSnapshot: db.prepare(
        'INSERT OR REPLACE INTO snapshots (encounter_id, seq, state) VALUES (?, ?, ?)',
      ),
      pruneSnapshots: db.prepare('DELETE FROM snapshots WHERE encounter_id = ? AND seq < ?'),
      latestSnapshot: db.prepare<[string], { seq: number; state: string }>(
        'SELECT seq, state FROM snapshots WHERE encounter_id = ? ORDER BY seq DESC LIMIT 1',
      ),
      insertLink: db.prepare(
        'INSERT OR IGNORE INTO links (hash, encounter_id, role, combatants, allowed, label, created_at, generation, revoked) VALUES (@hash, @encounterId, @role, @combatants, @allowed, @label, @createdAt, @generation, @revoked)',
      ),
      findLink: db.prepare<[string], LinkRow>('SELECT * FROM links WHERE hash = ?'),
      listLinks: db.prepare<[string], LinkRow>(
        'SELECT * FROM links WHERE encounter_id = ? ORDER BY created_at, hash',
      ),
      setAllowed: db.prepare('UPDATE links SET allowed = ? WHERE hash = ?'),
      setLabel: db.prepare('UPDATE links SET label = ? WHERE hash = ?'),
      revokeLink: db.prepare('UPDATE links SET revoked = 1 WHERE hash = ?'),
    };
  }

  /** Runs the migrations that have not run yet, each in its own transaction. */
  private migrate(): void {
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const done = new Set(
      this.db
        .prepare<[], { id: number }>('SELECT id FROM schema_migrations')
        .all()
        .map((r) => r.id),
    );
    for (const m of MIGRATIONS) {
      if (done.has(m.id)) continue;
      this.db.transaction(() => {
        this.db.exec(m.sql);
        this.db
          .prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)')
          .run(m.id, m.name, new Date().toISOString());
      })();
    }
  }

  /** Which migrations have run (for tests and diagnostics). */
  migrations(): number[] {
    return this.db
      .prepare<[], { id: number }>('SELECT id FROM schema_migrations ORDER BY id')
      .all()
      .map((r) => r.id);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async createEncounter(
    record: EncounterRecord,
    entries: LogEntry[],
    commands: CommandRecord[],
    links: LinkRecord[],
  ): Promise<void> {
    this.db.transaction(() => {
      this.stmt.insertEncounter.run({ ...record, origin: JSON.stringify(record.origin) });
      const byGroup = new Map(commands.map((c) => [c.group, c]));
      for (const e of entries) {
        const c = byGroup.get(e.group);
        byGroup.delete(e.group);
        const carried = c ? { text: JSON.stringify(c.command), role: c.role } : null;
        this.insertEvent(record.id, e, JSON.stringify(e.event), carried);
      }
      // A command without an event in this log is kept on its own.
      for (const c of byGroup.values())
        this.stmt.insertCommand.run(record.id, c.group, JSON.stringify(c.command), c.role);
      for (const l of links) this.insertLink(l);
    })();
    this.wrote();
  }

  /**
   * One event's row, with the command that made it when it is that command's first event, and the
   * append's time when it is the append's last.
   */
  private insertEvent(
    id: string,
    e: LogEntry,
    event: string,
    command: { text: string; role: CommandRecord['role'] } | null,
    appendedAt: string | null = null,
  ): void {
    this.stmt.insertEvent.run(
      id,
      e.seq,
      e.group,
      e.time ?? null,
      event,
      command?.text ?? null,
      command?.role ?? null,
      appendedAt,
    );
  }

  private insertLink(l: LinkRecord): void {
    this.stmt.insertLink.run({
      ...l,
      combatants: JSON.stringify(l.combatants),
      allowed: JSON.stringify(l.allowed),
      generation: l.generation ?? 0,
      revoked: l.revoked ? 1 : 0,
    });
  }

  /**
   * Copies the WAL's committed pages into the database file; never waits for a lock (PASSIVE). `idle`:
   * writes stopped a second ago, and a WAL grown past `walKeepBytes` (a burst of imports) is then cut
   * back to nothing, once, with nobody waiting (it kept its largest size while the server ran).
   */
  private checkpoint(idle = false): void {
    this.checkpointQueued = false;
    if (!this.db.open || this.checkpointing) return;
    this.lastCheckpoint = performance.now();
    if (!this.syncInPool) {
      this.checkpointHere();
      if (idle) this.truncateIfLarge();
      return;
    }
    this.checkpointing = this.checkpointSyncingInPool()
      .catch(() => {
        // An fsync failed: once more with SQLite's own fsyncs, so the file is synced before the WAL
        // restarts.
        if (this.db.open) this.checkpointHere();
      })
      .finally(() => {
        this.checkpointing = undefined;
        if (idle) this.truncateIfLarge();
      });
  }

  /** Cuts the WAL back to nothing when it has grown past `walKeepBytes` (see `checkpoint`). */
  private truncateIfLarge(): void {
    if (!this.db.open || this.db.inTransaction) return;
    let size = 0;
    try {
      size = statSync(`${this.file}-wal`).size;
    } catch {
      return;
    }
    if (size <= this.walKeepBytes) return;
    try {
      // Never waits: a reader elsewhere makes it busy, and the next idle checkpoint tries again.
      this.db.pragma('busy_timeout = 0');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.walTruncations++;
    } catch {
      // Busy: the next idle checkpoint tries again.
    } finally {
      this.db.pragma('busy_timeout = 5000');
    }
  }

  /** A checkpoint with SQLite's own fsyncs, on the event loop. */
  private checkpointHere(): void {
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy (another process reads the file): the next write or the idle timer tries again.
    }
  }

  /**
   * The checkpoint SQLite would run, with its two fsyncs moved to libuv's thread pool and the same
   * order kept: (1) a read transaction on a second connection pins the WAL's current end, so no commit
   * can restart the WAL (and overwrite its frames) until this is done, and the checkpoint copies no
   * frame past that end; (2) the WAL is fsynced — every frame to be copied is durable; (3) the copy,
   * on this connection with its fsyncs off (synchronous = OFF for that one statement, ~0.5 ms); (4) the
   * database file is fsynced; (5) the read transaction ends, and the next commit may restart the WAL.
   * A power cut at any point leaves the copied frames in the WAL, which SQLite replays on opening.
   */
  private async checkpointSyncingInPool(): Promise<void> {
    this.guard ??= new Database(this.file);
    this.guard.pragma('cache_size = -64');
    this.handles ??= { wal: await open(`${this.file}-wal`, 'r'), db: await open(this.file, 'r') };
    const guard = this.guard;
    guard.exec('BEGIN');
    try {
      guard.prepare('SELECT count(*) FROM schema_migrations').get();
      await this.handles.wal.datasync();
      if (!this.db.open) return;
      this.db.pragma('synchronous = OFF');
      try {
        this.db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // Busy (another process checkpoints): the next write or the idle timer tries again.
      } finally {
        this.db.pragma(`synchronous = ${this.synchronous}`);
      }
      await this.handles.db.datasync();
      this.checkpointsSyncedInPool++;
    } finally {
      if (guard.open && guard.inTransaction) guard.exec('COMMIT');
    }
  }

  /**
   * After a commit: checkpoint once this turn of the event loop is over (the request that wrote has
   * been answered and its change broadcast), if the last checkpoint is a second old; and in any case a
   * second after the last write.
   */
  private wrote(): void {
    if (!this.idleCheckpoint) return;
    this.idleCheckpoint.refresh();
    if (this.checkpointQueued || performance.now() - this.lastCheckpoint < CHECKPOINT_EVERY_MS) return;
    this.checkpointQueued = true;
    setImmediate(() => this.checkpoint());
  }

  async getEncounter(id: string): Promise<EncounterRecord | undefined> {
    const row = this.stmt.getEncounter.get(id);
    return row ? toRecord(row) : undefined;
  }

  async listEncounters(ids: string[]): Promise<EncounterRecord[]> {
    const out: EncounterRecord[] = [];
    for (const id of new Set(ids)) {
      const row = this.stmt.getEncounter.get(id);
      if (row) out.push(toRecord(row));
    }
    return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  async countEncounters(): Promise<number> {
    return this.stmt.countEncounters.get()!.n;
  }

  async updateEncounter(
    id: string,
    patch: { name?: string; status?: 'active' | 'archived' },
    now: string,
  ): Promise<void> {
    this.db.transaction(() => {
      if (patch.name !== undefined) this.stmt.rename.run(patch.name, now, id);
      if (patch.status !== undefined) this.stmt.setStatus.run(patch.status, now, id);
    })();
  }

  async deleteEncounter(id: string): Promise<void> {
    this.stmt.deleteEncounter.run(id);
  }

  async append(
    id: string,
    afterSeq: number,
    entries: LogEntry[],
    command: CommandRecord | null,
    now: string,
  ): Promise<number> {
    const stored = this.appendTx(id, afterSeq, entries, command, now);
    this.wrote();
    return stored;
  }

  /** One append in one transaction; its function is made once (better-sqlite3 builds one per `transaction`). */
  private readonly appendTx = this.transactionOf(
    (id: string, afterSeq: number, entries: LogEntry[], command: CommandRecord | null, now: string) => {
      // Refused unless the encounter is at `afterSeq` (then nothing is written: the transaction ends).
      // The transaction holds the write lock from its start (`immediate`), so nothing appends between
      // this check and the inserts; the index on (encounter, seq) refuses a second event at a seq too.
      const row = this.stmt.seqOf.get(id);
      if (!row) throw new StorageConflictError(`There is no encounter ${id}.`);
      if (row.seq !== afterSeq) {
        throw new StorageConflictError(
          `Encounter ${id} is at seq ${row.seq}, not ${afterSeq}; the log never forks.`,
        );
      }
      if (entries.length === 0) this.stmt.touch.run(now, id);
      const last = entries.at(-1);
      let stored = 0;
      const carried = command ? { text: JSON.stringify(command.command), role: command.role } : null;
      if (carried) stored += carried.text.length;
      // The command goes into the row of its group's first event (a page fewer written than in a table
      // of its own); without one, into the commands' table.
      const carrier = command ? entries.find((e) => e.group === command.group) : undefined;
      for (const e of entries) {
        const event = JSON.stringify(e.event);
        stored += event.length;
        this.insertEvent(id, e, event, e === carrier ? carried : null, e === last ? now : null);
      }
      if (command && !carrier) this.stmt.insertCommand.run(id, command.group, carried!.text, command.role);
      return stored;
    },
  );

  /**
   * `db.transaction(work)`, made on its first call (the connection is opened in the constructor), run
   * as `BEGIN IMMEDIATE`: it takes the write lock before it reads.
   */
  private transactionOf<A extends unknown[], R>(work: (...args: A) => R): (...args: A) => R {
    let tx: Database.Transaction<(...args: A) => R> | undefined;
    return (...args) => {
      tx ??= this.db.transaction(work);
      return tx.immediate(...args);
    };
  }

  async readEntries(id: string, afterSeq = 0): Promise<LogEntry[]> {
    const out: LogEntry[] = [];
    const slices = new Slices();
    const entry = entryReader();
    for (let after = afterSeq; ; ) {
      const rows = this.stmt.readEvents.all(id, after, READ_PAGE);
      for (const r of rows) out.push(entry(r.seq, r.grp, r.time, r.event));
      if (rows.length < READ_PAGE) return out;
      after = rows.at(-1)!.seq;
      await slices.pause();
    }
  }

  /** The commands in the commands' table and those kept with their first event, by group. */
  async readCommands(id: string): Promise<CommandRecord[]> {
    const out: CommandRecord[] = [];
    const slices = new Slices();
    const add = (r: { grp: number; command: string; role: CommandRecord['role'] }) =>
      out.push({ group: r.grp, command: JSON.parse(r.command), role: r.role });
    for (let after = -1; ; ) {
      const rows = this.stmt.readCommands.all(id, after, READ_PAGE);
      for (const r of rows) add(r);
      if (rows.length < READ_PAGE) break;
      after = rows.at(-1)!.grp;
      await slices.pause();
    }
    const kept = out.length;
    for (let after = 0; ; ) {
      const rows = this.stmt.readEventCommands.all(id, after, READ_PAGE);
      for (const r of rows) add(r);
      if (rows.length < READ_PAGE) break;
      after = rows.at(-1)!.seq;
      await slices.pause();
    }
    // Both are in group order; they interleave only around migration 5 or a command without an event.
    return kept === 0 || kept === out.length ? out : out.sort((a, b) => a.group - b.group);
  }

  async saveSnapshot(id: string, seq: number, state: EncounterState): Promise<void> {
    this.db.transaction(() => {
      this.stmt.insertSnapshot.run(id, seq, JSON.stringify(state));
      // Only the latest snapshot is ever read (loading folds the log after it): drop the older ones.
      this.stmt.pruneSnapshots.run(id, seq);
    })();
    this.wrote();
  }

  async latestSnapshot(id: string): Promise<{ seq: number; state: EncounterState } | undefined> {
    const row = this.stmt.latestSnapshot.get(id);
    return row ? { seq: row.seq, state: JSON.parse(row.state) } : undefined;
  }

  async addLinks(links: LinkRecord[]): Promise<void> {
    this.db.transaction(() => {
      for (const l of links) this.insertLink(l);
    })();
  }

  async findLink(hash: string): Promise<LinkRecord | undefined> {
    const row = this.stmt.findLink.get(hash);
    return row ? toLink(row) : undefined;
  }

  async listLinks(encounterId: string): Promise<LinkRecord[]> {
    return this.stmt.listLinks.all(encounterId).map(toLink);
  }

  async updateLink(
    hash: string,
    patch: { allowed?: string[]; label?: string; revoked?: true },
  ): Promise<void> {
    if (patch.allowed) this.stmt.setAllowed.run(JSON.stringify(patch.allowed), hash);
    if (patch.label !== undefined) this.stmt.setLabel.run(patch.label, hash);
    if (patch.revoked) this.stmt.revokeLink.run(hash);
  }

  async listCreatures(owner: string, ruleset: string): Promise<CreatureRecord[]> {
    return this.db
      .prepare<[string, string], { name: string; creature: string; updated_at: string }>(
        'SELECT name, creature, updated_at FROM creatures WHERE owner = ? AND ruleset = ? ORDER BY name',
      )
      .all(owner, ruleset)
      .map((r) => ({
        owner,
        ruleset,
        name: r.name,
        creature: JSON.parse(r.creature),
        updatedAt: r.updated_at,
      }));
  }

  async countCreatures(owner: string): Promise<number> {
    return (
      this.db
        .prepare<[string], { n: number }>('SELECT count(*) AS n FROM creatures WHERE owner = ?')
        .get(owner)?.n ?? 0
    );
  }

  async putCreatures(records: CreatureRecord[]): Promise<void> {
    const put = this.db.prepare(
      'INSERT OR REPLACE INTO creatures (owner, ruleset, name, creature, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const r of records) put.run(r.owner, r.ruleset, r.name, JSON.stringify(r.creature), r.updatedAt);
    })();
  }

  async deleteCreature(owner: string, ruleset: string, name: string): Promise<void> {
    this.db
      .prepare('DELETE FROM creatures WHERE owner = ? AND ruleset = ? AND name = ?')
      .run(owner, ruleset, name);
  }

  async close(): Promise<void> {
    clearTimeout(this.idleCheckpoint);
    await this.checkpointing;
    this.guard?.close();
    this.guard = undefined;
    await this.handles?.wal.close();
    await this.handles?.db.close();
    this.handles = undefined;
    if (!this.db.open) return;
    if (this.idleCheckpoint) {
      try {
        this.db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // Another connection holds the database: the WAL stays and the next open reads it.
      }
    }
    this.db.close();
  }
}
