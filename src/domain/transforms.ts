// Observation transforms. All read the FULL series (every point, ascending), so a comparator or an
// index base before start_date or outside the returned page is still found; callers cut the range
// and the page afterwards.
//
// Percent changes: value(t) = (x(t) - x(c)) / x(c) * 100, FRED's pch/pc1 definition, where c is the
// calendar-correct comparator period below. value(t) is null when x(t) is null, when the series has
// no point in the comparator period or its value is null, or when x(c) = 0. A missing comparator is
// never replaced by a nearer point: with October 2025 missing, November's mom is null, not a
// two-month change. "Period" is the calendar period of the series' frequency (calendar.ts), so a
// monthly series dated on the 1st or on the month's last day compares the same months
// (2024-02-29 yoy compares with 2023-02-28).
//
//   frequency   yoy                          qoq                          mom
//   daily       400: add frequency=monthly   400: add frequency=quarterly 400: add frequency=monthly
//   weekly      the ISO week 52 weeks earlier 400: add frequency=quarterly 400: add frequency=monthly
//   monthly     same month a year earlier    the month 3 months earlier   the previous month
//   quarterly   same quarter a year earlier  the previous quarter         400: no monthly detail
//   annual      the previous year            400: no quarterly detail     400: no monthly detail
//
// Why daily percent changes are refused: a daily (business-day) series has no point on a third of
// calendar days, so "the same day a year earlier" is often missing, and taking the nearest day instead
// would silently shift the comparison. Resampling first (frequency=monthly) gives a clean comparator.
// Weekly yoy uses 52 weeks (364 days), the convention of weekly releases such as initial claims: the
// comparator is the same weekday, at most two days off the calendar date.
// After resampling, the frequency that applies is the resampled one.
//
// index:YYYY-MM-DD: value(t) = x(t) / x(base) * 100. At native frequency the base is the point dated
// exactly on the base date; on a resampled series it is the bucket containing the base date. A base
// with no point, a null value or a zero value is a RuleError naming the date.
// log: natural logarithm; values <= 0 and nulls become null.
// Units: percent changes -> "percent"; index -> "index (YYYY-MM-DD=100)"; log -> "log(<unit>)".
import { FREQUENCY_UNIT, periodIndex, periodStart, type Frequency } from "./calendar";
import { isIsoDate } from "./calendar";
import { RuleError, type Point } from "./series";

export type PercentChange = "yoy" | "qoq" | "mom";
export type Transform = { kind: PercentChange } | { kind: "index"; base: string } | { kind: "log" };

export const TRANSFORM_SYNTAX = "yoy, mom, qoq, index:YYYY-MM-DD or log";

/** Parses the `transform` parameter; null when it is not one of the spec's forms. */
export function parseTransform(s: string): Transform | null {
  if (s === "yoy" || s === "mom" || s === "qoq" || s === "log") return { kind: s };
  if (s.startsWith("index:")) {
    const base = s.slice("index:".length);
    return isIsoDate(base) ? { kind: "index", base } : null;
  }
  return null;
}

export function formatTransform(t: Transform): string {
  return t.kind === "index" ? `index:${t.base}` : t.kind;
}

/** Comparator distance in periods of the series' own frequency, or why the pair is refused. */
export type ComparatorRule =
  | { ok: true; lag: number; comparator: string }
  | { ok: false; reason: string; suggestion?: Frequency };

const NAME: Record<PercentChange, string> = {
  yoy: "year-over-year",
  qoq: "quarter-over-quarter",
  mom: "month-over-month",
};

export const COMPARATORS: Record<Frequency, Record<PercentChange, ComparatorRule>> = {
  daily: {
    yoy: {
      ok: false,
      reason: "a daily series has no calendar-correct day a year earlier on weekends and holidays",
      suggestion: "monthly",
    },
    qoq: {
      ok: false,
      reason: "a daily series has no calendar-correct day a quarter earlier on weekends and holidays",
      suggestion: "quarterly",
    },
    mom: {
      ok: false,
      reason: "a daily series has no calendar-correct day a month earlier on weekends and holidays",
      suggestion: "monthly",
    },
  },
  weekly: {
    yoy: { ok: true, lag: 52, comparator: "the week 52 weeks earlier" },
    qoq: { ok: false, reason: "weeks do not divide quarters", suggestion: "quarterly" },
    mom: { ok: false, reason: "weeks do not divide months", suggestion: "monthly" },
  },
  monthly: {
    yoy: { ok: true, lag: 12, comparator: "the same month a year earlier" },
    qoq: { ok: true, lag: 3, comparator: "the month three months earlier" },
    mom: { ok: true, lag: 1, comparator: "the previous month" },
  },
  quarterly: {
    yoy: { ok: true, lag: 4, comparator: "the same quarter a year earlier" },
    qoq: { ok: true, lag: 1, comparator: "the previous quarter" },
    mom: { ok: false, reason: "a quarterly series has no monthly values" },
  },
  annual: {
    yoy: { ok: true, lag: 1, comparator: "the previous year" },
    qoq: { ok: false, reason: "an annual series has no quarterly values" },
    mom: { ok: false, reason: "an annual series has no monthly values" },
  },
};

