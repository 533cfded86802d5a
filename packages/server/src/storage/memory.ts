import type { EncounterState, LogEntry } from '@roundkeeper/engine';
import {
  type CommandRecord,
  type CreatureRecord,
  type EncounterRecord,
  type LinkRecord,
  type Storage,
  StorageConflictError,
} from './storage.js';

/** Storage in memory: the reference the contract suite also checks; for tests and throwaway servers. */
export class MemoryStorage implements Storage {
  readonly kind = 'memory';
  private readonly encounters = new Map<string, EncounterRecord>();
  private readonly events = new Map<string, LogEntry[]>();
  private readonly commands = new Map<string, CommandRecord[]>();
  private readonly snapshots = new Map<string, { seq: number; state: string }>();
  private readonly links = new Map<string, LinkRecord>();
  private readonly creatures = new Map<string, CreatureRecord>();

  private copy<T>(x: T): T {
    return structuredClone(x);
  }

  async ping() {}

  async createEncounter(
    record: EncounterRecord,
    entries: LogEntry[],
    commands: CommandRecord[],
    links: LinkRecord[],
  ) {
    if (this.encounters.has(record.id))
      throw new StorageConflictError(`Encounter ${record.id} already exists.`);
    this.encounters.set(record.id, this.copy(record));
    this.events.set(record.id, this.copy(entries));
    this.commands.set(record.id, this.copy(commands));
    for (const l of links) if (!this.links.has(l.hash)) this.links.set(l.hash, this.copy(l));
  }

  async getEncounter(id: string) {
    const r = this.encounters.get(id);
    return r ? this.copy(r) : undefined;
  }

  async listEncounters(ids: string[]) {
    return [...new Set(ids)]
      .map((id) => this.encounters.get(id))
      .filter((r): r is EncounterRecord => r !== undefined)
      .map((r) => this.copy(r))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  async countEncounters() {
    return this.encounters.size;
  }

  async updateEncounter(id: string, patch: { name?: string; status?: 'active' | 'archived' }, now: string) {
    const r = this.encounters.get(id);
    if (r) this.encounters.set(id, { ...r, ...patch, updatedAt: now });
  }

  async deleteEncounter(id: string) {
    this.encounters.delete(id);
    this.events.delete(id);
    this.commands.delete(id);
    this.snapshots.delete(id);
    for (const [h, l] of this.links) if (l.encounterId === id) this.links.delete(h);
  }

  async append(
    id: string,
    afterSeq: number,
    entries: LogEntry[],
    command: CommandRecord | null,
    now: string,
  ) {
    const r = this.encounters.get(id);
    if (!r) throw new StorageConflictError(`There is no encounter ${id}.`);
    if (r.seq !== afterSeq)
      throw new StorageConflictError(
        `Encounter ${id} is at seq ${r.seq}, not ${afterSeq}; the log never forks.`,
      );
    this.events.get(id)!.push(...this.copy(entries));
    if (command) this.commands.get(id)!.push(this.copy(command));
    this.encounters.set(id, { ...r, seq: entries.at(-1)?.seq ?? afterSeq, updatedAt: now });
    let stored = command ? JSON.stringify(command.command).length : 0;
    for (const e of entries) stored += JSON.stringify(e.event).length;
    return stored;
  }

  async readEntries(id: string, afterSeq = 0) {
    return this.copy((this.events.get(id) ?? []).filter((e) => e.seq > afterSeq));
  }

  async readCommands(id: string) {
    return this.copy(this.commands.get(id) ?? []);
  }

  async saveSnapshot(id: string, seq: number, state: EncounterState) {
    if (this.encounters.has(id)) this.snapshots.set(id, { seq, state: JSON.stringify(state) });
  }

  async latestSnapshot(id: string) {
    const s = this.snapshots.get(id);
    return s ? { seq: s.seq, state: JSON.parse(s.state) as EncounterState } : undefined;
  }

  async addLinks(links: LinkRecord[]) {
    for (const l of links)
      if (!this.links.has(l.hash) && this.encounters.has(l.encounterId)) this.links.set(l.hash, this.copy(l));
  }

  async findLink(hash: string) {
    const l = this.links.get(hash);
    return l ? this.copy(l) : undefined;
  }

  async listLinks(encounterId: string) {
    return [...this.links.values()]
      .filter((l) => l.encounterId === encounterId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.hash.localeCompare(b.hash))
      .map((l) => this.copy(l));
  }

  async updateLink(hash: string, patch: { allowed?: string[]; label?: string; revoked?: true }) {
    const l = this.links.get(hash);
    if (l) this.links.set(hash, { ...l, ...patch });
  }

  async listCreatures(owner: string, ruleset: string) {
    return [...this.creatures.values()]
      .filter((c) => c.owner === owner && c.ruleset === ruleset)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((c) => this.copy(c));
  }

  async countCreatures(owner: string) {
    return [...this.creatures.values()].filter((c) => c.owner === owner).length;
  }

  async putCreatures(records: CreatureRecord[]) {
    for (const r of records) this.creatures.set(JSON.stringify([r.owner, r.ruleset, r.name]), this.copy(r));
  }

  async deleteCreature(owner: string, ruleset: string, name: string) {
    this.creatures.delete(JSON.stringify([owner, ruleset, name]));
  }

  async close() {}
}
