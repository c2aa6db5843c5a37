import { describe, expect, test } from "bun:test";
import {
  COMPARATORS,
  applyTransform,
  checkTransformFrequency,
  describeTransform,
  formatTransform,
  indexTo,
  naturalLog,
  parseTransform,
  percentChange,
  transformedUnit,
} from "../../src/domain/transforms";
import { RuleError, type Point } from "../../src/domain/series";

const pts = (rows: [string, number | null][]): Point[] => rows.map(([date, value]) => ({ date, value }));
const values = (p: Point[]) => p.map((x) => x.value);

function ruleError(fn: () => unknown): RuleError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RuleError) return e;
    throw e;
  }
  throw new Error("expected a RuleError");
}

describe("parseTransform", () => {
  test("accepts the spec's forms", () => {
    expect(parseTransform("yoy")).toEqual({ kind: "yoy" });
    expect(parseTransform("mom")).toEqual({ kind: "mom" });
    expect(parseTransform("qoq")).toEqual({ kind: "qoq" });
    expect(parseTransform("log")).toEqual({ kind: "log" });
    expect(parseTransform("index:2020-01-01")).toEqual({ kind: "index", base: "2020-01-01" });
    expect(formatTransform({ kind: "index", base: "2020-01-01" })).toBe("index:2020-01-01");
  });
  test("rejects anything else", () => {
    for (const bad of ["YOY", "pch", "index", "index:", "index:2020-02-30", "index:2020-1-1", "log10", ""])
      expect(parseTransform(bad)).toBeNull();
  });
});

describe("monthly percent changes", () => {
  // 13 months dated on the 1st: 100, 101, ..., 112; then 2025-01 = 125.
  const months = pts([
    ["2024-01-01", 100],
    ["2024-02-01", 101],
    ["2024-03-01", 102],
    ["2024-04-01", 103],
    ["2024-05-01", 104],
    ["2024-06-01", 105],
    ["2024-07-01", 106],
    ["2024-08-01", 107],
    ["2024-09-01", 108],
    ["2024-10-01", 109],
    ["2024-11-01", 110],
    ["2024-12-01", 111],
    ["2025-01-01", 125],
  ]);
  test("yoy compares with the same month a year earlier", () => {
    const out = percentChange(months, "monthly", "yoy");
    expect(values(out).slice(0, 12)).toEqual(Array(12).fill(null));
    expect(out[12]).toEqual({ date: "2025-01-01", value: 25 }); // (125 - 100) / 100 * 100
  });
  test("mom compares with the previous month", () => {
    const out = percentChange(months, "monthly", "mom");
    expect(out[0].value).toBeNull();
    expect(out[1].value).toBe(1); // (101 - 100) / 100 * 100
    expect(out[12].value).toBeCloseTo(((125 - 111) / 111) * 100, 12);
  });
  test("qoq on a monthly series compares with three months earlier", () => {
    const out = percentChange(months, "monthly", "qoq");
    expect(values(out).slice(0, 3)).toEqual([null, null, null]);
    expect(out[3].value).toBe(3); // April 103 vs January 100
  });
  test("a gap in the middle: the month after the gap has no comparator (October 2025 CPI)", () => {
    const cpi = pts([
      ["2025-08-01", 323.976],
      ["2025-09-01", 324.8],
      ["2025-10-01", null],
      ["2025-11-01", 325.2],
      ["2025-12-01", 326.0],
    ]);
    const out = percentChange(cpi, "monthly", "mom");
    expect(values(out)).toEqual([null, ((324.8 - 323.976) / 323.976) * 100, null, null, ((326 - 325.2) / 325.2) * 100]);
  });
  test("a missing row (not a null row) is also a missing comparator, never a two-month change", () => {
    const out = percentChange(
      pts([
        ["2025-09-01", 100],
        ["2025-11-01", 110],
      ]),
      "monthly",
      "mom",
    );
    expect(values(out)).toEqual([null, null]);
  });
  test("comparator before the first requested date is still read from the full series", () => {
    const full = pts([
      ["2019-06-01", 50],
      ["2020-06-01", 60],
    ]);
    expect(percentChange(full, "monthly", "yoy")[1].value).toBe(20);
  });
  test("zero comparator gives null, negative values follow (x - c) / c", () => {
    expect(
      values(
        percentChange(
          pts([
            ["2024-01-01", 0],
            ["2024-02-01", 5],
          ]),
          "monthly",
          "mom",
        ),
      ),
    ).toEqual([null, null]);
    expect(
      values(
        percentChange(
          pts([
            ["2024-01-01", -2],
            ["2024-02-01", -1],
          ]),
          "monthly",
          "mom",
        ),
      ),
    ).toEqual([null, -50]);
  });
  test("leap day: month-end dated Feb 2024 compares with Feb 2023 and Feb 2025 with Feb 2024", () => {
    const eom = pts([
      ["2023-02-28", 200],
      ["2024-02-29", 210],
      ["2025-02-28", 231],
    ]);
    expect(values(percentChange(eom, "monthly", "yoy"))).toEqual([null, 5, 10]);
  });
  test("month ends across months of different length", () => {
    const eom = pts([
      ["2024-01-31", 80],
      ["2024-02-29", 84],
      ["2024-03-31", 63],
      ["2024-04-30", 63],
    ]);
    expect(values(percentChange(eom, "monthly", "mom"))).toEqual([null, 5, -25, 0]);
  });
  test("empty and one-point series", () => {
    expect(percentChange([], "monthly", "yoy")).toEqual([]);
    expect(percentChange(pts([["2024-01-01", 5]]), "monthly", "mom")).toEqual([{ date: "2024-01-01", value: null }]);
  });
  test("preliminary flags are kept", () => {
    const out = percentChange(
      [
        { date: "2024-01-01", value: 100 },
        { date: "2024-02-01", value: 102, preliminary: true },
      ],
      "monthly",
      "mom",
    );
    expect(out[1]).toEqual({ date: "2024-02-01", value: 2, preliminary: true });
  });
});

