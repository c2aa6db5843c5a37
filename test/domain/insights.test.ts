// Insight facts (src/domain/insights.ts): a small series worked by hand, every edge (empty, one point, missing
// values, ties, leap years), and the real series of ../shared/data.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { InsightFact, InsightSeries } from "../../src/domain/insight-context";
import { computeInsights } from "../../src/domain/insights";
import { parseWindow } from "../../src/domain/window";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

const ALL = parseWindow("all")!;
const months = (values: (number | null)[], start = 2025) =>
  values.map((value, k) => ({
    date: `${start + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}-01`,
    value,
  }));
const byKind = (facts: InsightFact[]) => Object.fromEntries(facts.map((f) => [f.kind, f]));

// The unemployment rate of Texas (percent, higher is worse), January to August 2025. Values are multiples of 0.5,
// exact in binary, so every difference below is exact.
const TX: InsightSeries = {
  points: months([4.0, 4.5, 4.5, 4.0, 4.5, 5.0, 5.5, 6.0]),
  frequency: "monthly",
  unit: "percent",
  upIsGood: false,
  indicatorName: "Unemployment Rate by State (LAUS, seasonally adjusted)",
  place: "Texas",
};
const PEERS = {
  date: "2025-08-01",
  region: "48",
  noun: "4 states",
  values: [
    { region: "48", value: 6.0 },
    { region: "06", value: 5.5 },
    { region: "36", value: 6.0 },
    { region: "12", value: 3.0 },
  ],
};

