import type { RollOptions, WildComplicationMode } from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * D6 System die codes as a sheet writes them: `3D`, `3D+1`, `4D-2`. One die of every roll is the Wild
 * Die (the engine's dice module rolls it); here codes are only read, compared and reduced.
 */
export interface DieCode {
  dice: number;
  pips: number;
}

const CODE = /^(\d{1,2})D([+-]\d{1,2})?$/;

/** A die code as the GM types it on a sheet. */
export const dieCodeSchema = () =>
  z.string().trim().regex(CODE, 'write a D6 die code like 3D, 3D+1 or 4D-1 (a capital D, pips after it)');

/** Codes read before: a fight reads the same few sheet codes on every roll. */
const READ = new Map<string, DieCode>();

export function parseCode(code: string): DieCode {
  const read = readCode(code);
  // A copy: callers may change what they are given.
  return { dice: read.dice, pips: read.pips };
}

/** `parseCode`'s remembered answer itself, for the readers here that only read it. */
function readCode(code: string): Readonly<DieCode> {
  let read = READ.get(code);
  if (read === undefined) {
    const m = CODE.exec(code.trim());
    read = m ? { dice: Number(m[1]), pips: m[2] ? Number(m[2]) : 0 } : { dice: 0, pips: 0 };
    if (READ.size >= 1000) READ.clear();
    READ.set(code, read);
  }
  return read;
}

export function formatCode(code: DieCode): string {
  const pips = code.pips === 0 ? '' : code.pips > 0 ? `+${code.pips}` : String(code.pips);
  return `${code.dice}D${pips}`;
}

/** Three pips make a die: used only to compare codes (tie-breaks) and measure "2D over" a code. */
export function pipsOf(code: string): number {
  const c = readCode(code);
  return c.dice * 3 + c.pips;
}

/**
 * 002: "subtract 1D from all skill or attribute rolls" — the code with `penalty` dice fewer; pips stay
 * (dodge `4D+1` at −1D is `3D+1`).
 */
export function reduceCode(code: string, penalty: number): DieCode {
  const c = readCode(code);
  return { dice: c.dice - penalty, pips: c.pips };
}

/** 002: "A character may not rely on any skill or attribute reduced to zero." Zero dice is zero. */
export function usable(code: DieCode): boolean {
  return code.dice >= 1;
}

/** The roll options for each complication rule, made once (the dice only read them). */
const ROLL_OPTIONS = {
  none: Object.freeze({ complication: 'none' }),
  'remove-highest': Object.freeze({ complication: 'remove-highest' }),
  gm: Object.freeze({ complication: 'gm' }),
} as const satisfies Record<WildComplicationMode, RollOptions>;

/** `{ complication }` for a roll, without making one per roll. */
export function rollOptions(complication: WildComplicationMode): RollOptions {
  return ROLL_OPTIONS[complication];
}
