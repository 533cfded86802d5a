import { describe, expect, it } from 'vitest';
import { countCasts, countTree } from './count-casts.mjs';

type Counts = { as: number; nonNull: number; viaUnknown: number };

/** Casts in the engine and the rulesets when the typed SDK began: 169 + 584 (see docs/design.md). */
const BEFORE = 753;

function total(dir: string): Counts {
  const files = countTree(dir) as Record<string, Counts>;
  const sum = { as: 0, nonNull: 0, viaUnknown: 0 };
  for (const c of Object.values(files)) {
    sum.as += c.as;
    sum.nonNull += c.nonNull;
    sum.viaUnknown += c.viaUnknown;
  }
  return sum;
}

describe('casts in the engine and the rulesets', () => {
  it('counts `as` (not `as const`), `!` and the casts through unknown', () => {
    const c = countCasts(
      'const a = b as C; const d = e!; const f = [1] as const; const g = h as unknown as I;',
    );
    expect(c).toEqual({ as: 3, nonNull: 1, viaUnknown: 1 });
  });

  it('commands and events are typed: at least 75 % fewer casts than before, none through unknown', () => {
    const engine = total('packages/engine/src');
    const rulesets = total('packages/rulesets/src');
    const now = engine.as + engine.nonNull + rulesets.as + rulesets.nonNull;
    expect(now, `${now} casts, at most ${Math.floor(BEFORE / 4)}`).toBeLessThanOrEqual(
      Math.floor(BEFORE / 4),
    );
    expect(engine.viaUnknown + rulesets.viaUnknown).toBe(0);
  });
});