describe("a series worked by hand", () => {
  const r = computeInsights(TX, ALL, PEERS);
  const f = byKind(r.facts);

  test("window and count", () => {
    expect([r.observationCount, r.windowStart, r.windowEnd]).toEqual([8, "2025-01-01", "2025-08-01"]);
  });

  test("latest_delta: +0.5 points; the other moves have median 0.5, so an ordinary move: z = 0", () => {
    // Other moves: 0.5, 0, -0.5, 0.5, 0.5, 0.5 -> median 0.5, MAD 0 -> scale 1.2533 * mean |m - 0.5| = 1.2533 * 1.5 / 6.
    expect(f.latest_delta.params).toMatchObject({
      date: "2025-08-01",
      value: 6,
      previous_date: "2025-07-01",
      previous_value: 5.5,
      change: 0.5,
      direction: "up",
      robust_z: 0,
      tone: "negative",
    });
    // A rate's move is in percentage points: no percent change of it, in the params either.
    expect(f.latest_delta.params.change_percent).toBeNull();
    // 1 / (1 + e^(-1.5 (0 - 2))) = 1 / (1 + e^3) = 0.0474...
    expect(f.latest_delta.salience).toBe(0.047);
    expect(f.latest_delta.text).toBe(
      "The unemployment rate in Texas rose 0.5 percentage points to 6.0% in August 2025, from 5.5% in July 2025.",
    );
  });

  test("watermark_high: a new high, higher than all 7 others; worse news for this indicator", () => {
    expect(f.watermark_high_distance.params).toMatchObject({
      high: 6,
      high_date: "2025-08-01",
      distance: 0,
      distance_percent: null,
      at_extreme: true,
      new_extreme: true,
      share_beyond: 1,
      tone: "negative",
    });
    // q^4 * n / (n + 5) = 1 * 8 / 13
    expect(f.watermark_high_distance.salience).toBe(0.615);
    expect(f.watermark_high_distance.text).toBe(
      "The unemployment rate in Texas, at 6.0% in August 2025, is at its highest since January 2025: the worst reading in that time.",
    );
  });

  test("watermark_low: 2.0 points above the low of 4.0, first reached in January (again in April); no percent for a rate", () => {
    expect(f.watermark_low_distance.params).toMatchObject({
      low: 4,
      low_date: "2025-01-01",
      distance: 2,
      distance_percent: null,
      at_extreme: false,
      share_beyond: 0,
      tone: "neutral",
    });
    expect(f.watermark_low_distance.salience).toBe(0);
    expect(f.watermark_low_distance.text).toBe(
      "The unemployment rate in Texas, at 6.0% in August 2025, is 2.0 percentage points above the lowest reading since January 2025, 4.0% in January 2025.",
    );
  });

  test("longest_run: May to August, 4 rises, is the current run (March was unchanged, April fell)", () => {
    expect(f.longest_run.params).toMatchObject({
      longest_length: 4,
      longest_direction: "up",
      longest_start: "2025-05-01",
      longest_end: "2025-08-01",
      current_length: 4,
      current_direction: "up",
      current_is_longest: true,
      tone: "negative",
    });
    // (1 - 0.5^(4 - 2)) * 8 / 13 = 0.75 * 0.615384...
    expect(f.longest_run.salience).toBe(0.462);
    expect(f.longest_run.text).toBe(
      "The unemployment rate in Texas has risen for 4 consecutive months, from May 2025 to August 2025: its longest run of rises since January 2025.",
    );
  });

  test("peer_rank: tied for the highest of 4 (with New York), the worst among them", () => {
    expect(f.peer_rank.params).toMatchObject({
      value: 6,
      date: "2025-08-01",
      rank: 1,
      rank_from_top: 1,
      position: "highest",
      of: 4,
      peers: "4 states",
      tied: true,
      tone: "negative",
    });
    // e = 1 at the top; e^4 * N / (N + 5) = 4 / 9
    expect(f.peer_rank.salience).toBe(0.444);
    expect(f.peer_rank.text).toBe(
      "The unemployment rate in Texas, at 6.0%, was tied for the highest among 4 states in August 2025: the worst among them.",
    );
  });

  test("trend: least squares on time in years, rising, a worsening trend; no percent for a rate", () => {
    // Independent least squares: slope = Sxy / Sxx over x = days since 2025-01-01 / 365.2425.
    const days = [0, 31, 59, 90, 120, 151, 181, 212];
    const ys = [4.0, 4.5, 4.5, 4.0, 4.5, 5.0, 5.5, 6.0];
    const xs = days.map((d) => d / 365.2425);
    const mx = xs.reduce((a, b) => a + b) / 8;
    const my = ys.reduce((a, b) => a + b) / 8;
    const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0);
    const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    const syy = ys.reduce((a, y) => a + (y - my) ** 2, 0);
    const slope = sxy / sxx;
    const r2 = (sxy * sxy) / (sxx * syy);
    expect(f.trend.params.slope_per_year as number).toBeCloseTo(slope, 9);
    expect(f.trend.params.r_squared as number).toBeCloseTo(r2, 9);
    expect(f.trend.params).toMatchObject({
      direction: "up",
      percent_per_year: null,
      observations: 8,
      start_date: "2025-01-01",
      end_date: "2025-08-01",
      tone: "negative",
    });
    expect(f.trend.salience).toBe(Math.round(0.6 * r2 * (8 / 13) * 1000) / 1000);
    expect(f.trend.text).toBe(
      `The unemployment rate in Texas has risen by about ${slope.toFixed(1)} percentage points a year since January 2025, a worsening trend (least-squares fit over 8 monthly observations, R² ${r2.toFixed(2)}).`,
    );
  });

  test("facts ranked by salience", () => {
    expect(r.facts.map((x) => x.kind)).toEqual([
      "watermark_high_distance",
      "longest_run",
      "peer_rank",
      "trend",
      "latest_delta",
      "watermark_low_distance",
    ]);
    expect(r.facts.map((x) => x.salience)).toEqual([...r.facts.map((x) => x.salience)].sort((a, b) => b - a));
  });

  test("every text is its template filled in", () => {
    for (const x of r.facts) {
      expect(x.text).not.toContain("{");
      expect(x.humanTemplate).toContain("{subject}");
    }
  });
});

