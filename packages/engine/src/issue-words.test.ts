import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { explainZodError } from './commands.js';
import { issueInWords } from './issue-words.js';

const first = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('accepted');
  return issueInWords(r.error.issues[0]!);
};

describe('refusals say limits in words', () => {
  it('words zod issues: bounds, types, choices, lengths', () => {
    expect(first(z.number().int(), 2 ** 60)).toBe('is too big');
    expect(first(z.number().int().max(1_000_000), 2_000_000)).toBe('must be at most 1,000,000');
    expect(first(z.number().int().min(0), -2)).toBe('must be at least 0');
    expect(first(z.number().int(), 1.5)).toBe('must be a whole number');
    expect(first(z.number(), 'x')).toBe('must be a number');
    expect(first(z.object({ a: z.number() }), {})).toBe('is required');
    expect(first(z.enum(['full', 'simple', 'very-simply']), 'Simple Round')).toBe(
      'must be one of "full", "simple" or "very-simply"',
    );
    expect(first(z.string().trim().min(1), '  ')).toBe('cannot be empty');
    expect(first(z.string().max(80), 'x'.repeat(81))).toBe('must be at most 80 characters long');
    expect(first(z.string().regex(/^a$/, 'use only "a"'), 'b')).toBe('use only "a"');
  });

  it('a refusal names the field and the limit, never "expected int to be <=9007199254740991"', () => {
    const sheet = z.object({ hp: z.number().int(), speed: z.number().int().max(30) });
    const r = sheet.safeParse({ hp: 1e300, speed: 31 });
    if (r.success) throw new Error('accepted');
    const said = explainZodError(r.error, 'sheet of Orc');
    expect(said).toBe('The sheet of Orc is not valid — "hp" is too big; "speed" must be at most 30.');
    expect(said).not.toMatch(/expected|<=|9007199254740991/);
  });
});
