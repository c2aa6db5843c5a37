// Insight facts over one series and a window (spec "InsightFact", "GET /v1/insights"): deterministic for the same
// data and window. Definitions:
// - The window is anchored at the latest observation with a value (window.ts). Facts read the observations in it
//   that have a value; a missing value (null) is skipped, so "consecutive" means consecutive valued observations.
//   observation_count counts those observations.
// - A move is the difference between consecutive valued observations. The typical move is robust (robust.ts): the
//   median move and 1.4826 * MAD of the moves.
//
// Facts (params are typed per kind; humanTemplate names params keys in braces; text fills them in for people):
// - trend (at least 3 observations): ordinary least squares of value on time in years (simple-statistics
//   linearRegression), slope = change per year in the series' unit; percent per year = 100 * (e^b - 1) with b the
//   least-squares slope of ln(value) on time, the compound annual rate, only when every value is positive and the
//   values are a level or an index (value-kinds.ts: a rate's change is in percentage points; a change already
//   computed, such as GDP growth or population change, is never given a percent change). R² from the linear fit; below 0.1 the trend is
//   "flat" (the line explains almost nothing).
// - latest_delta (at least 2): latest against the previous valued observation, absolute and percent (percent only
//   when the previous value is positive and the values are a level or an index), with both dates; robust_z = (move - median move) / robust scale of the
//   window's other moves (null under 5 other moves, too few to judge).
// - watermark_high_distance / watermark_low_distance (at least 2): the window's high (low), the date it was first
//   reached, and the latest value's distance from it, absolute and percent (percent only for a positive high/low
//   of a level or an index).
// - longest_run (at least 2): the longest streak of consecutive rises or falls (an unchanged value ends a streak;
//   on a tie the most recent streak), and whether the current streak (ending at the latest observation) is it.
// - peer_rank: the latest value's rank among peer regions with a value on the same date (counties within their
//   state, states, countries; given by the caller), 1 = highest; equal values share a rank ("tied for 3rd").
//
// Salience (0..1, 3 decimals; facts ranked by it, then by the kind order above reversed: news first):
// - cred(n) = n / (n + 5): a record among 3 observations means less than one among 300.
// - latest_delta: 1 / (1 + e^(-1.5 (|z| - 2))) with z its robust_z: an ordinary move (|z| about 0.7) scores about
//   0.12, a 2-sigma move 0.5, a 3.5-sigma move 0.9; 0.1 when z cannot be judged.
// - watermark: q^4 * cred(n), q = the share of the window's other observations strictly below (above, for the low)
//   the latest: a record scores cred(n), a median value 0.06 * cred(n).
// - longest_run: (1 - 0.5^(L - 2)) * cred(n), L the run's length, when the current run is the longest; 0.2 times
//   that when the longest run is past (background). Runs of 2 or less score 0.
// - peer_rank: e^4 * cred(N), e = 1 - 2 * min(rank - 1, N - rank) / (N - 1): 1 at either end, 0 in the middle.
// - trend: 0.6 * R² * cred(n): context, never headline news on its own.
import { linearRegression } from "simple-statistics";
import { dayNumber, type Frequency } from "./calendar";
import {
  atDate, decimalsOf, formatChange, formatDate, formatPercent, formatValue, ordinal, periodNoun, renderTemplate,
  seriesSubject, toneOf, type Direction, type Tone,
} from "./prose";
import { clean, robustScale } from "./robust";
import type { Point } from "./series";
import { formatWindow, windowSpanPhrase, windowStart, type Window } from "./window";
import { inferValueSpec, percentChangeApplies, type ValueSpec } from "./value-kinds";

export const FACT_KINDS = ["trend", "latest_delta", "watermark_high_distance", "watermark_low_distance", "longest_run", "peer_rank"] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export type InsightFact = { kind: FactKind; params: Record<string, unknown>; humanTemplate: string; text: string; salience: number };

