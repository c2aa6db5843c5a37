// Freshness: how current a series is, as of a given date (the caller's clock; never read here).
//
// Definitions:
// - newest period: the date of the series' newest observation with a value (a stored missing value, a month an
//   agency never published or a placeholder for one not yet out, tells nothing newer).
// - cadence: the series' frequency, the rhythm at which a new period is expected.
// - periods behind: periodIndex(as_of) − periodIndex(newest period), in the series' own period unit (ISO weeks,
//   months, quarters, years; days for daily series). A monthly series whose newest month is August is 3 months behind
//   anywhere in November.
// - allowance: how many periods behind a series may be and still be on schedule, the publication lag of its kind:
//     daily 7 days (weekends, holidays, a few days' lag), weekly 3 weeks (claims come out about 5 days after the week),
//     monthly 3 months (a quarter: jobs and prices come out within weeks, state data within two months),
//     quarterly 2 quarters (GDP's advance estimate comes a month after the quarter, revisions later),
//     annual 2 years (ACS and county data come out a year or more after the year).
// - stale: periods behind > allowance. stale_from is the first day on which it is stale: the start of the period
//   allowance + 1 after the newest one (a monthly series ending in August is stale from 1 December).
// - freshest of several series: the one whose newest period ends latest (freshestIndex).
import { FREQUENCY_UNIT, periodEnd, periodIndex, periodStartOfIndex, type Frequency } from "./calendar";

export const FRESHNESS_ALLOWANCE: Record<Frequency, number> = {
  daily: 7,
  weekly: 3,
  monthly: 3,
  quarterly: 2,
  annual: 2,
};

export type Freshness = {
  /** The newest period with a value (YYYY-MM-DD, its first day as stored). */
  newest_period: string;
  /** The expected cadence: the series' frequency. */
  cadence: Frequency;
  /** Whole periods between the newest period and the period containing the as-of date (never below 0). */
  periods_behind: number;
  /** The most periods behind a series of this cadence may be and still be current. */
  max_periods_behind: number;
  /** Behind schedule for its cadence: periods_behind > max_periods_behind. */
  stale: boolean;
  /** The first day on which the series is stale unless a newer period arrives. */
  stale_from: string;
};

/** The freshness of a series whose newest period is `newest`, as of the date `asOf` (YYYY-MM-DD). */
export function freshnessOf(newest: string, cadence: Frequency, asOf: string): Freshness {
  const unit = FREQUENCY_UNIT[cadence];
  const allowance = FRESHNESS_ALLOWANCE[cadence];
  const newestIndex = periodIndex(newest, unit);
  const behind = Math.max(0, periodIndex(asOf, unit) - newestIndex);
  return {
    newest_period: newest,
    cadence,
    periods_behind: behind,
    max_periods_behind: allowance,
    stale: behind > allowance,
    stale_from: periodStartOfIndex(newestIndex + allowance + 1, unit),
  };
}

/** Whether a series is current (not stale) as of `asOf`; a series with no observation or no cadence is not. */
export function isCurrent(newest: string | null, cadence: Frequency | null, asOf: string): boolean {
  return newest !== null && cadence !== null && !freshnessOf(newest, cadence, asOf).stale;
}

/**
 * Per cadence, the oldest newest-period a series may have and still be current as of `asOf`: a series is current
 * exactly when its newest period is on or after this date (the start of the period `allowance` periods before the
 * as-of period). What a database filter needs in place of freshnessOf.
 */
export function currentSince(asOf: string): Record<Frequency, string> {
  const out = {} as Record<Frequency, string>;
  for (const f of Object.keys(FRESHNESS_ALLOWANCE) as Frequency[]) {
    const unit = FREQUENCY_UNIT[f];
    out[f] = periodStartOfIndex(periodIndex(asOf, unit) - FRESHNESS_ALLOWANCE[f], unit);
  }
  return out;
}

/** The as-of date of an instant (UTC calendar day). */
export function asOfDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** freshnessOf as of the instant `now`; null for a series with no observation. */
export function freshnessAt(newest: string | null | undefined, cadence: Frequency, now: Date): Freshness | null {
  return newest ? freshnessOf(newest, cadence, asOfDate(now)) : null;
}

/**
 * Which of several held series is the freshest: the one whose newest period ends latest (a state's monthly rate for
 * June 2026 before its annual average for 2018; the annual average for 2025, ending in December, before a monthly
 * series ending in November). A series with no newest period never wins; ties go to the earlier candidate, so the
 * caller's order of preference decides between equals. Returns the index, or -1 when none has data.
 */
export function freshestIndex(candidates: readonly { newest: string | null; cadence: Frequency }[]): number {
  let best = -1;
  let bestEnd = "";
  candidates.forEach((c, k) => {
    if (c.newest === null) return;
    const end = periodEnd(c.newest, FREQUENCY_UNIT[c.cadence]);
    if (best < 0 || end > bestEnd) {
      best = k;
      bestEnd = end;
    }
  });
  return best;
}
