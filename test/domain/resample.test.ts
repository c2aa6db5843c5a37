import { describe, expect, test } from "bun:test";
import { bucketsAsPoints, nextExpectedDate, resample } from "../../src/domain/resample";
import { RuleError, type Point } from "../../src/domain/series";
import { applyTransform } from "../../src/domain/transforms";

const pts = (rows: [string, number | null][]): Point[] => rows.map(([date, value]) => ({ date, value }));
const rows = (r: ReturnType<typeof resample>) => r.buckets.map((b) => [b.period_start, b.period_end, b.value]);

// Business days of Jan-Feb 2024 with value = day of month; Feb 29 2024 is a Thursday.
function businessDays(from: string, to: string, f: (d: string) => number | null): Point[] {
  const out: Point[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += 86_400_000) {
    const d = new Date(t);
    const w = d.getUTCDay();
    if (w === 0 || w === 6) continue;
    const iso = d.toISOString().slice(0, 10);
    out.push({ date: iso, value: f(iso) });
  }
  return out;
}

describe("daily to monthly", () => {
  // January 2024: 23 business days (1..31 minus 6,7,13,14,20,21,27,28); February 2024: 21 (1..29 minus 3,4,10,11,17,18,24,25).
  const daily = businessDays("2024-01-01", "2024-02-29", (d) => Number(d.slice(8)));
  test("mean, last and sum over every row of each calendar month", () => {
    const janDays = [1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19, 22, 23, 24, 25, 26, 29, 30, 31];
    const febDays = [1, 2, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 19, 20, 21, 22, 23, 26, 27, 28, 29];
    const janSum = janDays.reduce((a, b) => a + b, 0); // 360
    const febSum = febDays.reduce((a, b) => a + b, 0); // 323
    expect(janSum).toBe(360);
    expect(febSum).toBe(323);
    const mean = resample(daily, "daily", "monthly", "mean");
    expect(rows(mean)).toEqual([
      ["2024-01-01", "2024-01-31", 360 / 23],
      ["2024-02-01", "2024-02-29", 323 / 21],
    ]);
    expect(mean.buckets[1].count).toBe(21);
    expect(mean.dropped).toBeNull();
    expect(rows(resample(daily, "daily", "monthly", "sum")).map((r) => r[2])).toEqual([360, 323]);
    expect(rows(resample(daily, "daily", "monthly", "last")).map((r) => r[2])).toEqual([31, 29]);
  });
  test("the newest month is dropped while incomplete", () => {
    const partial = businessDays("2024-01-01", "2024-02-27", (d) => Number(d.slice(8)));
    const r = resample(partial, "daily", "monthly", "mean");
    expect(rows(r)).toEqual([["2024-01-01", "2024-01-31", 360 / 23]]);
    expect(r.dropped).toMatchObject({ period_start: "2024-02-01", period_end: "2024-02-29", count: 19 });
  });
  test("a month ending on a weekend is complete once its last weekday is in", () => {
    // March 2024 ends on Sunday the 31st; Friday the 29th is its last weekday.
    const r = resample(
      businessDays("2024-03-01", "2024-03-29", () => 1),
      "daily",
      "monthly",
      "sum",
    );
    expect(r.dropped).toBeNull();
    expect(rows(r)).toEqual([["2024-03-01", "2024-03-31", 21]]);
    const r2 = resample(
      businessDays("2024-03-01", "2024-03-28", () => 1),
      "daily",
      "monthly",
      "sum",
    );
    expect(r2.buckets).toEqual([]);
    expect(r2.dropped?.period_start).toBe("2024-03-01");
  });
  test("null rows are skipped; an all-null bucket has a null value", () => {
    const s = pts([
      ["2024-01-02", 1],
      ["2024-01-03", null],
      ["2024-01-31", 5],
      ["2024-02-01", null],
      ["2024-02-29", null],
    ]);
    const r = resample(s, "daily", "monthly", "mean");
    expect(rows(r)).toEqual([
      ["2024-01-01", "2024-01-31", 3],
      ["2024-02-01", "2024-02-29", null],
    ]);
    expect(r.buckets[0]).toMatchObject({ count: 3, valueCount: 2 });
    expect(resample(s, "daily", "monthly", "last").buckets[0].value).toBe(5);
  });
  test("a month with no row is not emitted (a gap stays a gap)", () => {
    const s = pts([
      ["2024-01-31", 1],
      ["2024-03-29", 2],
    ]);
    expect(rows(resample(s, "daily", "monthly", "mean")).map((r) => r[0])).toEqual(["2024-01-01", "2024-03-01"]);
  });
});

