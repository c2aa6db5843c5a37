// Robust location and scale (Iglewicz and Hoaglin, "How to Detect and Handle Outliers", 1993), used by insight
// salience and by the extreme and acceleration detectors:
// - centre = the median; scale = 1.4826 * MAD (median absolute deviation from the median), which estimates the
//   standard deviation of normal data and ignores up to half of the sample being wild;
// - when more than half the values are identical the MAD is 0; the scale is then 1.2533 * the mean absolute
//   deviation from the median (the same estimator's fallback, Iglewicz-Hoaglin via IBM SPSS), and 0 only when every
//   value is the same (then nothing can be judged unusual against it: robustZ is null);
// - robust z = (x - centre) / scale, so |z| > 3.5 is Iglewicz and Hoaglin's outlier rule (their 0.6745 * (x - median)
//   / MAD is the same number).
import { median, medianAbsoluteDeviation } from "simple-statistics";

export const MAD_TO_SIGMA = 1.4826;
export const MEAN_AD_TO_SIGMA = 1.2533;

export type RobustScale = { centre: number; scale: number };

/** Centre and scale of the values; null for an empty sample or one with no spread at all. */
export function robustScale(values: readonly number[]): RobustScale | null {
  if (values.length === 0) return null;
  const x = values as number[];
  const centre = median(x);
  let scale = MAD_TO_SIGMA * medianAbsoluteDeviation(x);
  if (scale === 0) {
    let sum = 0;
    for (const v of values) sum += Math.abs(v - centre);
    scale = (MEAN_AD_TO_SIGMA * sum) / values.length;
  }
  return scale > 0 ? { centre, scale } : null;
}

/** How many robust standard deviations x lies from the sample's median; null when the sample has no spread. */
export function robustZ(x: number, values: readonly number[]): number | null {
  const s = robustScale(values);
  return s ? (x - s.centre) / s.scale : null;
}

/** Trims floating-point noise for output (0.30000000000000004 -> 0.3) while keeping 12 significant digits. */
export function clean(x: number): number {
  return Number(x.toPrecision(12));
}

/**
 * The same centre and scale as robustScale over a window that slides forward through a sequence (values enter at
 * the right, leave at the left), kept sorted so that each step costs one insertion and one removal (a memory move)
 * and the median and MAD are read in O(log n): the MAD is the median of the distances from the median, and those
 * distances form two sorted runs (left of the median, read leftwards, and right of it), whose k-th smallest union
 * element is found by binary search. Exact: equal to robustScale on the window's values.
 */
export class RollingRobust {
  private sorted: Float64Array;
  private size = 0;

  constructor(capacity = 64) {
    this.sorted = new Float64Array(Math.max(1, capacity));
  }

  get length(): number {
    return this.size;
  }

  private lowerBound(x: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(x: number): void {
    if (this.size === this.sorted.length) {
      const bigger = new Float64Array(this.sorted.length * 2);
      bigger.set(this.sorted);
      this.sorted = bigger;
    }
    const at = this.lowerBound(x);
    this.sorted.copyWithin(at + 1, at, this.size);
    this.sorted[at] = x;
    this.size++;
  }

  remove(x: number): void {
    const at = this.lowerBound(x);
    if (at >= this.size || this.sorted[at] !== x) throw new Error("RollingRobust.remove: value not in the window");
    this.sorted.copyWithin(at, at + 1, this.size);
    this.size--;
  }

  private kth(k: number): number {
    return this.sorted[k];
  }

  /** The k-th smallest (0-based) distance from m, m the window's median. */
  private kthDistance(m: number, split: number, k: number): number {
    // Left run: m - sorted[split - 1 - j], j = 0.. ; right run: sorted[split + j] - m, j = 0.. (both ascending).
    const left = (j: number) => m - this.sorted[split - 1 - j];
    const right = (j: number) => this.sorted[split + j] - m;
    const nl = split;
    const nr = this.size - split;
    // Take i from the left run and k + 1 - i from the right so that the (k+1) smallest are exactly those.
    let lo = Math.max(0, k + 1 - nr);
    let hi = Math.min(k + 1, nl);
    while (lo < hi) {
      const i = (lo + hi) >>> 1;
      const j = k + 1 - i;
      // Too few from the left if its next one is smaller than the right's last taken.
      if (i < nl && j > 0 && left(i) < right(j - 1)) lo = i + 1;
      else hi = i;
    }
    const i = lo;
    const j = k + 1 - i;
    const a = i > 0 ? left(i - 1) : -Infinity;
    const b = j > 0 ? right(j - 1) : -Infinity;
    return Math.max(a, b);
  }

  /** Centre and scale of the window (as robustScale), or null when empty or without spread. */
  scale(): RobustScale | null {
    const n = this.size;
    if (n === 0) return null;
    // Even lengths interpolate as simple-statistics' median does (a + 0.5 * (b - a)), to the last bit.
    const mid = (a: number, b: number) => a + 0.5 * (b - a);
    const centre = n % 2 === 1 ? this.kth((n - 1) / 2) : mid(this.kth(n / 2 - 1), this.kth(n / 2));
    const split = this.lowerBound(centre);
    const mad =
      n % 2 === 1
        ? this.kthDistance(centre, split, (n - 1) / 2)
        : mid(this.kthDistance(centre, split, n / 2 - 1), this.kthDistance(centre, split, n / 2));
    let scale = MAD_TO_SIGMA * mad;
    if (scale === 0) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += Math.abs(this.sorted[i] - centre);
      scale = (MEAN_AD_TO_SIGMA * sum) / n;
    }
    return scale > 0 ? { centre, scale } : null;
  }
}
