// The signal detectors (spec "Signal (interval)"; how intervals are built from their states: signals.ts). Each
// reads a series' valued observations (ascending; missing values dropped) and says, observation by observation,
// whether its condition holds, in which direction, how strongly, and with what evidence. A detector judges each
// observation only by what came before it (trailing baselines), except the changepoint search, which segments the
// whole history. Thresholds are the named constants below.
//
// extreme — a move far outside the series' own history. The move is the change from the previous observation: the
//   log change for a series of positive levels (so a doubling counts the same at any level), the plain difference for
//   a rate, a spread or anything that can be zero or negative. Its robust z-score (robust.ts: median and
//   1.4826 * MAD) against the moves of the previous 10 years (at least 20 moves; earlier ones are added until there
//   are 20) must reach EXTREME_Z: Iglewicz and Hoaglin's 3.5 for monthly and coarser data, raised for weekly (4.0)
//   and daily (4.5) data so that false alarms per year stay comparable (a daily series makes 21 times as many
//   draws). Strength: weak from the threshold, neutral from 1.5 times it, strong from 3 times it.
// acceleration — the growth rate itself rising (or falling) persistently. Daily and weekly series are first
//   averaged to calendar months (resample.ts). Growth g = the year-over-year change: percent for positive levels,
//   percentage points for rates. The acceleration a = g - g half a year earlier (6 months, 2 quarters; 1 year for
//   annual data). It holds when a's robust z against the previous 10 years of a (at least 20 values) reaches 2 and
//   the move was persistent: at least two thirds of the one-period changes of g in that half year went the same way.
//   Strength: weak from z 2, neutral from 3, strong from 4.5. A change under ACCELERATION_MIN_CHANGE (0.01 points) is
//   rounding, whatever its z.
// trend_break — a sustained change in the slope of the trend: PELT (changepoints.ts) on the one-period growth rate
//   (percent for positive levels, difference for rates; monthly means for daily and weekly series; for a series that
//   is not seasonally adjusted each calendar period's median growth is removed first). A change in the mean growth
//   rate is a change in the slope of the level, and PELT finds the best segmentation exactly, where a scan of local
//   windows would fire on every wiggle; Bayesian online changepoint detection would need a hazard rate and priors
//   we cannot justify per series. Penalty: BIC, 2 * sigma^2 * ln(n), sigma the robust scale of the growth rate
//   itself (1.4826 * MAD): the median and MAD ignore the few shifted segments while one regime dominates, and err
//   high otherwise, which only makes breaks rarer. (The usual estimate from differences, MAD / sqrt 2, assumes
//   independent noise; the smoothed, model-based growth of series such as state LAUS estimates is autocorrelated,
//   and it found a break a year in them.) Segments last at least 6 months (3 quarters, 3 years), so a break is
//   "sustained". Direction: whether mean growth rose or fell at the
//   break. Strength: strong at a turning point (growth significantly positive on one side and significantly
//   negative on the other, significant = |mean| > 2 sigma / sqrt(length)), neutral for a shift of at least one sigma,
//   weak otherwise. The condition holds for a year from the break (BREAK_FRESH), or until the next break: a break
//   is news while it is recent, and a series whose trend broke in 1984 has no active signal for it today.
//
// Named rules (the Sahm rule, yield-curve inversion) replace the generic detector of their type: signal-rules.ts.
import { addYears, FREQUENCY_UNIT, periodIndex, type Frequency } from "./calendar";
import { median } from "simple-statistics";
import { pelt } from "./changepoints";
import type { Direction } from "./prose";
import { bucketsAsPoints, resample } from "./resample";
import { RollingRobust, clean, robustScale } from "./robust";
import type { Point } from "./series";

export type Strength = "weak" | "neutral" | "strong";
export const STRENGTHS: readonly Strength[] = ["weak", "neutral", "strong"];
export const strengthRank = (s: Strength) => STRENGTHS.indexOf(s);

/** A detector's verdict on one observation: null when its condition does not hold. */
export type State = {
  direction: Direction;
  strength: Strength;
  score: number;
  evidence: Record<string, unknown>;
} | null;
/** Verdicts on a series' observations (`dates[i]` is judged by `states[i]`). */
export type StateSeries = { dates: string[]; states: State[]; frequency: Frequency };

export type Valued = { date: string; value: number };

