import type { z } from 'zod';

/** A zod issue, as `safeParse` reports it. */
type Issue = z.core.$ZodIssue;

/** 1000000 → "1,000,000". */
const num = (n: number | bigint) => n.toLocaleString('en-US');

/** "a", "a or b", "a, b or c". */
function either(values: readonly string[]): string {
  if (values.length <= 1) return values[0] ?? 'nothing';
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

const quoted = (v: unknown) => (typeof v === 'string' ? `"${v}"` : String(v));

/** What a type is called in words: "a whole number", "text", "yes or no"… */
const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'yes or no (true or false)',
  array: 'a list',
  object: 'a set of fields',
  record: 'a set of fields',
  date: 'a date',
  null: 'empty',
};

/** The messages zod writes itself (a message a schema gives, like "use letters, digits…", is kept as is). */
const ZOD_WORDING = /^(Too big|Too small|Invalid|Unrecognized key|Expected)/;

/** Above this, a bound is the machine's, not the rules': "too big" says it better than the number. */
const MACHINE_LIMIT = 2 ** 52;

/**
 * One validation issue in words a GM reads: "must be at most 1,000,000", "must be a whole number", "must
 * be one of "full", "simple" or "very-simply"", "cannot be empty" — never "expected int to be
 * <=9007199254740991".
 */
export function issueInWords(issue: Issue): string {
  if (!ZOD_WORDING.test(issue.message)) return issue.message;
  return wordsFor(issue);
}

/**
 * An issue said after where it is: "Hit points must be at most 1,000,000"; a schema's own message after a
 * colon ("Id: use letters, digits…").
 */
export function issueAt(where: string, issue: Issue): string {
  return ZOD_WORDING.test(issue.message) ? `${where} ${wordsFor(issue)}` : `${where}: ${issue.message}`;
}

function wordsFor(issue: Issue): string {
  switch (issue.code) {
    case 'too_big': {
      const max = Number(issue.maximum);
      const strict = issue.inclusive === false;
      if (issue.origin === 'string') return `must be at most ${num(max)} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `takes at most ${num(max)}`;
      if (max >= MACHINE_LIMIT) return 'is too big';
      return strict ? `must be less than ${num(max)}` : `must be at most ${num(max)}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      const strict = issue.inclusive === false;
      if (issue.origin === 'string')
        return min <= 1 ? 'cannot be empty' : `must be at least ${num(min)} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `needs at least ${num(min)}`;
      if (min <= -MACHINE_LIMIT) return 'is too small';
      return strict ? `must be more than ${num(min)}` : `must be at least ${num(min)}`;
    }
    case 'invalid_type': {
      const input = (issue as { input?: unknown }).input;
      const missing = input === undefined && /received undefined$/.test(issue.message);
      if (missing) return 'is required';
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${quoted(issue.values[0])}`
        : `must be one of ${either(issue.values.map(quoted))}`;
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the form it takes' : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${num(Number(issue.divisor))}`;
    case 'unrecognized_keys':
      return `has no ${issue.keys.length === 1 ? 'field' : 'fields'} ${either(issue.keys.map(quoted))}`;
    case 'invalid_union': {
      // The alternative that came closest (fewest issues) says what is wrong.
      const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0]?.[0];
      return closest ? issueInWords(closest) : 'is not in a form it takes';
    }
    case 'invalid_key':
    case 'invalid_element':
      return issue.issues[0] ? issueInWords(issue.issues[0]) : 'is not valid';
    default:
      return issue.message;
  }
}
