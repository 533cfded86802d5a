import type { DiceExpr } from './ast.js';
import { DiceRefError } from './errors.js';

/** Numbers for the `@name` references of an expression, e.g. `{ dex: 3 }` for `1d20+@dex`. */
export type DiceRefs = Readonly<Record<string, number>>;

const NO_REFS: DiceRefs = Object.freeze({});

export function noRefs(): DiceRefs {
  return NO_REFS;
}

/** The number given for `@name`; own properties only, so `@constructor` is not Object's. */
export function resolveRef(refs: DiceRefs, name: string): number {
  if (!Object.hasOwn(refs, name)) throw unknownRef(refs, name);
  const value = refs[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new DiceRefError(
      `The stat '@${name}' is ${String(value)}, but dice need a whole number for it.`,
      name,
      'dice/bad-ref',
    );
  }
  return value;
}

function unknownRef(refs: DiceRefs, name: string): DiceRefError {
  const known = Object.keys(refs);
  let message = `Unknown stat '@${name}': no number was given for it`;
  message +=
    known.length > 0 ? ` (known: ${known.map((k) => `@${k}`).join(', ')}).` : ' (no stats were given).';
  const dash = name.indexOf('-');
  if (dash > 0) {
    message += ` To subtract, write it with spaces: '@${name.slice(0, dash)} - ${name.slice(dash + 1)}'.`;
  }
  return new DiceRefError(message, name, 'dice/unknown-ref');
}

/** Checks every reference up front, so a roll fails before any die is rolled. */
export function checkRefs(expr: DiceExpr, refs: DiceRefs): void {
  switch (expr.type) {
    case 'ref':
      resolveRef(refs, expr.name);
      return;
    case 'negate':
      checkRefs(expr.operand, refs);
      return;
    case 'binary':
      checkRefs(expr.left, refs);
      checkRefs(expr.right, refs);
      return;
    default:
      return;
  }
}

/** The names an expression refers to, in order of first appearance. */
export function diceRefNames(expr: DiceExpr): string[] {
  const names: string[] = [];
  const visit = (e: DiceExpr): void => {
    if (e.type === 'ref') {
      if (!names.includes(e.name)) names.push(e.name);
    } else if (e.type === 'negate') visit(e.operand);
    else if (e.type === 'binary') {
      visit(e.left);
      visit(e.right);
    }
  };
  visit(expr);
  return names;
}
