import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { type Created, Hub, type Subscriber } from './hub.js';
import { hashToken } from './links.js';
import { MemoryStorage } from './storage/memory.js';

const party = [
  { id: 'ana', name: 'Ana', side: 'pc' as const, stats: { initiative: 3 } },
  { id: 'orc', name: 'Orc', stats: { initiative: 1 }, hp: 15 },
];

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hub: memory follows the live encounters, not the stored ones', () => {
  it('unloads the least recently used encounters nobody watches beyond keepUnwatched, keeps watched ones, and reloads an unloaded one intact', async () => {
    const storage = new MemoryStorage();
    const hub = new Hub(storage, rulesets, { keepUnwatched: 2 });
    const made: Created[] = [];
    for (let i = 0; i < 6; i++) {
      made.push(await hub.create({ name: `E${i}`, ruleset: 'classic', seed: i, combatants: party }));
    }
    const gmOf = async (i: number) => hub.link(made[i]!.tokens.gm, made[i]!.record.id);
    // Encounter 0 is watched; all six get a command, which loads them.
    const sent: string[] = [];
    const sub: Subscriber = { viewer: { role: 'gm' }, send: (t) => sent.push(t), close: () => {} };
    await hub.subscribe(made[0]!.record.id, await gmOf(0), sub);
    for (let i = 0; i < 6; i++) await hub.command(made[i]!.record.id, await gmOf(i), { type: 'start' });
    expect(hub.loaded).toBe(6);
    // Just used: a quarter second's grace, so nothing is unloaded between opening and queueing.
    expect(hub.sweep()).toBe(0);
    await wait(300);
    expect(hub.sweep()).toBe(3); // 5 unwatched, 2 kept
    expect(hub.loaded).toBe(3);
    // The watched one still broadcasts; an unloaded one loads again from storage with its log intact.
    await hub.command(made[0]!.record.id, await gmOf(0), { type: 'next' });
    expect(sent.at(-1)).toContain('"type":"change"');
    const again = await hub.snapshotFor(made[1]!.record.id, await gmOf(1));
    expect(again.seq).toBe((await storage.getEncounter(made[1]!.record.id))!.seq);
    expect(again.state.status).toBe('running');
    expect(await storage.findLink(hashToken(made[1]!.tokens.gm))).toBeDefined();
  });
});