describe("daily to quarterly and annual, quarter boundaries", () => {
  test("March 31 belongs to Q1 and April 1 to Q2", () => {
    const s = pts([
      ["2024-01-02", 2],
      ["2024-03-29", 4],
      ["2024-04-01", 10],
      ["2024-06-28", 20],
    ]);
    const r = resample(s, "daily", "quarterly", "mean");
    expect(rows(r)).toEqual([
      ["2024-01-01", "2024-03-31", 3],
      ["2024-04-01", "2024-06-30", 15],
    ]);
    expect(r.buckets[0].period_type).toBe("quarterly");
  });
  test("annual sum over a leap year; the last business day of 2024 completes it", () => {
    const s = businessDays("2024-01-01", "2024-12-31", () => 1);
    const r = resample(s, "daily", "annual", "sum");
    expect(rows(r)).toEqual([["2024-01-01", "2024-12-31", 262]]);
  });
});

describe("weekly to monthly", () => {
  // Saturdays of October 2025 (4, 11, 18, 25) and November 1.
  const w = pts([
    ["2025-10-04", 100],
    ["2025-10-11", 200],
    ["2025-10-18", 300],
    ["2025-10-25", 400],
    ["2025-11-01", 500],
  ]);
  test("each week counts in the month of its date; the newest month is dropped while a later week can still fall in it", () => {
    const r = resample(w, "weekly", "monthly", "sum");
    expect(rows(r)).toEqual([["2025-10-01", "2025-10-31", 1000]]);
    expect(r.dropped).toMatchObject({ period_start: "2025-11-01", value: 500 });
  });
  test("a week dated within 7 days of the month end completes it", () => {
    const r = resample(w.slice(0, 4), "weekly", "monthly", "mean");
    // next week would be dated 2025-11-01 > 2025-10-31
    expect(r.dropped).toBeNull();
    expect(rows(r)).toEqual([["2025-10-01", "2025-10-31", 250]]);
  });
});

describe("monthly to quarterly and annual", () => {
  const m = pts([
    ["2024-01-01", 1],
    ["2024-02-01", 2],
    ["2024-03-01", 3],
    ["2024-04-01", 4],
    ["2024-05-01", 5],
    ["2024-06-01", 6],
    ["2024-07-01", 7],
    ["2024-08-01", 8],
  ]);
  test("quarters: mean, last, sum; the newest quarter without its last month is dropped", () => {
    const mean = resample(m, "monthly", "quarterly", "mean");
    expect(rows(mean)).toEqual([
      ["2024-01-01", "2024-03-31", 2],
      ["2024-04-01", "2024-06-30", 5],
    ]);
    expect(mean.dropped).toMatchObject({ period_start: "2024-07-01", period_end: "2024-09-30", value: 7.5, count: 2 });
    expect(resample(m, "monthly", "quarterly", "last").buckets.map((b) => b.value)).toEqual([3, 6]);
    expect(resample(m, "monthly", "quarterly", "sum").buckets.map((b) => b.value)).toEqual([6, 15]);
  });
  test("a complete newest quarter is kept", () => {
    const r = resample([...m, { date: "2024-09-01", value: 9 }], "monthly", "quarterly", "sum");
    expect(r.dropped).toBeNull();
    expect(r.buckets.map((b) => b.value)).toEqual([6, 15, 24]);
  });
  test("a quarter missing its middle month is still complete (its last month is in) and aggregates what it has", () => {
    const r = resample(
      pts([
        ["2024-01-01", 2],
        ["2024-03-01", 4],
      ]),
      "monthly",
      "quarterly",
      "mean",
    );
    expect(rows(r)).toEqual([["2024-01-01", "2024-03-31", 3]]);
  });
  test("month-end dated monthly series, annual", () => {
    const eom = pts([
      ["2023-11-30", 1],
      ["2023-12-31", 2],
      ["2024-01-31", 3],
      ["2024-02-29", 4],
    ]);
    const r = resample(eom, "monthly", "annual", "sum");
    expect(rows(r)).toEqual([["2023-01-01", "2023-12-31", 3]]);
    expect(r.dropped).toMatchObject({ period_start: "2024-01-01", value: 7 });
  });
  test("monthly to monthly keeps one bucket per month", () => {
    const r = resample(
      pts([
        ["2025-09-01", 1],
        ["2025-10-01", null],
        ["2025-11-01", 3],
      ]),
      "monthly",
      "monthly",
      "mean",
    );
    expect(rows(r)).toEqual([
      ["2025-09-01", "2025-09-30", 1],
      ["2025-10-01", "2025-10-31", null],
      ["2025-11-01", "2025-11-30", 3],
    ]);
    expect(r.dropped).toBeNull();
  });
});

