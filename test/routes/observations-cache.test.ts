// The read caches never change an answer: rendered pages, series snapshots and resolutions are keyed so that a write
// in this process is seen by the very next read (even with a long revalidation interval), and a page asked for by
// concept and the same page asked for by code each keep their own meta.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { indicatorId } from "../../db/seed/catalog";
import {
  latestBatchResponseSchema,
  latestSingleResponseSchema,
  observationsResponseSchema,
} from "../../src/schemas/observations";
import { makeTestApp, type TestApp } from "../support/app";
import { writeSeries } from "../support/series";
import { fredRows } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const HOUR = 3_600_000;
let t: TestApp;
const T1 = new Date("2026-07-10T00:00:00Z");
const T2 = new Date("2026-08-10T00:00:00Z");
const T3 = new Date("2026-10-10T00:00:00Z");
// UNRATE as shipped (two vintages): 1948-01 .. 2026-05, March to May 2026 each 4.3.
const UNRATE = fredRows("UNRATE");

beforeAll(async () => {
  // Heads are trusted for an hour: only the write path's notification can make a write visible in time.
  t = await makeTestApp({ config: { seriesCacheRevalidateMs: HOUR } });
}, 120_000);
afterAll(() => t?.close());

const get = (qs: string) => t.getJson(`/v1/observations?${qs}`);

describe("a write in this process is seen by the next read", () => {
  test("the same page, twice, then after a new observation and after a revision", async () => {
    const qs = "indicator=UNRATE&region=US&limit=3";
    const first = await get(qs);
    expect(first.status).toBe(200);
    observationsResponseSchema.parse(first.body);
    expect(first.body.meta.total).toBe(UNRATE.length);
    expect(first.body.data.map((r: any) => [r.date, r.value, r.revision])).toEqual([
      ["2026-05-01", 4.3, 1],
      ["2026-04-01", 4.3, 1],
      ["2026-03-01", 4.3, 1],
    ]);
    // Served again from the caches: identical text.
    const again = await t.request(`/v1/observations?${qs}`);
    expect(await again.text()).toBe(JSON.stringify(first.body));
    expect(t.deps.caches.series.trusts(indicatorId("fred", "UNRATE"), "US")).toBe(true);
    // 2026Q2 lacks June: dropped as incomplete until the write below.
    const q0 = await get("indicator=UNRATE&region=US&frequency=quarterly&resample_method=last&limit=1");
    expect([q0.body.data[0].period_start, q0.body.meta.resample.dropped_period_start]).toEqual([
      "2026-01-01",
      "2026-04-01",
    ]);

    await writeSeries(t.database.db, "fred", "UNRATE", "US", [["2026-06-01", 4.4]], T1);
    const added = await get(qs);
    expect(added.body.meta.total).toBe(UNRATE.length + 1);
    expect(added.body.data.map((r: any) => [r.date, r.value, r.revision])).toEqual([
      ["2026-06-01", 4.4, 1],
      ["2026-05-01", 4.3, 1],
      ["2026-04-01", 4.3, 1],
    ]);

    await writeSeries(t.database.db, "fred", "UNRATE", "US", [["2026-05-01", 4.5]], T2);
    const revised = await get(qs);
    expect(revised.body.meta.total).toBe(UNRATE.length + 1);
    expect(revised.body.data.map((r: any) => [r.date, r.value, r.revision])).toEqual([
      ["2026-06-01", 4.4, 1],
      ["2026-05-01", 4.5, 2],
      ["2026-04-01", 4.3, 1],
    ]);
  });

  test("transformed and resampled pages follow the write too", async () => {
    const qs = "indicator=UNRATE&region=US&transform=mom&limit=1";
    const before = await get(qs);
    expect(before.body.data[0].date).toBe("2026-06-01");
    // mom of 2026-06 against the revised 2026-05 value 4.5: (4.4 / 4.5 - 1) x 100.
    expect(before.body.data[0].value).toBeCloseTo((4.4 / 4.5 - 1) * 100, 10);
    // June completes 2026Q2 (dropped as incomplete before the first test's write).
    const quarterly = await get("indicator=UNRATE&region=US&frequency=quarterly&resample_method=last&limit=1");
    expect(quarterly.body.data[0]).toEqual({
      period_start: "2026-04-01",
      period_end: "2026-06-30",
      period_type: "quarterly",
      value: 4.4,
    });

    await writeSeries(
      t.database.db,
      "fred",
      "UNRATE",
      "US",
      [
        ["2026-07-01", 4.3],
        ["2026-08-01", 4.4],
        ["2026-09-01", 4.6],
      ],
      T3,
    );
    const after = await get(qs);
    expect(after.body.data[0].date).toBe("2026-09-01");
    expect(after.body.data[0].value).toBeCloseTo((4.6 / 4.4 - 1) * 100, 10);
    const q2 = await get("indicator=UNRATE&region=US&frequency=quarterly&resample_method=last&limit=1");
    expect(q2.body.data[0]).toEqual({
      period_start: "2026-07-01",
      period_end: "2026-09-30",
      period_type: "quarterly",
      value: 4.6,
    });
  });

  test("latest, single and batch", async () => {
    const single = await t.getJson("/v1/observations/latest?indicator=UNRATE&region=US");
    latestSingleResponseSchema.parse(single.body);
    expect(single.body.data).toMatchObject({ period_start: "2026-09-01", value: 4.6 });
    const batch = await t.getJson("/v1/observations/latest?indicators=UNRATE,PAYEMS&region=US");
    latestBatchResponseSchema.parse(batch.body);
    expect(batch.body.data.find((r: any) => r.indicator === "UNRATE")).toMatchObject({
      period_start: "2026-09-01",
      value: 4.6,
    });

    await writeSeries(t.database.db, "fred", "UNRATE", "US", [["2026-10-01", 4.7]], T3);
    const single2 = await t.getJson("/v1/observations/latest?indicator=UNRATE&region=US");
    expect(single2.body.data).toMatchObject({ period_start: "2026-10-01", value: 4.7 });
    const batch2 = await t.getJson("/v1/observations/latest?indicators=UNRATE,PAYEMS&region=US");
    expect(batch2.body.data.find((r: any) => r.indicator === "UNRATE")).toMatchObject({
      period_start: "2026-10-01",
      value: 4.7,
    });
  });

  test("an unchanged re-write keeps the cache (nothing moved)", async () => {
    await get("indicator=UNRATE&region=US&limit=1");
    const cache = t.deps.caches.series;
    expect(cache.trusts(indicatorId("fred", "UNRATE"), "US")).toBe(true);
    await writeSeries(t.database.db, "fred", "UNRATE", "US", [["2026-10-01", 4.7]], T3);
    expect(cache.trusts(indicatorId("fred", "UNRATE"), "US")).toBe(true);
    await writeSeries(t.database.db, "fred", "UNRATE", "US", [["2026-10-01", 4.8]], T3);
    expect(cache.trusts(indicatorId("fred", "UNRATE"), "US")).toBe(false);
  });
});

