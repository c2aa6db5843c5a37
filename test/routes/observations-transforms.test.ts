// GET /v1/observations transforms: percent changes read the whole series, index and log, and resampling, on the real
// series the seed ships (db/seed/snapshot/fred-macro-us): every expected number is worked out in the test from the raw
// FRED file. Pages, bounds and errors are observations.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { observationsResponseSchema } from "../../src/schemas/observations";
import { observationsApp, shippedFredSeries, valuesOf as values } from "../support/observations";
import { fredValue, type FredRow } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = observationsApp();
const { get, expect400 } = fx;
const { CPI, cpi, DGS, ICSA, GDP, gdp } = shippedFredSeries();

const pct = (x: number, c: number) => ((x - c) / c) * 100;
/** Sum of the values (nulls skipped), added in date order as the resampler does. */
const sum = (rows: readonly FredRow[]) => values(rows).reduce((a, v) => a + v, 0);
const mean = (rows: readonly FredRow[]) => sum(rows) / values(rows).length;
const inPeriod = (rows: readonly FredRow[], prefix: string) => rows.filter((r) => r.date.startsWith(prefix));

describe("percent-change transforms read the whole series", () => {
  test("yoy compares with the same month a year earlier, even before start_date", async () => {
    const r = await get("indicator=CPIAUCSL&transform=yoy&start_date=2024-01-01&end_date=2024-03-01&order=asc");
    expect(r.body.meta).toMatchObject({ unit: "percent", transform: "yoy", total: 3 });
    expect(r.body.data.map((x: any) => x.value)).toEqual([
      pct(cpi("2024-01-01"), cpi("2023-01-01")),
      pct(cpi("2024-02-01"), cpi("2023-02-01")),
      pct(cpi("2024-03-01"), cpi("2023-03-01")),
    ]);
    // The series' first year (1947) has no comparator.
    const first = await get("indicator=CPIAUCSL&transform=yoy&end_date=1947-12-01&limit=12");
    expect(first.body.meta.total).toBe(12);
    expect(first.body.data.every((x: any) => x.value === null)).toBe(true);
    expect(
      (await get("indicator=CPIAUCSL&transform=yoy&start_date=1948-01-01&order=asc&limit=1")).body.data[0].value,
    ).toBe(pct(cpi("1948-01-01"), 21.48));
  });
  test("the October 2025 gap: October and November mom are null, never a two-month change", async () => {
    const r = await get("indicator=CPIAUCSL&transform=mom&start_date=2025-08-01&end_date=2025-11-01&order=asc");
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["2025-08-01", pct(cpi("2025-08-01"), cpi("2025-07-01"))],
      ["2025-09-01", pct(cpi("2025-09-01"), cpi("2025-08-01"))],
      ["2025-10-01", null],
      ["2025-11-01", null],
    ]);
    // yoy of November 2025 has its comparator (November 2024) and is not affected; October's own yoy is null.
    const y = await get("indicator=CPIAUCSL&transform=yoy&start_date=2025-10-01&end_date=2025-11-01&order=asc");
    expect(y.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["2025-10-01", null],
      ["2025-11-01", pct(cpi("2025-11-01"), cpi("2024-11-01"))],
    ]);
  });
  test("the comparator outside the returned page is still used", async () => {
    const r = await get("indicator=CPIAUCSL&transform=mom&limit=1&order=asc&start_date=2024-01-01");
    expect(r.body.data[0].value).toBe(pct(cpi("2024-01-01"), cpi("2023-12-01")));
  });
  test("qoq on a monthly series: three months earlier", async () => {
    const r = await get("indicator=CPIAUCSL&transform=qoq&start_date=2024-04-01&end_date=2024-04-01");
    expect(r.body.data[0].value).toBe(pct(cpi("2024-04-01"), cpi("2024-01-01")));
  });
  test("quarterly qoq and yoy; mom on a quarterly series is a 400 saying why", async () => {
    const q = await get("indicator=GDP&transform=qoq&order=asc&limit=2");
    expect(q.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["1980-01-01", null],
      ["1980-04-01", pct(gdp("1980-04-01"), gdp("1980-01-01"))],
    ]);
    const y = await get("indicator=GDP&transform=yoy&start_date=2023-01-01&end_date=2023-01-01");
    expect(y.body.data[0].value).toBe(pct(gdp("2023-01-01"), gdp("2022-01-01")));
    await expect400("indicator=GDP&transform=mom", "transform", "a quarterly series has no monthly values");
  });
  test("weekly yoy compares with 52 weeks earlier; weekly mom is a 400", async () => {
    const r = await get("indicator=ICSA&transform=yoy&order=asc&start_date=2025-01-01");
    // Saturday 2025-01-04 compares with Saturday 2024-01-06, 364 days earlier.
    expect(r.body.data[0]).toMatchObject({
      date: "2025-01-04",
      value: pct(fredValue(ICSA, "2025-01-04")!, fredValue(ICSA, "2024-01-06")!),
    });
    await expect400("indicator=ICSA&transform=mom", "transform", "add frequency=monthly");
  });
  test("yoy on a daily series at native frequency is a 400 that says to add frequency=monthly", async () => {
    const body = await expect400("indicator=DGS10&transform=yoy", "transform", "add frequency=monthly");
    expect(body.error.message).toContain("daily series at native frequency");
  });
  test("transform with include_revisions is a 400", async () => {
    await expect400("indicator=CPIAUCSL&transform=yoy&include_revisions=true", "transform", "include_revisions");
  });
  test("an unknown transform is a 400 naming the parameter", async () => {
    await expect400("indicator=CPIAUCSL&transform=pch", "transform", "unknown transform");
    await expect400("indicator=CPIAUCSL&transform=index:2024-13-01", "transform");
  });
});

