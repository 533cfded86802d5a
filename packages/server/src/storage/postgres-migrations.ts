/**
 * PostgreSQL's schema migrations, numbered from the first one like SQLite's (`migrations.ts`): never
 * edit a shipped migration, add the next one. `schema_migrations` records which have run. JSON is kept
 * as text, as in SQLite: stored exactly as written and parsed only by the server.
 */
export const POSTGRES_MIGRATIONS: Array<{ id: number; name: string; sql: string }> = [
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
      );
      CREATE TABLE commands (
        encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
        grp INTEGER NOT NULL,
        command TEXT NOT NULL,
        role TEXT NOT NULL,
        PRIMARY KEY (encounter_id, grp)
      );
      CREATE TABLE snapshots (
        encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (encounter_id, seq)
      );
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
];
