import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  type ClientMessage,
  type CommandMessage,
  explainZodError,
  type Rejection,
  reject,
  type ServerMessage,
} from '@roundkeeper/engine';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { StorageBudgets } from './budget.js';
import type { DatabaseFaults } from './faults.js';
import { textFrame } from './frame.js';
import { type CommandOutcome, type Hub, HubError, type SharedMessage } from './hub.js';
import { CONNECTION_LIMITS, ConnectionCount, checkInput, INPUT_LIMITS, TokenBucket } from './limits.js';
import { viewerOf } from './links.js';
import { messageText } from './messages.js';
import { idParam, tokenOf } from './request.js';
import type { LinkRecord } from './storage/storage.js';

/**
 * Every message the server sends on a live socket: the engine's wire union (engine/src/wire.ts), which the
 * page reads with `parseServerMessage`. The transport's own replies (a refusal, a pong, a result) are
 * built here; the hub's hello, change, events, revoked and deleted come as text built from the same
 * union (see messages.ts and `SocketSender.forward`).
 */
export type OutgoingMessage = ServerMessage;

/**
 * A client message as the socket reads it: the union's `ClientMessage`, its command not yet read (the hub
 * reads it against the encounter's ruleset).
 */
export type IncomingMessage =
  | (Omit<CommandMessage, 'command'> & { command: unknown })
  | Exclude<ClientMessage, CommandMessage>;

/** The live route's address: the only one that takes a WebSocket upgrade. */
export const LIVE_ROUTE = '/api/encounters/:id/live';

export interface TransportOptions {
  hub: Hub;
  budgets: StorageBudgets;
  /** Where a database fault a command meets is noted and explained (see faults.ts). */
  faults: DatabaseFaults;
  /** Messages a second on one connection after a burst of `wsBurst`; 0 = no limit. */
  wsRate: number;
  wsBurst: number;
  heartbeatMs: number;
  /** Bytes written and not yet sent a socket may hold (default CONNECTION_LIMITS.heldBytes). */
  heldBytes?: number;
  /** The same for all the sockets of one address together (default CONNECTION_LIMITS.addressHeldBytes). */
  addressHeldBytes?: number;
}

const wsMessageSchema: z.ZodType<IncomingMessage> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('command'), id: z.string().max(64), command: z.unknown() }),
  z.object({ type: z.literal('ping') }),
]);

/** The id of a command message (to answer it with its result), or undefined for anything else. */
function commandId(msg: unknown): string | undefined {
  if (typeof msg !== 'object' || msg === null) return undefined;
  const { type, id } = msg as { type?: unknown; id?: unknown };
  return type === 'command' && typeof id === 'string' && id.length <= 64 ? id : undefined;
}

/**
 * A command message as `wsMessageSchema` gives it back, read without running the schema (a GM's every
 * command takes this path); undefined for anything else, which the schema then reads or explains.
 */
function commandMessage(msg: unknown): Extract<IncomingMessage, { type: 'command' }> | undefined {
  if (Array.isArray(msg)) return undefined;
  const id = commandId(msg);
  return id === undefined
    ? undefined
    : { type: 'command', id, command: (msg as { command?: unknown }).command };
}

/** A socket message's JSON, or undefined when it is not JSON. */
function jsonOf(data: unknown, isBinary: boolean): unknown {
  if (isBinary) return undefined;
  try {
    return JSON.parse(String(data));
  } catch {
    return undefined;
  }
}

/** The refusal of a socket message longer than a message may be, read whole to answer a command's id. */
function tooLarge(text: string): Rejection | undefined {
  // A string's length never exceeds its UTF-8 bytes, so most messages are cleared without counting them.
  if (text.length * 3 <= INPUT_LIMITS.socketMessageBytes) return undefined;
  const bytes = Buffer.byteLength(text);
  if (bytes <= INPUT_LIMITS.socketMessageBytes) return undefined;
  const kib = (n: number) => Math.ceil(n / 1024);
  return reject(
    'request/too-large',
    `This message is ${kib(bytes)} KiB, and the live connection takes at most ${kib(INPUT_LIMITS.socketMessageBytes)} KiB at once: shorten its text and send it again.`,
  );
}

/** A socket as AddressHeld counts it (a SocketSender). */
export interface HoldingSocket {
  readonly address: string;
  /** What it holds written and not yet sent, now. */
  readonly held: number;
  /** Drops the connection (it then holds nothing more). */
  drop(why: { held: number; bytes: number; addressHeld: number }): void;
}

