import { randomInt } from 'node:crypto';
import {
  type AnyRuleset,
  type CombatantInput,
  type Command,
  compactEntries,
  deltaOfView,
  EncounterLog,
  type EncounterState,
  type EncounterView,
  isRejection,
  type Json,
  type LogEntry,
  type Rejection,
  type RulesetRegistry,
  reject,
  SCENARIO_SCHEMA,
  type Scenario,
  sameJson,
  scriptedDice,
  seededDice,
  seenAlikeByAllButGm,
  type ViewDelta,
  type Viewer,
  view,
  viewLog,
} from '@roundkeeper/engine';
import { type Change, type Fanout, InProcessFanout } from './fanout.js';
import { EVENTS_CHUNK, SCENARIO_LIMITS, Slices } from './limits.js';
import {
  authorize,
  defaultPlayerCommands,
  derivedToken,
  deriveToken,
  hashToken,
  type LinkName,
  latestLink,
  newToken,
  playerLink,
  viewerOf,
} from './links.js';
import {
  type CommandRecord,
  type EncounterRecord,
  type LinkRecord,
  type Storage,
  StorageConflictError,
} from './storage/storage.js';

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

/** What an accepted command did (see `Hub.command`). */
export interface CommandOutcome {
  seq: number;
  entries: LogEntry[];
  stored: number;
}

interface Live {
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

/** A message many viewers get, and what a transport made of its text once for all of them to write. */
export interface SharedMessage {
  readonly text: string;
  wire?: Buffer;
}

/** One `change` message, built and serialized once for every kind of viewer that gets the same bytes. */
interface Built extends SharedMessage {
  /** Built for the GM: the only kind whose view holds the dice and the undo history. */
  gm: boolean;
  /** The view the change starts from (undefined: nobody of its kind held one). */
  base: EncounterView | undefined;
  view: EncounterView;
  entries: LogEntry[];
  /** The message's text up to its view: its type, seqs and events (see `changeHead`). */
  head: string;
  /** The delta the message carries, and its JSON (none: it carries the whole view). */
  delta?: { value: ViewDelta; json: string };
  text: string;
}

/** The kind of viewer: everyone of one kind sees the same view and events. */
function viewKey(viewer: Viewer): string {
  return viewer.role === 'player' ? `player:${viewer.combatants.join(',')}` : viewer.role;
}

/**
 * No view is shorter than this as JSON (every field, each with its shortest value): a delta shorter than
 * it is smaller than any state, and only a longer one is compared with the state it stands for.
 */
const SHORTEST_VIEW = JSON.stringify({
  schema: 1,
  id: '',
  name: '',
  ruleset: '',
  rulesetVersion: 0,
  options: {},
  status: 'setup',
  round: 0,
  now: null,
  current: null,
  combatants: {},
  roster: [],
  agenda: [],
  effects: [],
  customActions: [],
  dice: null,
  gmNotes: [],
  history: { undoable: [], redoable: [], lastGroup: 0 },
  seq: 0,
  rs: null,
} satisfies EncounterView).length;

export interface CreateInput {
  name: string;
  ruleset: string;
  options?: Record<string, unknown>;
  seed?: number;
  combatants?: CombatantInput[];
}

export interface Created {
  record: EncounterRecord;
  tokens: { gm: string; table: string; players: Record<string, string> };
  /** Bytes of events and commands stored, for the storage budgets. */
  stored: number;
}

export interface HubOptions {
  /** Write a snapshot every N events (default 200). */
  snapshotEvery?: number;
  /** Unload an encounter nobody watches after this long (ms, default 5 minutes). */
  idleMs?: number;
  /**
   * How many encounters nobody watches stay in memory (default 32; the least recently used beyond that
   * are unloaded, and load again from their snapshot and log when next opened).
   */
  keepUnwatched?: number;
  /** The wall clock, injected (tests use a fake one). */
  now?: () => Date;
  /**
   * How this instance hears what other instances on the same database changed (default: in process,
   * for one server on its own database).
   */
  fanout?: Fanout;
}

/**
 * How many times a command is decided again after another instance appended first. Each retry follows
 * a real append by someone else, so this bounds only a pathological race, never a normal one.
 */
const MAX_REDECISIONS = 100;

/**
 * How long redacted log chunks stay cached without use: long enough for a table's screens reconnecting
 * together to share them, short enough that one resume of a long log does not keep its text in memory.
 */
const CHUNKS_KEPT_MS = 5_000;

/** An encounter's row as a link reads it. */
export type EncounterSummary = Omit<EncounterRecord, 'origin'> & { origin?: Json };

/** A change message's text up to its view: its type, its seqs and the viewer's events, compact when they fit. */
function changeHead(seen: readonly LogEntry[], from: number, seq: number): string {
  const compact = compactEntries(seen, from, seq);
  return `{"type":"change","seq":${seq},"from":${from},${
    compact ? JSON.stringify(compact).slice(1, -1) : `"entries":${JSON.stringify(seen)}`
  }`;
}

/**
 * What a change carries of the view: the delta's JSON, or the whole view's when that is shorter (or there
 * is no delta). The view is written only when the delta is long enough to be compared with it.
 */
export function changeBody(
  delta: ViewDelta | undefined,
  next: EncounterView,
): { delta: string } | { state: string } {
  if (delta === undefined) return { state: JSON.stringify(next) };
  const json = JSON.stringify(delta);
  if (json.length < SHORTEST_VIEW) return { delta: json };
  const state = JSON.stringify(next);
  return json.length <= state.length ? { delta: json } : { state };
}

/**
 * The encounter's row for a link's holder: `origin` (the seed, or the scripted faces still to come)
 * predicts every roll, so like the dice state it is the GM's alone.
 */
export function recordFor(record: EncounterRecord, role: LinkRecord['role']): EncounterSummary {
  if (role === 'gm') return record;
  const { origin: _origin, ...rest } = record;
  return rest;
}

/** An object with a string `type`: the shape of a command a link can be asked about. */
/**
 * Runs work that comes in steps (folding a long log), giving way to other requests between them once it
 * has worked a slice (see Slices): however long the log, it never holds the event loop.
 */
async function inSlices<T>(steps: Generator<void, T, undefined>): Promise<T> {
  const slices = new Slices();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await slices.pause();
  }
}

