// Axis ticks (src/domain/chart-ticks.ts): dates by the series' frequency, values at round steps.
import { describe, expect, test } from "bun:test";
import { dayNumber, type Frequency } from "../../src/domain/calendar";
import { dateTicks, valueTicks } from "../../src/domain/chart-ticks";

/** The labels of a date axis `width` pixels long from `from` to `to`, drawn at 11 px with 40 px to spare either side. */
function labels(from: string, to: string, frequency: Frequency, width: number): string[] {
  const x = (d: string) => ((dayNumber(d) - dayNumber(from)) / (dayNumber(to) - dayNumber(from))) * width;
  return dateTicks(from, to, frequency, x, 11, -40, width + 40).map((t) => t.label);
}

describe("date ticks follow the frequency", () => {
  test("an annual series of two points: its two years, never months", () => {
    expect(labels("2023-01-01", "2024-01-01", "annual", 700)).toEqual(["2023", "2024"]);
    // 40 px: two ticks would be closer than 48 px, so every second year: 2024 alone.
    expect(labels("2023-01-01", "2024-01-01", "annual", 40)).toEqual(["2024"]);
  });
  test("monthly: months while they fit, the year at the first tick and each January; years beyond", () => {
    expect(labels("2025-01-01", "2026-05-01", "monthly", 700)).toEqual([
      "Jan 2025",
      "Apr",
      "Jul",
      "Oct",
      "Jan 2026",
      "Apr",
    ]);
    expect(labels("2015-01-01", "2026-05-01", "monthly", 700)).toEqual([
      "2015",
      "2016",
      "2017",
      "2018",
      "2019",
      "2020",
      "2021",
      "2022",
      "2023",
      "2024",
      "2025",
      "2026",
    ]);
    expect(labels("1986-01-01", "2025-12-01", "monthly", 200)).toEqual(["1990", "2000", "2010", "2020"]);
  });
  test("quarterly: quarters named as quarters; weekly: the weeks drawn", () => {
    expect(labels("2010-01-01", "2010-10-01", "quarterly", 700)).toEqual(["Q1 2010", "Q2", "Q3", "Q4"]);
    expect(labels("2025-12-15", "2026-01-26", "weekly", 700)).toEqual([
      "Dec 15, 2025",
      "Dec 22",
      "Dec 29",
      "Jan 5, 2026",
      "Jan 12",
      "Jan 19",
      "Jan 26",
    ]);
  });
  test("a month tick falls on a month start at or after the first date", () => {
    expect(labels("2025-01-15", "2025-12-01", "daily", 300)).toEqual(["Apr 2025", "Jul", "Oct"]);
  });
});

describe("value ticks", () => {
  test("the values and 5% of their range either side; ticks at the finest round step 29 px apart", () => {
    // Range 11.4: the axis runs 2.83 .. 15.37; a step of 1 is 23.9 px (too close), 2 is 47.8 px.
    const a = valueTicks(3.4, 14.8, 300, 29, 17);
    expect([a.lo, a.hi]).toEqual([3.4 - 0.57, 14.8 + 0.57]);
    expect(a.labels).toEqual(["4", "6", "8", "10", "12", "14"]);
  });
  test("a short axis takes a closer step rather than fewer than two ticks", () => {
    // 240 .. 332 over 50 px: a step of 100 would leave one tick; 50 is 24.7 px apart.
    expect(valueTicks(240, 332, 50, 29, 17).labels).toEqual(["250", "300"]);
  });
  test("millions and beyond are written short; zero is 0; a flat line gets an axis around it", () => {
    expect(valueTicks(9731000, 9757179, 150, 29, 17).labels).toEqual(["9.73M", "9.74M", "9.75M"]);
    expect(valueTicks(-2e6, 3e6, 150, 29, 17).labels).toEqual(["-2M", "0", "2M"]);
    expect(valueTicks(130000, 160000, 150, 29, 17).labels).toEqual(["130,000", "140,000", "150,000", "160,000"]);
    expect(valueTicks(5, 5, 100, 29, 17).labels).toEqual(["4.5", "5.0", "5.5"]);
  });
});
