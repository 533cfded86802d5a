import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coreCommandSchemas } from './commands.js';
import { coreEventSchemas } from './events.js';
import { lazySchemas, once, perObject } from './lazy.js';

describe('schemas built when first used', () => {
  it('lists every key of a lazy record without building any schema, and builds each once on first read', () => {
    const built: string[] = [];
    const building =
      <T>(name: string, schema: () => T) =>
      () => {
        built.push(name);
        return schema();
      };
    const record = lazySchemas({
      next: building('next', () => z.object({})),
      delay: building('delay', () => z.object({ actor: z.string() })),
    });
    expect(Object.keys(record)).toEqual(['next', 'delay']);
    expect(Object.hasOwn(record, 'delay') && 'next' in record).toBe(true);
    expect(built).toEqual([]);
    const first = record.delay;
    expect(record.delay).toBe(first);
    expect(built).toEqual(['delay']);
    expect(first.safeParse({ actor: 'ana' }).success).toBe(true);
    expect(Object.entries(record).map(([k]) => k)).toEqual(['next', 'delay']);
    expect(built).toEqual(['delay', 'next']);
  });

  it('builds a single schema on the first call and returns the same one after', () => {
    let builds = 0;
    const options = once(() => {
      builds++;
      return z.object({ dice: z.string().default('1d20') });
    });
    expect(builds).toBe(0);
    expect(options().parse({})).toEqual({ dice: '1d20' });
    expect(options()).toBe(options());
    expect(builds).toBe(1);
  });

  it('answers once per object, a kept null included, and apart for another object', () => {
    const reads: string[] = [];
    const nameOf = perObject((o: { name?: string }) => {
      reads.push(o.name ?? '-');
      return o.name ?? null;
    });
    const a = { name: 'a' };
    const none = {};
    expect([nameOf(a), nameOf(a), nameOf(none), nameOf(none), nameOf({ name: 'a' })]).toEqual([
      'a',
      'a',
      null,
      null,
      'a',
    ]);
    expect(reads).toEqual(['a', '-', 'a']);
  });

  it("leaves the engine's own command and event schemas unbuilt until one is read", () => {
    for (const record of [coreCommandSchemas, coreEventSchemas]) {
      for (const key of Object.keys(record)) {
        expect(Object.getOwnPropertyDescriptor(record, key)?.get, key).toBeDefined();
      }
    }
    expect(coreCommandSchemas.damage.safeParse({ combatant: 'ana', amount: 3 }).success).toBe(true);
    expect(Object.getOwnPropertyDescriptor(coreCommandSchemas, 'damage')?.get).toBeUndefined();
  });
});
