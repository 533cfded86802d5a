import { type EncounterState, type Rejection, reject } from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * What one request or message may hold, checked the same way for HTTP bodies and WebSocket messages
 * before anything else reads them. Every number here is listed in docs/api.md.
 */
export const INPUT_LIMITS = {
  /** An HTTP request's body (a 413 past it, told before the body is sent to a client that asks). */
  bodyBytes: 256 * 1024,
  /** Objects and lists inside one another: validating deeper input recursively would overflow the stack. */
  maxDepth: 32,
  /** A live socket's message: past it a command gets its refusal as its result, the socket stays open. */
  socketMessageBytes: 64 * 1024,
  /**
   * What the socket reads of one message at most (`ws`'s maxPayload): past it the socket is closed (1009),
   * since the message is not read to its end. Four times the limit above, so an honest page that sends too
   * much is told so.
   */
  socketFrameBytes: 256 * 1024,
} as const;

/** Log entries redacted and written in one piece when a client reads a long log (HTTP or a resume). */
export const EVENTS_CHUNK = 250;

/**
 * Rows a storage adapter reads (and parses) in one query from a long log or command list, a few
 * milliseconds' work: loading an encounter of tens of thousands of entries gives way to other requests
 * between pages.
 */
export const READ_PAGE = 1_000;

/** Live connections (WebSockets) the server keeps open at once. A client is an IP address for now. */
export const CONNECTION_LIMITS = {
  perEncounter: 100,
  perClient: 200,
  /**
   * Bytes a socket may hold written and not yet sent (ws's queue and the connection's buffer): a
   * message that would take it past drops the connection (one message always goes when nothing waits).
   * Replies to a socket's own messages obey it as broadcasts do.
   */
  heldBytes: 1024 * 1024,
  /**
   * Bytes the sockets of one address may hold together, written and not yet sent: past it the socket
   * of that address that has held unsent bytes the longest is dropped, as one past `heldBytes` is.
   * Without it one address could hold `perClient` × `heldBytes` (200 MiB).
   */
  addressHeldBytes: 16 * 1024 * 1024,
} as const;

/** Counts open connections by key (an encounter, an address) against a cap. */
export class ConnectionCount {
  private readonly open = new Map<string, number>();

  constructor(readonly cap: number) {}

  /** Takes a place for `key`, or returns false when it has `cap` already. */
  take(key: string): boolean {
    const n = this.open.get(key) ?? 0;
    if (n >= this.cap) return false;
    this.open.set(key, n + 1);
    return true;
  }

  release(key: string): void {
    const n = (this.open.get(key) ?? 0) - 1;
    if (n > 0) this.open.set(key, n);
    else this.open.delete(key);
  }
}

/**
 * What one encounter may hold, however it is built: the form, a command (HTTP or the socket, a library
 * creature added among them), a scenario's combatants and its steps. Checked on the state a change
 * leaves (see `combatantsOver`), so no door can pass it.
 */
export const ENCOUNTER_LIMITS = {
  combatants: 200,
  /** An encounter's name, on the form, on a rename and in an import alike. */
  nameLength: 120,
} as const;

/** An encounter's name: the one schema for every door. */
export const encounterNameSchema = z.string().trim().min(1).max(ENCOUNTER_LIMITS.nameLength);

/**
 * The refusal of a change that leaves the encounter with more combatants than ENCOUNTER_LIMITS allows
 * (and more than it had: an encounter already past the limit may still lose some), or undefined.
 */
export function combatantsOver(before: EncounterState, after: EncounterState): Rejection | undefined {
  const n = after.roster.length;
  if (n <= ENCOUNTER_LIMITS.combatants || n <= before.roster.length) return undefined;
  return reject(
    'encounter/too-many-combatants',
    `An encounter holds at most ${ENCOUNTER_LIMITS.combatants} combatants, and this one has ${before.roster.length}; remove some first, or split the fight in two.`,
  );
}

/**
 * What a scenario import (which needs no link) may ask of the server. Each step is decided like a
 * command; the import gives way to other requests every `sliceMs` of work, so however long it is, it
 * never holds the event loop, and `entries` bounds its total work and what it stores.
 */
export const SCENARIO_LIMITS = {
  combatants: ENCOUNTER_LIMITS.combatants,
  actions: 200,
  commands: 2_000,
  /**
   * Log entries the whole import may make. Its decisions give way every `sliceMs`, but it is stored in
   * one transaction: 18,000 entries took ~60 ms to write (and ~15 ms to count), 10,000 about half that.
   */
  entries: 10_000,
  sliceMs: 10,
} as const;

