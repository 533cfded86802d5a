import type { LogEntry } from '@roundkeeper/engine';
import type { EncounterRecord, LinkRecord } from './storage.js';

/**
 * Rows as both SQL adapters store them (SQLite and PostgreSQL share the schema's columns; JSON is kept as
 * text), and the records they read back as.
 */
export interface EncounterRow {
  id: string;
  name: string;
  ruleset: string;
  status: 'active' | 'archived';
  created_at: string;
  updated_at: string;
  seq: number;
  origin: string;
}

export interface LinkRow {
  hash: string;
  encounter_id: string;
  role: LinkRecord['role'];
  combatants: string;
  allowed: string;
  label: string;
  created_at: string;
  generation: number;
  /** SQLite stores 0/1, PostgreSQL a boolean. */
  revoked: number | boolean;
}

export const toRecord = (r: EncounterRow): EncounterRecord => ({
  id: r.id,
  name: r.name,
  ruleset: r.ruleset,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  seq: r.seq,
  origin: JSON.parse(r.origin),
});

export const toLink = (r: LinkRow): LinkRecord => ({
  hash: r.hash,
  encounterId: r.encounter_id,
  role: r.role,
  combatants: JSON.parse(r.combatants),
  allowed: JSON.parse(r.allowed),
  label: r.label,
  createdAt: r.created_at,
  ...(r.generation ? { generation: r.generation } : {}),
  ...(r.revoked ? { revoked: true as const } : {}),
});

/**
 * Log entries from their rows, for one read: each made with all its fields at once (a field added
 * afterwards moves an object's fields out of line, ~30 bytes more for every entry a loaded encounter
 * keeps), and the entries of one command, which share their time, share one string for it.
 */
export function entryReader(): (seq: number, group: number, time: string | null, event: string) => LogEntry {
  let lastTime: string | undefined;
  return (seq, group, time, event) => {
    if (time === null) return { seq, group, event: JSON.parse(event) };
    if (time !== lastTime) lastTime = time;
    return { seq, group, event: JSON.parse(event), time: lastTime };
  };
}