/** What the facts are about. `place` is the region as prose names it ("Texas", "the United States"). */
export type InsightSeries = {
  points: readonly Point[];
  frequency: Frequency;
  unit: string | null;
  upIsGood: boolean | null;
  indicatorName: string;
  place: string;
  /** What the values are (the catalog's meta.values); read from the unit when not given. */
  values?: ValueSpec;
};

/** Values of the peer regions (the region itself included) on one date; `noun` names them all: "the 50 states and DC". */
export type PeerValues = { date: string; region: string; noun: string; values: readonly { region: string; value: number }[] };

export type Insights = { facts: InsightFact[]; observationCount: number; windowStart: string | null; windowEnd: string | null };

export const TREND_MIN_R2 = 0.1;
export const DAYS_PER_YEAR = 365.2425;
const MIN_MOVES_TO_JUDGE = 5;
const UNUSUAL_MOVE_Z = 3.5;

const cred = (n: number) => n / (n + 5);
const round3 = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/** Every fact that the window's data supports, ranked by salience. */
export function computeInsights(series: InsightSeries, window: Window, peers: PeerValues | null = null): Insights {
  const all = series.points.filter((p): p is Point & { value: number } => p.value !== null);
  if (all.length === 0) return { facts: [], observationCount: 0, windowStart: null, windowEnd: null };
  const latest = all[all.length - 1];
  const start = windowStart(window, latest.date);
  const pts = start === null ? all : all.filter((p) => p.date >= start);
  const ctx = context(series, window, pts);
  const facts: InsightFact[] = [];
  if (pts.length >= 3) facts.push(trendFact(ctx));
  if (pts.length >= 2) facts.push(latestDeltaFact(ctx), watermarkFact(ctx, "high"), watermarkFact(ctx, "low"), longestRunFact(ctx));
  if (peers) {
    const f = peerRankFact(ctx, peers);
    if (f) facts.push(f);
  }
  const order = (k: FactKind) => -FACT_KINDS.indexOf(k);
  facts.sort((a, b) => b.salience - a.salience || order(b.kind) - order(a.kind));
  return { facts, observationCount: pts.length, windowStart: pts[0].date, windowEnd: latest.date };
}

type Valued = { date: string; value: number };
type Ctx = {
  s: InsightSeries;
  pts: Valued[];
  n: number;
  latest: Valued;
  decimals: number;
  rate: boolean;
  subject: string;
  /** "since the series began in January 2000" / "over the past 5 years". */
  period: string;
  window: string;
  /** Value as people read it. */
  v: (x: number) => string;
  d: (x: number) => string;
  at: (date: string) => string;
};

function context(s: InsightSeries, window: Window, pts: Valued[]): Ctx {
  const decimals = decimalsOf(pts.map((p) => p.value));
  return {
    s,
    pts,
    n: pts.length,
    latest: pts[pts.length - 1],
    decimals,
    // Percent changes only of a level or an index: a rate moves in points, a computed change is not changed again.
    rate: !percentChangeApplies(s.values ?? inferValueSpec(s.unit)),
    subject: seriesSubject(s.indicatorName, s.place),
    period: window.kind === "all" ? `since ${formatDate(pts[0].date, s.frequency)}` : `over ${windowSpanPhrase(window)}`,
    window: formatWindow(window),
    v: (x) => formatValue(x, s.unit, decimals),
    d: (x) => formatChange(x, s.unit, decimals),
    at: (date) => atDate(date, s.frequency),
  };
}

function fact(kind: FactKind, params: Record<string, unknown>, template: string, display: Record<string, string>, salience: number): InsightFact {
  return { kind, params, humanTemplate: template, text: renderTemplate(template, display), salience: round3(salience) };
}

function pct(x: number, base: number): number | null {
  return base > 0 ? clean(((x - base) / base) * 100) : null;
}

const directionOf = (dx: number): Direction | "flat" => (dx > 0 ? "up" : dx < 0 ? "down" : "flat");
const toneFor = (dir: Direction | "flat", upIsGood: boolean | null): Tone => toneOf(dir === "flat" ? null : dir, upIsGood);

// ---------------------------------------------------------------------------------------------------------------