/** The sockets of one address that hold bytes written and not yet sent, and their sum. */
interface Holding {
  /** Each socket's held bytes at its last write or count, in the order they began to hold. */
  sockets: Map<HoldingSocket, number>;
  total: number;
}

/**
 * What the sockets of each address hold together, written and not yet sent, against one budget: many
 * sockets of one address cannot each fill their own cap. A write that would take its address past the
 * budget first drops the sockets of that address that have held unsent bytes the longest (the client
 * that stopped reading first), until the write fits or nothing of that address waits; when that is
 * the writing socket itself, nothing is written.
 *
 * The total is kept as each socket writes, from what it holds after the write; a socket whose bytes
 * drained since is counted at its last figure, so the total only overstates. Before anything is
 * dropped the address's sockets are counted afresh, so only bytes really held drop a socket.
 */
export class AddressHeld {
  private readonly addresses = new Map<string, Holding>();
  /** The most one address held at once after any write (the server's own accounting). */
  peak = 0;
  /** Sockets dropped for their address's budget. */
  drops = 0;

  constructor(readonly cap: number) {}

  /** What the sockets of `address` hold together, counted now. */
  held(address: string): number {
    const a = this.addresses.get(address);
    if (!a) return 0;
    this.recount(address, a);
    return a.total;
  }

  /** Makes room for `bytes` written to `sender`: false when the sender itself had to be dropped. */
  makeRoom(sender: HoldingSocket, bytes: number): boolean {
    const a = this.addresses.get(sender.address);
    if (!a || a.total + bytes <= this.cap) return true;
    this.recount(sender.address, a);
    while (a.total > 0 && a.total + bytes > this.cap) {
      const oldest = a.sockets.keys().next().value as HoldingSocket;
      const total = a.total;
      this.forget(oldest);
      this.drops++;
      oldest.drop({ held: oldest.held, bytes: oldest === sender ? bytes : 0, addressHeld: total });
      if (oldest === sender) return false;
    }
    return true;
  }

  /** Notes what `sender` holds after a write. */
  note(sender: HoldingSocket, held: number): void {
    let a = this.addresses.get(sender.address);
    const before = a?.sockets.get(sender) ?? 0;
    if (held === before) return;
    if (!a) {
      a = { sockets: new Map(), total: 0 };
      this.addresses.set(sender.address, a);
    }
    // Set again, a socket keeps its place: the order is when each began to hold.
    if (held > 0) a.sockets.set(sender, held);
    else a.sockets.delete(sender);
    a.total += held - before;
    if (a.total > this.peak) this.peak = a.total;
    if (a.sockets.size === 0) this.addresses.delete(sender.address);
  }

  /** Takes a closed or dropped socket out of its address's count. */
  forget(sender: HoldingSocket): void {
    const a = this.addresses.get(sender.address);
    const counted = a?.sockets.get(sender);
    if (!a || counted === undefined) return;
    a.sockets.delete(sender);
    a.total -= counted;
    if (a.sockets.size === 0) this.addresses.delete(sender.address);
  }

  private recount(address: string, a: Holding): void {
    let total = 0;
    for (const sender of a.sockets.keys()) {
      const held = sender.held;
      if (held > 0) {
        a.sockets.set(sender, held);
        total += held;
      } else a.sockets.delete(sender);
    }
    a.total = total;
    if (a.sockets.size === 0) this.addresses.delete(address);
  }
}

/**
 * The one way anything is written to a live socket: a reply of its own (a refusal, a pong, a result) and
 * a change every viewer gets alike. Whatever is written and not yet sent counts against `cap`: a message
 * that would take it past (unless nothing is waiting, so one large hello always goes) drops the
 * connection instead of piling up in memory, and the client resumes with `?after=` when it reads again.
 * Past half the cap the socket stops reading until what waits drains: a client that sends without
 * reading its replies makes the server do nothing more for it. The sockets of one address also share a
 * budget for what they hold together (see AddressHeld).
 */
export class SocketSender implements HoldingSocket {
  /** The most bytes this socket held unsent at once, after any write (the server's own accounting). */
  peak = 0;
  /** Set when the socket was dropped for holding too much (`addressHeld`: for its address's budget). */
  dropped: { held: number; bytes: number; addressHeld?: number } | undefined;
  /** How many times the socket stopped reading until what it held drained. */
  pauses = 0;
  private gathering = false;
  /** A command this socket sent is being decided (see `gather`). */
  commandsInFlight = 0;
  private readonly framesWritable: boolean;