describe("index and log", () => {
  test("index rebases so the base date is 100, with a base outside the range", async () => {
    const r = await get("indicator=CPIAUCSL&transform=index:2023-01-01&start_date=2024-01-01&end_date=2024-01-01");
    expect(r.body.meta).toMatchObject({ unit: "index (2023-01-01=100)", transform: "index:2023-01-01" });
    expect(r.body.data[0].value).toBe((cpi("2024-01-01") / cpi("2023-01-01")) * 100);
    const base = await get("indicator=CPIAUCSL&transform=index:2023-01-01&start_date=2023-01-01&order=asc&limit=1");
    expect(base.body.data[0]).toMatchObject({ date: "2023-01-01", value: 100 });
    // The gap stays a gap after rebasing.
    const gap = await get("indicator=CPIAUCSL&transform=index:2023-01-01&start_date=2025-10-01&end_date=2025-10-01");
    expect(gap.body.data[0]).toMatchObject({ date: "2025-10-01", value: null });
  });
  test("a base date with no observation is a 400 naming the date", async () => {
    const body = await expect400("indicator=CPIAUCSL&transform=index:2024-01-15", "transform", "2024-01-15");
    expect(body.error.details).toMatchObject({
      base_date: "2024-01-15",
      nearest_before: "2024-01-01",
      nearest_after: "2024-02-01",
    });
  });
  test("a base on the missing October 2025 is a 400", async () => {
    await expect400("indicator=CPIAUCSL&transform=index:2025-10-01", "transform", "missing");
  });
  test("log is the natural log and names the unit", async () => {
    const plain = await get("indicator=CPIAUCSL&limit=1");
    const r = await get("indicator=CPIAUCSL&transform=log&limit=3");
    expect(r.body.meta.unit).toBe(`log(${plain.body.meta.unit})`);
    expect(r.body.data.map((x: any) => x.value)).toEqual([
      Math.log(332.407),
      Math.log(330.293),
      Math.log(cpi("2026-02-01")),
    ]);
  });
});

