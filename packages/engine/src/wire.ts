import type { ChangeMessage, CompactEvent } from './change.js';
import type { ViewDelta } from './delta.js';
import type { Json } from './json.js';
import type { Command, LogEntry, Rejection } from './types.js';
import type { EncounterView } from './view.js';

/**
 * The live socket's messages (docs/api.md, "Live"), both ways, as the server sends and accepts them: one
 * union each, and one reader for the page (`parseServerMessage`) that turns a message's text into a member
 * of the union or says why it is not one.
 */

/** Who a link speaks for. */
export type WireRole = 'gm' | 'table' | 'player';

/** The encounter's row as a link's holder reads it (the GM's carries `origin` too). */
export interface WireEncounter {
  id: string;
  name: string;
  ruleset: string;
  status: 'active' | 'archived';
  createdAt: string;
  updatedAt: string;
  seq: number;
  origin?: Json;
}

/** The first message on a socket: the viewer's whole view at `seq`. */
export interface HelloMessage {
  type: 'hello';
  role: WireRole;
  /** A player link's characters. */
  combatants?: string[];
  /** The command types a player link may send (the GM sets them per link; `allowed` tells of a change). */
  allowed?: string[];
  encounter: WireEncounter;
  seq: number;
  state: EncounterView;
}

/** The log entries a resuming socket missed (`?after=`), in pieces. */
export interface EventsMessage {
  type: 'events';
  entries: LogEntry[];
}

/** The answer to a command sent on the socket, by its id. */
export type ResultMessage =
  | { type: 'result'; id: string; ok: true; seq: number }
  | { type: 'result'; id: string; ok: false; error: Rejection };

/** A message the server could not read, or a connection it refuses (the socket closes after it). */
export interface ErrorMessage {
  type: 'error';
  error: Rejection;
}

export interface PongMessage {
  type: 'pong';
}

/** The GM revoked or replaced the link this socket opened with. */
export interface RevokedMessage {
  type: 'revoked';
}

/** The GM changed the command types this socket's player link may send: from now on these. */
export interface AllowedMessage {
  type: 'allowed';
  allowed: string[];
}

/** The encounter was deleted. */
export interface DeletedMessage {
  type: 'deleted';
}

/** Every message the server sends on the live socket. */
export type ServerMessage =
  | HelloMessage
  | EventsMessage
  | ChangeMessage
  | ResultMessage
  | ErrorMessage
  | PongMessage
  | RevokedMessage
  | AllowedMessage
  | DeletedMessage;

/** A command, answered by a `result` with the same id (at most 64 characters). */
export interface CommandMessage {
  type: 'command';
  id: string;
  command: Command;
}

export interface PingMessage {
  type: 'ping';
}

/** Every message the server accepts on the live socket. */
export type ClientMessage = CommandMessage | PingMessage;

/** The text of a client message. */
export function clientMessageText(message: ClientMessage): string {
  return JSON.stringify(message);
}

/** A message read, or why the text is not one of `ServerMessage`. */
export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

type Obj = { readonly [key: string]: unknown };

