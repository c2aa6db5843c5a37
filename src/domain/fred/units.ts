// FRED's `units` transformations and the way FRED prints values.
// x(t) is the value of period t after any frequency aggregation; n is the number of periods per year of the
// frequency the values are at (after aggregation): daily 260, weekly 52, biweekly 26, monthly 12, quarterly 4,
// semiannual 2, annual 1.
//   lin  x(t)                          chg  x(t) - x(t-1)               ch1  x(t) - x(t-n)
//   pch  (x(t)/x(t-1) - 1) * 100       pc1  (x(t)/x(t-n) - 1) * 100     pca  ((x(t)/x(t-1))^n - 1) * 100
//   cch  (ln x(t) - ln x(t-1)) * 100   cca  (ln x(t) - ln x(t-1)) * 100 * n   (a one-period change, annualised)
//   log  ln x(t)
// "t-1" and "t-n" are periods, not rows: for monthly and coarser frequencies the comparator is the period one
// (or n) before in the calendar, so a month missing from the data leaves its successor's change missing rather
// than comparing across the gap; for daily, weekly and biweekly values, whose calendars have holes (weekends,
// holidays), it is the observation one (or n) rows earlier, as FRED's n of 260 business days assumes.
// A value is missing (".") when x(t) or its comparator is missing, when a ratio's denominator is 0, when a log's
// argument is not positive, or when pca's ratio is negative.
// Printing: levels and level changes (lin, chg, ch1) keep the series' decimals, which are the most decimals any
// of its values has (CPIAUCSL prints "78.000", DGS10 "10.50"); the other units print five decimals, as FRED does
// ("3.77925"). Rounding is half away from zero; "-0.00000" prints as "0.00000".
import { PERIODS_PER_YEAR, roundHalfAway, type FredFrequencyCode, type FredPoint } from "./frequency";

export type Units = "lin" | "chg" | "ch1" | "pch" | "pc1" | "pca" | "cch" | "cca" | "log";
export const UNITS: readonly Units[] = ["lin", "chg", "ch1", "pch", "pc1", "pca", "cch", "cca", "log"];

/** FRED's name for each transformation (fred/series `units` after a transformation). */
export const UNITS_TITLES: Record<Units, string> = {
  lin: "Levels",
  chg: "Change",
  ch1: "Change from Year Ago",
  pch: "Percent Change",
  pc1: "Percent Change from Year Ago",
  pca: "Compounded Annual Rate of Change",
  cch: "Continuously Compounded Rate of Change",
  cca: "Continuously Compounded Annual Rate of Change",
  log: "Natural Log",
};

export const TRANSFORMED_DECIMALS = 5;

/** Decimals FRED prints a series' levels with: the most any value has in its shortest form (at most 10). */
export function seriesDecimals(values: Iterable<number | null>): number {
  let most = 0;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    const s = String(v);
    const dot = s.indexOf(".");
    if (s.includes("e")) return 10;
    if (dot >= 0 && s.length - dot - 1 > most) most = s.length - dot - 1;
  }
  return Math.min(most, 10);
}

/** x printed with exactly `decimals` places, rounded half away from zero on its shortest decimal form. */
export function formatDecimal(x: number, decimals: number): string {
  const scaled = roundHalfAway(shiftDecimal(x, decimals));
  if (scaled === 0) return decimals === 0 ? "0" : `0.${"0".repeat(decimals)}`;
  const magnitude = Math.abs(scaled);
  // Past 1e21 String() switches to exponent form; BigInt prints every digit of the (integral) double.
  const digits = (magnitude < 1e21 ? String(magnitude) : BigInt(magnitude).toString()).padStart(decimals + 1, "0");
  const sign = scaled < 0 ? "-" : "";
  return decimals === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

// x * 10^d computed on the decimal string, so 1.005 shifted by 2 is 100.5 and not 100.49999999999999.
function shiftDecimal(x: number, d: number): number {
  const [mantissa, exp = "0"] = String(x).split("e");
  return Number(`${mantissa}e${Number(exp) + d}`);
}

/** How a value of this transformation is printed. */
export function unitsDecimals(units: Units, seriesDecimalPlaces: number): number {
  return units === "lin" || units === "chg" || units === "ch1" ? seriesDecimalPlaces : TRANSFORMED_DECIMALS;
}

/** Comparator position of each point, `lag` periods back; -1 when there is none. */
function comparators(points: readonly FredPoint[], frequency: FredFrequencyCode, lag: number): number[] {
  if (frequency === "d" || frequency === "w" || frequency === "bw") return points.map((_, i) => i - lag);
  const index = (date: string) => {
    const y = Number(date.slice(0, 4));
    const m = Number(date.slice(5, 7)) - 1;
    if (frequency === "m") return y * 12 + m;
    if (frequency === "q") return y * 4 + Math.floor(m / 3);
    if (frequency === "sa") return y * 2 + (m < 6 ? 0 : 1);
    return y;
  };
  const at = new Map<number, number>();
  points.forEach((p, i) => at.set(index(p.date), i));
  return points.map((p) => at.get(index(p.date) - lag) ?? -1);
}

/** Applies `units` to ascending points at `frequency`; missing results are null. Levels pass through. */
export function applyUnits(points: readonly FredPoint[], units: Units, frequency: FredFrequencyCode): FredPoint[] {
  if (units === "lin") return points.slice();
  const n = PERIODS_PER_YEAR[frequency];
  if (units === "log")
    return points.map((p) => ({ date: p.date, value: p.value !== null && p.value > 0 ? Math.log(p.value) : null }));
  const lag = units === "ch1" || units === "pc1" ? n : 1;
  const back = comparators(points, frequency, lag);
  return points.map((p, i) => {
    const j = back[i];
    const prev = j >= 0 ? points[j].value : null;
    return { date: p.date, value: p.value === null || prev === null ? null : change(units, p.value, prev, n) };
  });
}

function change(units: Units, x: number, prev: number, n: number): number | null {
  switch (units) {
    case "chg":
    case "ch1":
      return x - prev;
    case "pch":
    case "pc1":
      return prev === 0 ? null : (x / prev - 1) * 100;
    case "pca": {
      if (prev === 0 || x / prev < 0) return null;
      return ((x / prev) ** n - 1) * 100;
    }
    case "cch":
    case "cca":
      return x > 0 && prev > 0 ? (Math.log(x) - Math.log(prev)) * 100 * (units === "cca" ? n : 1) : null;
    default:
      return x;
  }
}