const isUndoRedo = (type: string) => type === 'undo' || type === 'redo';

function hasType(command: unknown): command is Command {
  return (
    typeof command === 'object' &&
    command !== null &&
    !Array.isArray(command) &&
    typeof (command as { type?: unknown }).type === 'string'
  );
}

/** The refusal for a link the GM revoked or replaced. */
function revokedLink(): Rejection {
  return reject('link/revoked', 'The GM has revoked or replaced this link; ask the GM for the new one.');
}

export class HubError extends Error {
  constructor(
    readonly status: number,
    readonly rejection: Rejection,
  ) {
    super(rejection.message);
  }
}

/**
 * The authority: loads encounters, serializes each one's commands, decides against the current state,
 * persists the events before anyone hears of them, then broadcasts each viewer's redacted view.
 */
export class Hub {
  private readonly live = new Map<string, Live>();
  private readonly loading = new Map<string, Promise<Live>>();
  private readonly snapshotEvery: number;
  private readonly idleMs: number;
  private readonly keepUnwatched: number;
  private readonly now: () => Date;
  readonly fanout: Fanout;

  constructor(
    readonly storage: Storage,
    readonly registry: RulesetRegistry,
    options: HubOptions = {},
  ) {
    this.snapshotEvery = options.snapshotEvery ?? 200;
    this.idleMs = options.idleMs ?? 5 * 60_000;
    this.keepUnwatched = options.keepUnwatched ?? 32;
    this.now = options.now ?? (() => new Date());
    this.fanout = options.fanout ?? new InProcessFanout();
    this.fanout.listen(this.hear);
  }

  /** This instance's listener on the fanout (also how it names itself when it publishes). */
  private readonly hear = (change: Change | undefined): void => {
    void this.heard(change);
  };

  private time(): string {
    return this.now().toISOString();
  }

  rulesetOf(id: string): AnyRuleset {
    const r = this.registry[id];
    if (!r) throw new HubError(400, reject('ruleset/unknown', `There is no ruleset "${id}".`));
    return r;
  }

  /** Creates an encounter from a name, ruleset, options and combatants, or by replaying a scenario. */
  async create(input: CreateInput | { scenario: Scenario }): Promise<Created> {
    const id = newToken().slice(0, 12).replace(/[-_]/g, 'x');
    const time = this.time();
    let log: EncounterLog | Rejection;
    const accepted: CommandRecord[] = [];
    const slices = new Slices();
    let origin: Json;
    if ('scenario' in input) {
      const s = input.scenario;
      const dice = s.dice
        ? scriptedDice(s.dice, s.strictDice ? 'error' : { seed: s.seed })
        : seededDice(s.seed);
      origin = s.dice ? { seed: s.seed, dice: s.dice, strictDice: s.strictDice } : { seed: s.seed };
      log = EncounterLog.create(
        { id, name: s.name, ruleset: s.ruleset, options: s.options, dice },
        this.registry,
        time,
      );
      if (isRejection(log)) throw new HubError(400, log);
      const steps: Array<{ command: Command; by?: Viewer }> = [
        ...s.combatants.map((combatant) => ({ command: { type: 'add-combatant', combatant } })),
        ...s.actions.map((action) => ({ command: { type: 'define-action', action } })),
        ...s.commands.map(({ command, by }) => (by ? { command, by } : { command })),
      ];
      for (const step of steps) {
        // A long import gives way to other requests every few milliseconds (see SCENARIO_LIMITS).
        await slices.pause();
        if (log.entries.length > SCENARIO_LIMITS.entries) {
          throw new HubError(
            400,
            reject(
              'scenario/too-large',
              `The scenario's commands made more than ${SCENARIO_LIMITS.entries.toLocaleString('en-US')} log entries, the most an import may; split it or leave out steps.`,
            ),
          );
        }
        const r = log.execute(step.command, { time, ...(step.by ? { by: step.by } : {}) });
        // Steps the rules refuse are part of a scenario's story, not of the encounter's log.
        if (!isRejection(r) && r.length > 0) {
          accepted.push({ group: r[0]!.group, command: step.command as Json, role: step.by?.role ?? 'gm' });
        }
      }
    } else {
      const seed = input.seed ?? randomInt(0, 2 ** 31);
      origin = { seed };
      log = EncounterLog.create(
        {
          id,
          name: input.name,
          ruleset: input.ruleset,
          options: input.options ?? {},
          dice: seededDice(seed),
        },
        this.registry,
        time,
      );
      if (isRejection(log)) throw new HubError(400, log);
      for (const combatant of input.combatants ?? []) {
        await slices.pause();
        const command = { type: 'add-combatant', combatant } as Command;
        const r = log.execute(command, { time });
        if (isRejection(r)) throw new HubError(400, r);
        accepted.push({ group: r[0]!.group, command: command as Json, role: 'gm' });
      }
    }
    const state = log.state;
    const record: EncounterRecord = {
      id,
      name: state.name,
      ruleset: state.ruleset,
      status: 'active',
      createdAt: time,
      updatedAt: time,
      seq: log.entries.at(-1)!.seq,
      origin,
    };
    const gm = newToken();
    const table = deriveToken(gm, 'table');
    const links: LinkRecord[] = [
      {
        hash: hashToken(gm),
        encounterId: id,
        role: 'gm',
        combatants: [],
        allowed: [],
        label: 'GM',
        createdAt: time,
      },
      {
        hash: hashToken(table),
        encounterId: id,
        role: 'table',
        combatants: [],
        allowed: [],
        label: 'Table',
        createdAt: time,
      },
    ];
    const players: Record<string, string> = {};
    const ruleset = this.rulesetOf(state.ruleset);
    for (const p of this.playerLinks(id, gm, state, ruleset, time)) {
      links.push(p.record);
      players[p.record.combatants[0]!] = p.token;
    }
    await this.storage.createEncounter(record, log.entries, accepted, links);
    let stored = JSON.stringify(log.entries).length + JSON.stringify(accepted).length;
    if (log.entries.length >= this.snapshotEvery) {
      await this.storage.saveSnapshot(id, record.seq, state);
      stored += JSON.stringify(state).length;
    }
    return { record, tokens: { gm, table, players }, stored };
  }