function isObj(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isSeq(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

function isRejectionShape(x: unknown): x is Rejection {
  return isObj(x) && typeof x.code === 'string' && typeof x.message === 'string';
}

function isEntry(x: unknown): x is LogEntry {
  return (
    isObj(x) &&
    isSeq(x.seq) &&
    typeof x.group === 'number' &&
    isObj(x.event) &&
    typeof x.event.type === 'string'
  );
}

function isEntries(x: unknown): x is LogEntry[] {
  return Array.isArray(x) && x.every(isEntry);
}

/**
 * A view as far as the page relies on its shape before reading it: its lists and maps are there. (Every
 * field is not checked on every change: the server built it from the same engine.)
 */
function isView(x: unknown): x is EncounterView {
  return (
    isObj(x) &&
    typeof x.ruleset === 'string' &&
    typeof x.status === 'string' &&
    typeof x.round === 'number' &&
    isObj(x.combatants) &&
    Array.isArray(x.roster) &&
    Array.isArray(x.agenda) &&
    Array.isArray(x.effects)
  );
}

function isDelta(x: unknown): x is ViewDelta {
  return isObj(x);
}

function isCompact(x: unknown): x is CompactEvent | null {
  return (
    x === null ||
    (Array.isArray(x) && typeof x[0] === 'string' && (x.length === 1 || (x.length === 2 && isObj(x[1]))))
  );
}

function isRole(x: unknown): x is WireRole {
  return x === 'gm' || x === 'table' || x === 'player';
}

function isEncounter(x: unknown): x is WireEncounter {
  return (
    isObj(x) &&
    typeof x.id === 'string' &&
    typeof x.name === 'string' &&
    typeof x.ruleset === 'string' &&
    (x.status === 'active' || x.status === 'archived')
  );
}

function isStrings(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string');
}

function read(msg: Obj): ServerMessage | string {
  switch (msg.type) {
    case 'hello': {
      const { role, combatants, allowed, encounter, seq, state } = msg;
      if (!isRole(role)) return 'a hello without its role';
      if (!isEncounter(encounter)) return 'a hello without its encounter';
      if (!isSeq(seq)) return 'a hello without its seq';
      if (!isView(state)) return 'a hello without a view';
      if (combatants !== undefined && !isStrings(combatants)) return "a hello's combatants are not ids";
      if (allowed !== undefined && !isStrings(allowed)) return "a hello's allowed are not command types";
      const hello: HelloMessage = { type: 'hello', role, encounter, seq, state };
      if (combatants !== undefined) hello.combatants = combatants;
      if (allowed !== undefined) hello.allowed = allowed;
      return hello;
    }
    case 'allowed':
      return isStrings(msg.allowed)
        ? { type: 'allowed', allowed: msg.allowed }
        : 'allowed without its command types';
    case 'events':
      return isEntries(msg.entries) ? { type: 'events', entries: msg.entries } : 'events without entries';
    case 'change': {
      const { seq, from, group, time, events, entries, delta, state } = msg;
      if (!isSeq(seq) || !isSeq(from)) return 'a change without its seqs';
      const change: ChangeMessage = { type: 'change', seq, from };
      if (group !== undefined) {
        if (typeof group !== 'number') return "a change's group is not a number";
        change.group = group;
      }
      if (time !== undefined) {
        if (typeof time !== 'number' && typeof time !== 'string') return "a change's time is not a time";
        change.time = time;
      }
      if (events !== undefined) {
        if (!Array.isArray(events) || !events.every(isCompact)) return "a change's events are not events";
        change.events = events.filter(isCompact);
      }
      if (entries !== undefined) {
        if (!isEntries(entries)) return "a change's entries are not log entries";
        change.entries = entries;
      }
      if (delta !== undefined) {
        if (!isDelta(delta)) return "a change's delta is not one";
        change.delta = delta;
      }
      if (state !== undefined) {
        if (!isView(state)) return "a change's view is not one";
        change.state = state;
      }
      if (change.delta === undefined && change.state === undefined) return 'a change without its view';
      return change;
    }
    case 'result': {
      const { id, ok, seq, error } = msg;
      if (typeof id !== 'string') return 'a result without its id';
      if (ok === true) return isSeq(seq) ? { type: 'result', id, ok, seq } : 'a result without its seq';
      if (ok === false)
        return isRejectionShape(error) ? { type: 'result', id, ok, error } : 'a refusal without its reason';
      return 'a result that is neither accepted nor refused';
    }
    case 'error':
      return isRejectionShape(msg.error)
        ? { type: 'error', error: msg.error }
        : 'an error without its reason';
    case 'pong':
    case 'revoked':
    case 'deleted':
      return { type: msg.type };
    default:
      return typeof msg.type === 'string'
        ? `an unknown message "${msg.type.slice(0, 40)}"`
        : 'a message without a type';
  }
}

/** A server message from its text, or why it is not one (never a cast: each field is checked). */
export function parseServerMessage(text: string): Parsed<ServerMessage> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'a message that is not JSON' };
  }
  if (!isObj(json)) return { ok: false, error: 'a message that is not an object' };
  const r = read(json);
  return typeof r === 'string' ? { ok: false, error: r } : { ok: true, message: r };
}
