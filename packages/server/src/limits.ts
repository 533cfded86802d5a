import { type Rejection, reject } from '@roundkeeper/engine';

/**
 * What one request or message may hold, checked the same way for HTTP bodies and WebSocket messages
 * before anything else reads them. Every number here is listed in docs/api.md.
 */
export const INPUT_LIMITS = {
  /** Objects and lists inside one another: validating deeper input recursively would overflow the stack. */
  maxDepth: 32,
} as const;

/**
 * Refuses input nested deeper than `INPUT_LIMITS.maxDepth` or holding a `__proto__` key (assigning it
 * would replace an object's prototype). Walks the value without recursion, so no input can overflow the
 * stack here, and visits each value once.
 */
export function checkInput(value: unknown, what: string): Rejection | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > INPUT_LIMITS.maxDepth) {
      return reject(
        'request/too-deep',
        `The ${what} nests objects and lists more than ${INPUT_LIMITS.maxDepth} levels deep; at most ${INPUT_LIMITS.maxDepth} levels are allowed.`,
      );
    }
    if (Array.isArray(v)) {
      for (const x of v) stack.push([x, depth + 1]);
      continue;
    }
    if (Object.hasOwn(v, '__proto__')) {
      return reject(
        'request/forbidden-key',
        `The ${what} has a key named "__proto__", which is not allowed anywhere; rename it.`,
      );
    }
    for (const x of Object.values(v)) stack.push([x, depth + 1]);
  }
  return undefined;
}