  /** A player link for every PC, derived from the GM token. */
  playerLinks(id: string, gm: string, state: EncounterState, ruleset: AnyRuleset, time: string) {
    const allowed = defaultPlayerCommands(ruleset);
    return state.roster
      .map((cid) => state.combatants[cid]!)
      .filter((c) => c.side === 'pc')
      .map((c) => playerLink(id, gm, c.id, c.name, allowed, time));
  }

  /** Resolves a token to its link, or throws 401. */
  async link(token: string | undefined, encounterId?: string): Promise<LinkRecord> {
    if (!token) {
      throw new HubError(
        401,
        reject(
          'link/missing',
          'This needs a link token: open the encounter from its GM, table or player link.',
        ),
      );
    }
    const link = /^[A-Za-z0-9_-]{16,64}$/.test(token)
      ? await this.storage.findLink(hashToken(token))
      : undefined;
    if (!link || (encounterId !== undefined && link.encounterId !== encounterId)) {
      throw new HubError(
        401,
        reject('link/invalid', 'This link is not valid for this encounter; ask the GM for a new one.'),
      );
    }
    if (link.revoked) throw new HubError(401, revokedLink());
    return link;
  }

  requireGm(link: LinkRecord): void {
    if (link.role !== 'gm') throw new HubError(403, reject('link/gm-only', 'Only the GM link can do this.'));
  }

