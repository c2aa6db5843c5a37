// FRED's frequency aggregation (fred/series/observations `frequency` and `aggregation_method`).
// - Frequencies, finest first: d (daily), w (weekly), bw (biweekly), m, q, sa (semiannual), a. `w` is FRED's
//   "weekly, ending Friday" and `bw` its "biweekly, ending Wednesday"; the variants name the ending weekday:
//   wef Fri, weth Thu, wew Wed, wetu Tue, wem Mon, wesu Sun, wesa Sat, bwew Wed, bwem Mon.
// - Only a coarser frequency than the series' own is an aggregation; the series' own frequency is accepted and
//   changes nothing (for a weekly series, `w` or the variant naming its own ending weekday). Anything finer, or a
//   weekly variant ending on another weekday than a weekly series' own, is refused.
// - Periods are named as FRED names them: months, quarters, halves and years by their first day, weeks and
//   fortnights by their ending day (as weekly series such as ICSA are dated). A source observation counts in the
//   period that holds its date. Fortnights end on the chosen weekday in weeks an even number of weeks after the
//   first such weekday of 1970 (1970-01-07 for Wednesday, 1970-01-05 for Monday): FRED does not publish its
//   anchor, so this one is ours.
// - Methods: avg (mean), sum, eop (the latest-dated value). Missing values are skipped; a period whose values
//   are all missing is missing. Aggregates keep the source's number of decimals: values are summed as scaled
//   integers and the mean rounded half away from zero, so "4.35" never becomes 4.3499999.
// - The first and the last period are dropped when they hold fewer values than FRED's threshold for the pair
//   (monthly to quarterly 3, daily to monthly 17, weekly to annual 39...); periods inside the series are kept.
import { addDays, dayNumber, weekday } from "../calendar";

export type FredFrequencyCode = "d" | "w" | "bw" | "m" | "q" | "sa" | "a";
export type FredFrequency = {
  code: FredFrequencyCode /** weeks and fortnights: ending weekday, 0 = Sunday */;
  endDay?: number;
};
export type AggregationMethod = "avg" | "sum" | "eop";
export type FredPoint = { date: string; value: number | null };

export const AGGREGATION_METHODS: readonly AggregationMethod[] = ["avg", "sum", "eop"];

/** Every `frequency` value FRED accepts, with what it means here. */
export const FREQUENCY_VALUES: Readonly<Record<string, FredFrequency>> = {
  d: { code: "d" },
  w: { code: "w", endDay: 5 },
  wef: { code: "w", endDay: 5 },
  weth: { code: "w", endDay: 4 },
  wew: { code: "w", endDay: 3 },
  wetu: { code: "w", endDay: 2 },
  wem: { code: "w", endDay: 1 },
  wesu: { code: "w", endDay: 0 },
  wesa: { code: "w", endDay: 6 },
  bw: { code: "bw", endDay: 3 },
  bwew: { code: "bw", endDay: 3 },
  bwem: { code: "bw", endDay: 1 },
  m: { code: "m" },
  q: { code: "q" },
  sa: { code: "sa" },
  a: { code: "a" },
};

export const FREQUENCY_RANK: Record<FredFrequencyCode, number> = { d: 0, w: 1, bw: 2, m: 3, q: 4, sa: 5, a: 6 };

/** Observations per year, FRED's n for ch1, pc1, pca and cca. */
export const PERIODS_PER_YEAR: Record<FredFrequencyCode, number> = { d: 260, w: 52, bw: 26, m: 12, q: 4, sa: 2, a: 1 };

/** FRED's long and short frequency names (fred/series). */
export const FREQUENCY_NAMES: Record<FredFrequencyCode, { long: string; short: string }> = {
  d: { long: "Daily", short: "D" },
  w: { long: "Weekly", short: "W" },
  bw: { long: "Biweekly", short: "BW" },
  m: { long: "Monthly", short: "M" },
  q: { long: "Quarterly", short: "Q" },
  sa: { long: "Semiannual", short: "SA" },
  a: { long: "Annual", short: "A" },
};

const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** "Weekly, Ending Saturday" for a weekly series, the plain name otherwise. */
export function frequencyTitle(f: FredFrequency): string {
  const name = FREQUENCY_NAMES[f.code].long;
  return f.endDay === undefined ? name : `${name}, Ending ${WEEKDAY_NAMES[f.endDay]}`;
}

// Minimum values in the first and last period, by source then target frequency (FRED Help, "Understanding the Data").
const THRESHOLDS: Record<FredFrequencyCode, Partial<Record<FredFrequencyCode, number>>> = {
  d: { w: 4, bw: 8, m: 17, q: 52, sa: 104, a: 208 },
  w: { bw: 2, m: 3, q: 10, sa: 20, a: 39 },
  bw: { m: 2, q: 7, sa: 13, a: 26 },
  m: { q: 3, sa: 6, a: 12 },
  q: { sa: 2, a: 4 },
  sa: { a: 2 },
  a: {},
};

