// Robust centre and scale (src/domain/robust.ts) and PELT (src/domain/changepoints.ts), from their definitions.
import { describe, expect, test } from "bun:test";
import { pelt } from "../../src/domain/changepoints";
import { RollingRobust, clean, robustScale, robustZ } from "../../src/domain/robust";

/** A deterministic stream in [0, 1) (Park-Miller). */
function stream(seed: number) {
  let s = seed;
  return () => ((s = (s * 16807) % 2147483647), s / 2147483647);
}

describe("robustScale", () => {
  test("median and 1.4826 * MAD: [1, 1, 2, 2, 4, 6, 9] has median 2 and MAD 1", () => {
    expect(robustScale([1, 1, 2, 2, 4, 6, 9])).toEqual({ centre: 2, scale: 1.4826 });
    expect(robustZ(9, [1, 1, 2, 2, 4, 6, 9])).toBe(7 / 1.4826);
  });
  test("even length: the mean of the two middle values", () => {
    // median (2 + 4) / 2 = 3; deviations 2, 1, 1, 5 -> median (1 + 2) / 2 = 1.5
    expect(robustScale([1, 2, 4, 8])).toEqual({ centre: 3, scale: 1.4826 * 1.5 });
  });
  test("MAD 0 falls back to 1.2533 * the mean absolute deviation; no spread at all is null", () => {
    // median 5, MAD 0; mean |x - 5| = 4 / 5 = 0.8
    expect(robustScale([5, 5, 5, 5, 9])).toEqual({ centre: 5, scale: (1.2533 * 4) / 5 });
    expect(robustScale([3, 3, 3])).toBeNull();
    expect(robustScale([])).toBeNull();
    expect(robustZ(1, [3, 3, 3])).toBeNull();
  });
  test("clean trims floating-point noise only", () => {
    expect(clean(0.1 + 0.2)).toBe(0.3);
    expect(clean(4.4 - 4.3)).toBe(0.1);
    expect(clean(1 / 3)).toBe(0.333333333333);
  });
});

describe("RollingRobust equals robustScale on every window of a slide", () => {
  test("random windows with ties, growing and shrinking", () => {
    const rnd = stream(7);
    for (let t = 0; t < 200; t++) {
      const n = 1 + Math.floor(rnd() * 150);
      const xs = Array.from({ length: n }, () => (rnd() < 0.3 ? Math.round(rnd() * 5) : rnd() * 10 - 5));
      const w = 1 + Math.floor(rnd() * 40);
      const r = new RollingRobust(2);
      let lo = 0;
      for (let i = 0; i < n; i++) {
        r.add(xs[i]);
        while (i - lo + 1 > w) r.remove(xs[lo++]);
        expect(r.length).toBe(i - lo + 1);
        expect(r.scale()).toEqual(robustScale(xs.slice(lo, i + 1)));
      }
    }
  });
  test("removing a value not in the window is a bug, not a silent miscount", () => {
    const r = new RollingRobust();
    r.add(1);
    expect(() => r.remove(2)).toThrow("not in the window");
  });
});

describe("pelt", () => {
  test("a step in the mean is found exactly where it is", () => {
    const x = [...Array(10).fill(0), ...Array(10).fill(5)];
    const r = pelt(x, 1, 3);
    expect(r.changepoints).toEqual([10]);
    expect(r.segments).toEqual([
      { start: 0, end: 10, mean: 0 },
      { start: 10, end: 20, mean: 5 },
    ]);
  });
  test("a penalty larger than the gain keeps one segment; empty and short inputs", () => {
    // Splitting [0 x10, 5 x10] saves 20 * 2.5^2 = 125 of squared error: a penalty of 125 or more keeps it whole.
    expect(pelt([...Array(10).fill(0), ...Array(10).fill(5)], 125, 3).changepoints).toEqual([]);
    expect(pelt([...Array(10).fill(0), ...Array(10).fill(5)], 124.9, 3).changepoints).toEqual([10]);
    expect(pelt([], 1, 3)).toEqual({ changepoints: [], segments: [] });
    expect(pelt([1, 9], 0.1, 3)).toEqual({ changepoints: [], segments: [{ start: 0, end: 2, mean: 5 }] });
  });
  test("segments are never shorter than minLength: a two-point spike is not a segment of its own", () => {
    const x = [0, 0, 0, 0, 0, 10, 10, 0, 0, 0, 0, 0];
    for (const s of pelt(x, 0.5, 3).segments) expect(s.end - s.start).toBeGreaterThanOrEqual(3);
  });
  test("the optimum of an exhaustive search (random sequences, penalties, minimum lengths)", () => {
    const rnd = stream(1);
    const exhaustive = (x: number[], pen: number, m: number) => {
      const n = x.length;
      const F = [-pen];
      const L = [0];
      for (let t = 1; t <= n; t++) {
        F[t] = Infinity;
        for (let s = 0; s <= t - m; s++) {
          if ((s > 0 && s < m) || !Number.isFinite(F[s])) continue;
          const seg = x.slice(s, t);
          const mu = seg.reduce((a, b) => a + b, 0) / seg.length;
          const v = F[s] + seg.reduce((a, b) => a + (b - mu) ** 2, 0) + pen;
          if (v < F[t]) [F[t], L[t]] = [v, s];
        }
      }
      const starts: number[] = [];
      for (let t = n; t > 0; t = L[t]) starts.push(L[t]);
      return starts.reverse().slice(1);
    };
    for (let trial = 0; trial < 200; trial++) {
      const n = 20 + Math.floor(rnd() * 40);
      let mu = 0;
      const x = Array.from({ length: n }, () => ((mu = rnd() < 0.08 ? rnd() * 4 - 2 : mu), mu + rnd() - 0.5));
      const pen = 0.5 + rnd() * 2;
      const m = 1 + Math.floor(rnd() * 5);
      expect(pelt(x, pen, m).changepoints).toEqual(exhaustive(x, pen, m));
    }
  });
});
