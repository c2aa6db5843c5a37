// Downsampling to calendar buckets (monthly, quarterly, annual).
// - Buckets are calendar months, quarters (Jan-Mar, ...) or years, labelled by their first day
//   (period_start) with period_end their last day. A source point belongs to the bucket containing
//   its date (a weekly point dated on its week's last day counts in that day's month).
// - Every source point in a bucket is aggregated; null values are skipped. mean = arithmetic mean of
//   the values, sum = their sum, last = the value of the latest-dated point with a value. A bucket
//   whose points are all null has value null. Buckets with no source point are not emitted, so a gap
//   stays a gap (and a transform comparator that falls in it is missing, hence null).
// - Completeness: only the newest bucket (the one holding the series' last point) can be incomplete.
//   It is complete when the next observation the series would publish after its last point falls
//   after the bucket's end, where "next" depends on the native frequency:
//     daily     the next weekday (Mon-Fri) after the last point: daily series are business-day series,
//               so a month whose last point is on its last weekday is complete;
//     weekly    the last point + 7 days;
//     monthly   the first day of the month after the last point's month;
//     quarterly the first day of the next quarter;
//     annual    January 1 of the next year.
//   An incomplete newest bucket is dropped and reported. (A holiday on a month's last weekday makes
//   that month look incomplete until the next point arrives; that errs toward dropping, never toward
//   reporting a partial mean as final.)
// - Target must be at least as coarse as the native frequency; upsampling is a RuleError.
import {
  FREQUENCY_RANK,
  FREQUENCY_UNIT,
  addDays,
  nextWeekday,
  periodEndOfIndex,
  periodIndex,
  periodStartOfIndex,
  type Frequency,
} from "./calendar";
import { RuleError, ascending, type Point } from "./series";

export type ResampleTarget = "monthly" | "quarterly" | "annual";
export type ResampleMethod = "mean" | "last" | "sum";
export const RESAMPLE_TARGETS: readonly ResampleTarget[] = ["monthly", "quarterly", "annual"];
export const RESAMPLE_METHODS: readonly ResampleMethod[] = ["mean", "last", "sum"];

export type Bucket = {
  period_start: string;
  period_end: string;
  period_type: ResampleTarget;
  value: number | null;
  /** Source points in the bucket, and how many of them had a value. */
  count: number;
  valueCount: number;
  preliminary: boolean;
};

export type ResampleResult = {
  buckets: Bucket[];
  /** The newest bucket when it was dropped as incomplete, else null. */
  dropped: Bucket | null;
  completeness: string;
};

export const COMPLETENESS_RULE: Record<Frequency, string> = {
  daily:
    "the newest bucket is complete when the next weekday after the series' last observation falls after the bucket end (daily series are business-day series)",
  weekly: "the newest bucket is complete when the series' last observation plus 7 days falls after the bucket end",
  monthly: "the newest bucket is complete when it holds an observation for its last month",
  quarterly: "the newest bucket is complete when it holds an observation for its last quarter",
  annual: "the newest bucket is complete when it holds an observation for its last year",
};

/** The date of the observation a series would publish next after `last`. */
export function nextExpectedDate(last: string, native: Frequency): string {
  switch (native) {
    case "daily":
      return nextWeekday(last);
    case "weekly":
      return addDays(last, 7);
    default: {
      const unit = FREQUENCY_UNIT[native];
      return periodStartOfIndex(periodIndex(last, unit) + 1, unit);
    }
  }
}

export function checkResample(native: Frequency, target: ResampleTarget): void {
  if (FREQUENCY_RANK[target] < FREQUENCY_RANK[native]) {
    throw new RuleError(
      `frequency=${target} would upsample ${native === "annual" ? "an" : "a"} ${native} series; resampling only aggregates to the same or a coarser frequency (${coarserOrEqual(native).join(", ")}).`,
      { parameter: "frequency", native_frequency: native, frequency: target },
    );
  }
}

function coarserOrEqual(native: Frequency): ResampleTarget[] {
  return RESAMPLE_TARGETS.filter((t) => FREQUENCY_RANK[t] >= FREQUENCY_RANK[native]);
}

export function resample(
  points: readonly Point[],
  native: Frequency,
  target: ResampleTarget,
  method: ResampleMethod,
): ResampleResult {
  checkResample(native, target);
  const src = ascending(points);
  const unit = FREQUENCY_UNIT[target];
  const buckets: Bucket[] = [];
  let i = 0;
  while (i < src.length) {
    const idx = periodIndex(src[i].date, unit);
    let count = 0;
    let valueCount = 0;
    let sum = 0;
    let last: number | null = null;
    let preliminary = false;
    while (i < src.length && periodIndex(src[i].date, unit) === idx) {
      const v = src[i].value;
      count++;
      if (v !== null) {
        valueCount++;
        sum += v;
        last = v;
      }
      if (src[i].preliminary) preliminary = true;
      i++;
    }
    const value = valueCount === 0 ? null : method === "mean" ? sum / valueCount : method === "sum" ? sum : last;
    buckets.push({
      period_start: periodStartOfIndex(idx, unit),
      period_end: periodEndOfIndex(idx, unit),
      period_type: target,
      value,
      count,
      valueCount,
      preliminary,
    });
  }
  let dropped: Bucket | null = null;
  if (buckets.length > 0) {
    const newest = buckets[buckets.length - 1];
    const lastDate = src[src.length - 1].date;
    if (nextExpectedDate(lastDate, native) <= newest.period_end) dropped = buckets.pop()!;
  }
  return { buckets, dropped, completeness: COMPLETENESS_RULE[native] };
}

/** Buckets as points dated by period_start, the form transforms read. */
export function bucketsAsPoints(buckets: readonly Bucket[]): Point[] {
  return buckets.map((b) =>
    b.preliminary
      ? { date: b.period_start, value: b.value, preliminary: true }
      : { date: b.period_start, value: b.value },
  );
}
