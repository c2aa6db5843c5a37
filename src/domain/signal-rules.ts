// Named rules: where economists have a rule of their own, it replaces the generic detector of its type
// (signal-detectors.ts); same state shape, so intervals are built alike (signals.ts).
// - Sahm rule (trend_break, up), for monthly seasonally adjusted unemployment rates (the unemployment_rate concept's
//   series: UNRATE, LASST03): the three-month average at least 0.50 points above its low of the previous 12 months
//   (derived.ts sahmRule). Strength: neutral from 0.50, strong from 1.00.
// - Yield-curve inversion (extreme, down), for the 10-year minus 2-year Treasury spread (T10Y2Y): the spread below
//   zero. Episodes join inverted observations separated by fewer than 10 non-inverted ones and need at least 3
//   inverted observations (a day or two below zero is noise; August 2019's three days made the news); an episode ends at the first of 10 non-inverted
//   observations in a row. Strength by its depth so far: weak above -0.10, neutral to -0.50, strong from -0.50.
import { periodIndex, type Frequency } from "./calendar";
import { CONCEPTS } from "./concepts";
import { sahmRule } from "./derived";
import { clean } from "./robust";
import {
  INVERSION_GAP,
  INVERSION_MIN_OBSERVATIONS,
  SAHM_STRONG,
  SAHM_THRESHOLD,
  type SeriesProfile,
  type State,
  type StateSeries,
  type Valued,
} from "./signal-detectors";

export type NamedRule = "sahm_rule" | "yield_curve_inversion";

/** The named rule that replaces the generic detector of `type` for this series, if any. */
export function namedRuleFor(
  profile: SeriesProfile,
  type: "extreme" | "trend_break" | "acceleration",
): NamedRule | null {
  if (type === "trend_break" && profile.frequency === "monthly" && profile.seasonalAdjustment === "SA") {
    const concept = CONCEPTS.unemployment_rate;
    const curated = concept.type === "series" ? Object.values(concept.levels).flat() : [];
    if (curated.some((c) => c!.indicator === profile.code && c!.source === profile.source)) return "sahm_rule";
  }
  if (type === "extreme" && profile.code === "T10Y2Y" && profile.source === "fred") return "yield_curve_inversion";
  return null;
}

export function sahmStates(pts: readonly Valued[]): StateSeries {
  const sahm = sahmRule(pts);
  const at = new Map(pts.map((p) => [periodIndex(p.date, "month"), p.value]));
  const states: State[] = sahm.map((p) => {
    if (p.value === null || p.value < SAHM_THRESHOLD - 1e-9) return null;
    const k = periodIndex(p.date, "month");
    const m3 = (at.get(k)! + at.get(k - 1)! + at.get(k - 2)!) / 3;
    return {
      direction: "up",
      strength: p.value >= SAHM_STRONG - 1e-9 ? "strong" : "neutral",
      score: p.value,
      evidence: {
        rule: "sahm_rule",
        statistic: clean(p.value),
        threshold: SAHM_THRESHOLD,
        three_month_average: clean(m3),
        low_of_previous_12_months: clean(m3 - p.value),
      },
    };
  });
  return { dates: pts.map((p) => p.date), states, frequency: "monthly" };
}

export function inversionStates(pts: readonly Valued[], frequency: Frequency): StateSeries {
  const n = pts.length;
  const states: State[] = new Array(n).fill(null);
  let i = 0;
  while (i < n) {
    if (pts[i].value >= 0) {
      i++;
      continue;
    }
    // An episode: from the first inverted observation until INVERSION_GAP non-inverted ones in a row.
    const start = i;
    let lastInverted = i;
    let inverted = 0;
    let j = i;
    while (j < n && j - lastInverted <= INVERSION_GAP) {
      if (pts[j].value < 0) {
        lastInverted = j;
        inverted++;
      }
      j++;
    }
    // Closed when INVERSION_GAP non-inverted observations followed; else still open at the series' end.
    const end = j - lastInverted > INVERSION_GAP ? lastInverted + 1 : n;
    if (inverted >= INVERSION_MIN_OBSERVATIONS) {
      let deepest = pts[start];
      for (let k = start; k < end; k++) {
        if (pts[k].value < deepest.value) deepest = pts[k];
        const depth = deepest.value;
        states[k] = {
          direction: "down",
          strength: depth <= -0.5 ? "strong" : depth <= -0.1 ? "neutral" : "weak",
          score: -depth,
          evidence: {
            rule: "yield_curve_inversion",
            statistic: depth,
            threshold: 0,
            deepest_date: deepest.date,
            inverted_observations: inverted,
          },
        };
      }
    }
    i = end;
  }
  return { dates: pts.map((p) => p.date), states, frequency };
}
