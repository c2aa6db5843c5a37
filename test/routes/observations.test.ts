// GET /v1/observations: paging, bounds, transforms, resampling and errors, on series written through the write path
// with values chosen here; every expected number is worked out from the definitions in the test itself.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { observationsResponseSchema } from "../../src/schemas/observations";
import { makeTestApp, type TestApp } from "../support/app";
import { monthStarts, weekdays, writeSeries, type Row } from "../support/series";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;

// CPIAUCSL (monthly, US): 2023-01 .. 2025-12, value 250 + k, October 2025 missing (null), December 2025 preliminary.
const CPI_DATES = monthStarts("2023-01", 36);
const cpi = (k: number): number | null => (k === 33 ? null : 250 + k);
const cpiAt = (date: string) => cpi(CPI_DATES.indexOf(date));

// DGS10 (daily, US): every weekday 2023-01-02 .. 2024-03-27, value = day of month; March 2024 is incomplete.
const DGS_DATES = weekdays("2023-01-02", "2024-03-27");
const dgs = (date: string) => Number(date.slice(8, 10));

// ICSA (weekly, US): Saturdays from 2024-01-06 for 60 weeks, value 200000 + 1000 * week.
const ICSA_DATES = Array.from({ length: 60 }, (_, w) => new Date(Date.UTC(2024, 0, 6 + 7 * w)).toISOString().slice(0, 10));

// GDP (quarterly, US): 2022Q1 .. 2024Q4, value 100 + 2q.
const GDP_DATES = Array.from({ length: 12 }, (_, q) => `${2022 + Math.floor(q / 4)}-${String((q % 4) * 3 + 1).padStart(2, "0")}-01`);

beforeAll(async () => {
  t = await makeTestApp();
  const db = t.database.db;
  await writeSeries(db, "fred", "CPIAUCSL", "US", CPI_DATES.map((d, k): Row => [d, cpi(k), k === 35 ? { preliminary: true } : undefined]));
  await writeSeries(db, "fred", "DGS10", "US", DGS_DATES.map((d): Row => [d, dgs(d)]));
  await writeSeries(db, "fred", "ICSA", "US", ICSA_DATES.map((d, w): Row => [d, 200000 + 1000 * w]));
  await writeSeries(db, "fred", "GDP", "US", GDP_DATES.map((d, q): Row => [d, 100 + 2 * q]));
}, 120_000);
afterAll(() => t?.close());

const get = (qs: string) => t.getJson(`/v1/observations?${qs}`);
const pct = (x: number, c: number) => ((x - c) / c) * 100;

async function expect400(qs: string, parameter: string, contains?: string) {
  const r = await get(qs);
  expect(r.status).toBe(400);
  expect(r.body.error.code).toBe("INVALID_PARAMETER");
  expect(r.body.error.details?.parameter).toBe(parameter);
  if (contains) expect(r.body.error.message).toContain(contains);
  return r.body;
}

describe("200: pages of the latest revisions", () => {
  test("defaults: newest first, limit 100, offset 0, the indicator's default region", async () => {
    const r = await get("indicator=CPIAUCSL");
    expect(r.status).toBe(200);
    observationsResponseSchema.parse(r.body);
    expect(r.body.meta).toMatchObject({ indicator: "CPIAUCSL", region: "US", total: 36, limit: 100, offset: 0, source: "fred", frequency: "monthly" });
    expect(r.body.meta.transform).toBeUndefined();
    expect(r.body.meta.resample).toBeUndefined();
    expect(r.body.meta.native_frequency).toBe("monthly");
    expect(r.body.meta.concept).toBeUndefined();
    expect(r.body.data).toHaveLength(36);
    expect(r.body.data[0]).toEqual({
      date: "2025-12-01",
      value: 285,
      indicator: "CPIAUCSL",
      region: "US",
      unit: r.body.meta.unit,
      source: "fred",
      source_updated_at: null,
      is_preliminary: true,
      revision: 1,
    });
    expect(r.body.data[2]).toMatchObject({ date: "2025-10-01", value: null });
    expect(r.body.data[35].date).toBe("2023-01-01");
  });
  test("region by what people type", async () => {
    for (const region of ["US", "us", "USA", "united-states"]) {
      const r = await get(`indicator=CPIAUCSL&region=${region}&limit=1`);
      expect(r.status).toBe(200);
      expect(r.body.meta.region).toBe("US");
    }
  });
  test("asc order, inclusive date range, offset and limit over the range", async () => {
    const r = await get("indicator=CPIAUCSL&order=asc&start_date=2024-03-01&end_date=2024-08-01&offset=2&limit=3");
    expect(r.body.meta.total).toBe(6);
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["2024-05-01", 266],
      ["2024-06-01", 267],
      ["2024-07-01", 268],
    ]);
    const d = await get("indicator=CPIAUCSL&order=desc&start_date=2024-03-01&end_date=2024-08-01&offset=2&limit=3");
    expect(d.body.data.map((x: any) => x.date)).toEqual(["2024-06-01", "2024-05-01", "2024-04-01"]);
  });
  test("start_date equal to end_date selects that date; dates between observations select nothing", async () => {
    expect((await get("indicator=CPIAUCSL&start_date=2024-03-01&end_date=2024-03-01")).body.meta.total).toBe(1);
    expect((await get("indicator=CPIAUCSL&start_date=2024-03-02&end_date=2024-03-31")).body).toMatchObject({ data: [], meta: { total: 0 } });
  });
  test("offset past the end is an empty page with the true total", async () => {
    const r = await get("indicator=CPIAUCSL&offset=36");
    expect(r.body).toMatchObject({ data: [], meta: { total: 36, offset: 36 } });
  });
});