describe("edges", () => {
  test("empty series", () => {
    expect(resample([], "daily", "monthly", "mean")).toEqual({
      buckets: [],
      dropped: null,
      completeness: expect.any(String),
    });
  });
  test("one point: kept when it completes its bucket, dropped otherwise", () => {
    expect(rows(resample(pts([["2025-12-01", 7]]), "monthly", "quarterly", "mean"))).toEqual([
      ["2025-10-01", "2025-12-31", 7],
    ]);
    const r = resample(pts([["2025-11-01", 7]]), "monthly", "quarterly", "mean");
    expect(r.buckets).toEqual([]);
    expect(r.dropped?.value).toBe(7);
  });
  test("unsorted input is sorted first", () => {
    expect(
      rows(
        resample(
          pts([
            ["2024-03-01", 3],
            ["2024-01-01", 1],
            ["2024-02-01", 2],
          ]),
          "monthly",
          "quarterly",
          "last",
        ),
      ),
    ).toEqual([["2024-01-01", "2024-03-31", 3]]);
  });
  test("upsampling is refused", () => {
    expect(() => resample(pts([["2024-01-01", 1]]), "quarterly", "monthly", "mean")).toThrow(RuleError);
    expect(() => resample(pts([["2024-01-01", 1]]), "annual", "quarterly", "mean")).toThrow(
      "frequency=quarterly would upsample an annual series; resampling only aggregates to the same or a coarser frequency (annual).",
    );
  });
  test("preliminary source rows mark their bucket", () => {
    const r = resample(
      [
        { date: "2024-03-01", value: 1 },
        { date: "2024-06-01", value: 2, preliminary: true },
      ],
      "monthly",
      "quarterly",
      "sum",
    );
    expect(r.buckets.map((b) => b.preliminary)).toEqual([false, true]);
  });
});

describe("next expected observation", () => {
  test("per native frequency", () => {
    expect(nextExpectedDate("2024-02-29", "daily")).toBe("2024-03-01");
    expect(nextExpectedDate("2024-03-29", "daily")).toBe("2024-04-01");
    expect(nextExpectedDate("2025-10-25", "weekly")).toBe("2025-11-01");
    expect(nextExpectedDate("2024-02-29", "monthly")).toBe("2024-03-01");
    expect(nextExpectedDate("2024-12-01", "monthly")).toBe("2025-01-01");
    expect(nextExpectedDate("2024-11-15", "quarterly")).toBe("2025-01-01");
    expect(nextExpectedDate("2024-07-01", "annual")).toBe("2025-01-01");
  });
});

describe("resampling before a transform", () => {
  test("daily to monthly yoy uses the monthly buckets; a missing month bucket gives null", () => {
    const daily = pts([
      ["2023-01-03", 4],
      ["2023-01-31", 6], // Jan 2023 mean 5
      ["2023-02-28", 8], // Feb 2023 mean 8
      ["2024-01-02", 5],
      ["2024-01-31", 7], // Jan 2024 mean 6
      ["2024-02-29", 10], // Feb 2024 mean 10 (leap day)
    ]);
    const r = resample(daily, "daily", "monthly", "mean");
    const yoy = applyTransform(bucketsAsPoints(r.buckets), { kind: "yoy" }, "monthly", { resampled: true });
    expect(yoy).toEqual([
      { date: "2023-01-01", value: null },
      { date: "2023-02-01", value: null },
      { date: "2024-01-01", value: 20 },
      { date: "2024-02-01", value: 25 },
    ]);
  });
});
