import type { EncounterState, LogEntry } from '@roundkeeper/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_PAGE } from '../limits.js';
import { type EncounterRecord, type LinkRecord, type Storage, StorageConflictError } from './storage.js';

/**
 * The contract every storage adapter keeps. Run it for each adapter (SQLite, memory and PostgreSQL):
 * `storageContract('sqlite', () => new SqliteStorage(':memory:'))`. `cleanUp` runs after each test
 * has closed its storage (PostgreSQL drops the test's database).
 */
export function storageContract(
  name: string,
  make: () => Storage | Promise<Storage>,
  cleanUp?: () => Promise<void>,
): void {
  describe(`storage contract: ${name}`, () => {
    let s: Storage;
    beforeEach(async () => {
      s = await make();
    });
    afterEach(async () => {
      await s.close();
      await cleanUp?.();
    });

    const record = (id: string, seq = 1): EncounterRecord => ({
      id,
      name: `Encounter ${id}`,
      ruleset: 'classic',
      status: 'active',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      seq,
      origin: { seed: 1 },
    });
    const entry = (seq: number, group: number): LogEntry => ({
      seq,
      group,
      event: { type: 'note/added', text: `n${seq}` },
    });
    const link = (hash: string, encounterId: string, role: LinkRecord['role'] = 'gm'): LinkRecord => ({
      hash,
      encounterId,
      role,
      combatants: role === 'player' ? ['ana'] : [],
      allowed: role === 'player' ? ['act'] : [],
      label: role,
      createdAt: '2026-01-01T00:00:00.000Z',
    });

    it('creates an encounter with its first entries, commands and links, and reads them back', async () => {
      await s.createEncounter(
        record('a'),
        [entry(1, 0)],
        [{ group: 0, command: { type: 'x' }, role: 'gm' }],
        [link('h1', 'a')],
      );
      expect(await s.getEncounter('a')).toEqual(record('a'));
      expect(await s.readEntries('a')).toEqual([entry(1, 0)]);
      expect(await s.readCommands('a')).toEqual([{ group: 0, command: { type: 'x' }, role: 'gm' }]);
      expect(await s.findLink('h1')).toEqual(link('h1', 'a'));
      expect(await s.getEncounter('nope')).toBeUndefined();
      expect(await s.countEncounters()).toBe(1);
      await expect(s.ping()).resolves.toBeUndefined();
    });

    it('reads a log and its commands longer than one page (READ_PAGE) whole, in order', async () => {
      const n = 2 * READ_PAGE + 7;
      const entries = Array.from({ length: n }, (_, i) => entry(i + 1, i));
      const commands = entries.map((e) => ({
        group: e.group,
        command: { type: `c${e.group}` },
        role: 'gm' as const,
      }));
      await s.createEncounter(record('long', n), entries, commands, []);
      expect(await s.readEntries('long')).toEqual(entries);
      expect(await s.readEntries('long', READ_PAGE + 3)).toEqual(entries.slice(READ_PAGE + 3));
      expect(await s.readEntries('long', n)).toEqual([]);
      expect(await s.readCommands('long')).toEqual(commands);
    });

    it('appends in order, reads after a seq, and never forks the log', async () => {
      await s.createEncounter(record('a'), [entry(1, 0)], [], []);
      const appended = [entry(2, 1), entry(3, 1)];
      const stored = await s.append(
        'a',
        1,
        appended,
        { group: 1, command: { type: 'y' }, role: 'player' },
        '2026-01-02T00:00:00.000Z',
      );
      // The bytes it stored, for the storage budgets: the events' and the command's JSON.
      expect(stored).toBe(
        appended.reduce((n, e) => n + JSON.stringify(e.event).length, JSON.stringify({ type: 'y' }).length),
      );
      expect((await s.readEntries('a')).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect((await s.readEntries('a', 2)).map((e) => e.seq)).toEqual([3]);
      expect(await s.readCommands('a')).toEqual([{ group: 1, command: { type: 'y' }, role: 'player' }]);
      expect((await s.getEncounter('a'))!.seq).toBe(3);
      expect((await s.getEncounter('a'))!.updatedAt).toBe('2026-01-02T00:00:00.000Z');
      await expect(s.append('a', 1, [entry(2, 2)], null, 'x')).rejects.toBeInstanceOf(StorageConflictError);
      await expect(s.append('zzz', 0, [entry(1, 1)], null, 'x')).rejects.toBeInstanceOf(StorageConflictError);
      await expect(s.append('a', 4, [entry(5, 2)], null, 'x')).rejects.toBeInstanceOf(StorageConflictError);
      expect((await s.readEntries('a')).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(await s.readCommands('a')).toHaveLength(1);
      // A refused append leaves the encounter's row as it was too.
      expect((await s.getEncounter('a'))!.seq).toBe(3);
      expect((await s.getEncounter('a'))!.updatedAt).toBe('2026-01-02T00:00:00.000Z');
      expect(await s.append('a', 3, [entry(4, 2)], null, '2026-01-03T00:00:00.000Z')).toBe(
        JSON.stringify(entry(4, 2).event).length,
      );
      expect((await s.readEntries('a', 3)).map((e) => e.seq)).toEqual([4]);
      expect(await s.readCommands('a')).toHaveLength(1);
    });

    it('appends a command of many events whole and in order (more than one INSERT holds)', async () => {
      await s.createEncounter(record('many'), [entry(1, 0)], [], []);
      const many = Array.from({ length: 19 }, (_, i) => ({
        ...entry(i + 2, 1),
        time: `2026-01-02T00:00:${10 + i}.000Z`,
      }));
      await s.append('many', 1, many, { group: 1, command: { type: 'start' }, role: 'gm' }, 'x');
      expect(await s.readEntries('many', 1)).toEqual(many);
      expect((await s.getEncounter('many'))!.seq).toBe(20);
    });

    it('lets exactly one of two writers append after the same seq', async () => {
      await s.createEncounter(record('a'), [entry(1, 0)], [], []);
      const writers = await Promise.allSettled(
        ['x', 'y'].map((who) =>
          s.append(
            'a',
            1,
            [entry(2, 1), entry(3, 1)],
            { group: 1, command: { type: who }, role: 'gm' },
            '2026-01-02T00:00:00.000Z',
          ),
        ),
      );
      expect(writers.filter((w) => w.status === 'fulfilled')).toHaveLength(1);
      const refused = writers.find((w) => w.status === 'rejected');
      expect(refused?.reason).toBeInstanceOf(StorageConflictError);
      expect((await s.readEntries('a')).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(await s.readCommands('a')).toHaveLength(1);
      expect((await s.getEncounter('a'))!.seq).toBe(3);
    });

    it('keeps entry times and event payloads exactly', async () => {
      const e: LogEntry = {
        seq: 1,
        group: 0,
        time: '2026-01-01T10:00:00.000Z',
        event: { type: 'dice/rolled', roll: { faces: [1, 6], total: 7 } },
      };
      await s.createEncounter(record('a'), [e], [], []);
      expect(await s.readEntries('a')).toEqual([e]);
    });

    it('saves and returns the latest snapshot', async () => {
      await s.createEncounter(record('a'), [entry(1, 0)], [], []);
      expect(await s.latestSnapshot('a')).toBeUndefined();
      const state = { seq: 1, name: 'x' } as unknown as EncounterState;
      await s.saveSnapshot('a', 1, state);
      await s.saveSnapshot('a', 5, { ...state, seq: 5 } as EncounterState);
      expect(await s.latestSnapshot('a')).toEqual({ seq: 5, state: { seq: 5, name: 'x' } });
    });

    it('renames, archives, lists by id (newest first) and deletes with everything that belongs to it', async () => {
      await s.createEncounter(record('a'), [entry(1, 0)], [], [link('ha', 'a')]);
      await s.createEncounter(record('b'), [entry(1, 0)], [], [link('hb', 'b')]);
      await s.updateEncounter('a', { name: 'Renamed', status: 'archived' }, '2026-02-01T00:00:00.000Z');
      const a = await s.getEncounter('a');
      expect(a).toMatchObject({ name: 'Renamed', status: 'archived', updatedAt: '2026-02-01T00:00:00.000Z' });
      expect((await s.listEncounters(['b', 'a', 'missing'])).map((r) => r.id)).toEqual(['a', 'b']);
      await s.deleteEncounter('a');
      expect(await s.getEncounter('a')).toBeUndefined();
      expect(await s.readEntries('a')).toEqual([]);
      expect(await s.findLink('ha')).toBeUndefined();
      expect(await s.findLink('hb')).toBeDefined();
    });

    it('adds links idempotently, lists them per encounter, and updates what a link allows', async () => {
      await s.createEncounter(record('a'), [entry(1, 0)], [], [link('h1', 'a')]);
      await s.addLinks([link('h2', 'a', 'player'), link('h2', 'a', 'player')]);
      expect((await s.listLinks('a')).map((l) => l.hash).sort()).toEqual(['h1', 'h2']);
      await s.updateLink('h2', { allowed: ['act', 'delay'] });
      expect((await s.findLink('h2'))!.allowed).toEqual(['act', 'delay']);
    });

    it("keeps a link's generation and revokes a link for good", async () => {
      await s.createEncounter(record('a'), [entry(1, 0)], [], [link('h1', 'a')]);
      await s.addLinks([{ ...link('h3', 'a', 'table'), generation: 2 }]);
      expect(await s.findLink('h3')).toEqual({ ...link('h3', 'a', 'table'), generation: 2 });
      expect((await s.findLink('h1'))!.revoked).toBeUndefined();
      await s.updateLink('h3', { revoked: true });
      expect(await s.findLink('h3')).toEqual({ ...link('h3', 'a', 'table'), generation: 2, revoked: true });
      expect((await s.listLinks('a')).find((l) => l.hash === 'h3')!.revoked).toBe(true);
      // Adding it again (as listing links does) leaves it revoked.
      await s.addLinks([{ ...link('h3', 'a', 'table'), generation: 2 }]);
      expect((await s.findLink('h3'))!.revoked).toBe(true);
    });

    it('keeps each library’s creatures per ruleset, replaces by name, counts and deletes them', async () => {
      const c = (owner: string, ruleset: string, name: string, hp = 7) => ({
        owner,
        ruleset,
        name,
        creature: { name, side: 'npc', hp, stats: {} },
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
      await s.putCreatures([
        c('o1', 'classic', 'Orc'),
        c('o1', 'classic', 'Goblin'),
        c('o1', 'opend6', 'Orc'),
      ]);
      await s.putCreatures([c('o2', 'classic', 'Orc'), c('o1', 'classic', 'Orc', 15)]);
      expect(
        (await s.listCreatures('o1', 'classic')).map((r) => [r.name, (r.creature as { hp: number }).hp]),
      ).toEqual([
        ['Goblin', 7],
        ['Orc', 15],
      ]);
      expect((await s.listCreatures('o1', 'opend6')).map((r) => r.name)).toEqual(['Orc']);
      expect(await s.countCreatures('o1')).toBe(3);
      await s.deleteCreature('o1', 'classic', 'Orc');
      expect((await s.listCreatures('o1', 'classic')).map((r) => r.name)).toEqual(['Goblin']);
      expect((await s.listCreatures('o2', 'classic')).map((r) => r.name)).toEqual(['Orc']);
      expect(await s.listCreatures('nobody', 'classic')).toEqual([]);
    });
  });
}
