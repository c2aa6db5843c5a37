// test-tier: database (the job engine provisions the series: pg-boss polls its queues)
// A FRED series id naming a series the catalog offers but the service does not hold yet: resolve only reads, the
// gate starts its provisioning and answers 202 before any payment, as on /v1. A keyed request (key in `api_key`) is
// not metered and an anonymous one is not refused; the free /fred/series provisions it the same way; once held,
// the observations are served and metered once.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { keyUsage } from "../../src/services/keys";
import { ManualClock } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { fredUs, makeJobsTestApp, waitFor } from "../support/jobs";
import { testKey } from "../support/keys";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

setDefaultTimeout(120_000);

const haveData = sharedDataPath("fred-macro-us", "UNRATE.csv") !== null;
if (!haveData) console.warn(sharedDataMissingMessage("fred-macro-us"));
const d = haveData ? describe : describe.skip;

let t: Awaited<ReturnType<typeof makeJobsTestApp>>;
beforeAll(async () => {
  if (!haveData) return;
  const database = await makeTestDatabase();
  t = await makeJobsTestApp({
    database,
    clock: new ManualClock("2026-11-22T12:00:10Z"),
    keyAccess: true,
    unheld: fredUs("UNRATE", "CPIAUCSL"),
  });
}, 120_000);
afterAll(async () => {
  t?.fetcher.release();
  await t?.close();
});

d("FRED ids of series not held yet", () => {
  test("observations with a key: 202 while fetched, not metered, not remembered; then 200, metered once, the key never echoed", async () => {
    const { key, row } = await testKey(t);
    t.fetcher.set("UNRATE", { kind: "stall" });
    const path = `/fred/series/observations?series_id=UNRATE&file_type=json&limit=3&api_key=${key}`;
    for (let i = 0; i < 2; i++) {
      const r = await t.request(path);
      expect(r.status).toBe(202);
      expect(r.headers.get("retry-after")).not.toBeNull();
      expect(r.headers.get("x-ratelimit-limit")).toBeNull();
      expect(((await r.json()) as { status: string }).status).toBe("provisioning");
    }
    expect(await keyUsage(t.deps, row.id, "2026-11")).toBe(0);
    expect(t.app.pages?.size).toBe(0);

    await waitFor("the UNRATE fetch to start", () => t.fetcher.stalled > 0);
    t.fetcher.release();
    const ok = await waitFor("UNRATE to be held", async () => {
      const r = await t.request(path);
      return r.status === 200 ? r : undefined;
    });
    const text = await ok.text();
    expect(JSON.parse(text)).toMatchObject({ file_type: "json", limit: 3 });
    expect(text).not.toContain(key);
    expect(await keyUsage(t.deps, row.id, "2026-11")).toBe(1);
  });

  test("anonymous: 202, not 401; the free /fred/series provisions too and answers once held; a bad parameter is FRED's 400 before either", async () => {
    t.fetcher.set("CPIAUCSL", { kind: "stall" });
    const r = await t.request("/fred/series/observations?series_id=CPIAUCSL&file_type=json");
    expect(r.status).toBe(202);
    expect(r.headers.get("www-authenticate")).toBeNull();
    const series = await t.request("/fred/series?series_id=CPIAUCSL&file_type=json");
    expect(series.status).toBe(202);
    const bad = await t.request("/fred/series/observations?series_id=CPIAUCSL&file_type=json&units=nope");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error_code: number }).error_code).toBe(400);
    // Released once its fetch waits (a fetch that starts after release() would wait for good).
    await waitFor("the CPIAUCSL fetch to start", () => t.fetcher.stalled > 0);
    t.fetcher.release();
    const held = await waitFor("CPIAUCSL to be held", async () => {
      const s = await t.request("/fred/series?series_id=CPIAUCSL&file_type=json");
      return s.status === 200 ? s : undefined;
    });
    expect(((await held.json()) as { seriess: { id: string }[] }).seriess.map((s) => s.id)).toEqual(["CPIAUCSL"]);
    // Held now, it is a paid read: without a key (and no payment rail in this app) a 401 in FRED's shape.
    const paid = await t.request("/fred/series/observations?series_id=CPIAUCSL&file_type=json");
    expect(paid.status).toBe(401);
    expect(((await paid.json()) as { error_code: number }).error_code).toBe(401);
  });
});