function trendFact(c: Ctx): InsightFact {
  const t0 = dayNumber(c.pts[0].date);
  const xy = c.pts.map((p) => [(dayNumber(p.date) - t0) / DAYS_PER_YEAR, p.value]);
  const { m, b } = linearRegression(xy);
  const mean = c.pts.reduce((a, p) => a + p.value, 0) / c.n;
  let ssRes = 0;
  let ssTot = 0;
  for (const [x, y] of xy) {
    ssRes += (y - (m * x + b)) ** 2;
    ssTot += (y - mean) ** 2;
  }
  const r2 = ssTot === 0 ? 0 : Math.max(0, 1 - ssRes / ssTot);
  let percentPerYear: number | null = null;
  if (!c.rate && c.pts.every((p) => p.value > 0)) {
    const fit = linearRegression(xy.map(([x, y]) => [x, Math.log(y)]));
    percentPerYear = clean((Math.exp(fit.m) - 1) * 100);
  }
  const direction: Direction | "flat" = r2 < TREND_MIN_R2 || m === 0 ? "flat" : m > 0 ? "up" : "down";
  const tone = toneFor(direction, c.s.upIsGood);
  const params = {
    subject: c.subject,
    method: "ordinary least squares of value on time in years",
    direction,
    slope_per_year: clean(m),
    percent_per_year: percentPerYear,
    r_squared: clean(r2),
    observations: c.n,
    start_date: c.pts[0].date,
    end_date: c.latest.date,
    period: c.period,
    tone,
  };
  const display = {
    subject: c.subject,
    slope_per_year: c.d(m),
    percent_per_year: percentPerYear === null ? "" : formatPercent(Math.abs(percentPerYear)),
    r_squared: r2.toFixed(2),
    observations: String(c.n),
    frequency: c.s.frequency,
    period: c.period,
    assessment: tone === "positive" ? ", an improving trend" : tone === "negative" ? ", a worsening trend" : "",
  };
  const how = "(least-squares fit over {observations} {frequency} observations, R² {r_squared})";
  const template =
    direction === "flat"
      ? `{subject} has shown no clear trend {period} ${how}.`
      : percentPerYear !== null
        ? `{subject} has ${direction === "up" ? "grown" : "declined"} by about {percent_per_year} a year {period} ({slope_per_year} a year){assessment} ${how}.`
        : `{subject} has ${direction === "up" ? "risen" : "fallen"} by about {slope_per_year} a year {period}{assessment} ${how}.`;
  return fact("trend", params, template, display, 0.6 * r2 * cred(c.n));
}

function latestDeltaFact(c: Ctx): InsightFact {
  const prev = c.pts[c.n - 2];
  const change = clean(c.latest.value - prev.value);
  const moves: number[] = [];
  for (let i = 1; i < c.n - 1; i++) moves.push(c.pts[i].value - c.pts[i - 1].value);
  const scale = moves.length >= MIN_MOVES_TO_JUDGE ? robustScale(moves) : null;
  const z = scale ? clean((change - scale.centre) / scale.scale) : null;
  // A rate or a computed change is never given a percent change, in the text or the params.
  const changePercent = c.rate ? null : pct(c.latest.value, prev.value);
  const direction = directionOf(change);
  const params = {
    subject: c.subject,
    date: c.latest.date,
    value: c.latest.value,
    previous_date: prev.date,
    previous_value: prev.value,
    change,
    change_percent: changePercent,
    direction,
    robust_z: z,
    tone: toneFor(direction, c.s.upIsGood),
  };
  const display = {
    subject: c.subject,
    date: c.at(c.latest.date),
    value: c.v(c.latest.value),
    previous_date: c.at(prev.date),
    previous_value: c.v(prev.value),
    change: c.d(change),
    change_percent: changePercent === null ? "" : formatPercent(Math.abs(changePercent)),
    unusual: z !== null && Math.abs(z) >= UNUSUAL_MOVE_Z ? `, an unusually large move for this series (${Math.abs(z).toFixed(1)} times its typical deviation)` : "",
  };
  const verb = direction === "up" ? "rose" : "fell";
  const template =
    direction === "flat"
      ? "{subject} was unchanged at {value} {date}."
      : !c.rate && changePercent !== null
        ? `{subject} ${verb} {change_percent} ({change}) to {value} {date}, from {previous_value} {previous_date}{unusual}.`
        : `{subject} ${verb} {change} to {value} {date}, from {previous_value} {previous_date}{unusual}.`;
  const salience = z === null ? 0.1 : 1 / (1 + Math.exp(-1.5 * (Math.abs(z) - 2)));
  return fact("latest_delta", params, template, display, salience);
}

