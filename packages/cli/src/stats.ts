/**
 * Sums for a ratio estimate with a confidence interval: Σx, Σx², Σxr, Σr, Σr² over trials, where x is a
 * count in one trial (attacks, rounds acting first, rounds where A came before B) and r its denominator
 * in that trial (rounds, or 1 for per-trial questions). Trials are the independent units: rounds of one
 * fight are not. Every entry is a whole number, so sums merge exactly in any order — which is why
 * `--workers K` gives the same figures as one worker.
 */
export type Sums = [sx: number, sxx: number, sxr: number, sr: number, srr: number];

export const emptySums = (): Sums => [0, 0, 0, 0, 0];

export function addTrial(s: Sums, x: number, r: number): void {
  s[0] += x;
  s[1] += x * x;
  s[2] += x * r;
  s[3] += r;
  s[4] += r * r;
}

export function mergeSums(into: Sums, from: Sums): void {
  for (let i = 0; i < 5; i++) into[i]! += from[i]!;
}

export interface Estimate {
  /** The ratio Σx / Σr. */
  mean: number;
  /** The 95% confidence interval (normal approximation, delta method for the ratio). */
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

export function estimate(s: Sums, trials: number): Estimate {
  const [sx, sxx, sxr, sr, srr] = s;
  if (sr === 0 || trials === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const ratio = sx / sr;
  if (trials < 2) return { mean: ratio, low: ratio, high: ratio };
  // Var(R̂) ≈ s² / (n r̄²), s² the sample variance of the residuals x − R̂·r.
  const residual = Math.max(0, sxx - 2 * ratio * sxr + ratio * ratio * srr);
  const s2 = residual / (trials - 1);
  const rbar = sr / trials;
  const se = Math.sqrt(s2 / trials) / rbar;
  return { mean: ratio, low: ratio - Z95 * se, high: ratio + Z95 * se };
}

/**
 * The mean count per trial (per fight) Σx / n, with its 95% interval from the trials' spread: the same
 * sums read without the denominator (a fight's length varies with `until: end`).
 */
export function perTrial(s: Sums, trials: number): Estimate {
  const [sx, sxx] = s;
  if (trials === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const mean = sx / trials;
  if (trials < 2) return { mean, low: mean, high: mean };
  const variance = Math.max(0, (sxx - (sx * sx) / trials) / (trials - 1));
  const se = Math.sqrt(variance / trials);
  return { mean, low: mean - Z95 * se, high: mean + Z95 * se };
}

/** "0.512 ± 0.021" */
export function formatEstimate(e: Estimate, digits = 3): string {
  if (Number.isNaN(e.mean)) return '—';
  const half = (e.high - e.low) / 2;
  return `${e.mean.toFixed(digits)} ± ${half.toFixed(digits)}`;
}
