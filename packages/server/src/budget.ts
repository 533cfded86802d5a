import { type Rejection, reject } from '@roundkeeper/engine';

/**
 * How much one client, and all clients together, may make the server store in a window of time. A
 * client is an IP address for now: players behind one router share its budget, and an attacker with
 * many addresses still meets the overall one. Every number here is listed in docs/api.md.
 */
export const STORAGE_BUDGETS = {
  windowMs: 10 * 60_000,
  /** Encounters created (a scenario import is one). */
  encounters: { perClient: 100, overall: 1_000 },
  /** Bytes of events and commands stored: new encounters and every command's events. */
  bytes: { perClient: 50 * 2 ** 20, overall: 500 * 2 ** 20 },
} as const;

type Kind = 'encounters' | 'bytes';

/**
 * The budgets for a server started with `--encounter-budget n`: n encounters per client (ten times that
 * overall), bytes scaled alike; 0 lifts every storage budget (a benchmark, a trusted single user).
 */
export function budgetsFor(encounters?: number): StorageLimits {
  if (encounters === undefined) return STORAGE_BUDGETS;
  const scale =
    encounters === 0 ? Number.POSITIVE_INFINITY : encounters / STORAGE_BUDGETS.encounters.perClient;
  return {
    windowMs: STORAGE_BUDGETS.windowMs,
    encounters: {
      perClient: encounters || Number.POSITIVE_INFINITY,
      overall: encounters * 10 || Number.POSITIVE_INFINITY,
    },
    bytes: {
      perClient: STORAGE_BUDGETS.bytes.perClient * scale,
      overall: STORAGE_BUDGETS.bytes.overall * scale,
    },
  };
}

export interface StorageLimits {
  windowMs: number;
  encounters: { perClient: number; overall: number };
  bytes: { perClient: number; overall: number };
}

function amount(kind: Kind, n: number): string {
  if (kind === 'encounters') return `${n.toLocaleString('en-US')} encounters`;
  return `${Math.round(n / 2 ** 20).toLocaleString('en-US')} MB`;
}

/**
 * Counts what each client stores per window (fixed windows: everything resets together when one ends)
 * and refuses once a budget is spent. Work is counted after it is done, so one request may end a little
 * past a budget; the next one is refused.
 */
export class StorageBudgets {
  private windowStart: number;
  private readonly used = { encounters: new Map<string, number>(), bytes: new Map<string, number>() };
  private readonly total = { encounters: 0, bytes: 0 };

  constructor(
    private readonly limits: StorageLimits = STORAGE_BUDGETS,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.windowStart = now();
  }

  private roll(): void {
    if (this.now() - this.windowStart < this.limits.windowMs) return;
    this.windowStart = this.now();
    this.used.encounters.clear();
    this.used.bytes.clear();
    this.total.encounters = 0;
    this.total.bytes = 0;
  }

  /** Why `client` may not store more of `kind` now, or undefined. */
  refusal(client: string, kind: Kind): Rejection | undefined {
    this.roll();
    const limit = this.limits[kind];
    const minutes = Math.round(this.limits.windowMs / 60_000);
    const what = kind === 'encounters' ? 'created' : 'stored';
    if ((this.used[kind].get(client) ?? 0) >= limit.perClient) {
      return reject(
        'budget/client',
        `This address has ${what} ${amount(kind, limit.perClient)} in the last ${minutes} minutes, the most one address may; wait a few minutes and try again.`,
      );
    }
    if (this.total[kind] >= limit.overall) {
      return reject(
        'budget/server',
        `The server has ${what} ${amount(kind, limit.overall)} for everyone in the last ${minutes} minutes, the most it takes; wait a few minutes and try again.`,
      );
    }
    return undefined;
  }

  /** Counts what `client` just stored. */
  spend(client: string, kind: Kind, n: number): void {
    this.roll();
    this.used[kind].set(client, (this.used[kind].get(client) ?? 0) + n);
    this.total[kind] += n;
  }
}