describe("levels: percent changes and compound growth", () => {
  test("a doubling every 365 days grows 100.09% a year (365.2425-day years), log-linear fit", () => {
    const s: InsightSeries = {
      points: [
        { date: "2021-01-01", value: 1000 },
        { date: "2022-01-01", value: 2000 },
        { date: "2023-01-01", value: 4000 },
      ],
      frequency: "annual",
      unit: "persons",
      upIsGood: null,
      indicatorName: "Population",
      place: "Texas",
    };
    const f = byKind(computeInsights(s, ALL).facts);
    expect(f.trend.params.percent_per_year as number).toBeCloseTo(100 * (2 ** (365.2425 / 365) - 1), 9);
    expect(f.latest_delta.params).toMatchObject({ change: 2000, change_percent: 100, direction: "up" });
    expect(f.latest_delta.text).toBe(
      "The population in Texas rose 100.0% (2,000 persons) to 4,000 persons in 2023, from 2,000 persons in 2022.",
    );
    expect(f.watermark_low_distance.params).toMatchObject({ distance: 3000, distance_percent: 300 });
  });
  test("payrolls in thousands read in millions; an unchanged month says so", () => {
    const s: InsightSeries = {
      points: months([159500, 159540, 159540]),
      frequency: "monthly",
      unit: "thousands of persons",
      upIsGood: true,
      indicatorName: "All Employees, Total Nonfarm",
      place: "the United States",
    };
    const f = byKind(computeInsights(s, ALL).facts);
    expect(f.latest_delta.text).toBe(
      "All employees, total nonfarm in the United States was unchanged at 159.5 million persons in March 2025.",
    );
    expect(f.longest_run.text).toBe(
      "All employees, total nonfarm in the United States was unchanged in the latest reading; its longest run since January 2025 was 1 consecutive rise, in February 2025.",
    );
  });
});

describe("edges", () => {
  const base = {
    frequency: "monthly" as const,
    unit: "percent",
    upIsGood: false,
    indicatorName: "Civilian Unemployment Rate",
    place: "the United States",
  };
  test("empty series, and a series of missing values only: no facts", () => {
    expect(computeInsights({ ...base, points: [] }, ALL)).toEqual({
      facts: [],
      observationCount: 0,
      windowStart: null,
      windowEnd: null,
    });
    expect(computeInsights({ ...base, points: months([null, null]) }, ALL)).toEqual({
      facts: [],
      observationCount: 0,
      windowStart: null,
      windowEnd: null,
    });
  });
  test("one point: nothing to compare; only a peer rank", () => {
    const one = { ...base, points: months([4.4]) };
    expect(computeInsights(one, ALL).facts).toEqual([]);
    const ranked = computeInsights(one, ALL, {
      date: "2025-01-01",
      region: "US",
      noun: "2 countries",
      values: [
        { region: "US", value: 4.4 },
        { region: "CA", value: 6.1 },
      ],
    });
    expect(ranked.facts.map((f) => [f.kind, f.params.rank, f.params.position])).toEqual([["peer_rank", 1, "lowest"]]);
    expect(ranked.facts[0].text).toBe(
      "The civilian unemployment rate in the United States, at 4.4%, was the lowest among 2 countries in January 2025: the best among them.",
    );
  });
  test("a peer rank needs the peers' date to be the latest observation's, and the region among them", () => {
    const s = { ...base, points: months([4.4, 4.5]) };
    expect(
      computeInsights(s, ALL, {
        date: "2025-01-01",
        region: "US",
        noun: "2 countries",
        values: [
          { region: "US", value: 4.4 },
          { region: "CA", value: 6.1 },
        ],
      }).facts.map((f) => f.kind),
    ).not.toContain("peer_rank");
    expect(
      computeInsights(s, ALL, {
        date: "2025-02-01",
        region: "US",
        noun: "2 countries",
        values: [
          { region: "MX", value: 4.4 },
          { region: "CA", value: 6.1 },
        ],
      }).facts.map((f) => f.kind),
    ).not.toContain("peer_rank");
  });
  test("missing values are skipped: the latest change compares with the last valued observation", () => {
    const f = byKind(computeInsights({ ...base, points: months([4.0, null, 4.5]) }, ALL).facts);
    expect(f.latest_delta.params).toMatchObject({ previous_date: "2025-01-01", previous_value: 4, change: 0.5 });
    expect(computeInsights({ ...base, points: months([4.0, 4.5, null]) }, ALL).windowEnd).toBe("2025-02-01");
  });
  test("ties: a value equal to an earlier high matches it (first reached then); equal runs: the most recent is the longest", () => {
    const f = byKind(computeInsights({ ...base, points: months([5.0, 4.0, 4.5, 5.0]) }, ALL).facts);
    expect(f.watermark_high_distance.params).toMatchObject({
      high_date: "2025-01-01",
      at_extreme: true,
      new_extreme: false,
      share_beyond: 0.666666666667,
    });
    expect(f.watermark_high_distance.text).toBe(
      "The civilian unemployment rate in the United States, at 5.0% in April 2025, matches its highest since January 2025, first reached in January 2025: the worst reading in that time.",
    );
    const runs = byKind(computeInsights({ ...base, points: months([1, 2, 3, 2, 1]) }, ALL).facts);
    expect(runs.longest_run.params).toMatchObject({
      longest_length: 2,
      longest_direction: "down",
      longest_start: "2025-04-01",
      current_is_longest: true,
    });
  });
  test("a window anchored at a leap day: 1y before 2024-02-29 starts on 2023-02-28, both ends included", () => {
    const daily = ["2023-02-27", "2023-02-28", "2023-03-01", "2024-02-28", "2024-02-29"].map((date, k) => ({
      date,
      value: k + 1,
    }));
    const r = computeInsights({ ...base, frequency: "daily", points: daily }, parseWindow("1y")!);
    expect([r.observationCount, r.windowStart, r.windowEnd]).toEqual([4, "2023-02-28", "2024-02-29"]);
    expect(byKind(r.facts).latest_delta.text).toBe(
      "The civilian unemployment rate in the United States rose 1 percentage point to 5% on February 29, 2024, from 4% on February 28, 2024.",
    );
  });
  test("flat data has no trend, and a two-point window no trend at all", () => {
    const f = byKind(computeInsights({ ...base, points: months([4, 4, 4, 4]) }, ALL).facts);
    expect(f.trend.params).toMatchObject({ direction: "flat", slope_per_year: 0, r_squared: 0 });
    expect(f.trend.text).toBe(
      "The civilian unemployment rate in the United States has shown no clear trend since January 2025 (least-squares fit over 4 monthly observations, R² 0.00).",
    );
    expect(computeInsights({ ...base, points: months([4, 5]) }, ALL).facts.map((x) => x.kind)).not.toContain("trend");
  });
});

