import {
  type Command,
  type EncounterView,
  type HeldView,
  type LogEntry,
  parseServerMessage,
  receiveChange,
  type ServerMessage,
} from '@roundkeeper/engine';
import { ApiFailure, type api, type EncounterMeta, errorMessage, type Role } from './api.js';
import { backoff, mergeEntries, type Sharing, share } from './merge.js';
import { loadRuleset } from './rulesets.js';
import { SocketCommands } from './socket-commands.js';

/** What a command sent came to: accepted, or the server's refusal in its words. */
export interface SendResult {
  ok: boolean;
  error?: string;
  code?: string;
}

/** The line under the top bar saying what the last command came to. */
export interface Notice {
  ok: boolean;
  text: string;
}

/** One encounter as this viewer sees it, kept live over the WebSocket (docs/api.md, "Live"). */
export interface EncounterSnapshot {
  status: 'loading' | 'ready' | 'error' | 'deleted';
  error?: string;
  meta?: EncounterMeta;
  role?: Role;
  /** The player's own combatants (player links only). */
  mine: string[];
  /** The command types this link may send (what the GM allows a player link), as the page loaded. */
  allowed: string[];
  view?: EncounterView;
  seq: number;
  entries: LogEntry[];
  connected: boolean;
  /**
   * The server could not be reached (the live socket closed, or the first load failed on the network) and
   * the store is trying again with back-off: what the page shows is from before and may be out of date, so
   * it is not shown as live. Cleared when the socket's `hello` brings the whole view again.
   */
  reconnecting: boolean;
  notice: Notice | null;
  /**
   * Counts the turns the page has seen: one more whenever the view's actor, round or status changes. A
   * turn that resumes after another's (a delayed turn in the middle of it) is a new one: what was chosen
   * for it before does not come back.
   */
  turn: number;
}

/** What the store needs of the world: a socket, the HTTP API and how a change is committed at once. */
export interface StoreDeps {
  socket(url: string): WebSocket;
  api: Pick<typeof api, 'get' | 'events' | 'command'>;
  /** Runs the listeners' updates so the page is drawn before the message's task ends (React's `flushSync`). */
  commit(update: () => void): void;
  timers: { set(f: () => void, ms: number): unknown; clear(handle: unknown): void };
  location: Pick<Location, 'protocol' | 'host'>;
  /** Draws the reconnect back-off's jitter (`Math.random` when absent). */
  random?: () => number;
  /** What the page loads before it shows the encounter to this role (its screen's chunk), with its ruleset. */
  prepare?(role: Role): Promise<unknown>;
}

/** A failure that says the server could not be reached (a network error, or a proxy's 502/503/504). */
function unreachable(e: unknown): boolean {
  if (e instanceof ApiFailure) return e.status === 502 || e.status === 503 || e.status === 504;
  return e instanceof TypeError;
}

