/**
 * Validation issues (zod's, read structurally) said in words a GM reads: "HP can be at most 1,000,000.",
 * "HP cannot be negative.", "Round mode: choose Full Round, Simple Round or Very Simply." — never zod's own
 * "Too big: expected int to be <=9007199254740991". One formatter for every place a refusal is made from a
 * schema: the engine's refusals, the server's, the web's forms.
 */

/** A validation issue as zod reports it, read by its fields (no dependency on zod's classes). */
export interface SchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  divisor?: number | bigint;
  values?: readonly unknown[];
  expected?: string;
  format?: string;
  input?: unknown;
  keys?: readonly string[];
  issues?: readonly unknown[];
  errors?: readonly (readonly unknown[])[];
}

const isIssue = (x: unknown): x is SchemaIssue =>
  typeof x === 'object' && x !== null && 'code' in x && 'message' in x;

/** A number as a person writes it: 1,000,000 (digits grouped), never 1e6. */
export function numberWords(n: number | bigint): string {
  const x = typeof n === 'bigint' ? n : Number(n);
  return x.toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** "a, b or c". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

// zod's own wording ("Too small: expected string to have >=1 characters", "Invalid input"): never shown.
const ZOD_WORDING = /^(Invalid|Too (small|big)|Expected|Unrecognized|Required)\b/;

/** Past this, zod's `int()` refuses a number as outside the safe integers: a bound no rule declared. */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * What one issue means for the field labelled `label`, in a sentence. `choiceLabel` says an allowed value
 * in words ("Simple Round" for `simple`), when the caller knows the field's labelled choices.
 */
export function issueWords(
  issue: SchemaIssue,
  label: string,
  choiceLabel: (value: unknown) => string = (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
): string {
  const n = (x: number | bigint | undefined) => numberWords(x ?? 0);
  const exclusive = issue.inclusive === false;
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum ?? 0);
      if (issue.origin === 'string')
        return min <= 1 ? `Fill in ${label}.` : `${label} needs at least ${n(issue.minimum)} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `${label} needs at least ${n(issue.minimum)} ${min === 1 ? 'entry' : 'entries'}.`;
      if (min <= -SAFE) return `${label} is too small a number.`;
      if (min === 0 && !exclusive) return `${label} cannot be negative.`;
      if (min === 0) return `${label} must be more than 0.`;
      return exclusive
        ? `${label} must be more than ${n(issue.minimum)}.`
        : `${label} must be at least ${n(issue.minimum)}.`;
    }
    case 'too_big': {
      if (issue.origin === 'string') return `${label} takes at most ${n(issue.maximum)} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `${label} takes at most ${n(issue.maximum)} ${Number(issue.maximum) === 1 ? 'entry' : 'entries'}.`;
      if (Number(issue.maximum) >= SAFE) return `${label} is too large a number.`;
      return exclusive
        ? `${label} must be less than ${n(issue.maximum)}.`
        : `${label} can be at most ${n(issue.maximum)}.`;
    }
    case 'invalid_value': {
      const values = issue.values ?? [];
      if (values.length === 1) return `${label} must be ${choiceLabel(values[0])}.`;
      return `${label}: choose ${orList(values.map(choiceLabel))}.`;
    }
    case 'invalid_type':
      // zod leaves the input out of an issue unless asked; its message still says what it received.
      if ('input' in issue ? issue.input === undefined : / received undefined$/.test(issue.message))
        return `Fill in ${label}.`;
      if (issue.expected === 'int' || issue.format === 'safeint') return `${label} must be a whole number.`;
      if (issue.expected === 'number') return `${label} must be a number.`;
      if (issue.expected === 'boolean') return `${label} must be yes or no.`;
      if (issue.expected === 'string') return `${label} must be text.`;
      if (issue.expected === 'array') return `${label} must be a list.`;
      return `${label} is not written as the rules expect.`;
    case 'not_multiple_of':
      return `${label} must be a multiple of ${n(issue.divisor)}.`;
    case 'invalid_union': {
      // Each alternative's first refusal: the one that is not "expected an object" says what was meant
      // (HP is a number, or an object of current and max).
      const firsts = (issue.errors ?? []).map((branch) => branch.find(isIssue)).filter(isIssue);
      const said = firsts.find((i) => !(i.code === 'invalid_type' && i.expected === 'object')) ?? firsts[0];
      return said ? issueWords(said, label, choiceLabel) : `${label} is not written as the rules expect.`;
    }
    case 'invalid_key':
    case 'invalid_element': {
      const inner = (issue.issues ?? []).find(isIssue);
      if (inner) return issueWords(inner, label, choiceLabel);
      return `${label} is not a name the rules accept.`;
    }
    case 'unrecognized_keys':
      return `${label} has no ${orList((issue.keys ?? []).map((k) => `“${k}”`))}.`;
    default:
      return ZOD_WORDING.test(issue.message)
        ? `${label} is not written as the rules expect.`
        : `${label}: ${issue.message.replace(/\.$/, '')}.`;
  }
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) =>
  a.length === b.length && a.every((x, i) => String(x) === String(b[i]));

/**
 * The issues worth saying: zod's "outside the safe integers" is dropped where the field's own bound is
 * also reported (1e20 HP is said as "HP can be at most 1,000,000", once; -1e20 as "cannot be negative").
 */
export function sayableIssues<I extends SchemaIssue>(issues: readonly I[]): I[] {
  return issues.filter(
    (i) =>
      !(
        ((i.code === 'too_big' && Number(i.maximum) >= SAFE) ||
          (i.code === 'too_small' && Number(i.minimum) <= -SAFE)) &&
        issues.some((o) => o !== i && o.code === i.code && samePath(o.path, i.path))
      ),
  );
}
