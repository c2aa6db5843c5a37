// Freshness in every data answer's meta (src/domain/freshness.ts), and concepts resolving to the freshest held series.
// The series are the test's own (cleared first), so the figures hold whatever the shipped snapshot holds.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { insightsResponseSchema } from "../../src/schemas/insights";
import {
  latestBatchResponseSchema,
  latestSingleResponseSchema,
  observationsResponseSchema,
} from "../../src/schemas/observations";
import { panelResponseSchema } from "../../src/schemas/panel";
import { makeTestApp, type TestApp } from "../support/app";
import { clearSeries, monthStarts, writeSeries, type Row } from "../support/series";

setDefaultTimeout(120_000);

let t: TestApp;
// Montana (30): the monthly rate March to October 2026, the annual average to 2025. Wyoming (56): the monthly rate
// through 2018 only, the annual average to 2024.
const MT_MONTHLY = monthStarts("2026-03", 8).map((d, k): Row => [d, 3 + k / 10]);
const MT_ANNUAL = ["2023-01-01", "2024-01-01", "2025-01-01"].map((d, k): Row => [d, 3.5 - k / 10]);
const WY_MONTHLY = monthStarts("2018-01", 12).map((d): Row => [d, 4]);
const WY_ANNUAL = ["2022-01-01", "2023-01-01", "2024-01-01"].map((d): Row => [d, 3.4]);

const current = {
  newest_period: "2026-10-01",
  cadence: "monthly",
  periods_behind: 1,
  max_periods_behind: 3,
  stale: false,
  stale_from: "2027-02-01",
};

beforeAll(async () => {
  t = await makeTestApp();
  t.clock.set("2026-11-22T12:00:00Z");
  const db = t.database.db;
  for (const [code, region] of [
    ["LASST03", "30"],
    ["LAUST03A", "30"],
    ["LASST03", "56"],
    ["LAUST03A", "56"],
  ] as const)
    await clearSeries(db, "bls", code, region);
  await writeSeries(db, "bls", "LASST03", "30", MT_MONTHLY);
  await writeSeries(db, "bls", "LAUST03A", "30", MT_ANNUAL);
  await writeSeries(db, "bls", "LASST03", "56", WY_MONTHLY);
  await writeSeries(db, "bls", "LAUST03A", "56", WY_ANNUAL);
}, 120_000);
afterAll(() => t?.close());

describe("a concept resolves to the freshest held series", () => {
  test("Montana: the monthly rate for October 2026, not the 2025 annual average", async () => {
    const r = await t.getJson("/v1/observations/latest?indicator=unemployment_rate&region=30");
    expect(r.status).toBe(200);
    latestSingleResponseSchema.parse(r.body);
    expect(r.body.meta.concept).toEqual({ code: "unemployment_rate", resolved_indicator: "LASST03", source: "bls" });
    expect(r.body.data).toMatchObject({ period_start: "2026-10-01", value: 3.7 });
    expect(r.body.meta.freshness).toEqual(current);
  });

  test("Wyoming: the 2024 annual average beats a monthly rate that stops in 2018 (the newest period ends later)", async () => {
    const r = await t.getJson("/v1/observations/latest?indicator=unemployment_rate&region=56");
    expect(r.status).toBe(200);
    expect(r.body.meta.concept).toEqual({ code: "unemployment_rate", resolved_indicator: "LAUST03A", source: "bls" });
    expect(r.body.data).toMatchObject({ period_start: "2024-01-01", value: 3.4 });
    // 2024 as of November 2026: two years behind, on schedule for an annual series until 2027.
    expect(r.body.meta.freshness).toEqual({
      newest_period: "2024-01-01",
      cadence: "annual",
      periods_behind: 2,
      max_periods_behind: 2,
      stale: false,
      stale_from: "2027-01-01",
    });
  });
});