  /** The encounter in memory, loading it from storage (latest snapshot + the log) when needed. */
  async open(id: string): Promise<Live> {
    const live = this.live.get(id);
    if (live) {
      live.lastUsed = Date.now();
      return live;
    }
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, pending);
    }
    return pending;
  }

  private async load(id: string): Promise<Live> {
    const record = await this.storage.getEncounter(id);
    if (!record)
      throw new HubError(
        404,
        reject('encounter/unknown', `There is no encounter "${id}" (it may have been deleted).`),
      );
    const entries = await this.storage.readEntries(id);
    const snapshot = await this.storage.latestSnapshot(id);
    const log = await inSlices(EncounterLog.loading(entries, this.registry, snapshot));
    const live: Live = {
      // Another instance may have appended between the two reads: the log read is what this copy holds.
      record: { ...record, seq: entries.at(-1)?.seq ?? record.seq },
      log,
      ruleset: this.rulesetOf(record.ruleset),
      queue: Promise.resolve(),
      subscribers: new Set(),
      lastUsed: Date.now(),
      pending: 0,
      views: new Map(),
    };
    this.live.set(id, live);
    this.sweep();
    return live;
  }

  /**
   * Unloads encounters nobody watches: those unused for `idleMs`, and beyond the `keepUnwatched` most
   * recently used, the rest — except any used in the last quarter second (a request may be between
   * opening one and queueing its command or adding its viewer) or with commands in flight. Runs after
   * every load and once a second. Also drops the redacted log chunks of loaded encounters that are stale
   * (see `chunks`). Returns how many encounters it unloaded.
   */
  sweep(): number {
    const now = Date.now();
    for (const live of this.live.values()) {
      const chunks = live.chunks;
      if (chunks && (chunks.seq !== live.record.seq || chunks.usedAt < now - CHUNKS_KEPT_MS)) {
        live.chunks = undefined;
      }
    }
    const unwatched = [...this.live.entries()].filter(([, l]) => l.subscribers.size === 0 && l.pending === 0);
    unwatched.sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    let over = unwatched.length - this.keepUnwatched;
    let n = 0;
    for (const [id, live] of unwatched) {
      const stale = live.lastUsed < now - this.idleMs;
      if (stale || (over > 0 && live.lastUsed < now - 250)) {
        this.live.delete(id);
        over--;
        n++;
      }
    }
    return n;
  }

  get loaded(): number {
    return this.live.size;
  }

  /** How many redacted log chunks loaded encounters hold as JSON (see `chunks`). */
  get cachedChunks(): number {
    let n = 0;
    for (const live of this.live.values()) n += live.chunks?.texts.size ?? 0;
    return n;
  }

  private serialize<T>(live: Live, task: () => Promise<T>): Promise<T> {
    live.pending++;
    live.lastUsed = Date.now();
    const run = live.queue.then(task, task).finally(() => {
      live.pending--;
      live.lastUsed = Date.now();
    });
    live.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Decides a command against the current state, persists the events, then broadcasts. The reply comes
   * only after the events are stored: an acknowledged command survives a crash. `entries` are the new
   * entries as the link's holder sees them; `stored`, the bytes stored (for the storage budgets).
   */
  async command(id: string, link: LinkRecord, command: unknown): Promise<CommandOutcome> {
    const live = await this.open(id);
    // A command decided against a state another instance has since moved past is decided again against
    // the new one (its append is refused first, so nothing forks): never lost, and a command the new
    // state refuses is refused.
    const decide = async (redecisions: number): Promise<CommandOutcome> => {
      // A live connection's link, revoked since it subscribed (or while this command waited its turn).
      if (link.revoked) throw new HubError(401, revokedLink());
      if (live.record.status === 'archived') {
        throw new HubError(
          409,
          reject(
            'encounter/archived',
            'This encounter is archived, so it is read-only; the GM can restore it (make it active again) to go on.',
          ),
        );
      }
      // A command without a string type is refused by the rules below, whoever sends it.
      if (hasType(command)) {
        const refused = authorize(link, command, live.log.state, live.ruleset);
        if (refused) {
          if (await this.behind(id, live, redecisions)) return decide(redecisions + 1);
          throw new HubError(403, refused);
        }
      }
      // The first undo or redo of a loaded log folds all of it: a slice at a time, before it is decided.
      if (hasType(command) && isUndoRedo(command.type)) await inSlices(live.log.prepareUndo());
      const before = { length: live.log.entries.length, state: live.log.state };
      const viewer = viewerOf(link);
      const time = this.time();
      const result = live.log.execute(command, { by: viewer, time });
      if (isRejection(result)) {
        if (await this.behind(id, live, redecisions)) return decide(redecisions + 1);
        throw new HubError(422, result);
      }
      if (result.length === 0) return { seq: live.record.seq, entries: [], stored: 0 };
      let stored: number;
      try {
        stored = await this.storage.append(
          id,
          live.record.seq,
          result,
          { group: result[0]!.group, command: command as Json, role: link.role },
          time,
        );
      } catch (error) {
        live.log.rollback(before);
        if (!(error instanceof StorageConflictError) || redecisions >= MAX_REDECISIONS) throw error;
        await this.catchUp(id, live);
        return decide(redecisions + 1);
      }
      const seq = result.at(-1)!.seq;
      const from = live.record.seq;
      const crossed = Math.floor(seq / this.snapshotEvery) > Math.floor(from / this.snapshotEvery);
      live.record = { ...live.record, seq, updatedAt: time };
      if (crossed) await this.storage.saveSnapshot(id, seq, live.log.state);
      this.broadcast(live, result, from);
      void this.fanout.publish({ encounter: id, kind: 'appended', seq }, this.hear).catch(() => undefined);
      const entries = viewLog(result, viewer, live.log.state, live.ruleset, live.log.everHidden);
      return { seq, entries, stored };
    };
    return this.serialize(live, () => decide(0));
  }

  /**
   * Folds what other instances appended since this copy's seq and sends this instance's viewers each
   * command's change, as the instance that stored it sent its own; runs in the encounter's queue. An
   * encounter deleted meanwhile is dropped (404).
   */
  private async catchUp(id: string, live: Live): Promise<void> {
    const entries = await this.storage.readEntries(id, live.record.seq);
    if (entries.length === 0) {
      const record = await this.storage.getEncounter(id);
      if (record) {
        live.record = { ...record, seq: live.record.seq };
        return;
      }
      this.dropDeleted(id, live);
      throw new HubError(
        404,
        reject('encounter/unknown', `There is no encounter "${id}" (it may have been deleted).`),
      );
    }
    if (entries[0]!.seq !== (live.log.entries.at(-1)?.seq ?? 0) + 1) {
      // The copy does not match its own seq (a bug): drop it, and its viewers, who reconnect and resume
      // from a copy rebuilt from the database.
      if (this.live.get(id) === live) this.live.delete(id);
      for (const sub of live.subscribers) sub.close();
      throw new Error(`The copy of encounter ${id} in memory did not match the database; it was dropped.`);
    }
    for (let from = 0; from < entries.length; ) {
      let to = from + 1;
      while (to < entries.length && entries[to]!.group === entries[from]!.group) to++;
      const change = entries.slice(from, to);
      if (change.some((e) => isUndoRedo(e.event.type))) await inSlices(live.log.prepareUndo());
      live.log.adopt(change);
      const last = change.at(-1)!;
      const before = live.record.seq;
      live.record = { ...live.record, seq: last.seq, updatedAt: last.time ?? live.record.updatedAt };
      this.broadcast(live, change, before);
      from = to;
    }
  }

  /**
   * Before a refusal: whether this copy was behind the database (another instance appended and its
   * notice has not come yet), in which case it has caught up and the command is decided again — a
   * refusal is only ever the current state's.
   */
  private async behind(id: string, live: Live, redecisions: number): Promise<boolean> {
    if (redecisions >= MAX_REDECISIONS) return false;
    const stored = await this.storage.getEncounter(id);
    if (stored && stored.seq <= live.record.seq) return false;
    await this.catchUp(id, live);
    return true;
  }

  /** Tells the viewers of a deleted encounter, closes them, and forgets it. */
  private dropDeleted(id: string, live: Live): void {
    for (const sub of live.subscribers) {
      sub.send(JSON.stringify({ type: 'deleted' }));
      sub.close();
    }
    if (this.live.get(id) === live) this.live.delete(id);
  }

  /**
   * A change some instance announced: a loaded (or loading) encounter catches up; one not in memory
   * loads fresh when next opened. `undefined` (the announcements had a gap): every loaded one checks.
   */
  private async heard(change: Change | undefined): Promise<void> {
    const ids = change ? [change.encounter] : [...this.live.keys()];
    for (const id of ids) {
      const live = this.live.get(id) ?? (await this.loading.get(id)?.catch(() => undefined));
      if (!live) continue;
      if (change?.kind === 'appended' && change.seq <= live.record.seq) continue;
      if (change?.kind === 'deleted') {
        await this.serialize(live, async () => this.dropDeleted(id, live));
        continue;
      }
      if (change?.kind === 'links') {
        await this.serialize(live, () => this.recheckLinks(id, live)).catch(() => undefined);
        continue;
      }
      // Checked again in the queue: the notice of this instance's own append can come before the
      // command that made it has finished.
      await this.serialize(live, async () => {
        if (change?.kind === 'appended' && change.seq <= live.record.seq) return;
        await this.catchUp(id, live);
        // After a gap, links may have changed on another instance too.
        if (!change) await this.recheckLinks(id, live);
      }).catch(() => undefined);
    }
  }

  /**
   * Sends each subscriber the change as it sees it: its events and the delta from the view it holds (at
   * `from`), or the whole view when that is smaller. Each distinct message is built and serialized once
   * and shared by every viewer who would get the same bytes: all of one kind, and the kinds whose view,
   * events and previous view are the same (the table and every player when nothing is hidden or secret).
   */
  private broadcast(live: Live, entries: LogEntry[], from: number): void {
    const byKey = new Map<string, Built>();
    const distinct: Built[] = [];
    // When the table and every player see this change alike, the first of them's message is every
    // other's who held the same view: their views and events are not made again only to be compared.
    const alike = seenAlikeByAllButGm(live.log.state, entries, live.ruleset, live.log.everHidden);
    let first: { base: EncounterView; message: Built; key: string } | undefined;
    for (const sub of live.subscribers) {
      const key = viewKey(sub.viewer);
      let message = byKey.get(key);
      if (!message) {
        const held = alike && sub.viewer.role !== 'gm' ? live.views.get(key) : undefined;
        const base = held?.seq === from ? held.view : undefined;
        if (first && base === first.base) {
          message = first.message;
          live.views.set(key, live.views.get(first.key)!);
        } else {
          message = this.change(live, sub.viewer, key, entries, from, distinct);
          if (base && !first) first = { base, message, key };
        }
        byKey.set(key, message);
      }
      sub.send(message.text, message);
    }
    // The views of kinds nobody watches any more are not kept (a kind that comes back gets a hello).
    for (const key of live.views.keys()) if (!byKey.has(key)) live.views.delete(key);
  }

  /** The change for one kind of viewer: one already built if it is the same, else a new one. */
  private change(
    live: Live,
    viewer: Viewer,
    key: string,
    entries: LogEntry[],
    from: number,
    distinct: Built[],
  ): Built {
    const seq = live.record.seq;
    const gm = viewer.role === 'gm';
    // The GM's message is never another kind's: the GM's view holds the dice state and the undo history,
    // which every change moves (its group), and no other view does. Only messages built for the same
    // side of that line are compared.
    const held = live.views.get(key);
    // Every viewer of a kind holds its view at the seq before this change: hello and every change are
    // sent in the encounter's queue. A kind whose view is older (nobody of it watched) gets it whole.
    const base = held?.seq === from ? held.view : undefined;
    const next = view(live.log.state, viewer, live.ruleset, live.log.everHidden);
    const seen = viewLog(entries, viewer, live.log.state, live.ruleset, live.log.everHidden);
    // A kind that held the same view and now sees the same view and events gets the same message,
    // without a diff of its own (the players, when nothing hidden or secret sets them apart).
    for (const built of distinct) {
      if (built.gm !== gm) continue;
      if (base && built.base === base && sameJson(built.view, next) && sameJson(built.entries, seen)) {
        live.views.set(key, { seq, view: built.view });
        return built;
      }
    }
    const delta = base
      ? deltaOfView(
          base,
          next,
          seen.map((e) => e.event),
        )
      : undefined;
    for (const built of distinct) {
      if (built.gm !== gm || !sameJson(built.entries, seen)) continue;
      const sameView = sameJson(built.view, next);
      // The same delta is the same bytes when this kind would send it too: surely when it is shorter
      // than any view, else when its view is the same. (The player of a hidden combatant gets the table's
      // delta when nothing of that combatant moved, though their views differ.)
      const shared =
        (built.delta && delta !== undefined && sameJson(built.delta.value, delta)
          ? built.delta.json.length < SHORTEST_VIEW || sameView
          : false) ||
        (!built.delta && delta === undefined && sameView);
      if (shared) {
        // One object for views that are the same, so the next change finds them so at a glance.
        live.views.set(key, { seq, view: sameView ? built.view : next });
        return built;
      }
    }
    live.views.set(key, { seq, view: next });
    // The events in the compact form (one slot per entry, their shared group and time once), written
    // once for every kind that sees the same events (the GM's and the table's, when nothing is hidden).
    const head = distinct.find((built) => sameJson(built.entries, seen))?.head ?? changeHead(seen, from, seq);
    const built: Built = { gm, base, view: next, entries: seen, head, text: '' };
    const body = changeBody(delta, next);
    if ('state' in body) built.text = `${head},"state":${body.state}}`;
    else {
      // A delta comes back only for a delta given.
      if (delta !== undefined) built.delta = { value: delta, json: body.delta };
      built.text = `${head},"delta":${body.delta}}`;
    }
    distinct.push(built);
    return built;
  }

  async snapshotFor(
    id: string,
    link: LinkRecord,
  ): Promise<{ record: EncounterRecord; seq: number; state: EncounterView }> {
    const live = await this.open(id);
    // In the encounter's queue, like every read of its log: a command being stored has already
    // changed the copy in memory, and must not be seen before it is stored.
    return this.serialize(live, async () => ({
      record: live.record,
      seq: live.record.seq,
      state: view(live.log.state, viewerOf(link), live.ruleset, live.log.everHidden),
    }));
  }

  async eventsSince(
    id: string,
    link: LinkRecord,
    after: number,
  ): Promise<{ seq: number; entries: LogEntry[] }> {
    const live = await this.open(id);
    return this.serialize(live, async () => {
      const entries = live.log.entries.filter((e) => e.seq > after);
      return {
        seq: live.record.seq,
        entries: viewLog(entries, viewerOf(link), live.log.state, live.ruleset, live.log.everHidden),
      };
    });
  }

  /**
   * The viewer's log entries after `after`, as the JSON text of `{seq, entries}`: redacted and written a
   * few hundred entries at a time, giving way to other requests in between (a long log read whole held
   * the event loop for a tenth of a second and more).
   */
  async eventsSinceJson(id: string, link: LinkRecord, after: number): Promise<string> {
    const live = await this.open(id);
    const seq = live.record.seq;
    const parts: string[] = [];
    const entries = live.log.entries.filter((e) => e.seq > after && e.seq <= seq);
    await this.viewChunks(live, entries, viewerOf(link), (json) => parts.push(json.slice(1, -1)));
    return `{"seq":${seq},"entries":[${parts.join(',')}]}`;
  }

  /** `entries` as the viewer may see them, handed over as JSON arrays of at most EVENTS_CHUNK entries. */
  private async viewChunks(
    live: Live,
    entries: readonly LogEntry[],
    viewer: Viewer,
    each: (json: string) => void,
  ): Promise<void> {
    const slices = new Slices();
    const who = viewKey(viewer);
    for (let i = 0; i < entries.length; i += EVENTS_CHUNK) {
      await slices.pause();
      // Many viewers of one kind catching up at once (a table's screens reconnecting) share the work.
      if (live.chunks?.seq !== live.record.seq) {
        live.chunks = { seq: live.record.seq, texts: new Map(), usedAt: 0 };
      }
      live.chunks.usedAt = Date.now();
      const chunk = entries.slice(i, i + EVENTS_CHUNK);
      const key = `${who}:${chunk[0]!.seq}:${chunk.length}`;
      let json = live.chunks.texts.get(key);
      if (json === undefined) {
        const seen = viewLog(chunk, viewer, live.log.state, live.ruleset, live.log.everHidden);
        json = seen.length > 0 ? JSON.stringify(seen) : '';
        live.chunks.texts.set(key, json);
      }
      if (json !== '') each(json);
    }
  }

  /**
   * Adds a live viewer and sends it `hello`, then (with `after`) the entries it missed since, in
   * `events` messages of a few hundred entries, giving way to other requests in between. Changes that
   * come meanwhile wait for the last of them, so the viewer hears everything in order.
   */
  async subscribe(id: string, link: LinkRecord, sub: Subscriber, after?: number): Promise<() => void> {
    let live = await this.open(id);
    // Unloaded between the two (only if a quarter second passed): take the copy in memory now.
    while (this.live.get(id) !== live) live = await this.open(id);
    const current = live;
    // In the encounter's queue: never between a command's decision and its append (the copy in memory
    // already shows it, the change that announces it is still to come).
    return this.serialize(current, async () => {
      const live = current;
      // The viewer saw more than this copy holds: another instance appended and its notice is on its
      // way. Catch up first, or the notice would send the viewer what it already has.
      if (after !== undefined && after > live.record.seq) await this.catchUp(id, live);
      let gone = false;
      live.subscribers.add(sub);
      const viewer = viewerOf(link);
      // The view this viewer holds from now on, the base of its next change (see broadcast).
      const key = viewKey(viewer);
      const held = live.views.get(key);
      const state =
        held?.seq === live.record.seq
          ? held.view
          : view(live.log.state, viewer, live.ruleset, live.log.everHidden);
      live.views.set(key, { seq: live.record.seq, view: state });
      sub.send(
        JSON.stringify({
          type: 'hello',
          role: link.role,
          combatants: link.combatants,
          encounter: recordFor(live.record, link.role),
          seq: live.record.seq,
          state,
        }),
      );
      if (after !== undefined && after < live.record.seq) {
        // A long resume is sent in pieces, giving way to other requests between them (see limits.ts).
        const missed = live.log.entries.filter((e) => e.seq > after);
        let sent = 0;
        await this.viewChunks(live, missed, viewer, (json) => {
          if (gone) return;
          sub.send(`{"type":"events","entries":${json}}`);
          sent++;
        });
        if (!gone && sent === 0) sub.send('{"type":"events","entries":[]}');
      }
      return () => {
        gone = true;
        live.subscribers.delete(sub);
        live.lastUsed = Date.now();
      };
    });
  }

  async update(
    id: string,
    patch: { name?: string; status?: 'active' | 'archived' },
  ): Promise<EncounterRecord> {
    const live = await this.open(id);
    return this.serialize(live, async () => {
      const time = this.time();
      await this.storage.updateEncounter(id, patch, time);
      live.record = { ...live.record, ...patch, updatedAt: time };
      void this.fanout.publish({ encounter: id, kind: 'updated' }).catch(() => undefined);
      return live.record;
    });
  }

  async delete(id: string): Promise<void> {
    const live = await this.open(id);
    await this.serialize(live, async () => {
      await this.storage.deleteEncounter(id);
      this.dropDeleted(id, live);
      void this.fanout.publish({ encounter: id, kind: 'deleted' }).catch(() => undefined);
    });
  }

  /** The encounter as a scenario file that replays to the same state. */
  async exportScenario(id: string): Promise<Record<string, Json>> {
    const live = await this.open(id);
    const commands = await this.storage.readCommands(id);
    const created = live.log.entries[0]!.event.state as unknown as EncounterState;
    const origin = live.record.origin as { seed: number; dice?: number[]; strictDice?: boolean };
    const scenario: Record<string, Json> = {
      schema: SCENARIO_SCHEMA,
      name: live.record.name,
      ruleset: live.record.ruleset,
      options: created.options as Json,
      seed: origin.seed,
    };
    if (origin.dice) {
      scenario.dice = origin.dice;
      scenario.strictDice = origin.strictDice ?? false;
    }
    scenario.commands = commands.map((c) => ({ command: c.command }));
    return scenario;
  }

  /**
   * Every link of an encounter, re-derived from the GM token at its current generation (player links for
   * PCs added since too). A revoked link is listed as revoked, without a token.
   */
  async links(
    id: string,
    gmToken: string,
  ): Promise<{
    gm: string;
    table: string | null;
    players: Array<{ combatant: string; name: string; token?: string; allowed: string[]; revoked?: true }>;
  }> {
    const live = await this.open(id);
    const time = this.time();
    const rows = await this.storage.listLinks(id);
    const fresh: LinkRecord[] = [];
    const players: Array<{
      combatant: string;
      name: string;
      token?: string;
      allowed: string[];
      revoked?: true;
    }> = [];
    for (const d of this.playerLinks(id, gmToken, live.log.state, live.ruleset, time)) {
      const combatant = d.record.combatants[0]!;
      const latest = latestLink(rows, { role: 'player', combatant });
      if (latest?.revoked) {
        players.push({ combatant, name: d.record.label, allowed: latest.allowed, revoked: true });
        continue;
      }
      const generation = latest?.generation ?? 0;
      const token = derivedToken(gmToken, { role: 'player', combatant }, generation);
      if (!latest) fresh.push(d.record);
      players.push({ combatant, name: d.record.label, token, allowed: latest?.allowed ?? d.record.allowed });
    }
    await this.storage.addLinks(fresh);
    const table = latestLink(rows, { role: 'table' });
    return {
      gm: gmToken,
      table: table?.revoked ? null : derivedToken(gmToken, { role: 'table' }, table?.generation ?? 0),
      players,
    };
  }

  async setAllowed(id: string, gmToken: string, combatant: string, allowed: string[]): Promise<void> {
    const live = await this.open(id);
    const ruleset = live.ruleset;
    const known = new Set([...Object.keys(ruleset.commands), 'next']);
    const unknown = allowed.filter((a) => !known.has(a));
    if (unknown.length) {
      throw new HubError(
        400,
        reject(
          'link/unknown-command',
          `Not commands of ${ruleset.name}: ${unknown.join(', ')}. Known: ${[...known].join(', ')}.`,
        ),
      );
    }
    this.requireCombatant(live, combatant);
    const latest = latestLink(await this.storage.listLinks(id), { role: 'player', combatant });
    if (latest) {
      await this.storage.updateLink(latest.hash, { allowed });
      // The player's open connections send their next command with what the link allows now.
      for (const sub of live.subscribers) if (sub.link === latest.hash) sub.relinked?.({ allowed });
      void this.fanout.publish({ encounter: id, kind: 'links' }).catch(() => undefined);
      return;
    }
    const name = live.log.state.combatants[combatant]!.name;
    await this.storage.addLinks([playerLink(id, gmToken, combatant, name, allowed, this.time()).record]);
  }

  private requireCombatant(live: Live, combatant: string): void {
    if (!Object.hasOwn(live.log.state.combatants, combatant)) {
      throw new HubError(
        404,
        reject('combatant/unknown', `There is no combatant "${combatant}" in this encounter.`),
      );
    }
  }

  /**
   * Revokes the table's or a player's link: its token opens nothing from now on, and its live
   * connections are closed. The GM's link can only be rotated (someone must keep the encounter).
   */
  async revokeLink(id: string, gmToken: string, name: LinkName): Promise<void> {
    if (name.role === 'gm') {
      throw new HubError(
        400,
        reject(
          'link/gm-revoke',
          "The GM link can't be revoked, or no one could run the encounter; rotate it instead to get a new one.",
        ),
      );
    }
    const live = await this.open(id);
    if (name.role === 'player') this.requireCombatant(live, name.combatant);
    await this.serialize(live, async () => {
      const latest = latestLink(await this.storage.listLinks(id), name);
      if (latest) {
        await this.storage.updateLink(latest.hash, { revoked: true });
        this.disconnect(live, new Set([latest.hash]));
        void this.fanout.publish({ encounter: id, kind: 'links' }).catch(() => undefined);
        return;
      }
      // A player link never listed yet: stored revoked, so listing links does not bring it back.
      const time = this.time();
      const label = name.role === 'player' ? live.log.state.combatants[name.combatant]!.name : 'Table';
      const token = derivedToken(gmToken, name, 0);
      await this.storage.addLinks([
        {
          hash: hashToken(token),
          encounterId: id,
          role: name.role,
          combatants: name.role === 'player' ? [name.combatant] : [],
          allowed: name.role === 'player' ? defaultPlayerCommands(live.ruleset) : [],
          label,
          createdAt: time,
          revoked: true,
        },
      ]);
    });
  }

  /**
   * Replaces a link with a new one (its next generation): the old token opens nothing from now on and
   * its live connections are closed; what the link allowed carries over. Rotating the GM's link gives
   * a new GM token and, since the others derive from it, a new token for every link not revoked.
   * Returns the GM token that now lists every link.
   */
  async rotateLink(id: string, gmToken: string, name: LinkName): Promise<string> {
    const live = await this.open(id);
    if (name.role === 'player') this.requireCombatant(live, name.combatant);
    return this.serialize(live, async () => {
      const time = this.time();
      const rows = await this.storage.listLinks(id);
      const next = (row: LinkRecord | undefined, root: string, which: Exclude<LinkName, { role: 'gm' }>) => {
        const generation = (row?.generation ?? 0) + 1;
        const combatant = which.role === 'player' ? which.combatant : undefined;
        const record: LinkRecord = {
          hash: hashToken(derivedToken(root, which, generation)),
          encounterId: id,
          role: which.role,
          combatants: combatant ? [combatant] : [],
          allowed: row?.allowed ?? (combatant ? defaultPlayerCommands(live.ruleset) : []),
          label: row?.label ?? (combatant ? live.log.state.combatants[combatant]!.name : 'Table'),
          createdAt: time,
          generation,
        };
        return record;
      };
      const replaced = new Set<string>();
      const added: LinkRecord[] = [];
      let root = gmToken;
      if (name.role === 'gm') {
        root = newToken();
        const gm = latestLink(rows, name);
        added.push({
          hash: hashToken(root),
          encounterId: id,
          role: 'gm',
          combatants: [],
          allowed: [],
          label: 'GM',
          createdAt: time,
          generation: (gm?.generation ?? 0) + 1,
        });
        for (const row of rows) {
          if (row.revoked) continue;
          replaced.add(row.hash);
          if (row.role === 'gm') continue;
          const which: Exclude<LinkName, { role: 'gm' }> =
            row.role === 'table' ? { role: 'table' } : { role: 'player', combatant: row.combatants[0]! };
          if (latestLink(rows, which) === row) added.push(next(row, root, which));
        }
      } else {
        const latest = latestLink(rows, name);
        if (latest && !latest.revoked) replaced.add(latest.hash);
        added.push(next(latest, root, name));
      }
      await this.storage.addLinks(added);
      for (const hash of replaced) await this.storage.updateLink(hash, { revoked: true });
      this.disconnect(live, replaced);
      void this.fanout.publish({ encounter: id, kind: 'links' }).catch(() => undefined);
      return root;
    });
  }

  /**
   * Closes the live connections that came in with these links; a command they sent that is still
   * waiting its turn is refused.
   */
  private disconnect(live: Live, hashes: ReadonlySet<string>): void {
    for (const sub of live.subscribers) {
      if (sub.link === undefined || !hashes.has(sub.link)) continue;
      sub.relinked?.({ revoked: true });
      sub.send(JSON.stringify({ type: 'revoked' }));
      sub.close();
    }
  }

  /**
   * Another instance changed this encounter's links (or its notices had a gap): the connections here
   * take what their links allow now, and those whose link was revoked are closed.
   */
  private async recheckLinks(id: string, live: Live): Promise<void> {
    if (![...live.subscribers].some((sub) => sub.link !== undefined)) return;
    const rows = new Map((await this.storage.listLinks(id)).map((row) => [row.hash, row]));
    const gone = new Set<string>();
    for (const sub of live.subscribers) {
      if (sub.link === undefined) continue;
      const row = rows.get(sub.link);
      if (!row || row.revoked) gone.add(sub.link);
      else sub.relinked?.({ allowed: row.allowed });
    }
    this.disconnect(live, gone);
  }

  /** Closes every live connection (graceful shutdown). */
  closeAll(): void {
    for (const live of this.live.values()) for (const sub of live.subscribers) sub.close();
  }
}
