import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/**
 * Randomness is state: the encounter carries its dice state, so the same seed and the same commands
 * always give the same events. `scripted` replays given faces (tests, worked examples, bug reports);
 * when the script runs out it either fails (strict) or continues from a seed.
 */
export type DiceState =
  | { mode: 'seeded'; seed: number; state: number[] }
  | { mode: 'scripted'; faces: number[]; used: number; then: 'error' | { seed: number }; state?: number[] };

/** Where die faces come from. `int(min, max)` returns an integer in [min, max], both included. */
export interface Rng {
  int(min: number, max: number): number;
}

/** Thrown when a scripted die does not fit the die being rolled, or the script ran out. */
export class DiceScriptError extends Error {
  constructor(
    message: string,
    readonly code: 'dice/script-exhausted' | 'dice/script-mismatch',
  ) {
    super(message);
    this.name = 'DiceScriptError';
  }
}

export function seededDice(seed: number): DiceState {
  const seed32 = seed | 0;
  return { mode: 'seeded', seed: seed32, state: [...xoroshiro128plus(seed32).getState()] };
}

/**
 * The faces `new StateRng(seededDice(seed))` gives, for loops that roll millions of times and never
 * need the dice state back (a simulation's trials): none of StateRng's bookkeeping per face.
 */
export function seededRng(seed: number): Rng {
  const gen = xoroshiro128plus(seed | 0);
  return { int: (min, max) => uniformInt(gen, min, max) };
}

export function scriptedDice(
  faces: readonly number[],
  then: 'error' | { seed: number } = 'error',
): DiceState {
  return { mode: 'scripted', faces: [...faces], used: 0, then };
}

function scriptExhausted(faces: number): DiceScriptError {
  return new DiceScriptError(
    `The scripted dice ran out after ${faces} faces; add more faces to the script or let it continue from a seed.`,
    'dice/script-exhausted',
  );
}

/**
 * A mutable cursor over an immutable DiceState. Create one per decision, roll with it, then read
 * `snapshot()` for the dice state the events record. The DiceState passed in is never modified.
 */
export class StateRng implements Rng {
  private gen: RandomGenerator | undefined;
  /** The generator, once every face comes from it. */
  private free: RandomGenerator | undefined;
  private used: number;
  private rolled = 0;

  constructor(private readonly initial: DiceState) {
    this.used = initial.mode === 'scripted' ? initial.used : 0;
  }

  /** How many faces this cursor produced. */
  get count(): number {
    return this.rolled;
  }

  int(min: number, max: number): number {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
      throw new RangeError(`A die needs whole bounds with min ≤ max; got ${min}..${max}.`);
    }
    this.rolled++;
    // The hot path: once the faces come from the generator (seeded, or a script used up that goes on
    // from a seed), nothing else is checked again.
    if (this.free !== undefined) return uniformInt(this.free, min, max);
    const s = this.initial;
    if (s.mode === 'scripted' && this.used < s.faces.length) {
      const face = s.faces[this.used];
      if (face === undefined || !Number.isInteger(face) || face < min || face > max) {
        throw new DiceScriptError(
          `Scripted die #${this.used + 1} is ${face}, but the die being rolled gives ${min}–${max}. Fix the script's face at position ${this.used + 1}.`,
          'dice/script-mismatch',
        );
      }
      this.used++;
      return face;
    }
    if (s.mode === 'scripted' && s.then === 'error') throw scriptExhausted(s.faces.length);
    this.free = this.generator();
    return uniformInt(this.free, min, max);
  }

  private generator(): RandomGenerator {
    if (this.gen) return this.gen;
    const s = this.initial;
    if (s.mode === 'seeded') this.gen = xoroshiro128plusFromState(s.state);
    else if (s.state) this.gen = xoroshiro128plusFromState(s.state);
    else if (s.then === 'error') throw scriptExhausted(s.faces.length);
    else this.gen = xoroshiro128plus(s.then.seed | 0);
    return this.gen;
  }

  /** The dice state after everything rolled so far. */
  snapshot(): DiceState {
    const s = this.initial;
    if (s.mode === 'seeded') {
      return this.gen ? { ...s, state: [...this.gen.getState()] } : s;
    }
    const next: DiceState = { ...s, faces: s.faces, used: this.used };
    if (this.gen) next.state = [...this.gen.getState()];
    return next;
  }
}
