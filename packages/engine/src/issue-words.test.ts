import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkCommand, coreCommandSchemas, explainZodError } from './commands.js';
import { issueWords, type SchemaIssue, sayableIssues } from './issue-words.js';
import { explainCommandError, issuesInWords } from './params.js';

const addRefusal = (combatant: unknown) => {
  const c = checkCommand(coreCommandSchemas, 'add-combatant', { combatant });
  if (!('error' in c)) throw new Error('accepted');
  return explainCommandError(c.error, 'add-combatant', c.schema);
};

describe('validation issues in words', () => {
  it('says a too-big HP with its limit, once, never the safe-integer bound', () => {
    expect(addRefusal({ name: 'Orc', hp: 1e20 })).toBe(
      'Add combatant was not taken: Combatant › HP can be at most 1,000,000.',
    );
    expect(addRefusal({ name: 'Orc', hp: 2_000_000 })).toBe(
      'Add combatant was not taken: Combatant › HP can be at most 1,000,000.',
    );
  });

  it('refuses a negative HP, a fraction and a missing name with a sentence', () => {
    expect(addRefusal({ name: 'Orc', hp: -3 })).toContain('HP cannot be negative.');
    expect(addRefusal({ name: 'Orc', hp: -1e20 })).toBe(
      'Add combatant was not taken: Combatant › HP cannot be negative.',
    );
    expect(addRefusal({ name: 'Orc', hp: 1.5 })).toContain('HP must be a whole number.');
    expect(addRefusal({ name: '' })).toContain('Fill in Combatant › Name.');
    expect(addRefusal({ name: 'x'.repeat(81) })).toContain('Name takes at most 80 characters.');
  });

  it('names fixed choices by their labels', () => {
    expect(addRefusal({ name: 'Orc', side: 'ally' })).toContain('Side: choose PC or NPC.');
    const s = z.object({
      mode: z
        .enum(['full', 'simple'])
        .meta({ label: 'Round mode', choices: { full: 'Full Round', simple: 'Simple Round' } }),
    });
    expect(issuesInWords(s.safeParse({ mode: 'Simple Round' }).error!, s)).toBe(
      'Round mode: choose Full Round or Simple Round.',
    );
  });

  it('keeps a rule’s own sentence and says it after the field', () => {
    const s = z.object({ skill: z.string().regex(/^[a-z]+$/, 'use lower-case letters') });
    expect(explainZodError(s.safeParse({ skill: 'A' }).error!, 'sheet')).toBe(
      'The sheet is not valid — "skill": use lower-case letters.',
    );
  });

  it('never shows zod’s own wording or a raw bound, for any number a schema refuses', () => {
    const s = z.object({
      n: z.number().int().min(-5).max(9999),
      t: z.string().min(2).max(10),
      l: z.array(z.number()).max(3),
      e: z.enum(['a', 'b']),
    });
    fc.assert(
      fc.property(
        fc.record({
          n: fc.oneof(fc.double({ noNaN: true }), fc.integer()),
          t: fc.string({ maxLength: 20 }),
          l: fc.array(fc.integer(), { maxLength: 6 }),
          e: fc.string({ maxLength: 3 }),
        }),
        (input) => {
          const r = s.safeParse(input);
          if (r.success) return;
          for (const i of sayableIssues(r.error.issues as SchemaIssue[])) {
            const words = issueWords(i, 'Field');
            expect(words).not.toMatch(/Too (big|small)|Invalid|expected|<=|>=|9007199254740991/);
            expect(words).toMatch(/^(Field|Fill in Field)\b.*\.$/);
          }
        },
      ),
    );
  });
});

describe('a sheet or options refused by their schema', () => {
  it('names the field and the choices by their labels', () => {
    const options = z.object({
      roundMode: z
        .enum(['full', 'simple'])
        .default('full')
        .meta({ label: 'Round mode', choices: { full: 'Full Round', simple: 'Simple Round' } }),
      wind: z.number().int().min(0).max(5).default(0),
    });
    const bad = options.safeParse({ roundMode: 'Simple Round', wind: 9 });
    expect(explainZodError(bad.error!, 'options for Test', options)).toBe(
      'The options for Test is not valid — Round mode: choose Full Round or Simple Round; Wind can be at most 5.',
    );
  });
});
