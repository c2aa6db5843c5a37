// Panel planning and alignment (src/domain/panel.ts): every expected grid is worked out by hand in the test.
import { describe, expect, test } from "bun:test";
import { addDays, type Frequency } from "../../src/domain/calendar";
import {
  PANEL_MAX_POINTS,
  alignPanel,
  planPanel,
  type PanelOptions,
  type PanelSeriesInput,
} from "../../src/domain/panel";
import { RuleError, type Point } from "../../src/domain/series";

const pts = (rows: [string, number | null][]): Point[] => rows.map(([date, value]) => ({ date, value }));
const s = (key: string, frequency: Frequency, rows: [string, number | null][]): PanelSeriesInput => ({
  key,
  frequency,
  points: pts(rows),
});
const opts = (o: Partial<PanelOptions> & Pick<PanelOptions, "plan">): PanelOptions => ({
  method: "mean",
  missing: "drop",
  ...o,
});

function ruleError(f: () => unknown): RuleError {
  try {
    f();
  } catch (e) {
    if (e instanceof RuleError) return e;
    throw e;
  }
  throw new Error("expected a RuleError");
}

describe("planPanel", () => {
  const f = (...fs: Frequency[]) => fs.map((frequency, k) => ({ key: `S${k}`, frequency }));
  test("same frequency: native, no resampling (daily included)", () => {
    expect(planPanel(f("monthly", "monthly"))).toEqual({ frequency: "monthly", resampled: false });
    expect(planPanel(f("daily", "daily", "daily"))).toEqual({ frequency: "daily", resampled: false });
    expect(planPanel(f("annual"))).toEqual({ frequency: "annual", resampled: false });
  });
  test("mixed frequencies: the finer ones are resampled to the coarsest", () => {
    expect(planPanel(f("monthly", "quarterly", "daily"))).toEqual({ frequency: "quarterly", resampled: true });
    expect(planPanel(f("weekly", "monthly"))).toEqual({ frequency: "monthly", resampled: true });
  });
  test("an explicit frequency resamples every series to it", () => {
    expect(planPanel(f("monthly", "monthly"), "monthly")).toEqual({ frequency: "monthly", resampled: true });
    expect(planPanel(f("daily", "monthly"), "annual")).toEqual({ frequency: "annual", resampled: true });
  });
  test("weekly-only panels (and panels whose coarsest series is weekly) need frequency=monthly or coarser", () => {
    const only = ruleError(() => planPanel(f("weekly", "weekly")));
    expect(only.message).toContain("needs frequency=monthly, quarterly or annual");
    expect(only.details).toEqual({ parameter: "frequency", weekly: ["S0", "S1"] });
    const mixed = ruleError(() => planPanel(f("daily", "weekly")));
    expect(mixed.message).toContain("coarsest series is weekly (S1)");
    expect(planPanel(f("weekly", "weekly"), "monthly")).toEqual({ frequency: "monthly", resampled: true });
  });
  test("an explicit frequency finer than a series is refused, naming the series", () => {
    const e = ruleError(() => planPanel(f("monthly", "quarterly"), "monthly"));
    expect(e.message).toStartWith("S1: frequency=monthly would upsample a quarterly series");
    expect(e.details).toMatchObject({ parameter: "frequency", indicator: "S1", native_frequency: "quarterly" });
  });
  test("no series is refused", () => {
    expect(ruleError(() => planPanel([])).details).toEqual({ parameter: "indicators" });
  });
});