const fredFile = (code: string) => sharedDataPath("fred-macro-us", `${code}.csv`);
const readFred = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => {
      const [date, v] = l.split(",");
      return { date, value: v === "" || v === "." ? null : Number(v) };
    });

describe("real series (../shared/data)", () => {
  const unrate = fredFile("UNRATE");
  test.skipIf(!unrate)(
    unrate
      ? "April 2020: the unemployment rate's jump is the most salient fact, a 10-year high and an extreme move"
      : sharedDataMissingMessage("fred-macro-us"),
    () => {
      const points = readFred(unrate!).filter((p) => p.date <= "2020-04-01");
      const r = computeInsights(
        {
          points,
          frequency: "monthly",
          unit: "percent",
          upIsGood: false,
          indicatorName: "Civilian Unemployment Rate",
          place: "the United States",
        },
        parseWindow("10y")!,
      );
      const f = byKind(r.facts);
      expect(r.facts[0].kind).toBe("latest_delta");
      expect(f.latest_delta.salience).toBe(1);
      expect(f.latest_delta.params).toMatchObject({ value: 14.8, previous_value: 4.4, change: 10.4 });
      expect(f.latest_delta.text).toStartWith(
        "The civilian unemployment rate in the United States rose 10.4 percentage points to 14.8% in April 2020, from 4.4% in March 2020, an unusually large move",
      );
      expect(f.watermark_high_distance.params).toMatchObject({ new_extreme: true, tone: "negative" });
    },
  );
  test.skipIf(!unrate)("an ordinary month scores low: November 2025", () => {
    const r = computeInsights(
      {
        points: readFred(unrate!),
        frequency: "monthly",
        unit: "percent",
        upIsGood: false,
        indicatorName: "Civilian Unemployment Rate",
        place: "the United States",
      },
      parseWindow("5y")!,
    );
    const f = byKind(r.facts);
    // October 2025 is missing in the data (no release): November compares with September.
    expect(f.latest_delta.params).toMatchObject({ date: "2025-11-01", previous_date: "2025-09-01" });
    expect(f.latest_delta.salience).toBeLessThan(0.5);
  });
});