describe("quarterly, annual and weekly comparators", () => {
  test("quarterly qoq and yoy, across a year end", () => {
    const q = pts([
      ["2023-10-01", 200],
      ["2024-01-01", 210],
      ["2024-04-01", 205],
      ["2024-07-01", 220],
      ["2024-10-01", 250],
    ]);
    expect(values(percentChange(q, "quarterly", "qoq"))).toEqual([
      null,
      5,
      ((205 - 210) / 210) * 100,
      ((220 - 205) / 205) * 100,
      ((250 - 220) / 220) * 100,
    ]);
    expect(values(percentChange(q, "quarterly", "yoy"))).toEqual([null, null, null, null, 25]);
  });
  test("quarterly dated at quarter end compares the same quarters", () => {
    const q = pts([
      ["2023-03-31", 40],
      ["2023-06-30", 50],
      ["2024-03-31", 50],
    ]);
    expect(values(percentChange(q, "quarterly", "yoy"))).toEqual([null, null, 25]);
    expect(values(percentChange(q, "quarterly", "qoq"))).toEqual([null, 25, null]);
  });
  test("annual yoy is the previous year; a missing year is null", () => {
    const a = pts([
      ["2020-01-01", 10],
      ["2021-01-01", 12],
      ["2023-01-01", 15],
    ]);
    expect(values(percentChange(a, "annual", "yoy"))).toEqual([null, 20, null]);
  });
  test("weekly yoy compares with the week 52 weeks earlier (same weekday, 364 days)", () => {
    // Saturdays: 2024-10-12 and 2025-10-11 are 364 days apart.
    const w = pts([
      ["2024-10-05", 220000],
      ["2024-10-12", 200000],
      ["2025-10-04", 231000],
      ["2025-10-11", 230000],
    ]);
    expect(values(percentChange(w, "weekly", "yoy"))).toEqual([null, null, 5, 15]);
  });
  test("weekly yoy across a leap day is still 52 weeks", () => {
    const w = pts([
      ["2023-03-04", 100],
      ["2024-03-02", 110],
    ]);
    expect(values(percentChange(w, "weekly", "yoy"))).toEqual([null, 10]);
  });
});

