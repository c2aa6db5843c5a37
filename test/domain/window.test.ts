// Window parsing and anchoring (src/domain/window.ts): every accepted and refused form, the bounds at and past their
// edge, and anchoring across month ends and leap days.
import { describe, expect, test } from "bun:test";
import { WINDOW_MAX, formatWindow, parseWindow, windowSpanPhrase, windowStart } from "../../src/domain/window";

describe("parseWindow", () => {
  test("all and N followed by d, m or y", () => {
    expect(parseWindow("all")).toEqual({ kind: "all" });
    expect(parseWindow("1d")).toEqual({ kind: "span", n: 1, unit: "d" });
    expect(parseWindow("12m")).toEqual({ kind: "span", n: 12, unit: "m" });
    expect(parseWindow("5y")).toEqual({ kind: "span", n: 5, unit: "y" });
  });
  test("bounds: at the maximum accepted, one past refused", () => {
    expect(WINDOW_MAX).toEqual({ d: 365_250, m: 12_000, y: 1_000 });
    expect(parseWindow("365250d")).toEqual({ kind: "span", n: 365_250, unit: "d" });
    expect(parseWindow("365251d")).toBeNull();
    expect(parseWindow("12000m")).toEqual({ kind: "span", n: 12_000, unit: "m" });
    expect(parseWindow("12001m")).toBeNull();
    expect(parseWindow("1000y")).toEqual({ kind: "span", n: 1_000, unit: "y" });
    expect(parseWindow("1001y")).toBeNull();
    expect(parseWindow("99999999y")).toBeNull();
  });
  test("anything else is refused", () => {
    for (const s of [
      "",
      "0d",
      "0m",
      "0y",
      "012m",
      "-1m",
      "+1m",
      "1.5y",
      "12M",
      "12w",
      " 12m",
      "12m ",
      "12",
      "m",
      "ALL",
      "All",
      "all ",
      "1e2d",
      "12mm",
      "1 y",
    ]) {
      expect({ s, w: parseWindow(s) }).toEqual({ s, w: null });
    }
  });
  test("formatWindow gives back what was parsed", () => {
    for (const s of ["all", "1d", "30d", "12m", "5y"]) expect(formatWindow(parseWindow(s)!)).toBe(s);
  });
});

describe("windowStart: anchored at the latest observation, both ends included", () => {
  test("all covers every date", () => {
    expect(windowStart({ kind: "all" }, "2025-10-01")).toBeNull();
  });
  test("months and years clamp to the end of a shorter month; leap days", () => {
    expect(windowStart(parseWindow("12m")!, "2025-10-01")).toBe("2024-10-01");
    expect(windowStart(parseWindow("1m")!, "2025-03-31")).toBe("2025-02-28");
    expect(windowStart(parseWindow("1m")!, "2024-03-31")).toBe("2024-02-29");
    expect(windowStart(parseWindow("1y")!, "2024-02-29")).toBe("2023-02-28");
    expect(windowStart(parseWindow("4y")!, "2024-02-29")).toBe("2020-02-29");
  });
  test("days count calendar days (2024 is a leap year: 30 days before March 1 is January 31)", () => {
    expect(windowStart(parseWindow("30d")!, "2024-03-01")).toBe("2024-01-31");
    expect(windowStart(parseWindow("30d")!, "2023-03-01")).toBe("2023-01-30");
    expect(windowStart(parseWindow("1d")!, "2025-01-01")).toBe("2024-12-31");
  });
  test("a window reaching before year 0 starts at 0000-01-01 (every held date is later)", () => {
    expect(windowStart(parseWindow("1000y")!, "0500-06-01")).toBe("0000-01-01");
    expect(windowStart(parseWindow("1000y")!, "2025-01-01")).toBe("1025-01-01");
  });
  test("prose", () => {
    expect(windowSpanPhrase({ kind: "span", n: 1, unit: "y" })).toBe("the past year");
    expect(windowSpanPhrase({ kind: "span", n: 12, unit: "m" })).toBe("the past 12 months");
    expect(windowSpanPhrase({ kind: "span", n: 30, unit: "d" })).toBe("the past 30 days");
  });
});
