import type { AnyRuleset, EncounterLog, EncounterView, Viewer } from '@roundkeeper/engine';
import type { EncounterRecord } from './storage/storage.js';

/** A connected viewer: the server pushes its redacted view of every change. */
export interface Subscriber {
  viewer: Viewer;
  /** The hash of the link it came in with: revoking that link closes it. */
  link?: string;
  /**
   * The link it came in with changed (what it allows, or it was revoked). A connection authorizes once,
   * when it subscribes, and sends its commands with that link: this keeps it current.
   */
  relinked?(patch: { allowed?: string[]; revoked?: true }): void;
  /**
   * One message. A change many viewers get comes as `shared` too: what a transport makes of its text
   * (a socket, the whole frame) it keeps there, made once for all of them.
   */
  send(text: string, shared?: SharedMessage): void;
  close(): void;
}

/** A message many viewers get, and what a transport made of its text once for all of them to write. */
export interface SharedMessage {
  readonly text: string;
  wire?: Buffer;
}

/** An encounter in memory: its log, its queue of commands, and who watches it. */
export interface Live {
  record: EncounterRecord;
  log: EncounterLog;
  ruleset: AnyRuleset;
  /** Commands of one encounter run one after another, against the current state. */
  queue: Promise<unknown>;
  subscribers: Set<Subscriber>;
  lastUsed: number;
  /** Commands and changes queued or running: an encounter with some is never unloaded. */
  pending: number;
  /**
   * Redacted log chunks as JSON, by kind of viewer and chunk, while the log is at `seq` (see viewChunks),
   * and when they were last used: the sweep drops them once the log has moved on or nobody has used them
   * for CHUNKS_KEPT_MS (they hold the log's text once per kind of viewer that caught up).
   */
  chunks?: { seq: number; texts: Map<string, string>; usedAt: number };
  /**
   * The view each kind of viewer watching holds (see `viewKey`), at `seq`: the base of the next change's
   * delta. Kinds whose views are the same share one object, so their next messages are found equal fast.
   */
  views: Map<string, { seq: number; view: EncounterView }>;
}

/** The kind of viewer: everyone of one kind sees the same view and events. */
export function viewKey(viewer: Viewer): string {
  return viewer.role === 'player' ? `player:${viewer.combatants.join(',')}` : viewer.role;
}