describe("alignPanel at native frequency", () => {
  // A: Jan..Apr 2024 = 1, 2, 3, 4. B: Feb 10, Mar 20, Apr null, May 40.
  const A = s("A", "monthly", [
    ["2024-01-01", 1],
    ["2024-02-01", 2],
    ["2024-03-01", 3],
    ["2024-04-01", 4],
  ]);
  const B = s("B", "monthly", [
    ["2024-02-01", 10],
    ["2024-03-01", 20],
    ["2024-04-01", null],
    ["2024-05-01", 40],
  ]);
  const native = { frequency: "monthly", resampled: false } as const;

  test("drop keeps the dates where every series has a value", () => {
    expect(alignPanel([A, B], opts({ plan: native }))).toEqual({
      dates: ["2024-02-01", "2024-03-01"],
      values: [
        [2, 3],
        [10, 20],
      ],
      resampled: {},
    });
  });
  test("ffill takes the union of dates, carries the last value forward, and leaves leading gaps null", () => {
    expect(alignPanel([A, B], opts({ plan: native, missing: "ffill" }))).toEqual({
      dates: ["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01", "2024-05-01"],
      values: [
        [1, 2, 3, 4, 4],
        [null, 10, 20, 20, 40],
      ],
      resampled: {},
    });
  });
  test("the range keeps the periods overlapping it; ffill carries a value from before the range", () => {
    const p = alignPanel([A, B], opts({ plan: native, missing: "ffill", start: "2024-04-15", end: "2024-12-31" }));
    expect(p).toEqual({
      dates: ["2024-04-01", "2024-05-01"],
      values: [
        [4, 4],
        [20, 40],
      ],
      resampled: {},
    });
    expect(alignPanel([A, B], opts({ plan: native, start: "2024-03-31", end: "2024-03-31" })).dates).toEqual([
      "2024-03-01",
    ]);
  });
  test("month-start and month-end dating of one month align (period, not date)", () => {
    const end = s("E", "monthly", [
      ["2024-01-31", 5],
      ["2024-02-29", 6],
    ]);
    const start = s("S", "monthly", [
      ["2024-01-01", 7],
      ["2024-02-01", 8],
    ]);
    expect(alignPanel([end, start], opts({ plan: native }))).toEqual({
      dates: ["2024-01-01", "2024-02-01"],
      values: [
        [5, 6],
        [7, 8],
      ],
      resampled: {},
    });
  });
  test("daily series align on their dates", () => {
    const x = s("X", "daily", [
      ["2024-02-28", 1],
      ["2024-02-29", 2],
      ["2024-03-01", 3],
    ]);
    const y = s("Y", "daily", [
      ["2024-02-29", 20],
      ["2024-03-01", 30],
      ["2024-03-04", 40],
    ]);
    expect(alignPanel([x, y], opts({ plan: { frequency: "daily", resampled: false } })).dates).toEqual([
      "2024-02-29",
      "2024-03-01",
    ]);
  });
  test("empty series: drop gives an empty grid, ffill a column of nulls", () => {
    const none = s("N", "monthly", []);
    expect(alignPanel([A, none], opts({ plan: native }))).toEqual({ dates: [], values: [[], []], resampled: {} });
    expect(alignPanel([A, none], opts({ plan: native, missing: "ffill" })).values[1]).toEqual([null, null, null, null]);
  });
});

