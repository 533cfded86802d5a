import { randomInt } from 'node:crypto';
import {
  type AnyRuleset,
  type CombatantInput,
  type Command,
  EncounterLog,
  type EncounterState,
  type EncounterView,
  type EventsMessage,
  type HelloMessage,
  hiddenFrom,
  isRejection,
  type Json,
  type LogEntry,
  type Rejection,
  type RulesetRegistry,
  reject,
  SCENARIO_SCHEMA,
  type Scenario,
  scriptedDice,
  seededDice,
  type Viewer,
  view,
  viewLog,
} from '@roundkeeper/engine';
import { broadcast } from './broadcast.js';
import { type Change, type Fanout, InProcessFanout } from './fanout.js';
import { HubError } from './hub-error.js';
import { combatantsOver, EVENTS_CHUNK, SCENARIO_LIMITS, Slices } from './limits.js';
import { LinkAdmin } from './link-admin.js';
import {
  authorize,
  defaultPlayerCommands,
  deriveToken,
  hashToken,
  type LinkName,
  newToken,
  playerLink,
  viewerOf,
} from './links.js';
import { type Live, type Subscriber, viewKey } from './live-encounter.js';
import { messageText, rawMessage } from './messages.js';
import {
  type CommandRecord,
  type EncounterRecord,
  type LinkRecord,
  type Storage,
  StorageConflictError,
} from './storage/storage.js';
import { mask, scrub, unmask } from './unseen.js';

export { changeBody } from './broadcast.js';
export { HubError } from './hub-error.js';
export type { SharedMessage, Subscriber } from './live-encounter.js';

/** What an accepted command did (see `Hub.command`). */
export interface CommandOutcome {
  seq: number;
  entries: LogEntry[];
  stored: number;
}

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
  private readonly linkAdmin: LinkAdmin = new LinkAdmin(this);

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

  /** The wall clock's time, as stored. */
  time(): string {
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
      const steps: Array<{ command: Command; by?: Viewer; where: string; setup?: true }> = [
        ...s.combatants.map((combatant, i) => ({
          command: { type: 'add-combatant', combatant },
          where: `combatant ${i + 1}`,
          setup: true as const,
        })),
        ...s.actions.map((action, i) => ({
          command: { type: 'define-action', action },
          where: `action ${i + 1}`,
          setup: true as const,
        })),
        ...s.commands.map(({ command, by }, i) => ({
          command,
          where: `step ${i + 1} (${command.type})`,
          ...(by ? { by } : {}),
        })),
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
        const prior = log.state;
        const r = log.execute(step.command, { time, ...(step.by ? { by: step.by } : {}) });
        // A stat its ruleset lacks is a mistake in the file wherever it stands, never part of the story
        // (whose steps the rules may refuse): it would be dropped without a word.
        // So is a combatant or an action of its setup that cannot be added: the encounter would lack it.
        if (isRejection(r) && (step.setup || r.code === 'combatant/unknown-stat')) {
          throw new HubError(400, { ...r, message: `The scenario's ${step.where}: ${r.message}` });
        }
        const over = isRejection(r) ? undefined : combatantsOver(prior, log.state);
        if (over) throw new HubError(400, over);
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
        const prior = log.state;
        const r = log.execute(command, { time });
        if (isRejection(r)) throw new HubError(400, r);
        const over = combatantsOver(prior, log.state);
        if (over) throw new HubError(400, over);
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

  /** Runs `task` in the encounter's queue: after every command and change queued before it. */
  serialize<T>(live: Live, task: () => Promise<T>): Promise<T> {
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
      const viewer = viewerOf(link);
      // Anyone but the GM: decided as if the combatants hidden from them did not exist (see unseen.ts),
      // so a refusal reads the same for a hidden id as for one that does not exist.
      const hidden = link.role === 'gm' ? undefined : hiddenFrom(live.log.state, viewer, live.log.everHidden);
      const masked = hidden ? mask(command, hidden, live.log.state) : undefined;
      const told = (r: Rejection) => (hidden ? unmask(scrub(r, live.log.state, hidden), masked?.masks) : r);
      const decided = masked?.command ?? command;
      // A command without a string type is refused by the rules below, whoever sends it.
      if (hasType(decided)) {
        const refused = authorize(link, decided, live.log.state, live.ruleset);
        if (refused) {
          if (await this.behind(id, live, redecisions)) return decide(redecisions + 1);
          throw new HubError(403, told(refused));
        }
      }
      // The first undo or redo of a loaded log folds all of it: a slice at a time, before it is decided.
      if (hasType(command) && isUndoRedo(command.type)) await inSlices(live.log.prepareUndo());
      const before = { length: live.log.entries.length, state: live.log.state };
      const time = this.time();
      let result = live.log.execute(decided, { by: viewer, time });
      if (masked && !isRejection(result)) {
        // The rules take the command even naming nobody there: it is decided as sent.
        live.log.rollback(before);
        result = live.log.execute(command, { by: viewer, time });
      }
      if (isRejection(result)) {
        if (await this.behind(id, live, redecisions)) return decide(redecisions + 1);
        throw new HubError(422, told(result));
      }
      const over = combatantsOver(before.state, live.log.state);
      if (over) {
        live.log.rollback(before);
        throw new HubError(422, over);
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
      broadcast(live, result, from);
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
      broadcast(live, change, before);
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
      sub.send(messageText({ type: 'deleted' }));
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
        await this.serialize(live, () => this.linkAdmin.recheckLinks(id, live)).catch(() => undefined);
        continue;
      }
      // Checked again in the queue: the notice of this instance's own append can come before the
      // command that made it has finished.
      await this.serialize(live, async () => {
        if (change?.kind === 'appended' && change.seq <= live.record.seq) return;
        await this.catchUp(id, live);
        // After a gap, links may have changed on another instance too.
        if (!change) await this.linkAdmin.recheckLinks(id, live);
      }).catch(() => undefined);
    }
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
      const hello: HelloMessage = {
        type: 'hello',
        role: link.role,
        combatants: link.combatants,
        ...(link.role === 'player' ? { allowed: link.allowed } : {}),
        encounter: recordFor(live.record, link.role),
        seq: live.record.seq,
        state,
      };
      sub.send(messageText(hello));
      if (after !== undefined && after < live.record.seq) {
        // A long resume is sent in pieces, giving way to other requests between them (see limits.ts).
        const missed = live.log.entries.filter((e) => e.seq > after);
        let sent = 0;
        await this.viewChunks(live, missed, viewer, (json) => {
          if (gone) return;
          sub.send(rawMessage<EventsMessage>('events', { entries: json }));
          sent++;
        });
        if (!gone && sent === 0) sub.send(messageText({ type: 'events', entries: [] }));
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

  /** Link administration (see link-admin.ts), kept callable on the hub. */
  links(id: string, gmToken: string): ReturnType<LinkAdmin['links']> {
    return this.linkAdmin.links(id, gmToken);
  }

  setAllowed(id: string, gmToken: string, combatant: string, allowed: string[]): Promise<void> {
    return this.linkAdmin.setAllowed(id, gmToken, combatant, allowed);
  }

  revokeLink(id: string, gmToken: string, name: LinkName): Promise<void> {
    return this.linkAdmin.revokeLink(id, gmToken, name);
  }

  rotateLink(id: string, gmToken: string, name: LinkName): Promise<string> {
    return this.linkAdmin.rotateLink(id, gmToken, name);
  }

  /** Closes every live connection (graceful shutdown). */
  closeAll(): void {
    for (const live of this.live.values()) for (const sub of live.subscribers) sub.close();
  }
}