describe("bounds: each at its edge and one past it", () => {
  test("limit 0 and 1000 are valid; -1 and 1001 are not", async () => {
    expect((await get("indicator=CPIAUCSL&limit=0")).body).toMatchObject({ data: [], meta: { total: 36, limit: 0 } });
    expect((await get("indicator=CPIAUCSL&limit=1000")).body.data).toHaveLength(36);
    await expect400("indicator=CPIAUCSL&limit=1001", "limit");
    await expect400("indicator=CPIAUCSL&limit=-1", "limit");
    await expect400("indicator=CPIAUCSL&limit=", "limit");
    await expect400("indicator=CPIAUCSL&limit=1.5", "limit");
  });
  test("offset 0 is valid; -1 is not", async () => {
    expect((await get("indicator=CPIAUCSL&offset=0")).status).toBe(200);
    await expect400("indicator=CPIAUCSL&offset=-1", "offset");
  });
  test("order, include_revisions, frequency, resample_method take only their values", async () => {
    await expect400("indicator=CPIAUCSL&order=up", "order");
    await expect400("indicator=CPIAUCSL&include_revisions=yes", "include_revisions");
    await expect400("indicator=CPIAUCSL&frequency=weekly", "frequency");
    await expect400("indicator=CPIAUCSL&frequency=monthly&resample_method=median", "resample_method");
  });
  test("dates must parse; start_date after end_date names start_date", async () => {
    await expect400("indicator=CPIAUCSL&start_date=2024-02-30", "start_date", "YYYY-MM-DD");
    await expect400("indicator=CPIAUCSL&end_date=2024/01/01", "end_date");
    await expect400("indicator=CPIAUCSL&start_date=2024-03-02&end_date=2024-03-01", "start_date", "after end_date");
  });
  test("indicator is required and non-empty", async () => {
    await expect400("region=US", "indicator");
    await expect400("indicator=", "indicator");
  });
});

