// Numbers, units, dates and names for people (src/domain/prose.ts).
import { describe, expect, test } from "bun:test";
import {
  atDate,
  decimalsOf,
  formatChange,
  formatDate,
  formatPercent,
  formatSignedChange,
  formatValue,
  groupDigits,
  indicatorPhrase,
  isRateUnit,
  ordinal,
  placeName,
  renderTemplate,
  seriesSubject,
  toneOf,
} from "../../src/domain/prose";

describe("values in their unit", () => {
  test("rates: percent and percentage points", () => {
    expect(formatValue(4.4, "percent", 1)).toBe("4.4%");
    expect(formatValue(5.5, "percent of GDP", 1)).toBe("5.5% of GDP");
    expect(formatValue(-0.89, "percentage points", 2)).toBe("-0.89 percentage points");
    expect(isRateUnit("percent")).toBe(true);
    expect(isRateUnit("percentage points")).toBe(true);
    expect(isRateUnit("persons")).toBe(false);
  });
  test("scaled counts and money are multiplied out, compact from a million", () => {
    expect(formatValue(159302, "thousands of persons", 0)).toBe("159.3 million persons");
    expect(formatValue(850, "thousands of persons", 0)).toBe("850,000 persons");
    expect(formatValue(1026318, "persons", 0)).toBe("1.03 million persons");
    expect(formatValue(42318, "persons", 0)).toBe("42,318 persons");
    expect(formatValue(7200, "thousands", 0)).toBe("7.20 million");
    expect(formatValue(1382, "thousands of units, SAAR", 0)).toBe("1.38 million units (SAAR)");
    expect(formatValue(27360.5, "billions of dollars, SAAR", 1)).toBe("$27.4 trillion (SAAR)");
    expect(formatValue(23000, "billions of chained 2017 dollars, SAAR", 1)).toBe(
      "$23.0 trillion (chained 2017 dollars, SAAR)",
    );
    expect(formatValue(31.25, "dollars per hour", 2)).toBe("$31.25 per hour");
    expect(formatValue(11.2, "1982-1984 dollars per hour", 2)).toBe("$11.20 per hour (1982-1984 dollars)");
    expect(formatValue(74580, "dollars", 0)).toBe("$74,580");
    expect(formatValue(-1.5, "billions of dollars", 1)).toBe("-$1.50 billion");
  });
  test("other units follow the number; an index names its base", () => {
    expect(formatValue(258.08, "index 1982-1984=100", 2)).toBe("258.08 (index 1982-1984=100)");
    expect(formatValue(421.1, "parts per million", 1)).toBe("421.1 parts per million");
    expect(formatValue(3.5, null, 1)).toBe("3.5");
  });
  test("changes: rates in percentage points, never percent; the value's note is said once", () => {
    expect(formatChange(0.3, "percent", 1)).toBe("0.3 percentage points");
    expect(formatChange(-0.3, "percent", 1)).toBe("0.3 percentage points");
    expect(formatChange(1, "percentage points", 0)).toBe("1 percentage point");
    expect(formatChange(-234, "thousands of persons", 0)).toBe("234,000 persons");
    expect(formatChange(609.4, "billions of dollars, SAAR", 1)).toBe("$609.4 billion");
    expect(formatChange(2.3, "index 2017=100", 1)).toBe("2.3 index points");
    expect(formatSignedChange(-0.25, "percent", 2)).toBe("-0.25 percentage points");
    expect(formatSignedChange(0.25, "percent", 2)).toBe("+0.25 percentage points");
    expect(formatSignedChange(0.001, "percent", 2)).toBe("0.00 percentage points");
  });
  test("percent changes: one decimal, two below a tenth", () => {
    expect(formatPercent(2.345)).toBe("2.3%");
    expect(formatPercent(0.04)).toBe("0.04%");
    expect(formatPercent(-1.5)).toBe("-1.5%");
    expect(formatPercent(0)).toBe("0.0%");
  });
  test("grouping and the data's own decimals", () => {
    expect(groupDigits(1234567.891, 2)).toBe("1,234,567.89");
    expect(groupDigits(-0.001, 2)).toBe("0.00");
    expect(decimalsOf([4.4, 4.1])).toBe(1);
    expect(decimalsOf([1, 2])).toBe(0);
    expect(decimalsOf([0.125, 1.5])).toBe(3);
    expect(decimalsOf([0.12345])).toBe(3);
    expect(decimalsOf([])).toBe(0);
  });
});

describe("dates by frequency", () => {
  test("each frequency reads as people say it", () => {
    expect(formatDate("2022-07-05", "daily")).toBe("July 5, 2022");
    expect(formatDate("2024-01-06", "weekly")).toBe("the week of January 6, 2024");
    expect(formatDate("2025-10-01", "monthly")).toBe("October 2025");
    expect(formatDate("2025-07-01", "quarterly")).toBe("the third quarter of 2025");
    expect(formatDate("2024-02-29", "annual")).toBe("2024");
    expect(atDate("2022-07-05", "daily")).toBe("on July 5, 2022");
    expect(atDate("2025-10-01", "monthly")).toBe("in October 2025");
  });
  test("ordinals", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
      "112th",
    ]);
  });
});

describe("names and polarity", () => {
  test("indicator names as sentence subjects", () => {
    expect(indicatorPhrase("Unemployment Rate by State (LAUS, seasonally adjusted)")).toBe("the unemployment rate");
    expect(indicatorPhrase("Civilian Unemployment Rate")).toBe("the civilian unemployment rate");
    expect(indicatorPhrase("All Employees, Total Nonfarm")).toBe("all employees, total nonfarm");
    expect(indicatorPhrase("Unemployed Persons by State (LAUS, seasonally adjusted)")).toBe("unemployed persons");
    expect(indicatorPhrase("10-Year Treasury Constant Maturity Minus 2-Year Treasury Constant Maturity")).toBe(
      "10-year Treasury constant maturity minus 2-year Treasury constant maturity",
    );
    expect(indicatorPhrase("Sahm Rule Recession Indicator")).toBe("the Sahm rule recession indicator");
    expect(indicatorPhrase("GDP (current US$)")).toBe("GDP");
    expect(seriesSubject("Unemployment Rate by State (LAUS, seasonally adjusted)", "Texas")).toBe(
      "The unemployment rate in Texas",
    );
  });
  test("places", () => {
    expect(placeName({ name: "United States", type: "country" })).toBe("the United States");
    expect(placeName({ name: "Japan", type: "country" })).toBe("Japan");
    expect(placeName({ name: "Texas", type: "state" })).toBe("Texas");
    expect(placeName({ name: "District of Columbia", type: "state" })).toBe("the District of Columbia");
    expect(placeName({ name: "Harris County", type: "county" }, "Texas")).toBe("Harris County, Texas");
  });
  test("tone: whether a move is good news for the indicator", () => {
    expect(toneOf("up", false)).toBe("negative");
    expect(toneOf("up", true)).toBe("positive");
    expect(toneOf("down", false)).toBe("positive");
    expect(toneOf("down", true)).toBe("negative");
    expect(toneOf("down", null)).toBe("neutral");
    expect(toneOf(null, true)).toBe("neutral");
  });
  test("templates fill named placeholders and leave unknown ones visible", () => {
    expect(renderTemplate("{a} and {b_c} and {d}", { a: "x", b_c: "y" })).toBe("x and y and {d}");
  });
});
