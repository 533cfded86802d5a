import type { Combatant } from '@roundkeeper/engine';
import { type DieCode, formatCode, parseCode, reduceCode, usable } from './codes.js';
import type { EffectiveCode } from './shapes.js';
import type { Opend6Types } from './types.js';

export type { EffectiveCode } from './shapes.js';

type C = Combatant<Opend6Types>;

/** What a roll is of: only skill and attribute rolls take the multi-action penalty. */
export type RollKind = 'skill' | 'attribute' | 'damage' | 'damage-resistance';

const key = (name: string) => name.trim().toLowerCase();

type Trait = { name: string; code: string; kind: 'skill' | 'attribute' };

/** Traits found before, by sheet (a sheet is never changed: a new one is a new object) and name; null: none. */
const TRAITS = new WeakMap<C['stats'], Map<string, Readonly<Trait> | null>>();

/**
 * A trait on the sheet: a skill first, then Perception, Reflexes and the other attributes. Read once per
 * sheet and name (every roll and legality check asks), not by walking the sheet each time. Read only.
 */
export function traitOf(c: C, name: string): Readonly<Trait> | undefined {
  let byName = TRAITS.get(c.stats);
  if (byName === undefined) {
    byName = new Map();
    TRAITS.set(c.stats, byName);
  }
  let trait = byName.get(name);
  if (trait === undefined) {
    const found = findTrait(c, name);
    trait = found ? Object.freeze(found) : null;
    if (byName.size >= 1000) byName.clear();
    byName.set(name, trait);
  }
  return trait ?? undefined;
}

function findTrait(c: C, name: string): Trait | undefined {
  const k = key(name);
  for (const [skill, code] of Object.entries(c.stats.skills))
    if (key(skill) === k) return { name: skill, code, kind: 'skill' };
  if (k === 'perception') return { name: 'Perception', code: c.stats.perception, kind: 'attribute' };
  if (k === 'reflexes') return { name: 'Reflexes', code: c.stats.reflexes, kind: 'attribute' };
  for (const [attr, code] of Object.entries(c.stats.attributes))
    if (key(attr) === k) return { name: attr, code, kind: 'attribute' };
  return undefined;
}

/**
 * 002 "Multi-action Penalty": −1D per action beyond the first, or beyond the character's allotment
 * ("an action allotment of eight per round wants to do nine actions, each of the nine actions is at −1D").
 */
export function penaltyFor(declared: number | null, allotment: number): number {
  if (declared === null) return 0;
  return Math.max(0, declared - allotment);
}

export function penaltyOf(c: C): number {
  return penaltyFor(c.cs.declared, c.stats.actionAllotment);
}

/** 002: "(but not damage, damage resistance, or initiative rolls)". */
export function penalized(kind: RollKind): boolean {
  return kind === 'skill' || kind === 'attribute';
}

/** Effective codes worked out before, by code and penalty: a fight rolls the same few codes over and over. */
const EFFECTIVE = new Map<string, Array<Readonly<EffectiveCode> | undefined>>();

/** A code at a penalty: as written, as rolled, and whether it may be rolled at all. Read only. */
export function effective(code: string, penalty: number): Readonly<EffectiveCode> {
  let byPenalty = EFFECTIVE.get(code);
  if (byPenalty === undefined) {
    if (EFFECTIVE.size >= 1000) EFFECTIVE.clear();
    byPenalty = [];
    EFFECTIVE.set(code, byPenalty);
  }
  const small = Number.isInteger(penalty) && penalty >= 0 && penalty < 64;
  let e = small ? byPenalty[penalty] : undefined;
  if (e === undefined) {
    e = Object.freeze(effectiveOf(code, penalty));
    if (small) byPenalty[penalty] = e;
  }
  return e;
}

function effectiveOf(code: string, penalty: number): EffectiveCode {
  const reduced: DieCode = reduceCode(code, penalty);
  // A code reduced below one die is "reduced to zero": shown as 0D, never as a negative code ("-1D+2").
  const shown = reduced.dice < 1 ? { dice: 0, pips: 0 } : reduced;
  return { code: formatCode(parseCode(code)), effective: formatCode(shown), usable: usable(reduced) };
}

/** Each sheet's codes at each penalty, worked out before (a sheet is never changed: a new one is a new object). */
const SHEET_CODES = new WeakMap<C['stats'], Array<Readonly<Record<string, EffectiveCode>> | undefined>>();

/**
 * Every skill and attribute on the sheet at a given penalty: "dodge 4D+1 → 3D+1". Worked out once per
 * sheet and penalty (a declaration carries it, every round). Read only.
 */
export function effectiveCodes(c: C, penalty: number): Readonly<Record<string, EffectiveCode>> {
  const small = Number.isInteger(penalty) && penalty >= 0 && penalty < 64;
  if (!small) return sheetCodes(c, penalty);
  let byPenalty = SHEET_CODES.get(c.stats);
  if (byPenalty === undefined) {
    byPenalty = [];
    SHEET_CODES.set(c.stats, byPenalty);
  }
  let codes = byPenalty[penalty];
  if (codes === undefined) {
    codes = Object.freeze(sheetCodes(c, penalty));
    byPenalty[penalty] = codes;
  }
  return codes;
}

function sheetCodes(c: C, penalty: number): Record<string, EffectiveCode> {
  const out: Record<string, EffectiveCode> = {
    Perception: effective(c.stats.perception, penalty),
    Reflexes: effective(c.stats.reflexes, penalty),
  };
  for (const [name, code] of Object.entries(c.stats.attributes)) out[name] = effective(code, penalty);
  for (const [name, code] of Object.entries(c.stats.skills)) out[name] = effective(code, penalty);
  return out;
}

export function showEffective(codes: Record<string, EffectiveCode>): string {
  return Object.entries(codes)
    .map(
      ([name, e]) =>
        `${name} ${e.code}${e.code === e.effective ? '' : ` → ${e.effective}`}${e.usable ? '' : ' (unusable)'}`,
    )
    .join(', ');
}
