import { describe, expect, test } from "bun:test";
import {
  affordabilityRatio,
  alignTo,
  employmentRate,
  realEarnings,
  sahmRule,
  unemploymentGap,
} from "../../src/domain/derived";
import { RuleError, type Point } from "../../src/domain/series";

const pts = (rows: [string, number | null][]): Point[] => rows.map(([date, value]) => ({ date, value }));
const months = (start: number, values: (number | null)[]): Point[] =>
  values.map((value, i) => {
    const idx = 2023 * 12 + start - 1 + i;
    return { date: `${Math.floor(idx / 12)}-${String((idx % 12) + 1).padStart(2, "0")}-01`, value };
  });
const values = (p: Point[]) => p.map((x) => x.value);

describe("Sahm rule", () => {
  test("0.50 when the 3-month average rises half a point over the prior 12 months' low", () => {
    // 2023-01..2024-02 at 4.0, then 2024-03 at 5.5: m3(2024-03) = (4 + 4 + 5.5) / 3 = 4.5.
    const u = months(1, [...Array(14).fill(4), 5.5]);
    const s = sahmRule(u);
    expect(s[14]).toEqual({ date: "2024-03-01", value: 0.5 });
    // No 3-month average before 2023-03; no prior average before 2023-04.
    expect(values(s).slice(0, 4)).toEqual([null, null, null, 0]);
    expect(values(s).slice(4, 14)).toEqual(Array(10).fill(0));
  });
  test("negative while unemployment falls (previous 12 months exclude the current one)", () => {
    const s = sahmRule(months(1, [6, 6, 6, 5, 4, 3]));
    expect(s[3].value).toBeCloseTo(-1 / 3, 14); // 17/3 - 6
    // The lowest earlier average is the latest one: 5 - 17/3, then 4 - 5.
    expect(s[4].value).toBeCloseTo(-2 / 3, 14);
    expect(s[5].value).toBe(-1);
  });
  test("the window reaches back exactly 12 months", () => {
    // m3 = 3 only at 2023-03 (13 months before 2024-04), 5 elsewhere.
    const u = months(1, [3, 3, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]);
    const s = sahmRule(u);
    // 2024-03 (idx 14) looks back to 2023-03 (m3 = 3): 5 - 3 = 2; 2024-04 looks back to 2023-04 whose m3 = 11/3.
    expect(s[14].value).toBe(2);
    expect(s[15].value).toBeCloseTo(5 - 11 / 3, 14);
  });
  test("a missing month blanks the three averages that need it, not the year after", () => {
    const u = months(1, [4, 4, 4, 4, null, 4, 4, 4, 4.6]);
    const s = sahmRule(u);
    // m3 null at 2023-05, 06, 07; 2023-08 m3 = 4; 2023-09 m3 = 12.6/3 = 4.2 vs min 4.
    expect(values(s).slice(4, 7)).toEqual([null, null, null]);
    expect(s[7].value).toBe(0);
    expect(s[8].value).toBeCloseTo(0.2, 14);
  });
  test("empty and one-point series", () => {
    expect(sahmRule([])).toEqual([]);
    expect(sahmRule(pts([["2024-01-01", 4]]))).toEqual([{ date: "2024-01-01", value: null }]);
  });
});

describe("real average hourly earnings", () => {
  test("deflated to 1982-84 dollars by the same month's CPI, whatever the day each is dated", () => {
    const ahe = pts([
      ["2024-01-01", 30],
      ["2024-02-01", 31.5],
      ["2024-03-01", 32],
    ]);
    const cpi = pts([
      ["2024-01-31", 300],
      ["2024-02-29", 315],
    ]);
    expect(realEarnings(ahe, cpi)).toEqual([
      { date: "2024-01-01", value: 10 },
      { date: "2024-02-01", value: 10 },
      { date: "2024-03-01", value: null },
    ]);
  });
  test("a null CPI month (October 2025) gives null", () => {
    expect(values(realEarnings(pts([["2025-10-01", 31]]), pts([["2025-10-01", null]])))).toEqual([null]);
  });
  test("preliminary input marks the output", () => {
    const out = realEarnings([{ date: "2024-01-01", value: 30, preliminary: true }], pts([["2024-01-01", 300]]));
    expect(out).toEqual([{ date: "2024-01-01", value: 10, preliminary: true }]);
  });
});

describe("home affordability ratio", () => {
  test("median home value over median household income, same year", () => {
    const home = pts([
      ["2021-01-01", 300000],
      ["2022-01-01", 330000],
      ["2023-01-01", 360000],
    ]);
    const income = pts([
      ["2021-01-01", 75000],
      ["2022-01-01", 0],
    ]);
    expect(values(affordabilityRatio(home, income))).toEqual([4, null, null]);
  });
});

describe("unemployment gap", () => {
  test("annual county rate minus the national annual mean of complete years", () => {
    const county = pts([
      ["2023-01-01", 5],
      ["2024-01-01", 6],
    ]);
    // 2023: alternating 3.5 / 4.5 -> mean 4.0; 2024: only January..June -> incomplete, no national value.
    const national = months(1, [3.5, 4.5, 3.5, 4.5, 3.5, 4.5, 3.5, 4.5, 3.5, 4.5, 3.5, 4.5, 4, 4, 4, 4, 4, 4]);
    expect(values(unemploymentGap(county, "annual", national, "monthly"))).toEqual([1, null]);
  });
  test("same frequency: month by month", () => {
    const local = pts([
      ["2024-01-01", 5.5],
      ["2024-02-01", 3],
    ]);
    const national = pts([
      ["2024-01-01", 3.5],
      ["2024-02-01", 4],
    ]);
    expect(values(unemploymentGap(local, "monthly", national, "monthly"))).toEqual([2, -1]);
  });
  test("a finer local series cannot be aligned to a coarser national one", () => {
    expect(() => alignTo(pts([["2024-01-01", 1]]), "annual", "monthly")).toThrow(RuleError);
  });
});

describe("employment rate", () => {
  test("employed / labor force x 100, per date", () => {
    const employed = pts([
      ["2020-01-01", 960],
      ["2021-01-01", 900],
      ["2022-01-01", 5],
    ]);
    const lf = pts([
      ["2020-01-01", 1000],
      ["2021-01-01", 1000],
      ["2022-01-01", 0],
    ]);
    expect(values(employmentRate(employed, lf, "annual"))).toEqual([96, 90, null]);
  });
});