describe("percent-change transforms read the whole series", () => {
  test("yoy compares with the same month a year earlier, even before start_date", async () => {
    const r = await get("indicator=CPIAUCSL&transform=yoy&start_date=2024-01-01&end_date=2024-03-01&order=asc");
    expect(r.body.meta).toMatchObject({ unit: "percent", transform: "yoy", total: 3 });
    expect(r.body.data.map((x: any) => x.value)).toEqual([pct(262, 250), pct(263, 251), pct(264, 252)]);
    // First year has no comparator.
    expect((await get("indicator=CPIAUCSL&transform=yoy&end_date=2023-12-01&limit=12")).body.data.every((x: any) => x.value === null)).toBe(true);
  });
  test("the October 2025 gap: October and November mom are null, never a two-month change", async () => {
    const r = await get("indicator=CPIAUCSL&transform=mom&start_date=2025-09-01&order=asc");
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["2025-09-01", pct(282, 281)],
      ["2025-10-01", null],
      ["2025-11-01", null],
      ["2025-12-01", pct(285, 284)],
    ]);
    // yoy of November 2025 has its comparator (November 2024) and is not affected.
    const y = await get("indicator=CPIAUCSL&transform=yoy&start_date=2025-11-01&end_date=2025-11-01");
    expect(y.body.data[0].value).toBe(pct(284, 272));
  });
  test("the comparator outside the returned page is still used", async () => {
    const r = await get("indicator=CPIAUCSL&transform=mom&limit=1&order=asc&start_date=2024-01-01");
    expect(r.body.data[0].value).toBe(pct(262, 261));
  });
  test("qoq on a monthly series: three months earlier", async () => {
    const r = await get("indicator=CPIAUCSL&transform=qoq&start_date=2024-04-01&end_date=2024-04-01");
    expect(r.body.data[0].value).toBe(pct(265, 262));
  });
  test("quarterly qoq and yoy; mom on a quarterly series is a 400 saying why", async () => {
    const q = await get("indicator=GDP&transform=qoq&order=asc&limit=2");
    expect(q.body.data.map((x: any) => x.value)).toEqual([null, pct(102, 100)]);
    const y = await get("indicator=GDP&transform=yoy&start_date=2023-01-01&end_date=2023-01-01");
    expect(y.body.data[0].value).toBe(pct(108, 100));
    await expect400("indicator=GDP&transform=mom", "transform", "a quarterly series has no monthly values");
  });
  test("weekly yoy compares with 52 weeks earlier; weekly mom is a 400", async () => {
    const r = await get("indicator=ICSA&transform=yoy&order=asc&start_date=2025-01-01");
    // 2025-01-04 is week 52 (value 252000) and 2024-01-06 week 0.
    expect(r.body.data[0]).toMatchObject({ date: "2025-01-04", value: pct(252000, 200000) });
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
    expect(r.body.data[0].value).toBe((262 / 250) * 100);
    const base = await get("indicator=CPIAUCSL&transform=index:2023-01-01&order=asc&limit=1");
    expect(base.body.data[0].value).toBe(100);
  });
  test("a base date with no observation is a 400 naming the date", async () => {
    const body = await expect400("indicator=CPIAUCSL&transform=index:2024-01-15", "transform", "2024-01-15");
    expect(body.error.details).toMatchObject({ base_date: "2024-01-15", nearest_before: "2024-01-01", nearest_after: "2024-02-01" });
  });
  test("a base on the missing October 2025 is a 400", async () => {
    await expect400("indicator=CPIAUCSL&transform=index:2025-10-01", "transform", "missing");
  });
  test("log is the natural log and names the unit", async () => {
    const plain = await get("indicator=CPIAUCSL&limit=1");
    const r = await get("indicator=CPIAUCSL&transform=log&limit=3");
    expect(r.body.meta.unit).toBe(`log(${plain.body.meta.unit})`);
    expect(r.body.data.map((x: any) => x.value)).toEqual([Math.log(285), Math.log(284), null]);
  });
});