/** What the detectors need to know about a series besides its numbers. */
export type SeriesProfile = {
  code: string;
  source: string | null;
  unit: string | null;
  frequency: Frequency;
  /** Seasonal adjustment as the catalog records it ("SA", "SAAR", "NSA"), null when unknown. */
  seasonalAdjustment: string | null;
  /** Whether changes are differences (rates, spreads, series that reach zero or below) rather than log changes. */
  additive: boolean;
};

export const BASELINE_YEARS = 10;
export const MIN_BASELINE = 20;
export const EXTREME_Z: Record<Frequency, number> = {
  annual: 3.5,
  quarterly: 3.5,
  monthly: 3.5,
  weekly: 4,
  daily: 4.5,
};
export const ACCELERATION_Z = 2;
/** A change in growth below a hundredth of a point (percent or percentage points) in half a year is rounding. */
export const ACCELERATION_MIN_CHANGE = 0.01;
/** Differences this small relative to the numbers involved are floating-point rounding, not data. */
export const NUMERIC_EPS = 1e-9;
export const ACCELERATION_SPAN: Record<"monthly" | "quarterly" | "annual", number> = {
  monthly: 6,
  quarterly: 2,
  annual: 1,
};
export const BREAK_MIN_SEGMENT: Record<"monthly" | "quarterly" | "annual", number> = {
  monthly: 6,
  quarterly: 3,
  annual: 3,
};
export const BREAK_PENALTY_BIC = 2;
/** How long after a break the trend_break condition holds (unless another break comes first): a year. */
export const BREAK_FRESH: Record<"monthly" | "quarterly" | "annual", number> = { monthly: 12, quarterly: 4, annual: 1 };
export const SAHM_THRESHOLD = 0.5;
export const SAHM_STRONG = 1.0;
export const INVERSION_MIN_OBSERVATIONS = 3;
export const INVERSION_GAP = 10;

const YOY_LAG: Record<"monthly" | "quarterly" | "annual", number> = { monthly: 12, quarterly: 4, annual: 1 };

function strengthOf(z: number, weak: number, neutral: number, strong: number): Strength | null {
  const a = Math.abs(z);
  return a >= strong ? "strong" : a >= neutral ? "neutral" : a >= weak ? "weak" : null;
}

/**
 * For each i, the first index of its trailing baseline among `dates` (those within BASELINE_YEARS before dates[i],
 * extended back to at least MIN_BASELINE values), never below `floor`. Two pointers: linear.
 */