/** Throws a RuleError explaining why `kind` makes no sense at `frequency` (and what to add instead). */
export function checkTransformFrequency(t: Transform, frequency: Frequency, opts: { resampled?: boolean } = {}): void {
  if (t.kind !== "yoy" && t.kind !== "qoq" && t.kind !== "mom") return;
  const rule = COMPARATORS[frequency][t.kind];
  if (rule.ok) return;
  const at = opts.resampled
    ? `after resampling to ${frequency}`
    : `on ${frequency === "annual" ? "an" : "a"} ${frequency} series at native frequency`;
  const hint = rule.suggestion ? `; add frequency=${rule.suggestion} to get ${rule.suggestion} ${t.kind}` : "";
  throw new RuleError(`transform=${t.kind} (${NAME[t.kind]}) is not available ${at}: ${rule.reason}${hint}.`, {
    parameter: "transform",
    transform: t.kind,
    frequency,
    ...(rule.suggestion ? { suggestion: `frequency=${rule.suggestion}` } : {}),
  });
}

/** Percent change against the point `lag` periods earlier (see the table above). */
export function percentChange(points: readonly Point[], frequency: Frequency, kind: PercentChange): Point[] {
  const rule = COMPARATORS[frequency][kind];
  if (!rule.ok)
    throw new RuleError(`transform=${kind} is not available for a ${frequency} series.`, { parameter: "transform" });
  const unit = FREQUENCY_UNIT[frequency];
  const idx = new Array<number>(points.length);
  const valueAt = new Map<number, number | null>();
  for (let i = 0; i < points.length; i++) {
    idx[i] = periodIndex(points[i].date, unit);
    valueAt.set(idx[i], points[i].value);
  }
  const out = new Array<Point>(points.length);
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const c = valueAt.get(idx[i] - rule.lag);
    const value = p.value === null || c === undefined || c === null || c === 0 ? null : ((p.value - c) / c) * 100;
    out[i] = withValue(p, value);
  }
  return out;
}

/** Rebases so the base period equals 100. `resampled`: the base is the bucket containing the date. */
export function indexTo(points: readonly Point[], base: string, opts: { resampled?: Frequency } = {}): Point[] {
  const key = opts.resampled ? periodStart(base, FREQUENCY_UNIT[opts.resampled]) : base;
  let baseValue: number | null | undefined;
  let before: string | null = null;
  let after: string | null = null;
  for (const p of points) {
    if (p.date === key) baseValue = p.value;
    else if (p.date < key) before = p.date;
    else if (after === null) after = p.date;
  }
  const where = opts.resampled ? `the ${opts.resampled} bucket starting ${key} (containing ${base})` : base;
  if (baseValue === undefined) {
    const near = [before, after].filter(Boolean).join(" and ");
    throw new RuleError(
      `transform=index:${base}: the series has no observation on ${where}${near ? `; the nearest observations are ${near}` : ""}.`,
      { parameter: "transform", base_date: base, nearest_before: before, nearest_after: after },
    );
  }
  if (baseValue === null || baseValue === 0) {
    throw new RuleError(
      `transform=index:${base}: the observation on ${where} is ${baseValue === null ? "missing (null)" : "zero"}, so it cannot be rebased to 100.`,
      {
        parameter: "transform",
        base_date: base,
      },
    );
  }
  const b = baseValue;
  return points.map((p) => withValue(p, p.value === null ? null : (p.value / b) * 100));
}

export function naturalLog(points: readonly Point[]): Point[] {
  return points.map((p) => withValue(p, p.value !== null && p.value > 0 ? Math.log(p.value) : null));
}

/** Applies a transform to a full ascending series at `frequency` (the resampled one when resampled). */
export function applyTransform(
  points: readonly Point[],
  t: Transform,
  frequency: Frequency,
  opts: { resampled?: boolean } = {},
): Point[] {
  switch (t.kind) {
    case "yoy":
    case "qoq":
    case "mom":
      checkTransformFrequency(t, frequency, opts);
      return percentChange(points, frequency, t.kind);
    case "index":
      return indexTo(points, t.base, opts.resampled ? { resampled: frequency } : {});
    case "log":
      return naturalLog(points);
  }
}

/** meta.unit after the transform. */
export function transformedUnit(t: Transform, unit: string | null): string {
  switch (t.kind) {
    case "yoy":
    case "qoq":
    case "mom":
      return "percent";
    case "index":
      return `index (${t.base}=100)`;
    case "log":
      return unit ? `log(${unit})` : "log";
  }
}

/** One sentence defining the transform at this frequency, for meta and docs. */
export function describeTransform(t: Transform, frequency: Frequency): string {
  switch (t.kind) {
    case "yoy":
    case "qoq":
    case "mom": {
      const rule = COMPARATORS[frequency][t.kind];
      return rule.ok ? `percent change from ${rule.comparator}; null when that observation is missing` : rule.reason;
    }
    case "index":
      return `value / value on ${t.base} x 100`;
    case "log":
      return "natural logarithm; values <= 0 are null";
  }
}

function withValue(p: Point, value: number | null): Point {
  return p.preliminary ? { date: p.date, value, preliminary: true } : { date: p.date, value };
}