export function liveUrl(
  id: string,
  token: string,
  after: number,
  loc: Pick<Location, 'protocol' | 'host'>,
): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/api/encounters/${encodeURIComponent(id)}/live?token=${encodeURIComponent(token)}&after=${after}`;
}

/** A refused or failed command as the notice says it; an accepted one as what was done. */
export function noticeOf(r: SendResult, what: string): Notice {
  return r.ok
    ? { ok: true, text: `Done: ${what}.` }
    : { ok: false, text: `Refused: ${r.error ?? 'unknown error'}` };
}

/**
 * One encounter page's state, outside React: it owns the live socket and reads every message it gets
 * through one dispatcher over the wire union (`ServerMessage`), holds the view, the log and the
 * connection, and sends commands. Components read it with `useSyncExternalStore` and selectors; a
 * change keeps every unchanged part of the view the same object (`applyDelta`, `share`), so a selector
 * of a part that did not change gives the same value and its component is not drawn again.
 */
export class EncounterStore {
  private snapshot: EncounterSnapshot = {
    status: 'loading',
    mine: [],
    allowed: [],
    seq: 0,
    entries: [],
    connected: false,
    reconnecting: false,
    notice: null,
    turn: 0,
  };
  private readonly listeners = new Set<() => void>();
  private readonly commands = new SocketCommands();
  /** The view as the socket gave it (its `hello`, then every change applied): the base of the next delta. */
  private held: HeldView | undefined;
  private socket: WebSocket | null = null;
  private closed = false;
  private attempt = 0;
  private timer: unknown;
  /** What the pending reconnect timer will do (load again, or open the socket), for `retryNow`. */
  private retry: (() => void) | undefined;
  private seqSeen = 0;
  /** What `keep` holds: the last value of each part worked out of the state, by key. */
  private readonly kept = new Map<string, unknown>();
  /** What `derive` worked each part out of last (a view), by key: the same input is not worked out again. */
  private readonly inputs = new Map<string, unknown>();

  constructor(
    readonly id: string,
    readonly token: string,
    private readonly deps: StoreDeps,
  ) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): EncounterSnapshot => this.snapshot;

  private set(patch: Partial<EncounterSnapshot>, now = false): void {
    const before = this.snapshot.view;
    const after = patch.view;
    const turned =
      after !== undefined &&
      (before?.current !== after.current || before.round !== after.round || before.status !== after.status);
    this.snapshot = { ...this.snapshot, ...patch, ...(turned ? { turn: this.snapshot.turn + 1 } : {}) };
    const emit = () => {
      for (const l of this.listeners) l();
    };
    if (now) this.deps.commit(emit);
    else emit();
  }

  /** Loads the encounter and its log, then opens the socket. */
  async start(): Promise<void> {
    this.closed = false;
    try {
      // The encounter's ruleset chunk and its role's screen are asked for as soon as the encounter says
      // which, while its log is still on its way; the encounter is shown once all are here.
      const [enc, log] = await Promise.all([
        this.deps.api.get(this.id, this.token).then(async (enc) => {
          await Promise.all([loadRuleset(enc.state.ruleset), this.deps.prepare?.(enc.role)]);
          return enc;
        }),
        this.deps.api.events(this.id, this.token, 0),
      ]);
      if (this.closed) return;
      this.seqSeen = Math.max(enc.seq, log.seq);
      this.held = { seq: enc.seq, state: enc.state };
      this.set({
        status: 'ready',
        meta: enc.encounter,
        role: enc.role,
        mine: enc.combatants ?? [],
        allowed: enc.allowed ?? [],
        view: enc.state,
        seq: enc.seq,
        entries: mergeEntries(this.snapshot.entries, log.entries),
      });
      this.connect();
    } catch (e) {
      if (this.closed) return;
      if (unreachable(e)) {
        // Briefly unreachable (a restart, a network drop): say so and load again, never an error page.
        if (!this.snapshot.reconnecting) this.set({ reconnecting: true });
        this.later(() => void this.start());
        return;
      }
      this.set({
        status: e instanceof ApiFailure && e.status === 404 ? 'deleted' : 'error',
        error: errorMessage(e),
      });
    }
  }

  stop(): void {
    this.closed = true;
    if (this.timer !== undefined) this.deps.timers.clear(this.timer);
    this.retry = undefined;
    this.socket?.close();
  }

  /** Runs `f` after the back-off of the next attempt (0 once a socket opened). */
  private later(f: () => void): void {
    this.retry = f;
    this.timer = this.deps.timers.set(
      () => {
        this.retry = undefined;
        f();
      },
      backoff(this.attempt++, this.deps.random),
    );
  }

  /** Tries to reach the server now instead of at the end of the back-off (the page's "Try now"). */
  readonly retryNow = (): void => {
    const f = this.retry;
    if (!f || this.closed) return;
    if (this.timer !== undefined) this.deps.timers.clear(this.timer);
    this.retry = undefined;
    f();
  };

  private connect(): void {
    if (this.closed) return;
    const ws = this.deps.socket(liveUrl(this.id, this.token, this.seqSeen, this.deps.location));
    this.socket = ws;
    this.commands.attach(ws);
    ws.onopen = () => {
      this.attempt = 0;
    };
    ws.onmessage = (ev) => {
      const parsed = parseServerMessage(String(ev.data));
      // Not a message of the union: nothing to show of it (the server and page are built together).
      if (parsed.ok) this.dispatch(parsed.message, ws);
    };
    ws.onclose = () => {
      if (this.socket === ws) this.socket = null;
      if (this.closed) {
        if (this.snapshot.connected) this.set({ connected: false });
        return;
      }
      if (this.snapshot.connected || !this.snapshot.reconnecting)
        this.set({ connected: false, reconnecting: true });
      this.later(() => this.connect());
    };
    ws.onerror = () => {
      // onclose follows and schedules the reconnect.
    };
  }

  /** The one place a server message is read. */
  private dispatch(msg: ServerMessage, ws: WebSocket): void {
    switch (msg.type) {
      case 'hello': {
        this.seqSeen = Math.max(this.seqSeen, msg.seq);
        const state = share(this.held?.state, msg.state);
        this.held = { seq: msg.seq, state };
        const mine = msg.combatants ?? this.snapshot.mine;
        this.set({
          status: 'ready',
          role: msg.role,
          mine,
          allowed: msg.allowed ?? this.snapshot.allowed,
          view: state,
          seq: msg.seq,
          connected: true,
          reconnecting: false,
        });
        return;
      }
      case 'events':
        this.set({ entries: mergeEntries(this.snapshot.entries, msg.entries) });
        return;
      case 'change': {
        const held = this.held;
        const r = receiveChange(held, msg);
        if ('resync' in r) {
          // A change that does not follow the view held (one missed, or a delta that does not fit):
          // reconnect from the view held, which sends the whole view and the events since.
          if (held) this.seqSeen = held.seq;
          ws.close();
          return;
        }
        // A delta's result already shares every unchanged part; a whole view is shared here.
        const state = msg.state ? share(held?.state, r.held.state) : r.held.state;
        this.held = { seq: r.held.seq, state };
        this.seqSeen = Math.max(this.seqSeen, r.held.seq);
        // Drawn in this task, not in one a scheduler queues behind whatever else the page has to do.
        this.set(
          {
            view: state,
            seq: r.held.seq,
            entries: mergeEntries(this.snapshot.entries, r.entries),
            connected: true,
          },
          true,
        );
        return;
      }
      case 'result':
        this.commands.received(msg);
        return;
      case 'revoked':
        // The GM revoked or replaced this link: no reconnecting with it.
        this.closed = true;
        this.set({
          status: 'error',
          error: 'The GM revoked this link or replaced it with a new one: ask the GM for your new link.',
          connected: false,
        });
        ws.close();
        return;
      case 'allowed':
        // The GM changed what this player link may send: the page shows the controls it allows now.
        this.set({ allowed: msg.allowed });
        return;
      case 'deleted':
        this.closed = true;
        this.set({ status: 'deleted', connected: false });
        ws.close();
        return;
      case 'error':
        // A refusal of the connection itself; the socket closes after it and reconnects.
        this.set({ notice: { ok: false, text: msg.error.message } });
        return;
      case 'pong':
        return;
    }
  }

  /**
   * Sends a command over the open socket (its result comes back on it, the change broadcast updates
   * the view), or over HTTP while the socket is not open.
   */
  readonly send = async (command: Command): Promise<SendResult> => {
    const socket = this.socket;
    if (socket && socket.readyState === 1) return this.commands.send(socket, command);
    try {
      await this.deps.api.command(this.id, this.token, command);
      if (this.socket?.readyState !== 1) {
        // No live socket: fetch the new state ourselves.
        const [enc, log] = await Promise.all([
          this.deps.api.get(this.id, this.token),
          this.deps.api.events(this.id, this.token, this.seqSeen),
        ]);
        this.seqSeen = Math.max(this.seqSeen, enc.seq);
        this.set({
          view: share(this.snapshot.view, enc.state),
          seq: enc.seq,
          entries: mergeEntries(this.snapshot.entries, log.entries),
        });
      }
      return { ok: true };
    } catch (e) {
      return {
        ok: false,
        error: errorMessage(e),
        ...(e instanceof ApiFailure ? { code: e.error.code } : {}),
      };
    }
  };

  /**
   * A part worked out of the state (a card's model), kept as the same object while it is deep-equal to
   * the last one under `key` (`share`): a selector returning it gives the same value when nothing it shows
   * changed, so its component is not drawn again, with no comparator written by hand.
   */
  keep<T>(key: string, next: T, sharing: Sharing<T> = share): T {
    const shared = sharing(this.kept.get(key), next);
    this.kept.set(key, shared);
    return shared;
  }

  /**
   * A part worked out of `input` (a card's model out of the view) once per input, however often a change
   * asks for it; a new input's part is `keep`-shared with the last (`sharing`: `share` unless told).
   */
  derive<I, T>(key: string, input: I, compute: (input: I) => T, sharing: Sharing<T> = share): T {
    if (this.inputs.has(key) && this.inputs.get(key) === input) return this.kept.get(key) as T;
    const part = this.keep(key, compute(input), sharing);
    this.inputs.set(key, input);
    return part;
  }

  /** Says what a command came to in the page's status line. */
  readonly tell = (r: SendResult, what: string): void => {
    this.set({ notice: noticeOf(r, what) });
  };

  /** The one way a page acts: sends the command and says what it came to, under `label`. */
  readonly run = async (command: Command, label: string): Promise<SendResult> => {
    const r = await this.send(command);
    this.tell(r, label);
    return r;
  };
}
