import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { storageContract } from './contract.js';
import { MemoryStorage } from './memory.js';
import { MIGRATIONS } from './migrations.js';
import { SqliteStorage } from './sqlite.js';
import { StorageConflictError } from './storage.js';

storageContract(
  'sqlite (file, WAL)',
  () => new SqliteStorage(join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite')),
);
storageContract('memory', () => new MemoryStorage());

/** A database file made by the migrations before `id` alone, as a server of that time left it. */
function databaseBefore(id: number): { file: string; old: Database.Database } {
  const file = join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite');
  const old = new Database(file);
  old.exec(
    'CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of MIGRATIONS.filter((m) => m.id < id)) {
    old.exec(m.sql);
    old.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.id, m.name, 't');
  }
  return { file, old };
}

/** An encounter's row as a test creates it. */
const record = (id: string, name = id) => ({
  id,
  name,
  ruleset: 'classic',
  status: 'active' as const,
  createdAt: 't',
  updatedAt: 't',
  seq: 1,
  origin: { seed: 1 },
});

/** A note entry at `seq`, in command group `group` (its seq by default), its text the seq. */
const note = (seq: number, group = seq) => ({
  seq,
  group,
  event: { type: 'note/added' as const, text: `${seq}` },
});

describe('sqlite migrations', () => {
  it('are numbered 1, 2, 3… in order, with no gaps and no repeats', () => {
    expect(MIGRATIONS.map((m) => m.id)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('runs the numbered migrations once, from the first, and keeps data across reopening', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite');
    const a = new SqliteStorage(file);
    expect(a.migrations()).toEqual(MIGRATIONS.map((m) => m.id));
    await a.createEncounter(
      record('x', 'X'),
      [{ seq: 1, group: 0, event: { type: 'note/added', text: 'hi' } }],
      [],
      [],
    );
    await a.close();
    const b = new SqliteStorage(file);
    expect(b.migrations()).toEqual(MIGRATIONS.map((m) => m.id));
    expect((await b.getEncounter('x'))?.name).toBe('X');
    await b.close();
  });
});

describe('sqlite migration 2 (link generations and revocation)', () => {
  it('upgrades a database made before it: its links keep working, at generation 0, not revoked', async () => {
    const { file, old } = databaseBefore(2);
    old
      .prepare(
        "INSERT INTO encounters (id, name, ruleset, created_at, updated_at, seq, origin) VALUES ('x', 'X', 'classic', 't', 't', 1, '{}')",
      )
      .run();
    old
      .prepare(
        "INSERT INTO links (hash, encounter_id, role, combatants, allowed, label, created_at) VALUES ('h', 'x', 'player', '[\"ana\"]', '[\"act\"]', 'Ana', 't')",
      )
      .run();
    old.close();
    const s = new SqliteStorage(file);
    expect(s.migrations()).toEqual(MIGRATIONS.map((m) => m.id));
    expect(await s.findLink('h')).toEqual({
      hash: 'h',
      encounterId: 'x',
      role: 'player',
      combatants: ['ana'],
      allowed: ['act'],
      label: 'Ana',
      createdAt: 't',
    });
    await s.updateLink('h', { revoked: true });
    expect((await s.findLink('h'))!.revoked).toBe(true);
    await s.close();
  });
});

describe('sqlite migration 4 (events in append order, with an index on encounter and seq)', () => {
  it('upgrades a database made before it: its logs read back whole and in order, go on, and are deleted with their encounter', async () => {
    const { file, old } = databaseBefore(4);
    const encounter = old.prepare(
      "INSERT INTO encounters (id, name, ruleset, created_at, updated_at, seq, origin) VALUES (?, ?, 'classic', 't', 't', 3, '{}')",
    );
    const event = old.prepare(
      'INSERT INTO events (encounter_id, seq, grp, time, event) VALUES (?, ?, ?, ?, ?)',
    );
    encounter.run('a', 'A');
    encounter.run('b', 'B');
    // Two logs appended in turns, as live encounters are.
    for (let seq = 1; seq <= 3; seq++) {
      for (const id of ['a', 'b']) {
        event.run(
          id,
          seq,
          seq,
          seq === 2 ? null : 't',
          JSON.stringify({ type: 'note/added', text: `${id}${seq}` }),
        );
      }
    }
    old
      .prepare(
        "INSERT INTO commands (encounter_id, grp, command, role) VALUES ('a', 1, '{\"type\":\"start\"}', 'gm')",
      )
      .run();
    old.close();

    const s = new SqliteStorage(file);
    expect(s.migrations()).toEqual(MIGRATIONS.map((m) => m.id));
    const texts = async (id: string, after?: number) =>
      (await s.readEntries(id, after)).map((e) => [e.seq, (e.event as unknown as { text: string }).text]);
    expect(await texts('a')).toEqual([
      [1, 'a1'],
      [2, 'a2'],
      [3, 'a3'],
    ]);
    expect(await texts('b', 1)).toEqual([
      [2, 'b2'],
      [3, 'b3'],
    ]);
    expect((await s.readEntries('a'))[1]).toEqual({
      seq: 2,
      group: 2,
      event: { type: 'note/added', text: 'a2' },
    });
    expect(await s.readCommands('a')).toEqual([{ group: 1, command: { type: 'start' }, role: 'gm' }]);
    await s.append(
      'a',
      3,
      [{ seq: 4, group: 4, time: 'u', event: { type: 'note/added', text: 'a4' } }],
      null,
      'u',
    );
    await expect(
      s.append('a', 3, [{ seq: 4, group: 4, event: { type: 'note/added', text: 'again' } }], null, 'u'),
    ).rejects.toThrow();
    expect((await texts('a', 2)).map(([seq]) => seq)).toEqual([3, 4]);
    await s.deleteEncounter('a');
    expect(await s.readEntries('a')).toEqual([]);
    expect(await texts('b')).toHaveLength(3);
    await s.close();
  });
});

describe("sqlite migration 5 (a command kept in its first event's row)", () => {
  it('upgrades a database made before it: its commands read back with the new ones, in order; a new command is stored with its first event', async () => {
    const { file, old } = databaseBefore(5);
    old
      .prepare(
        "INSERT INTO encounters (id, name, ruleset, created_at, updated_at, seq, origin) VALUES ('a', 'A', 'classic', 't', 't', 2, '{}')",
      )
      .run();
    const event = old.prepare('INSERT INTO events (encounter_id, seq, grp, event) VALUES (?, ?, ?, ?)');
    const command = old.prepare(
      'INSERT INTO commands (encounter_id, grp, command, role) VALUES (?, ?, ?, ?)',
    );
    for (const [seq, grp] of [
      [1, 1],
      [2, 2],
    ] as const) {
      event.run('a', seq, grp, JSON.stringify({ type: 'note/added', text: `${seq}` }));
      command.run('a', grp, JSON.stringify({ type: `c${grp}` }), 'gm');
    }
    old.close();

    const s = new SqliteStorage(file);
    expect(s.migrations()).toEqual(MIGRATIONS.map((m) => m.id));
    await s.append(
      'a',
      2,
      [note(3, 3), note(4, 3)],
      { group: 3, command: { type: 'c3' }, role: 'player' },
      'u',
    );
    expect(await s.readCommands('a')).toEqual([
      { group: 1, command: { type: 'c1' }, role: 'gm' },
      { group: 2, command: { type: 'c2' }, role: 'gm' },
      { group: 3, command: { type: 'c3' }, role: 'player' },
    ]);
    expect(await s.readEntries('a', 2)).toEqual([note(3, 3), note(4, 3)]);
    await s.close();
    const raw = new Database(file, { readonly: true });
    // The new command is in its first event's row, not in the commands' table.
    expect(raw.prepare("SELECT grp FROM commands WHERE encounter_id = 'a' ORDER BY grp").all()).toEqual([
      { grp: 1 },
      { grp: 2 },
    ]);
    expect(
      raw
        .prepare("SELECT seq, command, role FROM events WHERE encounter_id = 'a' AND command IS NOT NULL")
        .all(),
    ).toEqual([{ seq: 3, command: '{"type":"c3"}', role: 'player' }]);
    raw.close();
  });

  it('a command without an event of its group is kept on its own and read back in order', async () => {
    const s = new SqliteStorage(join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite'));
    await s.createEncounter(
      record('b'),
      [note(1, 0)],
      [
        { group: 0, command: { type: 'with' }, role: 'gm' },
        { group: 5, command: { type: 'alone' }, role: 'gm' },
      ],
      [],
    );
    await s.append('b', 1, [note(2, 7)], { group: 6, command: { type: 'other group' }, role: 'table' }, 'u');
    expect((await s.readCommands('b')).map((c) => c.group)).toEqual([0, 5, 6]);
    await s.close();
  });
});

describe("sqlite migration 6 (an append does not write its encounter's row)", () => {
  it("upgrades a database made before it: the encounter's seq and time follow its appends, which are checked as before", async () => {
    const { file, old } = databaseBefore(6);
    old
      .prepare(
        "INSERT INTO encounters (id, name, ruleset, created_at, updated_at, seq, origin) VALUES ('a', 'A', 'classic', 't0', 't1', 2, '{}')",
      )
      .run();
    const event = old.prepare('INSERT INTO events (encounter_id, seq, grp, event) VALUES (?, ?, ?, ?)');
    for (const seq of [1, 2])
      event.run('a', seq, seq, JSON.stringify({ type: 'note/added', text: `${seq}` }));
    old.close();

    const s = new SqliteStorage(file);
    expect(s.migrations()).toEqual(MIGRATIONS.map((m) => m.id));
    expect(await s.getEncounter('a')).toMatchObject({ seq: 2, createdAt: 't0', updatedAt: 't1' });
    await s.append('a', 2, [note(3), note(4)], null, 't2');
    expect(await s.getEncounter('a')).toMatchObject({ seq: 4, updatedAt: 't2' });
    expect((await s.listEncounters(['a']))[0]).toMatchObject({ seq: 4, updatedAt: 't2' });
    await expect(s.append('a', 2, [note(3)], null, 't3')).rejects.toBeInstanceOf(StorageConflictError);
    await expect(s.append('a', 5, [note(6)], null, 't3')).rejects.toBeInstanceOf(StorageConflictError);
    expect(await s.getEncounter('a')).toMatchObject({ seq: 4, updatedAt: 't2' });
    await s.updateEncounter('a', { name: 'B' }, 't4');
    expect(await s.getEncounter('a')).toMatchObject({ name: 'B', seq: 4, updatedAt: 't4' });
    await s.append('a', 4, [], null, 't5');
    expect(await s.getEncounter('a')).toMatchObject({ seq: 4, updatedAt: 't5' });
    await s.append('a', 4, [note(5)], null, 't6');
    await s.close();
    const raw = new Database(file, { readonly: true });
    // The appends of events wrote only events: the row has the rename's and the empty append's writes.
    expect(raw.prepare("SELECT seq, updated_at FROM encounters WHERE id = 'a'").get()).toEqual({
      seq: 2,
      updated_at: 't5',
    });
    raw.close();
    const again = new SqliteStorage(file);
    expect(await again.getEncounter('a')).toMatchObject({ seq: 5, updatedAt: 't6' });
    await again.close();
  });
});

describe('sqlite checkpoints between requests', () => {
  const fill = async (s: SqliteStorage) => {
    const text = 'x'.repeat(2000);
    for (let i = 0; i < 300; i++) {
      await s.createEncounter(
        record(`e${i}`),
        [{ seq: 1, group: 0, event: { type: 'note/added', text } }],
        [],
        [],
      );
    }
  };

  it.each(['pool', 'inline'] as const)(
    'committed pages reach the database file once the writing turn of the event loop is over, never inside a commit (fsyncs: %s)',
    async (checkpointSync) => {
      const file = join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite');
      const s = new SqliteStorage(file, { checkpointSync });
      const before = statSync(file).size;
      await fill(s);
      // SQLite's own checkpoint is off: 300 commits in one turn of the event loop went to the WAL only,
      // though they crossed 1,000 pages.
      expect(statSync(file).size).toBe(before);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(300 * 2000);
      await new Promise((r) => setTimeout(r, 500));
      expect(statSync(file).size).toBeGreaterThan(before + 300 * 2000);
      // The pool's fsyncs ran (not a fallback to SQLite's own).
      expect(s.checkpointsSyncedInPool > 0).toBe(checkpointSync === 'pool');
      // The WAL keeps its size (no truncation inside a commit); closing truncates it.
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(300 * 2000);
      await s.close();
      expect(statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
      const again = new SqliteStorage(file);
      expect((await again.getEncounter('e299'))?.name).toBe('e299');
      await again.close();
    },
  );

  it('the WAL is not restarted (its frames not overwritten) until the database file is synced', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite');
    const s = new SqliteStorage(file);
    const inside = s as unknown as {
      checkpoint(): void;
      checkpointing: Promise<void> | undefined;
      handles: { db: { datasync(): Promise<void> } } | undefined;
    };
    // The WAL header's checkpoint sequence number: a restart of the WAL (writing from its start again)
    // changes it.
    const restarts = () => readFileSync(`${file}-wal`).readUInt32BE(12);
    let seq = 1;
    const write = () =>
      s.append('e', seq, [{ seq: ++seq, group: seq, event: { type: 'note/added' } }], null, 't');
    await s.createEncounter(record('e'), [{ seq: 1, group: 0, event: { type: 'note/added' } }], [], []);
    inside.checkpoint();
    await inside.checkpointing;
    await write(); // everything was copied: this commit restarts the WAL
    const before = restarts();
    // A checkpoint whose fsync of the database file takes a while: commits meanwhile must not restart.
    const datasync = inside.handles!.db.datasync.bind(inside.handles!.db);
    let release = () => {};
    inside.handles!.db.datasync = () =>
      new Promise<void>((resolve) => {
        release = () => void datasync().then(resolve);
      });
    inside.checkpoint();
    await new Promise((r) => setTimeout(r, 50));
    await write();
    await write();
    expect(restarts()).toBe(before);
    release();
    await inside.checkpointing;
    inside.handles!.db.datasync = datasync;
    inside.checkpoint(); // the two commits of the meanwhile
    await inside.checkpointing;
    await write(); // all copied and synced: now the WAL starts over
    expect(restarts()).not.toBe(before);
    expect((await s.readEntries('e')).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    await s.close();
  });

  it('inline: SQLite checkpoints inside the commit that crosses 1,000 WAL pages', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rk-db-')), 'db.sqlite');
    const s = new SqliteStorage(file, { checkpoint: 'inline' });
    const before = statSync(file).size;
    await fill(s);
    expect(statSync(file).size).toBeGreaterThan(before);
    await s.close();
  });
});
