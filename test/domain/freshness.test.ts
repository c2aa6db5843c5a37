import { describe, expect, test } from "bun:test";
import { addDays } from "../../src/domain/calendar";
import { asOfDate, currentSince, freshestIndex, freshnessOf, isCurrent } from "../../src/domain/freshness";

describe("freshnessOf", () => {
  test("monthly: three months behind is current, four is stale (more than a quarter old)", () => {
    expect(freshnessOf("2026-08-01", "monthly", "2026-11-30")).toEqual({
      newest_period: "2026-08-01",
      cadence: "monthly",
      periods_behind: 3,
      max_periods_behind: 3,
      stale: false,
      stale_from: "2026-12-01",
    });
    const f = freshnessOf("2026-08-01", "monthly", "2026-12-01");
    expect([f.periods_behind, f.stale]).toEqual([4, true]);
    // The June 2026 vintage as of the test clock's day (2026-11-22): five months behind.
    expect(freshnessOf("2026-06-01", "monthly", "2026-11-22")).toMatchObject({
      periods_behind: 5,
      stale: true,
      stale_from: "2026-10-01",
    });
  });

  test("monthly: May 2020 is 78 months behind in November 2026", () => {
    expect(freshnessOf("2020-05-01", "monthly", "2026-11-22")).toMatchObject({
      periods_behind: 78,
      stale: true,
      stale_from: "2020-09-01",
    });
  });

  test("daily: seven days behind is current, eight stale", () => {
    expect(freshnessOf("2026-11-15", "daily", "2026-11-22")).toMatchObject({
      periods_behind: 7,
      stale: false,
      stale_from: "2026-11-23",
    });
    expect(freshnessOf("2026-11-14", "daily", "2026-11-22")).toMatchObject({ periods_behind: 8, stale: true });
  });

  test("weekly: counted in ISO weeks (Monday to Sunday), three allowed", () => {
    // 2026-11-22 is a Sunday in the week of Monday 2026-11-16; 2026-10-24 (Saturday) is in the week of 2026-10-19.
    expect(freshnessOf("2026-10-24", "weekly", "2026-11-22")).toMatchObject({
      periods_behind: 4,
      stale: true,
      stale_from: "2026-11-16",
    });
    expect(freshnessOf("2026-10-31", "weekly", "2026-11-22")).toMatchObject({
      periods_behind: 3,
      stale: false,
      stale_from: "2026-11-23",
    });
  });

  test("quarterly: two quarters allowed", () => {
    expect(freshnessOf("2026-04-01", "quarterly", "2026-11-22")).toMatchObject({
      periods_behind: 2,
      stale: false,
      stale_from: "2027-01-01",
    });
    expect(freshnessOf("2026-01-01", "quarterly", "2026-11-22")).toMatchObject({
      periods_behind: 3,
      stale: true,
      stale_from: "2026-10-01",
    });
  });

  test("annual: two years allowed", () => {
    expect(freshnessOf("2024-01-01", "annual", "2026-11-22")).toMatchObject({
      periods_behind: 2,
      stale: false,
      stale_from: "2027-01-01",
    });
    expect(freshnessOf("2018-01-01", "annual", "2026-11-22")).toMatchObject({
      periods_behind: 8,
      stale: true,
      stale_from: "2021-01-01",
    });
  });

  test("a newest period after the as-of date is 0 behind, never negative", () => {
    expect(freshnessOf("2027-01-01", "monthly", "2026-11-22")).toMatchObject({ periods_behind: 0, stale: false });
  });

  test("leap day and year ends", () => {
    expect(freshnessOf("2024-02-29", "daily", "2024-03-07")).toMatchObject({
      periods_behind: 7,
      stale: false,
      stale_from: "2024-03-08",
    });
    expect(freshnessOf("2025-12-01", "monthly", "2026-03-31")).toMatchObject({
      periods_behind: 3,
      stale: false,
      stale_from: "2026-04-01",
    });
  });
});

describe("isCurrent and asOfDate", () => {
  test("no data or no cadence is never current", () => {
    expect(isCurrent(null, "monthly", "2026-11-22")).toBe(false);
    expect(isCurrent("2026-10-01", null, "2026-11-22")).toBe(false);
    expect(isCurrent("2026-10-01", "monthly", "2026-11-22")).toBe(true);
  });
  test("as-of is the UTC calendar day", () => {
    expect(asOfDate(new Date("2026-11-22T23:59:59.999Z"))).toBe("2026-11-22");
    expect(asOfDate(new Date("2026-11-23T00:00:00-05:00"))).toBe("2026-11-23");
  });
});

describe("currentSince: the cutoffs a database filter uses in place of freshnessOf", () => {
  test("as of 2026-11-22 (a Sunday)", () => {
    expect(currentSince("2026-11-22")).toEqual({
      daily: "2026-11-15",
      weekly: "2026-10-26",
      monthly: "2026-08-01",
      quarterly: "2026-04-01",
      annual: "2024-01-01",
    });
  });
  test("a newest period on or after the cutoff is exactly a current one, for every cadence and every day of 2024-2026", () => {
    const asOf = "2026-11-22";
    const since = currentSince(asOf);
    for (const cadence of ["daily", "weekly", "monthly", "quarterly", "annual"] as const) {
      for (let d = "2024-01-01"; d <= "2026-12-31"; d = addDays(d, 1)) {
        if (d >= since[cadence] !== !freshnessOf(d, cadence, asOf).stale)
          throw new Error(`${cadence} ${d}: cutoff and rule disagree`);
      }
    }
  });
});

describe("freshestIndex", () => {
  test("a state's monthly rate for June 2026 beats its 2018 annual average, whatever the order", () => {
    expect(
      freshestIndex([
        { newest: "2018-01-01", cadence: "annual" },
        { newest: "2026-06-01", cadence: "monthly" },
      ]),
    ).toBe(1);
    expect(
      freshestIndex([
        { newest: "2026-06-01", cadence: "monthly" },
        { newest: "2018-01-01", cadence: "annual" },
      ]),
    ).toBe(0);
  });
  test("compares where periods end: the 2025 annual average (to December) beats November 2025", () => {
    expect(
      freshestIndex([
        { newest: "2025-11-01", cadence: "monthly" },
        { newest: "2025-01-01", cadence: "annual" },
      ]),
    ).toBe(1);
  });
  test("ties keep the caller's preference; series without data never win", () => {
    expect(
      freshestIndex([
        { newest: "2025-12-01", cadence: "monthly" },
        { newest: "2025-10-01", cadence: "quarterly" },
      ]),
    ).toBe(0);
    expect(
      freshestIndex([
        { newest: null, cadence: "monthly" },
        { newest: "2000-01-01", cadence: "annual" },
      ]),
    ).toBe(1);
    expect(freshestIndex([{ newest: null, cadence: "monthly" }])).toBe(-1);
    expect(freshestIndex([])).toBe(-1);
  });
});
