// Derived original series (svc:*): pure computations over their input series. Inputs are aligned by
// calendar period (same month, same year), never by position, and an output point is null whenever
// an input it needs is missing or null. An output point is preliminary when any input point it used is.
//
// svc:sahm_rule (monthly, percentage points)
//   u = national unemployment rate (percent, monthly). m3(t) = (u(t) + u(t-1) + u(t-2)) / 3, null
//   unless all three months are present. sahm(t) = m3(t) - min{ m3(s) : t-12 <= s <= t-1 }, the
//   minimum over the 3-month averages of the previous 12 months that exist (a gap month does not blank
//   a whole year out); null when m3(t) is null or none of those 12 exists. The rule "signals" a
//   recession at sahm >= 0.50. Values are negative while unemployment is falling.
// svc:real_avg_hourly_earnings (monthly, dollars of 1982-84)
//   real(t) = ahe(t) / cpi(t) * 100, with cpi the CPI-U index (1982-84 = 100), the same month.
//   A fixed base (BLS's own convention for real earnings) means a new CPI print never rewrites history.
// svc:home_affordability_ratio (annual, ratio)
//   ratio(t) = median home value(t) / median household income(t), same year, same place; null when
//   income is 0.
// svc:unemployment_gap (percentage points)
//   gap(t) = local unemployment rate(t) - national unemployment rate(t), same period. When the local
//   series is coarser (annual county rates), the national series is first averaged over the same
//   calendar buckets (mean, complete buckets only, resample.ts).
import { FREQUENCY_RANK, FREQUENCY_UNIT, periodIndex, type Frequency } from "./calendar";
import { resample, bucketsAsPoints, type ResampleTarget } from "./resample";
import { RuleError, ascending, combineByPeriod, type Point } from "./series";

export function sahmRule(unemployment: readonly Point[]): Point[] {
  const u = ascending(unemployment);
  const at = new Map<number, Point>();
  for (const p of u) at.set(periodIndex(p.date, "month"), p);
  const m3 = new Map<number, { value: number; preliminary: boolean }>();
  for (const [idx] of at) {
    const a = at.get(idx);
    const b = at.get(idx - 1);
    const c = at.get(idx - 2);
    if (a?.value == null || b?.value == null || c?.value == null) continue;
    m3.set(idx, {
      value: (a.value + b.value + c.value) / 3,
      preliminary: !!(a.preliminary || b.preliminary || c.preliminary),
    });
  }
  return u.map((p) => {
    const idx = periodIndex(p.date, "month");
    const cur = m3.get(idx);
    let min: number | null = null;
    if (cur) {
      for (let s = idx - 12; s <= idx - 1; s++) {
        const v = m3.get(s);
        if (v && (min === null || v.value < min)) min = v.value;
      }
    }
    const value = cur && min !== null ? cur.value - min : null;
    return cur?.preliminary ? { date: p.date, value, preliminary: true } : { date: p.date, value };
  });
}

export function realEarnings(earnings: readonly Point[], cpi: readonly Point[]): Point[] {
  return combineByPeriod(ascending(earnings), ascending(cpi), "month", (e, c) => (c === 0 ? null : (e / c) * 100));
}

export function affordabilityRatio(homeValue: readonly Point[], income: readonly Point[]): Point[] {
  return combineByPeriod(ascending(homeValue), ascending(income), "year", (h, i) => (i === 0 ? null : h / i));
}

/** local - national, aligned at the local series' frequency (national averaged down when finer). */
export function unemploymentGap(
  local: readonly Point[],
  localFrequency: Frequency,
  national: readonly Point[],
  nationalFrequency: Frequency,
): Point[] {
  const nat = alignTo(national, nationalFrequency, localFrequency);
  return combineByPeriod(ascending(local), nat, FREQUENCY_UNIT[localFrequency], (l, n) => l - n);
}

/** employed / labor force * 100 (the employment_rate concept), same period, same place. */
export function employmentRate(
  employed: readonly Point[],
  laborForce: readonly Point[],
  frequency: Frequency,
): Point[] {
  return combineByPeriod(ascending(employed), ascending(laborForce), FREQUENCY_UNIT[frequency], (e, l) =>
    l === 0 ? null : (e / l) * 100,
  );
}

/** A series expressed at `target` frequency: as is when equal, mean over complete buckets when finer. */
export function alignTo(points: readonly Point[], native: Frequency, target: Frequency): readonly Point[] {
  if (native === target) return ascending(points);
  if (FREQUENCY_RANK[target] < FREQUENCY_RANK[native] || target === "daily" || target === "weekly") {
    throw new RuleError(
      `cannot align a ${native} input to ${target}: inputs are only averaged down to a coarser calendar frequency.`,
      {
        native_frequency: native,
        frequency: target,
      },
    );
  }
  return bucketsAsPoints(resample(points, native, target as ResampleTarget, "mean").buckets);
}

// ---------------------------------------------------------------------------------------------------------------
// The svc: series this service computes, their inputs per region kind and their computation. Input `region`:
// "same" = the place the derived series is for, or a fixed region code (the national rate of the unemployment gap).

export type DerivedInput = { role: string; code: string; source: string; region: "same" | string };
export type DerivedInputData = { points: readonly Point[]; frequency: Frequency };

export type DerivedSeriesSpec = {
  code: string;
  inputsFor(regionKind: string): DerivedInput[] | null;
  compute(inputs: Record<string, DerivedInputData>, frequency: Frequency): Point[];
};

const same = (role: string, code: string, source: string): DerivedInput => ({ role, code, source, region: "same" });

export const DERIVED_SERIES: Record<string, DerivedSeriesSpec> = {
  "svc:sahm_rule": {
    code: "svc:sahm_rule",
    inputsFor: (kind) => (kind === "country" ? [same("unemployment_rate", "UNRATE", "fred")] : null),
    compute: (i) => sahmRule(i.unemployment_rate.points),
  },
  "svc:real_avg_hourly_earnings": {
    code: "svc:real_avg_hourly_earnings",
    inputsFor: (kind) =>
      kind === "country" ? [same("earnings", "AHETPI", "fred"), same("cpi", "CPIAUCSL", "fred")] : null,
    compute: (i) => realEarnings(i.earnings.points, i.cpi.points),
  },
  "svc:home_affordability_ratio": {
    code: "svc:home_affordability_ratio",
    inputsFor: (kind) =>
      kind === "state" || kind === "county"
        ? [same("home_value", "B25077_001E", "census"), same("income", "B19013_001E", "census")]
        : null,
    compute: (i) => affordabilityRatio(i.home_value.points, i.income.points),
  },
  "svc:unemployment_gap": {
    code: "svc:unemployment_gap",
    inputsFor: (kind) =>
      kind === "state"
        ? [
            same("local_rate", "LASST03", "bls"),
            { role: "national_rate", code: "UNRATE", source: "fred", region: "US" },
          ]
        : kind === "county"
          ? [
              same("local_rate", "LAUCN03", "bls"),
              { role: "national_rate", code: "UNRATE", source: "fred", region: "US" },
            ]
          : null,
    compute: (i) =>
      unemploymentGap(i.local_rate.points, i.local_rate.frequency, i.national_rate.points, i.national_rate.frequency),
  },
};