  constructor(
    private readonly socket: WebSocket,
    private readonly raw: Socket,
    readonly cap: number,
    /** The connection's logger, made when something is logged (see `registerLiveSocket`). */
    private readonly log: () => FastifyBaseLogger,
    /** The client's address, and the budget its sockets share. */
    readonly address: string,
    private readonly shared: AddressHeld,
  ) {
    // With no extension (no compression), nothing but the frames written here is queued in ws, so a frame
    // made here may be written straight to the connection. Read once: it does not change.
    this.framesWritable = socket.extensions === '';
  }

  /** What this socket holds written and not yet sent: ws's queue and the connection's buffer. */
  get held(): number {
    return this.socket.bufferedAmount;
  }

  /** Drops the connection for what it holds: its own cap, or its address's (`addressHeld`). */
  drop(why: { held: number; bytes: number; addressHeld?: number }): void {
    this.dropped = why;
    this.shared.forget(this);
    if (why.addressHeld === undefined) {
      this.log().warn(
        { ...why, cap: this.cap, peak: this.peak },
        'live connection dropped: it holds more unsent than its cap',
      );
    } else {
      this.log().warn(
        { ...why, addressCap: this.shared.cap, peak: this.peak },
        "live connection dropped: its address's connections hold more unsent than their cap",
      );
    }
    this.socket.terminate();
  }

  /** A message of the transport's own. */
  send(message: OutgoingMessage): boolean {
    return this.write(messageText(message));
  }

  /** A message the hub made (its text); `shared`: one many viewers get, framed once for all of them. */
  forward(text: string, shared?: SharedMessage): boolean {
    if (this.commandsInFlight > 0) this.gather();
    return this.write(text, shared);
  }

  /**
   * While a command this socket sent is being decided, what it is sent in one turn of the event loop
   * leaves in one write: the command's change and its result are one system call instead of two.
   */
  gather(): void {
    if (this.gathering) return;
    this.gathering = true;
    this.raw.cork();
    process.nextTick(() => {
      this.gathering = false;
      this.raw.uncork();
    });
  }

  private write(text: string, shared?: SharedMessage): boolean {
    const socket = this.socket;
    if (socket.readyState !== socket.OPEN) return false;
    let frame: Buffer | undefined;
    if (this.framesWritable && shared) {
      shared.wire ??= textFrame(shared.text);
      frame = shared.wire;
    } else if (this.framesWritable) frame = textFrame(text);
    const bytes = frame ? frame.length : Buffer.byteLength(text);
    const held = this.held;
    if (held > 0 && held + bytes > this.cap) {
      this.drop({ held, bytes });
      return false;
    }
    if (!this.shared.makeRoom(this, bytes)) return false;
    if (frame) this.raw.write(frame);
    else socket.send(text);
    const now = this.held;
    this.shared.note(this, now);
    if (now > this.peak) this.peak = now;
    if (now > this.cap / 2 && !socket.isPaused) {
      if (this.pauses++ === 0) {
        this.log().warn(
          { held: now, cap: this.cap },
          'live connection stopped reading: its client does not read what it is sent',
        );
      }
      socket.pause();
      this.raw.once('drain', () => {
        if (socket.readyState === socket.OPEN) socket.resume();
      });
    }
    return true;
  }
}

/** What a live connection reads of its upgrade request: its link's token, the encounter id, `after`. */
function openingOf(req: FastifyRequest): { token?: string; id?: string; after?: number } {
  const params = idParam.safeParse(req.params);
  const afterRaw = (req.query as Record<string, unknown>).after;
  return {
    token: tokenOf(req),
    id: params.success ? params.data.id : undefined,
    after: typeof afterRaw === 'string' && /^\d{1,12}$/.test(afterRaw) ? Number(afterRaw) : undefined,
  };
}

/**
 * The live route: authorizes a socket once, subscribes it to the hub, reads its messages (a command, a
 * ping) under a message budget, and answers through its SocketSender.
 */