describe("resampling", () => {
  const monthMean = (ym: string) => {
    const days = DGS_DATES.filter((d) => d.startsWith(ym));
    return days.reduce((a, d) => a + dgs(d), 0) / days.length;
  };
  test("daily to monthly mean: calendar buckets, the incomplete newest month dropped and reported", async () => {
    const r = await get("indicator=DGS10&frequency=monthly&limit=3");
    expect(r.status).toBe(200);
    observationsResponseSchema.parse(r.body);
    expect(r.body.meta.resample).toEqual({
      method: "mean",
      source_frequency: "daily",
      target_frequency: "monthly",
      completeness: expect.stringContaining("next weekday"),
      dropped_incomplete_bucket: true,
      dropped_period_start: "2024-03-01",
    });
    // meta names the frequency of the rows returned; the series' own is kept beside it.
    expect([r.body.meta.frequency, r.body.meta.native_frequency]).toEqual(["monthly", "daily"]);
    expect(r.body.meta.total).toBe(14); // 2023-01 .. 2024-02
    expect(r.body.data).toEqual([
      { period_start: "2024-02-01", period_end: "2024-02-29", period_type: "monthly", value: monthMean("2024-02") },
      { period_start: "2024-01-01", period_end: "2024-01-31", period_type: "monthly", value: monthMean("2024-01") },
      { period_start: "2023-12-01", period_end: "2023-12-31", period_type: "monthly", value: monthMean("2023-12") },
    ]);
  });
  test("sum and last", async () => {
    const s = await get("indicator=DGS10&frequency=monthly&resample_method=sum&start_date=2024-01-01&order=asc");
    expect(s.body.data[0].value).toBe(DGS_DATES.filter((d) => d.startsWith("2024-01")).reduce((a, d) => a + dgs(d), 0));
    const l = await get("indicator=DGS10&frequency=quarterly&resample_method=last&limit=1");
    // 2024Q1 is incomplete (last weekday 2024-03-29 not yet in); 2023Q4 ends on Friday 2023-12-29.
    expect(l.body.data[0]).toEqual({ period_start: "2023-10-01", period_end: "2023-12-31", period_type: "quarterly", value: 29 });
    expect(l.body.meta.resample.dropped_period_start).toBe("2024-01-01");
  });
  test("buckets overlapping the range are returned whole; limit and offset count buckets", async () => {
    const r = await get("indicator=DGS10&frequency=monthly&start_date=2023-06-15&end_date=2023-09-10&order=asc");
    expect(r.body.meta.total).toBe(4);
    expect(r.body.data.map((x: any) => x.period_start)).toEqual(["2023-06-01", "2023-07-01", "2023-08-01", "2023-09-01"]);
    expect(r.body.data[0].value).toBe(monthMean("2023-06"));
    const p = await get("indicator=DGS10&frequency=monthly&start_date=2023-06-15&end_date=2023-09-10&order=asc&offset=1&limit=2");
    expect(p.body.data.map((x: any) => x.period_start)).toEqual(["2023-07-01", "2023-08-01"]);
  });
  test("resampling happens before the transform: daily to monthly yoy", async () => {
    const r = await get("indicator=DGS10&frequency=monthly&transform=yoy&limit=1");
    expect(r.body.meta).toMatchObject({ unit: "percent", transform: "yoy" });
    expect(r.body.data[0]).toEqual({ period_start: "2024-02-01", period_end: "2024-02-29", period_type: "monthly", value: pct(monthMean("2024-02"), monthMean("2023-02")) });
  });
  test("a monthly series to quarterly and annual; mom after resampling to quarterly is a 400", async () => {
    const q = await get("indicator=CPIAUCSL&frequency=quarterly&order=asc&limit=1");
    expect(q.body.data[0]).toEqual({ period_start: "2023-01-01", period_end: "2023-03-31", period_type: "quarterly", value: 251 });
    // 2025Q4 holds its last month (December), so it is complete; its mean skips the null October.
    const last = await get("indicator=CPIAUCSL&frequency=quarterly&limit=1");
    expect(last.body.data[0]).toMatchObject({ period_start: "2025-10-01", value: (284 + 285) / 2 });
    expect(last.body.meta.resample.dropped_incomplete_bucket).toBe(false);
    const a = await get("indicator=CPIAUCSL&frequency=annual&transform=yoy&limit=1");
    const mean = (ks: number[]) => ks.reduce((x, k) => x + (cpi(k) ?? 0), 0) / ks.filter((k) => cpi(k) !== null).length;
    expect(a.body.data[0].value).toBe(pct(mean([24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35]), mean([12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23])));
    await expect400("indicator=CPIAUCSL&frequency=quarterly&transform=mom", "transform", "after resampling to quarterly");
  });
  test("weekly to monthly sum", async () => {
    const r = await get("indicator=ICSA&frequency=monthly&resample_method=sum&order=asc&limit=1");
    // January 2024 Saturdays: 6, 13, 20, 27 (weeks 0..3).
    expect(r.body.data[0]).toEqual({ period_start: "2024-01-01", period_end: "2024-01-31", period_type: "monthly", value: 200000 * 4 + 1000 * (0 + 1 + 2 + 3) });
  });
  test("upsampling is a 400", async () => {
    await expect400("indicator=GDP&frequency=monthly", "frequency", "upsample");
  });
  test("frequency with include_revisions is a 400", async () => {
    await expect400("indicator=CPIAUCSL&frequency=annual&include_revisions=true", "frequency");
  });
});

describe("404: unknown or not offered", () => {
  test("unknown indicator names it", async () => {
    const r = await get("indicator=NOPE123");
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: "RESOURCE_NOT_FOUND", details: { indicator: "NOPE123" } });
    expect(r.body.error.message).toContain("NOPE123");
  });
  test("unknown region names it", async () => {
    const r = await get("indicator=CPIAUCSL&region=atlantis");
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: "RESOURCE_NOT_FOUND", details: { parameter: "region", value: "atlantis" } });
  });
  test("an indicator not offered for the region says which regions it has", async () => {
    const r = await get("indicator=CPIAUCSL&region=FR");
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe("Indicator 'CPIAUCSL' is not offered for France (FR): it is offered for US only.");
    const s = await get("indicator=LASST03&region=06037");
    expect(s.body.error.message).toContain("offered for every region of kind states");
  });
  test("a series offered but not held is a 404 that says so", async () => {
    const r = await get("indicator=UNRATE");
    expect(r.status).toBe(404);
    expect(r.body.error.details).toMatchObject({ indicator: "UNRATE", region: "US", held: false });
  });
  test("a source that does not publish the code", async () => {
    const r = await get("indicator=CPIAUCSL&source=bls");
    expect(r.status).toBe(404);
    expect(r.body.error.details.parameter).toBe("source");
  });
});