export function completenessThreshold(from: FredFrequencyCode, to: FredFrequencyCode): number {
  return THRESHOLDS[from][to] ?? 1;
}

/** The catalog's frequency word as a FRED frequency; a weekly series' ending day comes from its own dates. */
export function nativeFrequency(catalogFrequency: string | null, points: readonly FredPoint[]): FredFrequency | null {
  switch (catalogFrequency) {
    case "daily":
      return { code: "d" };
    case "weekly":
      return { code: "w", endDay: points.length > 0 ? weekday(points[points.length - 1].date) : 6 };
    case "monthly":
      return { code: "m" };
    case "quarterly":
      return { code: "q" };
    case "annual":
      return { code: "a" };
    default:
      return null;
  }
}

export type FrequencyCheck = { ok: true; aggregate: boolean } | { ok: false; reason: string };

/** A `frequency` value as asked: `plain` for `w` and `bw`, which on a weekly series mean its own week. */
export type AskedFrequency = FredFrequency & { plain: boolean };

export function parseFrequency(value: string): AskedFrequency | null {
  const f = FREQUENCY_VALUES[value];
  return f ? { ...f, plain: value === "w" || value === "bw" } : null;
}

/** Whether `target` can be asked of a series of frequency `native`, and whether it changes anything. */
export function checkFrequency(native: FredFrequency, target: AskedFrequency): FrequencyCheck {
  const from = FREQUENCY_RANK[native.code];
  const to = FREQUENCY_RANK[target.code];
  if (to < from) return { ok: false, reason: "can not be higher than the native frequency of the series" };
  if (to > from) return { ok: true, aggregate: true };
  if (native.code === "w" && !target.plain && target.endDay !== native.endDay) {
    return { ok: false, reason: `must end on ${WEEKDAY_NAMES[native.endDay!]} for this weekly series` };
  }
  return { ok: true, aggregate: false };
}

const FORTNIGHT_ANCHOR: Record<number, number> = { 3: dayNumber("1970-01-07"), 1: dayNumber("1970-01-05") };

/** The name (label) of the target period that holds `date`. */
export function periodOf(date: string, target: FredFrequency): string {
  switch (target.code) {
    case "d":
      return date;
    case "w":
      return addDays(date, (target.endDay! - weekday(date) + 7) % 7);
    case "bw": {
      const end = addDays(date, (target.endDay! - weekday(date) + 7) % 7);
      const anchor = FORTNIGHT_ANCHOR[target.endDay!] ?? dayNumber("1970-01-07");
      const weeks = Math.round((dayNumber(end) - anchor) / 7);
      return ((weeks % 2) + 2) % 2 === 0 ? end : addDays(end, 7);
    }
    case "m":
      return `${date.slice(0, 7)}-01`;
    case "q": {
      const m = Number(date.slice(5, 7));
      const qm = m - ((m - 1) % 3);
      return `${date.slice(0, 4)}-${qm < 10 ? "0" : ""}${qm}-01`;
    }
    case "sa":
      return `${date.slice(0, 4)}-${Number(date.slice(5, 7)) <= 6 ? "01" : "07"}-01`;
    case "a":
      return `${date.slice(0, 4)}-01-01`;
  }
}

/** x rounded half away from zero to an integer. */
export function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * Aggregates ascending points of frequency `native` to `target` (coarser) with `method`, each value keeping
 * `decimals` places; first and last periods below the threshold are dropped.
 */
export function aggregate(
  points: readonly FredPoint[],
  native: FredFrequency,
  target: FredFrequency,
  method: AggregationMethod,
  decimals: number,
): FredPoint[] {
  const scale = 10 ** decimals;
  type Acc = { date: string; sum: number; n: number; last: number | null };
  const periods: Acc[] = [];
  for (const p of points) {
    const label = periodOf(p.date, target);
    let acc = periods[periods.length - 1];
    if (!acc || acc.date !== label) {
      acc = { date: label, sum: 0, n: 0, last: null };
      periods.push(acc);
    }
    if (p.value === null) continue;
    const scaled = Math.round(p.value * scale);
    acc.sum += scaled;
    acc.n += 1;
    acc.last = scaled;
  }
  const threshold = completenessThreshold(native.code, target.code);
  const out: FredPoint[] = [];
  periods.forEach((acc, i) => {
    const edge = i === 0 || i === periods.length - 1;
    if (edge && acc.n < threshold) return;
    if (acc.n === 0) return void out.push({ date: acc.date, value: null });
    const scaled = method === "sum" ? acc.sum : method === "eop" ? acc.last! : roundHalfAway(acc.sum / acc.n);
    out.push({ date: acc.date, value: scaled / scale });
  });
  return out;
}
