import { type Rejection, reject } from '@roundkeeper/engine';

/** What went wrong with the database, as health reports it. */
export type FaultKind = 'full' | 'damaged';

/** How long health reports a fault after the last request that met it. */
export const FAULT_REPORTED_MS = 60_000;

const FULL = new Set(['SQLITE_FULL', 'ENOSPC', '53100']);
const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_VTAB']);

/**
 * Faults of the database that requests meet (a full disk, a damaged file): each is refused with a
 * sentence that says what it is, and `/api/health` reports the last one for a minute, so a load balancer
 * takes the instance out instead of sending it writes that all fail.
 */
export class DatabaseFaults {
  private last: { kind: FaultKind; at: number } | undefined;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** The status and refusal for an error that is a database fault (and notes it), or undefined. */
  refusal(error: unknown): { status: number; rejection: Rejection } | undefined {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== 'string') return undefined;
    if (FULL.has(code)) {
      this.last = { kind: 'full', at: this.now() };
      return {
        status: 507,
        rejection: reject(
          'server/disk-full',
          "The server's disk is full, so nothing was changed; tell whoever runs the server to free some space, then try again.",
        ),
      };
    }
    if (DAMAGED.has(code)) {
      this.last = { kind: 'damaged', at: this.now() };
      return {
        status: 500,
        rejection: reject(
          'server/database-damaged',
          "The server's database file is damaged, so nothing was changed; tell whoever runs the server (it needs restoring from a backup).",
        ),
      };
    }
    return undefined;
  }

  /** The fault a request met in the last FAULT_REPORTED_MS, if any. */
  current(): FaultKind | undefined {
    if (!this.last || this.now() - this.last.at > FAULT_REPORTED_MS) return undefined;
    return this.last.kind;
  }
}
