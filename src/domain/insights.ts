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
// Each fact is built by insight-facts.ts, from the shapes and the context of insight-context.ts.
import {
  context,
  FACT_KINDS,
  type FactKind,
  type InsightFact,
  type InsightSeries,
  type PeerValues,
} from "./insight-context";
import { latestDeltaFact, longestRunFact, peerRankFact, trendFact, watermarkFact } from "./insight-facts";
import type { Point } from "./series";
import { windowStart, type Window } from "./window";

export type Insights = {
  facts: InsightFact[];
  observationCount: number;
  windowStart: string | null;
  windowEnd: string | null;
};

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
  if (pts.length >= 2)
    facts.push(latestDeltaFact(ctx), watermarkFact(ctx, "high"), watermarkFact(ctx, "low"), longestRunFact(ctx));
  if (peers) {
    const f = peerRankFact(ctx, peers);
    if (f) facts.push(f);
  }
  const order = (k: FactKind) => -FACT_KINDS.indexOf(k);
  facts.sort((a, b) => b.salience - a.salience || order(b.kind) - order(a.kind));
  return { facts, observationCount: pts.length, windowStart: pts[0].date, windowEnd: latest.date };
}
