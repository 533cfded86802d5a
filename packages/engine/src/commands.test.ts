import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkCommand, checkFrozenCommand, jsonKey } from './commands.js';

const schemas = {
  hit: z.object({
    target: z.string().trim().min(1),
    amount: z.number().int().default(1),
    tags: z.array(z.string()).optional(),
  }),
};

describe('checkCommand remembers what a schema accepted', () => {
  it('gives a payload seen before exactly what the schema gives it, a fresh command each time', () => {
    fc.assert(
      fc.property(
        fc.record(
          { target: fc.string(), amount: fc.oneof(fc.integer(), fc.double()), tags: fc.array(fc.string()) },
          { requiredKeys: [] },
        ),
        (payload) => {
          const parsed = schemas.hit.safeParse(payload);
          const a = checkCommand(schemas, 'hit', payload);
          const b = checkCommand(schemas, 'hit', structuredClone(payload));
          if (!parsed.success) {
            expect('error' in a && 'error' in b).toBe(true);
            return;
          }
          expect(a).toEqual({ command: { type: 'hit', ...parsed.data } });
          expect(b).toEqual(a);
          if ('command' in a && 'command' in b) expect(b.command).not.toBe(a.command);
        },
      ),
    );
  });

  it('keeps what it remembers frozen: a command cannot change the next one', () => {
    checkCommand(schemas, 'hit', { target: 'orc', tags: ['x'] });
    const again = checkCommand(schemas, 'hit', { target: 'orc', tags: ['x'] });
    if (!('command' in again)) throw new Error('refused');
    expect(Object.isFrozen(again.command.tags)).toBe(true);
    again.command.target = 'elf';
    expect(checkCommand(schemas, 'hit', { target: 'orc', tags: ['x'] })).toMatchObject({
      command: { target: 'orc' },
    });
  });

  it('remembers only short payloads: a long one is parsed every time', () => {
    const long = { target: 'orc', tags: ['x'.repeat(500)] };
    checkCommand(schemas, 'hit', long);
    const again = checkCommand(schemas, 'hit', structuredClone(long));
    if (!('command' in again)) throw new Error('refused');
    expect(Object.isFrozen(again.command.tags)).toBe(false);
  });

  it('remembers only plain JSON: NaN, -0, undefined fields and class instances are always parsed', () => {
    expect(jsonKey({ a: 1, b: [true, null, 'x'] })).toBe('{"a":1,"b":[true,null,"x"]}');
    for (const v of [
      { a: Number.NaN },
      { a: -0 },
      { a: undefined },
      { a: new Date(0) },
      new Array<number>(2), // holes
      [1, undefined, 2],
      { a: () => 1 },
    ])
      expect(jsonKey(v)).toBeUndefined();
    // NaN reads as null in JSON: a schema that takes null must still refuse NaN after accepting null.
    const nullable = { n: z.object({ x: z.number().nullable() }) };
    expect('command' in checkCommand(nullable, 'n', { x: null })).toBe(true);
    expect('error' in checkCommand(nullable, 'n', { x: Number.NaN })).toBe(true);
  });
});

describe('checkFrozenCommand remembers a deeply frozen command by identity', () => {
  const freeze = <T>(v: T): T => {
    if (typeof v === 'object' && v !== null) {
      for (const x of Object.values(v)) freeze(x);
      Object.freeze(v);
    }
    return v;
  };

  it('gives what checkCommand gives, for any command, frozen or not', () => {
    fc.assert(
      fc.property(
        fc.record(
          { target: fc.string(), amount: fc.oneof(fc.integer(), fc.double()), tags: fc.array(fc.string()) },
          { requiredKeys: [] },
        ),
        fc.boolean(),
        (payload, frozen) => {
          const command = { type: 'hit' as const, ...structuredClone(payload) };
          const want = checkCommand(schemas, 'hit', payload);
          const sent = frozen ? freeze(command) : command;
          for (let i = 0; i < 2; i++) {
            const got = checkFrozenCommand(schemas, sent);
            if ('error' in want) expect('error' in got).toBe(true);
            else expect(got).toEqual(want);
          }
        },
      ),
    );
  });

  it('answers a frozen command from memory, and checks one with a field still writable every time', () => {
    const frozen = freeze({ type: 'hit' as const, target: 'orc', tags: ['x'] });
    const a = checkFrozenCommand(schemas, frozen);
    const b = checkFrozenCommand(schemas, frozen);
    if (!('command' in a) || !('command' in b)) throw new Error('refused');
    expect(b.command).toBe(a.command);
    expect(Object.isFrozen(a.command)).toBe(true);
    // Frozen on the outside only: its tags can still change, so it is never remembered.
    const shallow = Object.freeze({ type: 'hit' as const, target: 'orc', tags: ['x'] });
    const c = checkFrozenCommand(schemas, shallow);
    shallow.tags.push('y');
    const d = checkFrozenCommand(schemas, shallow);
    if (!('command' in c) || !('command' in d)) throw new Error('refused');
    expect(d.command.tags).toEqual(['x', 'y']);
  });

  it('checks again against a record whose entry for the type changed, or against another record', () => {
    const frozen = freeze({ type: 'hit' as const, target: 'orc' });
    // A record that cannot change (a built lazy schema, a frozen record) and one that can.
    const fixed = Object.freeze({ hit: z.object({ target: z.string(), amount: z.number().default(1) }) });
    const loose: Record<'hit', z.ZodType> = { hit: z.object({ target: z.string() }) };
    const a = checkFrozenCommand(fixed, frozen);
    const b = checkFrozenCommand(fixed, frozen);
    if (!('command' in a) || !('command' in b)) throw new Error('refused');
    expect(b.command).toBe(a.command);
    expect(a.command).toEqual({ type: 'hit', target: 'orc', amount: 1 });
    expect(checkFrozenCommand(loose, frozen)).toEqual({ command: { type: 'hit', target: 'orc' } });
    loose.hit = z.object({ target: z.string(), amount: z.number().default(2) });
    expect(checkFrozenCommand(loose, frozen)).toEqual({ command: { type: 'hit', target: 'orc', amount: 2 } });
    loose.hit = z.object({ target: z.number() });
    expect('error' in checkFrozenCommand(loose, frozen)).toBe(true);
    expect(checkFrozenCommand(fixed, frozen)).toEqual({ command: { type: 'hit', target: 'orc', amount: 1 } });
  });
});
