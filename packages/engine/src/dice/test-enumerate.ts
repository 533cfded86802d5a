import type { Distribution } from './distribution.js';
import type { Rng } from './rng.js';

/**
 * Brute force for tests: runs `roll` once along every possible sequence of die faces and weighs each
 * total by the chance of its sequence. It checks the exact distributions against the roller itself,
 * so both must agree on every rule (explosion caps, keeps, the Wild Die). Only for small expressions.
 */
export function enumerateRolls(roll: (rng: Rng) => number): Distribution {
  const path: Array<{ face: number; max: number }> = [];
  const totals = new Map<number, number>();
  for (;;) {
    let depth = 0;
    let chance = 1;
    const rng: Rng = {
      int(min, max) {
        if (depth === path.length) path.push({ face: min, max });
        const step = path[depth++]!;
        chance /= max - min + 1;
        return step.face;
      },
    };
    const total = roll(rng);
    path.length = depth;
    totals.set(total, (totals.get(total) ?? 0) + chance);
    // Next sequence: like counting, the last die that can still go up does, and the dice after it restart.
    while (path.length > 0 && path[path.length - 1]!.face === path[path.length - 1]!.max) path.pop();
    if (path.length === 0) break;
    path[path.length - 1]!.face++;
  }
  const outcomes = [...totals].sort((a, b) => a[0] - b[0]);
  return { outcomes };
}