function baselineStarts(dates: readonly string[], floor: number): number[] {
  const out = new Array<number>(dates.length);
  let j = floor;
  for (let i = 0; i < dates.length; i++) {
    const from = addYears(dates[i], -BASELINE_YEARS);
    while (j < i && dates[j] < from) j++;
    out[i] = Math.max(floor, Math.min(j, i - MIN_BASELINE));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// extreme

export function extremeStates(pts: readonly Valued[], profile: SeriesProfile): StateSeries {
  const n = pts.length;
  const dates = pts.map((p) => p.date);
  const states: State[] = new Array(n).fill(null);
  const log = !profile.additive;
  const moves = new Float64Array(n);
  for (let i = 1; i < n; i++)
    moves[i] = log ? Math.log(pts[i].value / pts[i - 1].value) : pts[i].value - pts[i - 1].value;
  const threshold = EXTREME_Z[profile.frequency];
  const lo = baselineStarts(dates, 1);
  const window = new RollingRobust(256);
  let from = 1;
  for (let i = 1; i < n; i++) {
    // The window holds moves[lo[i] .. i - 1].
    if (i > 1) window.add(moves[i - 1]);
    for (; from < lo[i]; from++) window.remove(moves[from]);
    if (i - lo[i] < MIN_BASELINE) continue;
    const s = window.scale();
    if (!s) continue;
    // A steady series' moves differ only by rounding: nothing there is unusual.
    if (Math.abs(moves[i] - s.centre) <= NUMERIC_EPS * (log ? 1 : 1 + Math.abs(pts[i - 1].value))) continue;
    const z = (moves[i] - s.centre) / s.scale;
    const strength = strengthOf(z, threshold, 1.5 * threshold, 3 * threshold);
    if (!strength) continue;
    states[i] = {
      direction: moves[i] > s.centre ? "up" : "down",
      strength,
      score: Math.abs(z),
      evidence: {
        statistic: "robust_z",
        date: dates[i],
        z: clean(z),
        threshold,
        measure: log ? "percent_change" : "change",
        move: clean(log ? (Math.exp(moves[i]) - 1) * 100 : moves[i]),
        from_value: pts[i - 1].value,
        to_value: pts[i].value,
        baseline_moves: i - lo[i],
        baseline_from: dates[lo[i]],
        baseline_median: clean(log ? (Math.exp(s.centre) - 1) * 100 : s.centre),
        baseline_scale: clean(log ? s.scale * 100 : s.scale),
      },
    };
  }
  return { dates, states, frequency: profile.frequency };
}

// ---------------------------------------------------------------------------------------------------------------
// The working series of acceleration and trend breaks: monthly means for daily and weekly data.

type Coarse = "monthly" | "quarterly" | "annual";

export function workingSeries(pts: readonly Valued[], frequency: Frequency): { pts: Valued[]; frequency: Coarse } {
  if (frequency !== "daily" && frequency !== "weekly") return { pts: pts as Valued[], frequency };
  const monthly = bucketsAsPoints(resample(pts, frequency, "monthly", "mean").buckets);
  return { pts: monthly.filter((p): p is Point & Valued => p.value !== null), frequency: "monthly" };
}

/**
 * g(t) = year-over-year change, by calendar period: percent for positive levels, difference when additive. Indexed
 * by period from the first observation's (NaN where a period or its comparator has no value): arrays, not maps, since
 * this runs over a million observations per indicator.
 */
function yearOverYear(
  pts: readonly Valued[],
  frequency: Coarse,
  additive: boolean,
): { first: number; g: Float64Array; index: Int32Array } {
  const unit = FREQUENCY_UNIT[frequency];
  const index = new Int32Array(pts.length);
  for (let i = 0; i < pts.length; i++) index[i] = periodIndex(pts[i].date, unit);
  const first = pts.length ? index[0] : 0;
  const span = pts.length ? index[pts.length - 1] - first + 1 : 0;
  const at = new Float64Array(span).fill(NaN);
  for (let i = 0; i < pts.length; i++) at[index[i] - first] = pts[i].value;
  const g = new Float64Array(span).fill(NaN);
  const lag = YOY_LAG[frequency];
  for (let k = lag; k < span; k++) {
    const v = at[k];
    const c = at[k - lag];
    if (Number.isNaN(v) || Number.isNaN(c)) continue;
    if (additive) g[k] = v - c;
    else if (c > 0) g[k] = ((v - c) / c) * 100;
  }
  for (let i = 0; i < index.length; i++) index[i] -= first;
  return { first, g, index };
}

// ---------------------------------------------------------------------------------------------------------------
// acceleration

export function accelerationStates(all: readonly Valued[], profile: SeriesProfile): StateSeries {
  const { pts, frequency } = workingSeries(all, profile.frequency);
  const span = ACCELERATION_SPAN[frequency];
  const { g, index } = yearOverYear(pts, frequency, profile.additive);
  const at = (k: number) => (k >= 0 && k < g.length ? g[k] : NaN);
  // a(t) = g(t) - g(t - span), on the observations that have both (i: the observation's position in pts).
  const rows: { i: number; k: number; a: number }[] = [];
  for (let i = 0; i < pts.length; i++) {
    const a = at(index[i]) - at(index[i] - span);
    if (!Number.isNaN(a)) rows.push({ i, k: index[i], a });
  }
  const dates = pts.map((p) => p.date);
  const states: State[] = new Array(pts.length).fill(null);
  const rowDates = rows.map((r) => dates[r.i]);
  const lo = baselineStarts(rowDates, 0);
  const agree = Math.ceil((2 * span) / 3);
  const window = new RollingRobust(256);
  let from = 0;
  for (let r = 0; r < rows.length; r++) {
    // The window holds a of rows[lo[r] .. r - 1].
    if (r > 0) window.add(rows[r - 1].a);
    for (; from < lo[r]; from++) window.remove(rows[from].a);
    if (r - lo[r] < MIN_BASELINE) continue;
    const s = window.scale();
    if (!s) continue;
    if (Math.abs(rows[r].a - s.centre) < ACCELERATION_MIN_CHANGE) continue;
    const z = (rows[r].a - s.centre) / s.scale;
    const strength = strengthOf(z, ACCELERATION_Z, 3, 4.5);
    if (!strength) continue;
    const up = z > 0;
    let same = 0;
    for (let k = rows[r].k - span + 1; k <= rows[r].k; k++) {
      const a = at(k);
      const b = at(k - 1);
      if (up ? a > b : a < b) same++;
    }
    if (same < agree) continue;
    states[rows[r].i] = {
      direction: up ? "up" : "down",
      strength,
      score: Math.abs(z),
      evidence: {
        statistic: "robust_z",
        date: dates[rows[r].i],
        z: clean(z),
        threshold: ACCELERATION_Z,
        growth: profile.additive ? "year_over_year_change" : "year_over_year_percent",
        growth_now: clean(at(rows[r].k)),
        growth_before: clean(at(rows[r].k - span)),
        span_periods: span,
        span_frequency: frequency,
        persistent_periods: same,
        baseline_values: r - lo[r],
        baseline_from: rowDates[lo[r]],
      },
    };
  }
  return { dates, states, frequency };
}

// ---------------------------------------------------------------------------------------------------------------
// trend_break

export function trendBreakStates(all: readonly Valued[], profile: SeriesProfile): StateSeries {
  const { pts, frequency } = workingSeries(all, profile.frequency);
  const dates = pts.map((p) => p.date);
  const states: State[] = new Array(pts.length).fill(null);
  const out = { dates, states, frequency };
  const minSegment = BREAK_MIN_SEGMENT[frequency];
  if (pts.length < 2 * minSegment + 1) return out;
  // Growth into observation i (i >= 1), in percent for levels.
  const x: number[] = [];
  for (let i = 1; i < pts.length; i++)
    x.push(profile.additive ? pts[i].value - pts[i - 1].value : 100 * Math.log(pts[i].value / pts[i - 1].value));
  if (profile.seasonalAdjustment === "NSA" && frequency !== "annual")
    removeSeasonalMedians(x, dates.slice(1), frequency);
  const noise = robustScale(x);
  // Growth constant up to rounding (a steady exponential or linear series) has no break.
  if (!noise || noise.scale <= NUMERIC_EPS * Math.abs(noise.centre)) return out;
  const sigma = noise.scale;
  const penalty = BREAK_PENALTY_BIC * sigma * sigma * Math.log(x.length);
  const { segments } = pelt(x, penalty, minSegment);
  const trendSign = (mean: number, len: number) =>
    Math.abs(mean) > (2 * sigma) / Math.sqrt(len) ? Math.sign(mean) : 0;
  const measure = profile.additive ? `${frequency} change` : `${frequency} percent change (log)`;
  for (let j = 1; j < segments.length; j++) {
    const before = segments[j - 1];
    const after = segments[j];
    const shift = after.mean - before.mean;
    const sb = trendSign(before.mean, before.end - before.start);
    const sa = trendSign(after.mean, after.end - after.start);
    const strength: Strength =
      sb !== 0 && sa !== 0 && sb !== sa ? "strong" : Math.abs(shift) >= sigma ? "neutral" : "weak";
    const state: State = {
      direction: shift > 0 ? "up" : "down",
      strength,
      score: Math.abs(shift) / sigma,
      evidence: {
        method: "PELT, change in mean, squared-error cost, BIC penalty",
        measure,
        break_date: dates[after.start + 1],
        mean_before: clean(before.mean),
        mean_after: clean(after.mean),
        before_from: dates[before.start + 1],
        before_to: dates[before.end],
        turning_point: sb !== 0 && sa !== 0 && sb !== sa,
        sigma: clean(sigma),
        penalty: clean(penalty),
        min_segment: minSegment,
      },
    };
    // x[k] is the growth into pts[k + 1]; the break is news for BREAK_FRESH periods.
    const until = Math.min(after.end, after.start + BREAK_FRESH[frequency]);
    for (let k = after.start; k < until; k++) states[k + 1] = state;
  }
  return out;
}

/** Subtracts each calendar period's (month's, quarter's, week's) median growth: a crude seasonal adjustment. */
function removeSeasonalMedians(x: number[], dates: readonly string[], frequency: Coarse): void {
  const slots = frequency === "monthly" ? 12 : 4;
  const slotOf = (d: string) =>
    frequency === "monthly" ? Number(d.slice(5, 7)) - 1 : Math.floor((Number(d.slice(5, 7)) - 1) / 3);
  const bySlot: number[][] = Array.from({ length: slots }, () => []);
  x.forEach((v, i) => bySlot[slotOf(dates[i])].push(v));
  const medians = bySlot.map((vs) => (vs.length ? median(vs) : 0));
  for (let i = 0; i < x.length; i++) x[i] -= medians[slotOf(dates[i])];
}
