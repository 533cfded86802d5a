import type { EncounterState, Json, LogEntry } from '@roundkeeper/engine';

/** An encounter's row: what lists and links need without loading its log. */
export interface EncounterRecord {
  id: string;
  name: string;
  ruleset: string;
  status: 'active' | 'archived';
  createdAt: string;
  updatedAt: string;
  /** The last log entry's seq. */
  seq: number;
  /** How the encounter's dice started (a seed, or scripted faces), for export. */
  origin: Json;
}

export type Role = 'gm' | 'table' | 'player';

/** A link's grant. The token itself is never stored: only its SHA-256. */
export interface LinkRecord {
  hash: string;
  encounterId: string;
  role: Role;
  /** For a player link: the characters it may command. */
  combatants: string[];
  /** For a player link: the command types the GM allows it. */
  allowed: string[];
  label: string;
  createdAt: string;
  /**
   * How many times the GM has rotated this link (0, left out, for the first): the table's and players'
   * tokens are derived from the GM's and their generation, so a rotated link gets a new token.
   */
  generation?: number;
  /** Revoked by the GM (or replaced by a rotation): the token no longer opens anything. */
  revoked?: true;
}

/** A command as accepted, kept so an encounter exports as a scenario that replays exactly. */
export interface CommandRecord {
  group: number;
  command: Json;
  role: Role;
}

/**
 * A creature of a GM's library: a combatant template for one ruleset (its stats mean something only
 * there). `owner` is the SHA-256 of the browser's library key, never the key.
 */
export interface CreatureRecord {
  owner: string;
  ruleset: string;
  name: string;
  creature: Json;
  updatedAt: string;
}

export class StorageConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageConflictError';
  }
}

/**
 * Where encounters live: an append-only event log per encounter, snapshots every N events, the accepted
 * commands, and link hashes. One interface for every adapter (SQLite, PostgreSQL, memory), checked by
 * one contract test suite (contract.ts). Methods are async so a networked database fits the same shape.
 */
export interface Storage {
  readonly kind: string;
  /** Resolves when the database answers (`/api/health`); rejects when it cannot be reached. */
  ping(): Promise<void>;
  createEncounter(
    record: EncounterRecord,
    entries: LogEntry[],
    commands: CommandRecord[],
    links: LinkRecord[],
  ): Promise<void>;
  getEncounter(id: string): Promise<EncounterRecord | undefined>;
  listEncounters(ids: string[]): Promise<EncounterRecord[]>;
  countEncounters(): Promise<number>;
  updateEncounter(
    id: string,
    patch: { name?: string; status?: 'active' | 'archived' },
    now: string,
  ): Promise<void>;
  deleteEncounter(id: string): Promise<void>;
  /**
   * Appends entries atomically, with the command that caused them. `afterSeq` must be the encounter's
   * current seq (otherwise StorageConflictError): the log never forks. Resolves to the bytes stored: the
   * length of the events' and the command's JSON text (for the storage budgets; written once, for the
   * row and the count alike).
   */
  append(
    id: string,
    afterSeq: number,
    entries: LogEntry[],
    command: CommandRecord | null,
    now: string,
  ): Promise<number>;
  /** Entries with seq > afterSeq, in order. */
  readEntries(id: string, afterSeq?: number): Promise<LogEntry[]>;
  readCommands(id: string): Promise<CommandRecord[]>;
  saveSnapshot(id: string, seq: number, state: EncounterState): Promise<void>;
  latestSnapshot(id: string): Promise<{ seq: number; state: EncounterState } | undefined>;
  addLinks(links: LinkRecord[]): Promise<void>;
  findLink(hash: string): Promise<LinkRecord | undefined>;
  listLinks(encounterId: string): Promise<LinkRecord[]>;
  /** Changes a link; `revoked: true` revokes it for good (there is no un-revoking: rotate instead). */
  updateLink(hash: string, patch: { allowed?: string[]; label?: string; revoked?: true }): Promise<void>;
  /** A library's creatures for one ruleset, by name. */
  listCreatures(owner: string, ruleset: string): Promise<CreatureRecord[]>;
  /** How many creatures a library holds, every ruleset together. */
  countCreatures(owner: string): Promise<number>;
  /** Adds or replaces creatures (same owner, ruleset and name), all or none. */
  putCreatures(records: CreatureRecord[]): Promise<void>;
  deleteCreature(owner: string, ruleset: string, name: string): Promise<void>;
  close(): Promise<void>;
}