export function registerLiveSocket(app: FastifyInstance, options: TransportOptions): AddressHeld {
  const { hub, budgets, faults, wsRate, wsBurst, heartbeatMs } = options;
  const cap = options.heldBytes ?? CONNECTION_LIMITS.heldBytes;
  const addressHeld = new AddressHeld(options.addressHeldBytes ?? CONNECTION_LIMITS.addressHeldBytes);
  // One timer for all sockets: a ping every heartbeat (a socket that missed the last one is dropped).
  const sockets = new Map<WebSocket, { alive: boolean }>();
  const heartbeat = setInterval(() => {
    for (const [socket, s] of sockets) {
      if (!s.alive) {
        socket.terminate();
        continue;
      }
      s.alive = false;
      socket.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));
  const perEncounter = new ConnectionCount(CONNECTION_LIMITS.perEncounter);
  const perClient = new ConnectionCount(CONNECTION_LIMITS.perClient);

  app.get(LIVE_ROUTE, { websocket: true }, (socket, req) => {
    // What the connection needs of its upgrade request, read now: no closure below holds the request
    // itself (nor its reply), which would keep them for the socket's life, ~2.8 KB a connection; nor its
    // query, its parameters or its child logger (~0.4 KB more): the encounter id, the link's token and
    // `after` go to `subscribe` as arguments, and the logger is made when something is logged.
    // @fastify/websocket's own 'error' listener holds both: this one does what it does (log, drop).
    const reqId = req.id;
    const log = () => app.log.child({ reqId });
    const opening = openingOf(req);
    socket.removeAllListeners('error');
    socket.on('error', (error) => {
      log().error(error);
      socket.terminate();
    });
    const raw = req.raw.socket;
    // The upgrade's response (made by @fastify/websocket for Fastify to route the request) stays the
    // connection's `_httpMessage` until it finishes, which an upgraded connection's never does: its
    // 'finish' listener would keep the request and reply for the socket's life. Detached, they go
    // (live.test.ts checks the request is collected).
    const upgrade = (raw as { _httpMessage?: unknown })._httpMessage;
    if (upgrade instanceof ServerResponse) upgrade.detachSocket(raw);
    // A connection's address stays what it was when it opened: read once, not per message.
    const ip = req.ip;
    const sender = new SocketSender(socket, raw, cap, log, ip, addressHeld);
    // What closing the connection undoes, in one listener: what is counted against its address, then, once
    // subscribed, its place in the encounter and its subscription.
    let counted = false;
    let leave: (() => void) | undefined;
    socket.on('close', () => {
      addressHeld.forget(sender);
      // A socket that ever stopped reading (see SocketSender) says, as it goes, the most it held.
      if (sender.pauses > 0 || sender.dropped) {
        log().warn({ peak: sender.peak, cap: sender.cap, pauses: sender.pauses }, 'live connection closed');
      }
      if (counted) perClient.release(ip);
      leave?.();
    });
    const fail = (r: Rejection, code = 4400) => {
      sender.send({ type: 'error', error: r });
      socket.close(code, r.code);
    };
    const slot = { alive: true };
    const bucket = new TokenBucket(wsBurst, wsRate);
    // Messages refused for the budget in a row: the first is answered, the rest are not, and a socket
    // that keeps sending past its budget is closed.
    let strikes = 0;
    // Counted from the first moment, so a flood of sockets still checking their link is capped too.
    if (!perClient.take(ip)) {
      fail(
        reject(
          'live/too-many-connections',
          `This address already has ${CONNECTION_LIMITS.perClient} live connections open, the most one address may; close some tabs or devices and reconnect.`,
        ),
        4429,
      );
      return;
    }
    counted = true;
    // The link is checked and the viewer subscribed asynchronously (a networked storage takes real
    // time): a listener attached after that would miss what a client sends as soon as the socket
    // opens. Messages are taken now and wait for the subscription, in the order they came.
    const subscribe = async (
      token: string | undefined,
      id: string | undefined,
      after: number | undefined,
    ): Promise<{ id: string; link: LinkRecord } | undefined> => {
      if (id === undefined) {
        fail(reject('request/invalid', 'The encounter id in the address is not valid.'));
        return undefined;
      }
      try {
        // Authorized once, here: the socket's commands use this record, which the hub keeps current
        // when the GM changes the link (a copy: storage may hand out its own object).
        const link: LinkRecord = { ...(await hub.link(token, id)) };
        if (socket.readyState !== socket.OPEN) return undefined;
        // The GM's own connection always gets in (it still counts against its address's cap): links
        // handed out cannot fill the encounter and lock out the one who runs it.
        const inEncounter = link.role !== 'gm';
        if (inEncounter && !perEncounter.take(id)) {
          fail(
            reject(
              'live/too-many-connections',
              `This encounter already has ${CONNECTION_LIMITS.perEncounter} live connections open, the most one encounter may; close some tabs or devices and reconnect.`,
            ),
            4429,
          );
          return undefined;
        }
        const sub = {
          viewer: viewerOf(link),
          link: link.hash,
          relinked(patch: { allowed?: string[]; revoked?: true }) {
            const before = link.allowed.join('\n');
            Object.assign(link, patch);
            // A player's page shows the controls its link allows: it hears of a change at once.
            if (link.role === 'player' && !link.revoked && link.allowed.join('\n') !== before)
              sender.forward(messageText({ type: 'allowed', allowed: link.allowed }));
          },
          send(text: string, shared?: SharedMessage) {
            sender.forward(text, shared);
          },
          close() {
            socket.close(1001, 'closing');
          },
        };
        // Set before the subscription is awaited: a socket closed meanwhile still gives its place back.
        let unsubscribe: (() => void) | undefined;
        leave = () => {
          if (inEncounter) perEncounter.release(id);
          if (unsubscribe) {
            sockets.delete(socket);
            unsubscribe();
          }
        };
        const off = await hub.subscribe(id, link, sub, after);
        // Closed meanwhile: unsubscribed here, once (`leave` has nothing to unsubscribe).
        if (socket.readyState !== socket.OPEN) {
          off();
          return undefined;
        }
        unsubscribe = off;
        sockets.set(socket, slot);
        return { id, link };
      } catch (error) {
        if (error instanceof HubError) fail(error.rejection, 4000 + error.status);
        else {
          log().error({ err: error }, 'live connection failed');
          fail(
            reject('server/internal', 'Something went wrong on the server; reconnect to try again.'),
            1011,
          );
        }
        return undefined;
      }
    };
    const subscribed = subscribe(opening.token, opening.id, opening.after);
    socket.on('pong', () => {
      slot.alive = true;
    });
    socket.on('message', async (data, isBinary) => {
      // Counted as it arrives, so a flood before the subscription is limited too.
      const overBudget = wsRate > 0 && !bucket.take(performance.now());
      if (overBudget) strikes++;
      else strikes = 0;
      if (strikes > wsBurst) {
        // Past a burst's worth of refused messages in a row: not a page that sent too fast once.
        if (socket.readyState === socket.OPEN) {
          log().warn({ strikes }, 'live connection closed: it kept sending past its message budget');
          fail(
            reject(
              'request/rate-limited',
              'This page kept sending messages faster than the server takes them, so the connection was closed; reconnect and send fewer.',
            ),
            1008,
          );
        }
        return;
      }
      const live = await subscribed;
      if (!live) return;
      const { id, link } = live;
      // A command gets its refusal as its result, so the page that sent it can show it.
      const refuse = (error: Rejection, json: unknown) => {
        const commandIdOf = commandId(json);
        sender.send(
          commandIdOf === undefined
            ? { type: 'error', error }
            : { type: 'result', id: commandIdOf, ok: false, error },
        );
      };
      if (overBudget) {
        // The first refusal of a run is answered; the others would only be more to send to a flood.
        if (strikes === 1) {
          refuse(
            reject(
              'request/rate-limited',
              'Too many messages from this page in a short time; wait a moment and try again.',
            ),
            jsonOf(data, isBinary),
          );
        }
        return;
      }
      let msg: IncomingMessage;
      try {
        const text = isBinary ? '' : data.toString();
        const json: unknown = JSON.parse(text);
        const refused = tooLarge(text) ?? checkInput(json, 'message');
        if (refused) {
          refuse(refused, json);
          return;
        }
        const command = commandMessage(json);
        if (command) msg = command;
        else {
          const parsed = wsMessageSchema.safeParse(json);
          if (!parsed.success) {
            refuse(reject('request/invalid', explainZodError(parsed.error, 'message')), json);
            return;
          }
          msg = parsed.data;
        }
      } catch {
        sender.send({
          type: 'error',
          error: reject('request/malformed-json', 'A message must be JSON, like {"type": "ping"}.'),
        });
        return;
      }
      if (msg.type === 'ping') {
        sender.send({ type: 'pong' });
        return;
      }
      try {
        const overBudget = budgets.refusal(ip, 'bytes');
        if (overBudget) throw new HubError(429, overBudget);
        let r: CommandOutcome;
        sender.commandsInFlight++;
        try {
          r = await hub.command(id, link, msg.command);
        } finally {
          sender.commandsInFlight--;
        }
        budgets.spend(ip, 'bytes', r.stored);
        sender.gather();
        sender.send({ type: 'result', id: msg.id, ok: true, seq: r.seq });
      } catch (error) {
        const rejection =
          error instanceof HubError
            ? error.rejection
            : (faults.refusal(error)?.rejection ??
              reject('server/internal', 'Something went wrong on the server; nothing was changed.'));
        if (!(error instanceof HubError)) log().error({ err: error }, 'command failed');
        sender.send({ type: 'result', id: msg.id, ok: false, error: rejection });
      }
    });
  });
  return addressHeld;
}