describe("every data answer says how current it is", () => {
  test("observations: meta.freshness, and CSV headers", async () => {
    const r = await t.getJson("/v1/observations?indicator=LASST03&region=30&limit=2");
    expect(r.status).toBe(200);
    observationsResponseSchema.parse(r.body);
    expect(r.body.meta.freshness).toEqual(current);
    const csv = await t.request("/v1/observations?indicator=LASST03&region=30&limit=2", {
      headers: { accept: "text/csv", origin: "https://app.example.com" },
    });
    expect(csv.status).toBe(200);
    expect([csv.headers.get("x-newest-period"), csv.headers.get("x-stale")]).toEqual(["2026-10-01", "false"]);
    // A browser's script may read them (CORS).
    expect(csv.headers.get("access-control-expose-headers")).toContain("X-Newest-Period");
    expect(csv.headers.get("access-control-expose-headers")).toContain("X-Stale");
  });

  test("an older series is stale: Wyoming's monthly rate ends in December 2018", async () => {
    const r = await t.getJson("/v1/observations?indicator=LASST03&region=56&limit=1");
    expect(r.body.meta.freshness).toEqual({
      newest_period: "2018-12-01",
      cadence: "monthly",
      periods_behind: 95,
      max_periods_behind: 3,
      stale: true,
      stale_from: "2019-04-01",
    });
  });

  test("batch latest: each item carries its freshness", async () => {
    const r = await t.getJson("/v1/observations/latest?indicators=LASST03,LAUST03A&region=30");
    expect(r.status).toBe(200);
    latestBatchResponseSchema.parse(r.body);
    expect(r.body.data.map((d: any) => [d.indicator, d.freshness])).toEqual([
      ["LASST03", current],
      [
        "LAUST03A",
        {
          newest_period: "2025-01-01",
          cadence: "annual",
          periods_behind: 1,
          max_periods_behind: 2,
          stale: false,
          stale_from: "2028-01-01",
        },
      ],
    ]);
  });

  test("insights and panel", async () => {
    const i = await t.getJson("/v1/insights?indicator=LASST03&region=30");
    expect(i.status).toBe(200);
    insightsResponseSchema.parse(i.body);
    expect(i.body.meta.freshness).toEqual(current);
    const p = await t.getJson("/v1/panel?indicators=LASST03,LAUST03A&region=30");
    expect(p.status).toBe(200);
    panelResponseSchema.parse(p.body);
    expect(Object.keys(p.body.meta.freshness)).toEqual(["LASST03", "LAUST03A"]);
    expect(p.body.meta.freshness.LASST03).toEqual(current);
  });

  test("a page cached yesterday is not served once the series has become stale", async () => {
    const path = "/v1/observations?indicator=LASST03&region=30&limit=3";
    expect((await t.getJson(path)).body.meta.freshness.stale).toBe(false);
    expect((await t.getJson(path)).body.meta.freshness.stale).toBe(false);
    t.clock.set("2027-02-01T00:00:00Z");
    try {
      const r = await t.getJson(path);
      expect(r.body.meta.freshness).toEqual({ ...current, periods_behind: 4, stale: true });
    } finally {
      t.clock.set("2026-11-22T12:00:00Z");
    }
  });
});

describe("catalog search ranks what can be read now first", () => {
  test("'unemployment': UNRATE first, held series before any that is not held", async () => {
    const r = await t.getJson("/v1/indicators?search=unemployment&limit=100");
    expect(r.status).toBe(200);
    expect(r.body.data[0].code).toBe("UNRATE");
    const held = r.body.data.map((i: any) => i.coverage.regions_held > 0);
    // Among the name matches (the first group), every held one precedes every one not held.
    const names = r.body.data
      .filter((i: any) => i.name.toLowerCase().includes("unemployment"))
      .map((i: any) => i.coverage.regions_held > 0);
    expect(names.indexOf(false)).toBeGreaterThan(names.lastIndexOf(true));
    expect(held[0]).toBe(true);
  });
});