describe("resampling", () => {
  const monthMean = (ym: string) => mean(inPeriod(DGS, ym));
  test("daily to monthly mean: calendar buckets, the incomplete newest month dropped and reported", async () => {
    const r = await get("indicator=DGS10&frequency=monthly&limit=3");
    expect(r.status).toBe(200);
    observationsResponseSchema.parse(r.body);
    // The last point is Thursday 2026-06-04: the rest of June is still to come, so June is incomplete.
    expect(r.body.meta.resample).toEqual({
      method: "mean",
      source_frequency: "daily",
      target_frequency: "monthly",
      completeness: expect.stringContaining("next weekday"),
      dropped_incomplete_bucket: true,
      dropped_period_start: "2026-06-01",
    });
    // meta names the frequency of the rows returned; the series' own is kept beside it.
    expect([r.body.meta.frequency, r.body.meta.native_frequency]).toEqual(["monthly", "daily"]);
    expect(r.body.meta.total).toBe(64 * 12 + 5); // 1962-01 .. 2026-05
    // November 2025 holds two market holidays (Veterans Day, Thanksgiving): their empty values are skipped, not zeros.
    expect(
      inPeriod(DGS, "2025-11")
        .filter((x) => x.value === null)
        .map((x) => x.date),
    ).toEqual(["2025-11-11", "2025-11-27"]);
    expect(r.body.data).toEqual([
      { period_start: "2026-05-01", period_end: "2026-05-31", period_type: "monthly", value: monthMean("2026-05") },
      { period_start: "2026-04-01", period_end: "2026-04-30", period_type: "monthly", value: monthMean("2026-04") },
      { period_start: "2026-03-01", period_end: "2026-03-31", period_type: "monthly", value: monthMean("2026-03") },
    ]);
    const november = await get("indicator=DGS10&frequency=monthly&start_date=2025-11-01&end_date=2025-11-30");
    expect(november.body.data[0].value).toBe(monthMean("2025-11"));
  });
  test("sum and last", async () => {
    const s = await get("indicator=DGS10&frequency=monthly&resample_method=sum&start_date=2024-01-01&order=asc");
    expect(s.body.data[0].value).toBe(sum(inPeriod(DGS, "2024-01")));
    const l = await get("indicator=DGS10&frequency=quarterly&resample_method=last&limit=1");
    // 2026Q2 is incomplete (the last point is 2026-06-04); 2026Q1 ends on Tuesday 2026-03-31, which has a value.
    expect(fredValue(DGS, "2026-03-31")).not.toBeNull();
    expect(l.body.data[0]).toEqual({
      period_start: "2026-01-01",
      period_end: "2026-03-31",
      period_type: "quarterly",
      value: fredValue(DGS, "2026-03-31"),
    });
    expect(l.body.meta.resample.dropped_period_start).toBe("2026-04-01");
    // last is the latest point with a value: 2024Q1 ends on Good Friday 2024-03-29, a market holiday without one.
    expect(fredValue(DGS, "2024-03-29")).toBeNull();
    const q1 = await get(
      "indicator=DGS10&frequency=quarterly&resample_method=last&start_date=2024-01-01&end_date=2024-03-31",
    );
    expect(q1.body.data).toEqual([
      {
        period_start: "2024-01-01",
        period_end: "2024-03-31",
        period_type: "quarterly",
        value: fredValue(DGS, "2024-03-28"),
      },
    ]);
  });
  test("buckets overlapping the range are returned whole; limit and offset count buckets", async () => {
    const r = await get("indicator=DGS10&frequency=monthly&start_date=2023-06-15&end_date=2023-09-10&order=asc");
    expect(r.body.meta.total).toBe(4);
    expect(r.body.data.map((x: any) => x.period_start)).toEqual([
      "2023-06-01",
      "2023-07-01",
      "2023-08-01",
      "2023-09-01",
    ]);
    expect(r.body.data[0].value).toBe(monthMean("2023-06"));
    const p = await get(
      "indicator=DGS10&frequency=monthly&start_date=2023-06-15&end_date=2023-09-10&order=asc&offset=1&limit=2",
    );
    expect(p.body.data.map((x: any) => x.period_start)).toEqual(["2023-07-01", "2023-08-01"]);
  });
  test("resampling happens before the transform: daily to monthly yoy", async () => {
    const r = await get("indicator=DGS10&frequency=monthly&transform=yoy&limit=1");
    expect(r.body.meta).toMatchObject({ unit: "percent", transform: "yoy" });
    expect(r.body.data[0]).toEqual({
      period_start: "2026-05-01",
      period_end: "2026-05-31",
      period_type: "monthly",
      value: pct(monthMean("2026-05"), monthMean("2025-05")),
    });
  });
  test("a monthly series to quarterly and annual; mom after resampling to quarterly is a 400", async () => {
    const q = await get("indicator=CPIAUCSL&frequency=quarterly&order=asc&limit=1");
    expect(q.body.data[0]).toEqual({
      period_start: "1947-01-01",
      period_end: "1947-03-31",
      period_type: "quarterly",
      value: mean(CPI.slice(0, 3)),
    });
    // 2026Q2 lacks May and June: dropped as incomplete, so the newest quarter is 2026Q1.
    const last = await get("indicator=CPIAUCSL&frequency=quarterly&limit=1");
    expect(last.body.data[0]).toMatchObject({
      period_start: "2026-01-01",
      value: mean(CPI.filter((x) => x.date >= "2026-01-01" && x.date <= "2026-03-01")),
    });
    expect(last.body.meta.resample).toMatchObject({
      dropped_incomplete_bucket: true,
      dropped_period_start: "2026-04-01",
    });
    // 2026 is incomplete too; the newest year is 2025 (its missing October skipped, not a zero), compared with 2024.
    const a = await get("indicator=CPIAUCSL&frequency=annual&transform=yoy&limit=1");
    expect(a.body.data[0]).toMatchObject({
      period_start: "2025-01-01",
      value: pct(mean(inPeriod(CPI, "2025")), mean(inPeriod(CPI, "2024"))),
    });
    await expect400(
      "indicator=CPIAUCSL&frequency=quarterly&transform=mom",
      "transform",
      "after resampling to quarterly",
    );
  });
  test("weekly to monthly sum", async () => {
    const r = await get("indicator=ICSA&frequency=monthly&resample_method=sum&order=asc&limit=1");
    // January 1967 weeks end on Saturdays 7, 14, 21 and 28.
    expect(inPeriod(ICSA, "1967-01").map((x) => x.date)).toEqual([
      "1967-01-07",
      "1967-01-14",
      "1967-01-21",
      "1967-01-28",
    ]);
    expect(r.body.data[0]).toEqual({
      period_start: "1967-01-01",
      period_end: "1967-01-31",
      period_type: "monthly",
      value: sum(inPeriod(ICSA, "1967-01")),
    });
  });
  test("upsampling is a 400", async () => {
    await expect400("indicator=GDP&frequency=monthly", "frequency", "upsample");
  });
  test("frequency with include_revisions is a 400", async () => {
    await expect400("indicator=CPIAUCSL&frequency=annual&include_revisions=true", "frequency");
  });
});