function watermarkFact(c: Ctx, side: "high" | "low"): InsightFact {
  const better = side === "high" ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
  let mark = c.pts[0];
  for (const p of c.pts) if (better(p.value, mark.value)) mark = p;
  const others = c.n - 1;
  let beyond = 0;
  for (let i = 0; i < others; i++) if (better(c.latest.value, c.pts[i].value)) beyond++;
  const q = others > 0 ? beyond / others : 0;
  const atMark = c.latest.value === mark.value;
  const distance = clean(Math.abs(c.latest.value - mark.value));
  const distancePercent = !c.rate && mark.value > 0 ? clean((distance / mark.value) * 100) : null;
  // A value at the window's extreme is the worst or best reading when the indicator has a polarity.
  const tone = atMark ? toneOf(side === "high" ? "up" : "down", c.s.upIsGood) : "neutral";
  const kind: FactKind = side === "high" ? "watermark_high_distance" : "watermark_low_distance";
  const params = {
    subject: c.subject,
    value: c.latest.value,
    date: c.latest.date,
    [side]: mark.value,
    [`${side}_date`]: mark.date,
    distance,
    distance_percent: distancePercent,
    at_extreme: atMark,
    new_extreme: atMark && mark.date === c.latest.date,
    share_beyond: clean(q),
    period: c.period,
    tone,
  };
  const display = {
    subject: c.subject,
    value: c.v(c.latest.value),
    date: c.at(c.latest.date),
    [side]: c.v(mark.value),
    [`${side}_date`]: c.at(mark.date),
    distance: c.d(distance),
    distance_percent: distancePercent === null ? "" : ` (${formatPercent(distancePercent)})`,
    period: c.period,
    assessment: tone === "positive" ? ": the best reading in that time" : tone === "negative" ? ": the worst reading in that time" : "",
  };
  const word = side === "high" ? "highest" : "lowest";
  const template = !atMark
    ? `{subject}, at {value} {date}, is {distance}{distance_percent} ${side === "high" ? "below" : "above"} the ${word} reading {period}, {${side}} {${side}_date}.`
    : mark.date === c.latest.date
      ? `{subject}, at {value} {date}, is at its ${word} {period}{assessment}.`
      : `{subject}, at {value} {date}, matches its ${word} {period}, first reached {${side}_date}{assessment}.`;
  return fact(kind, params, template, display, q ** 4 * cred(c.n));
}

type Run = { length: number; direction: Direction; start: string; end: string };