describe("pages asked for by concept and by code", () => {
  test("share the data but not meta.concept, in either order", async () => {
    const byConcept = async () => (await get("indicator=unemployment_rate&region=US&limit=2")).body;
    const byCode = async () => (await get("indicator=UNRATE&region=US&limit=2")).body;
    const c1 = await byConcept();
    const k1 = await byCode();
    const c2 = await byConcept();
    expect(c1.meta.concept).toEqual({ code: "unemployment_rate", resolved_indicator: "UNRATE", source: "fred" });
    expect(k1.meta.concept).toBeUndefined();
    expect(c2.meta.concept).toEqual(c1.meta.concept);
    expect(k1.data).toEqual(c1.data);
    expect(k1.meta.total).toBe(c1.meta.total);
  });
});

describe("a head read that a write overtook is not trusted", () => {
  test("invalidation while the read is in flight", async () => {
    const cache = t.deps.caches.series;
    const id = indicatorId("fred", "PAYEMS");
    cache.invalidate({ indicatorId: id, regionCode: "US" });
    const reading = cache.head(id, "US");
    // What a committed write does while the read is on its way (db/repos/observations.ts notifies the cache).
    cache.invalidate({ indicatorId: id, regionCode: "US" });
    expect((await reading)?.observationCount).toBeGreaterThan(0);
    expect(cache.trusts(id, "US")).toBe(false);
    await cache.head(id, "US");
    expect(cache.trusts(id, "US")).toBe(true);
  });
});
