/**
 * Schema migrations, numbered from the first one. Never edit a shipped migration: add the next one.
 * `schema_migrations` records which have run.
 */
export const MIGRATIONS: Array<{ id: number; name: string; sql: string }> = [
  {
    id: 1,
    name: 'encounters, events, commands, snapshots, links',
    sql: `
      CREATE TABLE encounters (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        seq INTEGER NOT NULL DEFAULT 0,
        origin TEXT NOT NULL
      );
      CREATE TABLE events (
        encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        grp INTEGER NOT NULL,
        time TEXT,
        event TEXT NOT NULL,
        PRIMARY KEY (encounter_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE commands (
        encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
        grp INTEGER NOT NULL,
        command TEXT NOT NULL,
        role TEXT NOT NULL,
        PRIMARY KEY (encounter_id, grp)
      ) WITHOUT ROWID;
      CREATE TABLE snapshots (
        encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (encounter_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE links (
        hash TEXT PRIMARY KEY,
        encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('gm', 'table', 'player')),
        combatants TEXT NOT NULL,
        allowed TEXT NOT NULL,
        label TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX links_by_encounter ON links(encounter_id);
    `,
  },
  {
    id: 2,
    name: 'links: generation and revoked',
    sql: `
      ALTER TABLE links ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE links ADD COLUMN revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1));
    `,
  },
  {
    id: 3,
    name: 'creature library',
    sql: `
      CREATE TABLE creatures (
        owner TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        name TEXT NOT NULL,
        creature TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (owner, ruleset, name)
      ) WITHOUT ROWID;
    `,
  },
  {
    id: 4,
    name: 'events in append order, found by (encounter, seq) through an index',
    // The 50 live encounters' logs interleave in (encounter_id, seq) order: an append to a table kept in
    // that order lands in the middle of it (3.6 of its pages written a command). A rowid table takes each
    // append at its end, and only the small index entries land in the middle.
    sql: `
      CREATE TABLE events_by_rowid (
        encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        grp INTEGER NOT NULL,
        time TEXT,
        event TEXT NOT NULL
      );
      INSERT INTO events_by_rowid (encounter_id, seq, grp, time, event)
        SELECT encounter_id, seq, grp, time, event FROM events ORDER BY encounter_id, seq;
      DROP TABLE events;
      ALTER TABLE events_by_rowid RENAME TO events;
      CREATE UNIQUE INDEX events_by_encounter ON events(encounter_id, seq);
    `,
  },
  {
    id: 5,
    name: "a command kept in its first event's row",
    // The commands' table, keyed by (encounter_id, grp), took each append in its middle too (1.2 pages
    // written a command). A command is written with the first event of its group (at the events' end),
    // and the table keeps only the commands stored before this and any without an event.
    sql: `
      ALTER TABLE events ADD COLUMN command TEXT;
      ALTER TABLE events ADD COLUMN role TEXT;
    `,
  },
  {
    id: 6,
    name: 'the time of an append kept with its last event',
    // An append no longer writes its encounter's row (a page a command): the encounter's seq is its
    // log's last, and the time of its last change the later of its row's and its last append's.
    sql: `
      ALTER TABLE events ADD COLUMN appended_at TEXT;
    `,
  },
];