describe("frequency rules", () => {
  test("the table allows and refuses the documented pairs", () => {
    const allowed = Object.entries(COMPARATORS).flatMap(([f, r]) =>
      Object.entries(r)
        .filter(([, v]) => v.ok)
        .map(([k]) => `${f}:${k}`),
    );
    expect(allowed.sort()).toEqual([
      "annual:yoy",
      "monthly:mom",
      "monthly:qoq",
      "monthly:yoy",
      "quarterly:qoq",
      "quarterly:yoy",
      "weekly:yoy",
    ]);
  });
  test("daily yoy says to add frequency=monthly", () => {
    const e = ruleError(() => checkTransformFrequency({ kind: "yoy" }, "daily"));
    expect(e.message).toContain("add frequency=monthly");
    expect(e.message).toContain("daily series at native frequency");
    expect(e.details).toMatchObject({ parameter: "transform", suggestion: "frequency=monthly" });
  });
  test("mom on an annual series is refused with the reason", () => {
    const e = ruleError(() => applyTransform(pts([["2020-01-01", 1]]), { kind: "mom" }, "annual"));
    expect(e.message).toBe(
      "transform=mom (month-over-month) is not available on an annual series at native frequency: an annual series has no monthly values.",
    );
  });
  test("after resampling the message says so", () => {
    const e = ruleError(() => checkTransformFrequency({ kind: "mom" }, "quarterly", { resampled: true }));
    expect(e.message).toContain("after resampling to quarterly");
  });
  test("index and log are valid at every frequency", () => {
    for (const f of ["daily", "weekly", "monthly", "quarterly", "annual"] as const) {
      expect(() => checkTransformFrequency({ kind: "log" }, f)).not.toThrow();
      expect(() => checkTransformFrequency({ kind: "index", base: "2020-01-01" }, f)).not.toThrow();
    }
  });
});

describe("index", () => {
  const s = pts([
    ["2019-12-01", 80],
    ["2020-01-01", 160],
    ["2020-02-01", 200],
    ["2020-03-01", null],
  ]);
  test("rebases so the base date equals 100", () => {
    expect(values(indexTo(s, "2020-01-01"))).toEqual([50, 100, 125, null]);
  });
  test("a base date with no observation names the date and its neighbours", () => {
    const e = ruleError(() => indexTo(s, "2020-01-15"));
    expect(e.message).toBe(
      "transform=index:2020-01-15: the series has no observation on 2020-01-15; the nearest observations are 2020-01-01 and 2020-02-01.",
    );
    expect(e.details).toMatchObject({
      base_date: "2020-01-15",
      nearest_before: "2020-01-01",
      nearest_after: "2020-02-01",
    });
  });
  test("a base before the series", () => {
    expect(ruleError(() => indexTo(s, "1990-01-01")).message).toBe(
      "transform=index:1990-01-01: the series has no observation on 1990-01-01; the nearest observations are 2019-12-01.",
    );
  });
  test("a null or zero base cannot be rebased", () => {
    expect(ruleError(() => indexTo(s, "2020-03-01")).message).toContain("missing (null)");
    expect(ruleError(() => indexTo(pts([["2020-01-01", 0]]), "2020-01-01")).message).toContain("is zero");
  });
  test("on a resampled series the base is the bucket containing the date", () => {
    const q = pts([
      ["2020-01-01", 4],
      ["2020-04-01", 5],
    ]);
    expect(values(indexTo(q, "2020-02-15", { resampled: "quarterly" }))).toEqual([100, 125]);
    expect(values(applyTransform(q, { kind: "index", base: "2020-05-31" }, "quarterly", { resampled: true }))).toEqual([
      80, 100,
    ]);
  });
  test("empty series has no base", () => {
    expect(ruleError(() => indexTo([], "2020-01-01")).message).toBe(
      "transform=index:2020-01-01: the series has no observation on 2020-01-01.",
    );
  });
});

describe("log", () => {
  test("natural log; non-positive and null become null", () => {
    const out = naturalLog(
      pts([
        ["2020-01-01", Math.E],
        ["2020-02-01", 1],
        ["2020-03-01", 0],
        ["2020-04-01", -3],
        ["2020-05-01", null],
      ]),
    );
    expect(values(out)).toEqual([1, 0, null, null, null]);
  });
});

describe("units and descriptions", () => {
  test("meta.unit follows the transform", () => {
    expect(transformedUnit({ kind: "yoy" }, "index 1982-1984=100")).toBe("percent");
    expect(transformedUnit({ kind: "mom" }, null)).toBe("percent");
    expect(transformedUnit({ kind: "index", base: "2020-01-01" }, "dollars")).toBe("index (2020-01-01=100)");
    expect(transformedUnit({ kind: "log" }, "dollars")).toBe("log(dollars)");
    expect(transformedUnit({ kind: "log" }, null)).toBe("log");
  });
  test("descriptions state the comparator", () => {
    expect(describeTransform({ kind: "yoy" }, "monthly")).toBe(
      "percent change from the same month a year earlier; null when that observation is missing",
    );
    expect(describeTransform({ kind: "yoy" }, "weekly")).toBe(
      "percent change from the week 52 weeks earlier; null when that observation is missing",
    );
  });
});
