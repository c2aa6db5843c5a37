// GET /v1/observations/latest: single and batch forms, envelopes, the 20-code bound and per-code errors.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { latestBatchResponseSchema, latestSingleResponseSchema } from "../../src/schemas/observations";
import { makeTestApp, type TestApp } from "../support/app";
import { monthStarts, writeSeries, type Row } from "../support/series";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;

// 20 seeded US payroll series (vega-datasets us-employment, 2006-01 .. 2015-12).
const CES = ["PAYEMS", "USPRIV", "USGOOD", "SRVPRD", "USMINE", "USCONS", "MANEMP", "DMANEMP", "NDMANEMP", "USTPU",
  "USWTRADE", "USTRADE", "USINFO", "USFIRE", "USPBS", "USEHS", "USLAH", "USSERV", "USGOVT", "CES0800000001"];

beforeAll(async () => {
  t = await makeTestApp();
  const db = t.database.db;
  // CPIAUCSL: the newest row (2025-10) has no value, so the latest observation is 2025-09.
  await writeSeries(db, "fred", "CPIAUCSL", "US", [["2025-08-01", 323.5], ["2025-09-01", 324.25, { preliminary: true, sourceUpdatedAt: "2025-10-24T12:30:00Z" }], ["2025-10-01", null]]);
  // DGS2: held, but no row has a value.
  await writeSeries(db, "fred", "DGS2", "US", [["2025-01-02", null]]);
  // UNRATE for svc:sahm_rule (premium): 15 months at 4.0 then 5.5 -> sahm 0.5 in 2024-03.
  await writeSeries(db, "fred", "UNRATE", "US", monthStarts("2023-01", 15).map((d, k): Row => [d, k === 14 ? 5.5 : 4]));
  // LASST03 for California: a concept target.
  await writeSeries(db, "bls", "LASST03", "06", [["2025-08-01", 5.5], ["2025-09-01", 5.6]]);
}, 120_000);
afterAll(() => t?.close());

const get = (qs: string) => t.getJson(`/v1/observations/latest?${qs}`);

describe("single form", () => {
  test("the newest observation with a value, in the spec envelope", async () => {
    const r = await get("indicator=CPIAUCSL");
    expect(r.status).toBe(200);
    latestSingleResponseSchema.parse(r.body);
    expect(r.body).toEqual({
      data: {
        indicator: "CPIAUCSL",
        region: "US",
        period_start: "2025-09-01",
        period_end: "2025-09-30",
        period_type: "monthly",
        value: 324.25,
        revision: 1,
        is_preliminary: true,
        source_updated_at: "2025-10-24T12:30:00.000Z",
        unit: r.body.meta.unit,
      },
      meta: { indicator: "CPIAUCSL", region: "US", unit: r.body.meta.unit, total: 1, limit: 1, offset: 0 },
    });
  });
  test("a held series without any value: data null, total 0", async () => {
    const r = await get("indicator=DGS2");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: null, meta: { indicator: "DGS2", region: "US", unit: r.body.meta.unit, total: 0, limit: 1, offset: 0 } });
  });
  test("a concept discloses its series", async () => {
    const r = await get("indicator=unemployment_rate&region=california");
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ indicator: "LASST03", region: "06", value: 5.6 });
    expect(r.body.meta.concept).toEqual({ code: "unemployment_rate", resolved_indicator: "LASST03", source: "bls" });
  });
  test("a svc: series is computed from its input", async () => {
    const r = await get("indicator=svc:sahm_rule");
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ indicator: "svc:sahm_rule", region: "US", period_start: "2024-03-01", value: 0.5 });
  });
  test("errors of the single form are plain statuses", async () => {
    expect((await get("indicator=NOPE")).status).toBe(404);
    expect((await get("indicator=UNRATE&region=FR")).status).toBe(404);
    expect((await get("indicator=population")).status).toBe(400);
  });
});

describe("indicator and indicators", () => {
  test("both is a 400", async () => {
    const r = await get("indicator=CPIAUCSL&indicators=CPIAUCSL");
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe("indicators");
  });
  test("neither is a 400", async () => {
    const r = await get("region=US");
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe("indicator");
  });
  test("an empty list is a 400", async () => {
    expect((await get("indicators=,,")).status).toBe(400);
  });
});

describe("batch form", () => {
  test("20 codes is the limit and answers 200 when every code resolved", async () => {
    const r = await get(`indicators=${CES.join(",")}`);
    expect(r.status).toBe(200);
    latestBatchResponseSchema.parse(r.body);
    expect(r.body.errors).toEqual([]);
    expect(r.body.data.map((x: any) => x.indicator)).toEqual(CES);
    expect(r.body.data.every((x: any) => x.period_start === "2015-12-01" && x.region === "US")).toBe(true);
  });
  test("21 codes is a 400", async () => {
    const r = await get(`indicators=${[...CES, "CPIAUCSL"].join(",")}`);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe("indicators");
    expect(r.body.error.message).toContain("at most 20");
  });
  test("duplicates and blanks are ignored when counting", async () => {
    const r = await get(`indicators=${[...CES, "PAYEMS", " "].join(",")}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(20);
  });
  test("207 with per-code errors; the good codes are still answered", async () => {
    const r = await get("indicators=CPIAUCSL,NOPE,population,UNRATE,DGS2,svc:sahm_rule");
    expect(r.status).toBe(207);
    latestBatchResponseSchema.parse(r.body);
    expect(r.body.data.map((x: any) => [x.indicator, x.value])).toEqual([
      ["CPIAUCSL", 324.25],
      ["UNRATE", 5.5],
      ["svc:sahm_rule", 0.5],
    ]);
    expect(r.body.errors.map((e: any) => [e.indicator, e.code])).toEqual([
      ["NOPE", "RESOURCE_NOT_FOUND"],
      ["population", "INVALID_PARAMETER"],
    ]);
  });
  test("region applies to every code; a code not offered there is a per-code 404", async () => {
    const r = await get("indicators=unemployment_rate,CPIAUCSL&region=06");
    expect(r.status).toBe(207);
    expect(r.body.data).toEqual([expect.objectContaining({ indicator: "LASST03", region: "06", value: 5.6 })]);
    expect(r.body.errors).toEqual([expect.objectContaining({ indicator: "CPIAUCSL", code: "RESOURCE_NOT_FOUND" })]);
  });
  test("a held series not yet provisioned for the region is a per-code 404", async () => {
    const r = await get("indicators=LASST03&region=TX");
    expect(r.status).toBe(207);
    expect(r.body.errors[0]).toMatchObject({ indicator: "LASST03", code: "RESOURCE_NOT_FOUND", details: { held: false, region: "48" } });
  });
});
