// Plain series data shared by transforms, resampling, concepts and derived series.
// - A Point is one dated value of a series; value null means the date exists but has no number
//   (FRED's "." rows, such as October 2025 CPI). Points are ordered by date ascending.
// - Period alignment: two points "match" when their dates fall in the same calendar period of the
//   given unit (same month for monthly series, ...), so month-start and month-end dating agree.
//   A series holds at most one point per period at its native frequency; if it holds several, the
//   latest-dated one stands for the period.
// - RuleError: a request that breaks a domain rule (a transform that makes no sense at a frequency,
//   upsampling, a missing index base). Services turn it into 400 INVALID_PARAMETER.
import { periodIndex, type PeriodUnit } from "./calendar";

export type Point = { date: string; value: number | null; preliminary?: boolean };

export class RuleError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "RuleError";
  }
}

/** The points ordered by date ascending; returns the same array when it already is. */
export function ascending<P extends { date: string }>(points: readonly P[]): readonly P[] {
  for (let i = 1; i < points.length; i++) {
    if (points[i - 1].date > points[i].date)
      return [...points].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }
  return points;
}

/** period index -> the latest-dated point in that period. Input ascending. */
export function byPeriod<P extends { date: string }>(points: readonly P[], unit: PeriodUnit): Map<number, P> {
  const out = new Map<number, P>();
  for (const p of points) out.set(periodIndex(p.date, unit), p);
  return out;
}

/**
 * Combines two series period by period: one output point per point of `a` (dated as in `a`),
 * value f(a, b) when b has a point in the same period and both values are numbers, else null.
 * Preliminary when either input point is.
 */
export function combineByPeriod(
  a: readonly Point[],
  b: readonly Point[],
  unit: PeriodUnit,
  f: (x: number, y: number) => number | null,
): Point[] {
  const bIdx = byPeriod(b, unit);
  const out: Point[] = [];
  for (const p of a) {
    const q = bIdx.get(periodIndex(p.date, unit));
    const value = p.value !== null && q && q.value !== null ? f(p.value, q.value) : null;
    const preliminary = !!(p.preliminary || q?.preliminary);
    out.push({
      date: p.date,
      value: value !== null && Number.isFinite(value) ? value : null,
      ...(preliminary ? { preliminary } : {}),
    });
  }
  return out;
}
