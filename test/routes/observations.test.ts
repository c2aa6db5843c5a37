// GET /v1/observations: paging, bounds and errors, on the real series the seed ships (db/seed/snapshot/fred-macro-us):
// every expected number is worked out in the test from the raw FRED file. Transforms and resampling are
// observations-transforms.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { observationsResponseSchema } from "../../src/schemas/observations";
import { observationsApp, shippedFredSeries, valuesOf as values } from "../support/observations";
import { fredValue } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = observationsApp();
const { get, expect400 } = fx;
const { CPI, cpi, DGS, ICSA, GDP } = shippedFredSeries();

test("the shipped files are what these tests assume", () => {
  // Current values across the two shipped FRED vintages (January and June 2026): test/support/snapshot.ts fredRows.
  expect([CPI[0], CPI.at(-1), CPI.at(-2)]).toEqual([
    { date: "1947-01-01", value: 21.48 },
    { date: "2026-04-01", value: 332.407 },
    { date: "2026-03-01", value: 330.293 },
  ]);
  expect(CPI).toHaveLength(952);
  expect(fredValue(CPI, "2025-10-01")).toBeNull();
  expect(DGS.at(-1)!.date).toBe("2026-06-04");
  expect(ICSA.at(-1)!.date).toBe("2026-05-30");
  expect(GDP.at(-1)!.date).toBe("2025-07-01");
});

describe("200: pages of the latest revisions", () => {
  test("defaults: newest first, limit 100, offset 0, the indicator's default region", async () => {
    const r = await get("indicator=CPIAUCSL");
    expect(r.status).toBe(200);
    observationsResponseSchema.parse(r.body);
    expect(r.body.meta).toMatchObject({
      indicator: "CPIAUCSL",
      region: "US",
      total: CPI.length,
      limit: 100,
      offset: 0,
      source: "fred",
      frequency: "monthly",
    });
    expect(r.body.meta.resolved_region).toEqual({ code: "US", name: "United States", type: "country" });
    expect(r.body.meta.transform).toBeUndefined();
    expect(r.body.meta.resample).toBeUndefined();
    expect(r.body.meta.native_frequency).toBe("monthly");
    expect(r.body.meta.concept).toBeUndefined();
    expect(r.body.data).toHaveLength(100);
    expect(r.body.data[0]).toEqual({
      date: "2026-04-01",
      value: 332.407,
      indicator: "CPIAUCSL",
      region: "US",
      unit: r.body.meta.unit,
      source: "fred",
      source_updated_at: "2026-06-05T00:00:00.000Z",
      is_preliminary: false,
      revision: 1,
    });
    expect(r.body.data[1]).toMatchObject({ date: "2026-03-01", value: 330.293 });
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual(
      CPI.slice(-100)
        .reverse()
        .map((x) => [x.date, x.value]),
    );
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
      ["2024-05-01", cpi("2024-05-01")],
      ["2024-06-01", cpi("2024-06-01")],
      ["2024-07-01", cpi("2024-07-01")],
    ]);
    const d = await get("indicator=CPIAUCSL&order=desc&start_date=2024-03-01&end_date=2024-08-01&offset=2&limit=3");
    expect(d.body.data.map((x: any) => x.date)).toEqual(["2024-06-01", "2024-05-01", "2024-04-01"]);
  });
  test("start_date equal to end_date selects that date; dates between observations select nothing", async () => {
    expect((await get("indicator=CPIAUCSL&start_date=2024-03-01&end_date=2024-03-01")).body.meta.total).toBe(1);
    expect((await get("indicator=CPIAUCSL&start_date=2024-03-02&end_date=2024-03-31")).body).toMatchObject({
      data: [],
      meta: { total: 0 },
    });
  });
  test("offset past the end is an empty page with the true total", async () => {
    const r = await get(`indicator=CPIAUCSL&offset=${CPI.length}`);
    expect(r.body).toMatchObject({ data: [], meta: { total: CPI.length, offset: CPI.length } });
    const last = await get(`indicator=CPIAUCSL&offset=${CPI.length - 1}`);
    expect(last.body.data.map((x: any) => [x.date, x.value])).toEqual([["1947-01-01", 21.48]]);
  });
});

describe("bounds: each at its edge and one past it", () => {
  test("limit 0 and 1000 are valid; -1 and 1001 are not", async () => {
    expect((await get("indicator=CPIAUCSL&limit=0")).body).toMatchObject({
      data: [],
      meta: { total: CPI.length, limit: 0 },
    });
    expect((await get("indicator=CPIAUCSL&limit=1000")).body.data).toHaveLength(CPI.length); // 952 rows, all on one page
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
    expect(r.body.error).toMatchObject({
      code: "RESOURCE_NOT_FOUND",
      details: { parameter: "region", value: "atlantis" },
    });
  });
  test("an indicator not offered for the region says which regions it has", async () => {
    const r = await get("indicator=CPIAUCSL&region=FR");
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe(
      "Indicator 'CPIAUCSL' is not offered for France (FR): it is offered for US only.",
    );
    const s = await get("indicator=LASST03&region=06037");
    expect(s.body.error.message).toContain("offered for every region of kind states");
  });
  test("a series offered but not held is a 404 that says so", async () => {
    // MANEMP (manufacturing payrolls) is in the catalog for the US, but the snapshot ships no file for it.
    const r = await get("indicator=MANEMP");
    expect(r.status).toBe(404);
    expect(r.body.error.details).toMatchObject({ indicator: "MANEMP", region: "US", held: false });
  });
  test("a source that does not publish the code", async () => {
    const r = await get("indicator=CPIAUCSL&source=bls");
    expect(r.status).toBe(404);
    expect(r.body.error.details.parameter).toBe("source");
  });
});