describe("alignPanel with resampling (the observations resampler)", () => {
  // M: Jan..Jun 2024 = 1..6 -> Q1 mean 2, Q2 mean 5 (sum 6, 15; last 3, 6). Q: 2024Q1 100, 2024Q2 200.
  const M = s(
    "M",
    "monthly",
    [1, 2, 3, 4, 5, 6].map((v): [string, number] => [`2024-0${v}-01`, v]),
  );
  const Q = s("Q", "quarterly", [
    ["2024-01-01", 100],
    ["2024-04-01", 200],
  ]);
  const quarterly = { frequency: "quarterly", resampled: true } as const;

  test("the finer series is resampled by mean, sum or last; the coarse one passes unchanged", () => {
    expect(alignPanel([M, Q], opts({ plan: quarterly }))).toEqual({
      dates: ["2024-01-01", "2024-04-01"],
      values: [
        [2, 5],
        [100, 200],
      ],
      resampled: { M: { source_frequency: "monthly", dropped_period_start: null } },
    });
    expect(alignPanel([M, Q], opts({ plan: quarterly, method: "sum" })).values[0]).toEqual([6, 15]);
    expect(alignPanel([M, Q], opts({ plan: quarterly, method: "last" })).values[0]).toEqual([3, 6]);
  });
  test("an incomplete newest bucket is dropped and reported; ffill then carries the last complete one", () => {
    const short = { ...M, points: M.points.slice(0, 5) };
    const drop = alignPanel([short, Q], opts({ plan: quarterly }));
    expect(drop).toEqual({
      dates: ["2024-01-01"],
      values: [[2], [100]],
      resampled: { M: { source_frequency: "monthly", dropped_period_start: "2024-04-01" } },
    });
    expect(alignPanel([short, Q], opts({ plan: quarterly, missing: "ffill" })).values).toEqual([
      [2, 2],
      [100, 200],
    ]);
  });
  test("a bucket overlapping the range is in it", () => {
    expect(alignPanel([M, Q], opts({ plan: quarterly, start: "2024-03-31", end: "2024-04-01" })).dates).toEqual([
      "2024-01-01",
      "2024-04-01",
    ]);
    expect(alignPanel([M, Q], opts({ plan: quarterly, start: "2024-04-01" })).dates).toEqual(["2024-04-01"]);
  });
  test("weekly to monthly: weeks counted in the month of their end date; the open month is dropped", () => {
    // Saturdays 2024-01-06 .. 2024-03-02 = 1..9: January 1-4 (mean 2.5), February 5-8 (6.5); March has one week and
    // its next week (03-09) still falls in March, so March is incomplete.
    const W = s(
      "W",
      "weekly",
      Array.from({ length: 9 }, (_, k): [string, number] => [addDays("2024-01-06", 7 * k), k + 1]),
    );
    const p = alignPanel([W], opts({ plan: { frequency: "monthly", resampled: true } }));
    expect(p).toEqual({
      dates: ["2024-01-01", "2024-02-01"],
      values: [[2.5, 6.5]],
      resampled: { W: { source_frequency: "weekly", dropped_period_start: "2024-03-01" } },
    });
  });
});

describe("grid capacity", () => {
  const daily = (key: string, n: number) =>
    s(
      key,
      "daily",
      Array.from({ length: n }, (_, k): [string, number] => [addDays("2000-01-01", k), k]),
    );
  const monthly = (key: string, n: number) =>
    s(
      key,
      "monthly",
      Array.from({ length: n }, (_, k): [string, number] => [
        `${2000 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}-01`,
        k,
      ]),
    );
  const day = { frequency: "daily", resampled: false } as const;
  const month = { frequency: "monthly", resampled: false } as const;

  test("5,000 points fit; 5,001 are refused, saying how many points the panel would have had", () => {
    expect(PANEL_MAX_POINTS).toBe(5000);
    expect(alignPanel([daily("D", 5000)], opts({ plan: day })).dates.length).toBe(5000);
    const e = ruleError(() => alignPanel([daily("D", 5001)], opts({ plan: day })));
    expect(e.details).toEqual({ parameter: "start_date", points: 5001, max_points: 5000, dates: 5001, series: 1 });
    expect(e.message).toStartWith(
      "This panel would hold 5,001 points (5,001 dates x 1 series); a panel holds at most 5,000.",
    );
    expect(e.message).toContain("narrower date range");
  });
  test("ten series: 500 dates fit (5,000 points), 501 do not (5,010)", () => {
    const ten = (n: number) => Array.from({ length: 10 }, (_, k) => monthly(`S${k}`, n));
    expect(alignPanel(ten(500), opts({ plan: month })).values.map((v) => v.length)).toEqual(Array(10).fill(500));
    expect(ruleError(() => alignPanel(ten(501), opts({ plan: month }))).details).toMatchObject({
      points: 5010,
      dates: 501,
      series: 10,
    });
  });
  test("a narrower range brings a long panel under the cap", () => {
    const p = alignPanel(
      [daily("D", 6000)],
      opts({ plan: day, start: "2000-01-01", end: addDays("2000-01-01", 4999) }),
    );
    expect(p.dates.length).toBe(5000);
  });
});
