// GET /v1/observations/latest: single and batch forms, envelopes, the 20-code bound and per-code errors.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { latestBatchResponseSchema, latestSingleResponseSchema } from "../../src/schemas/observations";
import { makeTestApp, type TestApp } from "../support/app";
import { deriveWritten } from "../support/derive";
import { clearIndicator, writeSeries } from "../support/series";
import { fredRows, sahmLatest, type FredRow } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;

// 20 of the snapshot's national FRED series (every one held, monthly to quarterly; CPIAUCSL is the 21st below).
const NATIONAL = [
  "PAYEMS",
  "UNRATE",
  "U6RATE",
  "CIVPART",
  "AHETPI",
  "JTSJOL",
  "ICSA",
  "CPILFESL",
  "PCEPILFE",
  "GDP",
  "GDPC1",
  "RSXFS",
  "INDPRO",
  "HOUST",
  "M2SL",
  "FEDFUNDS",
  "DGS10",
  "DGS2",
  "T10Y2Y",
  "DCOILWTICO",
];
/** The newest date with a value in a shipped file. */
const newestValued = (rows: readonly FredRow[]) => rows.filter((r) => r.value !== null).at(-1)!;

const SAHM = sahmLatest();

beforeAll(async () => {
  t = await makeTestApp();
  const db = t.database.db;
  // CPIAUCSL as shipped ends 2026-04 (332.407, June-2026 vintage). A revision marks April preliminary with its release
  // time, and a May row without a value becomes the newest: the latest observation is April's revision 2.
  await writeSeries(db, "fred", "CPIAUCSL", "US", [
    ["2026-04-01", 332.407, { preliminary: true, sourceUpdatedAt: "2026-05-12T12:30:00Z" }],
    ["2026-05-01", null],
  ]);
  // MANEMP (offered, not shipped): held from here on, but no row has a value.
  await writeSeries(db, "fred", "MANEMP", "US", [["2025-01-01", null]]);
  // LASST03 for California alone (the snapshot's monthly rates removed): a concept target.
  await clearIndicator(db, "bls", "LASST03");
  await writeSeries(db, "bls", "LASST03", "06", [
    ["2025-08-01", 5.5],
    ["2025-09-01", 5.6],
  ]);
  // The svc: series fed by these writes, derived as the write paths derive them (reads never do).
  await deriveWritten(t.store, new Date("2026-01-15T00:00:00Z"), [
    ["fred", "CPIAUCSL", "US"],
    ["bls", "LASST03", "06"],
  ]);
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
        period_start: "2026-04-01",
        period_end: "2026-04-30",
        period_type: "monthly",
        value: 332.407,
        revision: 2,
        is_preliminary: true,
        source_updated_at: "2026-05-12T12:30:00.000Z",
        unit: r.body.meta.unit,
      },
      meta: {
        indicator: "CPIAUCSL",
        region: "US",
        resolved_region: { code: "US", name: "United States", type: "country" },
        unit: r.body.meta.unit,
        total: 1,
        limit: 1,
        offset: 0,
        // April 2026 as of the test clock (2026-11-22): 7 months behind, stale since August 2026.
        freshness: {
          newest_period: "2026-04-01",
          cadence: "monthly",
          periods_behind: 7,
          max_periods_behind: 3,
          stale: true,
          stale_from: "2026-08-01",
        },
      },
    });
  });
  test("a held series without any value: data null, total 0", async () => {
    const r = await get("indicator=MANEMP");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: null,
      meta: {
        indicator: "MANEMP",
        region: "US",
        resolved_region: { code: "US", name: "United States", type: "country" },
        unit: r.body.meta.unit,
        total: 0,
        limit: 1,
        offset: 0,
        // No value at all: no newest period, so no freshness.
      },
    });
  });
  test("a concept discloses its series", async () => {
    const r = await get("indicator=unemployment_rate&region=california");
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ indicator: "LASST03", region: "06", value: 5.6 });
    expect(r.body.meta.concept).toEqual({ code: "unemployment_rate", resolved_indicator: "LASST03", source: "bls" });
  });
  test("a svc: series is computed from its input", async () => {
    // October 2025 has no UNRATE, so the 3-month averages of October to December are missing; the newest month, May
    // 2026, has its three months.
    expect(SAHM.date).toBe("2026-05-01");
    const r = await get("indicator=svc:sahm_rule");
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      indicator: "svc:sahm_rule",
      region: "US",
      period_start: SAHM.date,
      value: SAHM.value,
    });
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
    const r = await get(`indicators=${NATIONAL.join(",")}`);
    expect(r.status).toBe(200);
    latestBatchResponseSchema.parse(r.body);
    expect(r.body.errors).toEqual([]);
    expect(r.body.data.map((x: any) => [x.indicator, x.region, x.period_start, x.value])).toEqual(
      NATIONAL.map((code) => {
        const newest = newestValued(fredRows(code));
        return [code, "US", newest.date, newest.value];
      }),
    );
  });
  test("21 codes is a 400", async () => {
    const r = await get(`indicators=${[...NATIONAL, "CPIAUCSL"].join(",")}`);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe("indicators");
    expect(r.body.error.message).toContain("at most 20");
  });
  test("duplicates and blanks are ignored when counting", async () => {
    const r = await get(`indicators=${[...NATIONAL, "PAYEMS", " "].join(",")}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(20);
  });
  test("207 with per-code errors; the good codes are still answered", async () => {
    const r = await get("indicators=CPIAUCSL,NOPE,population,UNRATE,MANEMP,svc:sahm_rule");
    expect(r.status).toBe(207);
    latestBatchResponseSchema.parse(r.body);
    // MANEMP is held without a value: neither a row nor an error.
    expect(r.body.data.map((x: any) => [x.indicator, x.value])).toEqual([
      ["CPIAUCSL", 332.407],
      ["UNRATE", newestValued(fredRows("UNRATE")).value],
      ["svc:sahm_rule", SAHM.value],
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
    expect(r.body.errors[0]).toMatchObject({
      indicator: "LASST03",
      code: "RESOURCE_NOT_FOUND",
      details: { held: false, region: "48" },
    });
  });
});