function longestRunFact(c: Ctx): InsightFact {
  let longest = null as Run | null;
  let cur = null as Run | null;
  for (let i = 1; i < c.n; i++) {
    const dir = directionOf(c.pts[i].value - c.pts[i - 1].value);
    if (dir === "flat") cur = null;
    else {
      const prev: Run | null = cur;
      cur = prev && prev.direction === dir ? { length: prev.length + 1, direction: dir, start: prev.start, end: c.pts[i].date } : { length: 1, direction: dir, start: c.pts[i].date, end: c.pts[i].date };
    }
    // `>=`: on a tie the most recent run is the longest.
    if (cur && (!longest || cur.length >= longest.length)) longest = cur;
  }
  const current = cur && cur.end === c.latest.date ? cur : null;
  const isCurrent = !!longest && !!current && longest.start === current.start;
  const unit = periodNoun(c.s.frequency);
  const params = {
    subject: c.subject,
    longest_length: longest?.length ?? 0,
    longest_direction: longest?.direction ?? null,
    longest_start: longest?.start ?? null,
    longest_end: longest?.end ?? null,
    current_length: current?.length ?? 0,
    current_direction: current?.direction ?? null,
    current_is_longest: isCurrent,
    period: c.period,
    tone: current ? toneOf(current.direction, c.s.upIsGood) : "neutral",
  };
  const display = {
    subject: c.subject,
    longest_length: String(longest?.length ?? 0),
    longest_start: longest ? formatDate(longest.start, c.s.frequency) : "",
    longest_end: longest ? formatDate(longest.end, c.s.frequency) : "",
    current_length: String(current?.length ?? 0),
    current_start: current ? formatDate(current.start, c.s.frequency) : "",
    latest_date: formatDate(c.latest.date, c.s.frequency),
    period: c.period,
  };
  const plural = periodNoun(c.s.frequency, 2);
  const moves = (d: Direction, n: number) => `${d === "up" ? "rise" : "fall"}${n === 1 ? "" : "s"}`;
  const verb = (d: Direction) => (d === "up" ? "risen" : "fallen");
  let template: string;
  if (!longest) template = "{subject} has not changed {period}.";
  else if (isCurrent && longest.length === 1) template = `{subject} has not risen or fallen two ${plural} in a row {period}.`;
  else if (isCurrent) {
    template = `{subject} has ${verb(longest.direction)} for {current_length} consecutive ${plural}, from {current_start} to {latest_date}: its longest run of ${moves(longest.direction, 2)} {period}.`;
  } else {
    const now = !current
      ? "{subject} was unchanged in the latest reading"
      : current.length === 1
        ? `{subject} has ${verb(current.direction)} in the latest ${unit}`
        : `{subject} has ${verb(current.direction)} for {current_length} ${plural} in a row`;
    const span = longest.length === 1 ? "in {longest_start}" : "from {longest_start} to {longest_end}";
    template = `${now}; its longest run {period} was {longest_length} consecutive ${moves(longest.direction, longest.length)}, ${span}.`;
  }
  const len = isCurrent ? longest!.length : (longest?.length ?? 0);
  const base = len > 2 ? 1 - 0.5 ** (len - 2) : 0;
  return fact("longest_run", params, template, display, (isCurrent ? 1 : 0.2) * base * cred(c.n));
}

function peerRankFact(c: Ctx, peers: PeerValues): InsightFact | null {
  const N = peers.values.length;
  const own = peers.values.find((p) => p.region === peers.region);
  if (N < 2 || !own || peers.date !== c.latest.date) return null;
  const higher = peers.values.filter((p) => p.value > own.value).length;
  const lower = peers.values.filter((p) => p.value < own.value).length;
  const tied = N - higher - lower > 1;
  // Competition ranking from the nearer end: "3rd highest" or "2nd lowest".
  const fromTop = higher + 1;
  const fromBottom = lower + 1;
  const position: "highest" | "lowest" = fromTop <= fromBottom ? "highest" : "lowest";
  const rank = position === "highest" ? fromTop : fromBottom;
  const e = 1 - (2 * Math.min(fromTop - 1, N - fromTop)) / (N - 1);
  const tone = rank === 1 ? toneOf(position === "highest" ? "up" : "down", c.s.upIsGood) : "neutral";
  const params = {
    subject: c.subject,
    value: own.value,
    date: peers.date,
    rank_from_top: fromTop,
    rank,
    position,
    of: N,
    peers: peers.noun,
    tied,
    tone,
  };
  const display = {
    subject: c.subject,
    value: c.v(own.value),
    date: c.at(peers.date),
    rank: `${tied ? "tied for " : ""}the ${rank === 1 ? "" : `${ordinal(rank)} `}${position}`,
    of: String(N),
    peers: peers.noun,
    assessment: tone === "positive" ? ": the best among them" : tone === "negative" ? ": the worst among them" : "",
  };
  const template = "{subject}, at {value}, was {rank} among {peers} {date}{assessment}.";
  return fact("peer_rank", params, template, display, e ** 4 * cred(N));
}