/**
 * The event loop's current turn, shared by every long task: when many run at once (a hundred sockets
 * catching up on a long log), each giving way on its own would still let them all run back to back
 * before the loop reads the network again. Together they take at most `sliceMs` a turn.
 */
const turn: { start: number; next: Promise<void> | undefined } = {
  start: performance.now(),
  next: undefined,
};

function nextTurn(): Promise<void> {
  turn.next ??= new Promise((resolve) =>
    setImmediate(() => {
      turn.next = undefined;
      turn.start = performance.now();
      resolve();
    }),
  );
  return turn.next;
}

/**
 * Lets a long loop give way to other requests: `pause()` waits for a later turn of the event loop once
 * the long tasks together have worked `sliceMs` in this one, and returns at once otherwise.
 */
export class Slices {
  constructor(private readonly sliceMs: number = SCENARIO_LIMITS.sliceMs) {}

  async pause(): Promise<void> {
    while (performance.now() - turn.start >= this.sliceMs) await nextTurn();
  }
}

/** Why a scenario is beyond SCENARIO_LIMITS' counts or its name beyond an encounter's, or undefined. */
export function scenarioRefusal(s: {
  name: string;
  combatants: unknown[];
  actions: unknown[];
  commands: unknown[];
}): Rejection | undefined {
  const name = encounterNameSchema.safeParse(s.name);
  if (!name.success) {
    return reject(
      'scenario/invalid',
      `The scenario's name must be 1 to ${ENCOUNTER_LIMITS.nameLength} characters, as an encounter's name is on the form; this one has ${s.name.trim().length.toLocaleString('en-US')}.`,
    );
  }
  for (const key of ['combatants', 'actions', 'commands'] as const) {
    if (s[key].length > SCENARIO_LIMITS[key]) {
      return reject(
        'scenario/too-large',
        `The scenario has ${s[key].length.toLocaleString('en-US')} ${key}; an import may have at most ${SCENARIO_LIMITS[key].toLocaleString('en-US')}.`,
      );
    }
  }
  return undefined;
}

/** The refusal of a `__proto__` key, or a `constructor` holding a `prototype` (as Fastify's parser refuses). */
export function forbiddenKey(what: string): Rejection {
  return reject(
    'request/forbidden-key',
    `The ${what} has a key named "__proto__" (or a "constructor" holding a "prototype"), which is not allowed anywhere; rename it.`,
  );
}

/**
 * Refuses input nested deeper than `INPUT_LIMITS.maxDepth` or holding a `__proto__` key (assigning it
 * would replace an object's prototype) or a `constructor` holding a `prototype`. Walks the value
 * without recursion, so no input can overflow the stack here, and visits each value once.
 */
export function checkInput(value: unknown, what: string): Rejection | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > INPUT_LIMITS.maxDepth) {
      return reject(
        'request/too-deep',
        `The ${what} nests objects and lists more than ${INPUT_LIMITS.maxDepth} levels deep; at most ${INPUT_LIMITS.maxDepth} levels are allowed.`,
      );
    }
    if (Array.isArray(v)) {
      for (const x of v) stack.push([x, depth + 1]);
      continue;
    }
    if (Object.hasOwn(v, '__proto__')) return forbiddenKey(what);
    const ctor = (v as { constructor?: unknown }).constructor;
    if (
      Object.hasOwn(v, 'constructor') &&
      ctor !== null &&
      typeof ctor === 'object' &&
      Object.hasOwn(ctor, 'prototype')
    ) {
      return forbiddenKey(what);
    }
    for (const x of Object.values(v)) stack.push([x, depth + 1]);
  }
  return undefined;
}

/**
 * A token bucket: up to `burst` messages at once, refilled at `perSecond`. A GM clicking through turns
 * sends a few messages in a second and never empties it; a flood does, and is then held to the rate.
 */
export class TokenBucket {
  private tokens: number;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    readonly burst: number,
    readonly perSecond: number,
  ) {
    this.tokens = burst;
  }

  /** Takes one token at time `now` (ms), or returns false when the bucket is empty. */
  take(now: number): boolean {
    if (this.last !== Number.NEGATIVE_INFINITY) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.perSecond) / 1000);
    }
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
