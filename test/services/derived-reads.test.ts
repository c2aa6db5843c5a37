// Derived svc: series are written by the writers of their inputs, never by a read (src/services/derived-series.ts):
// reads of every surface that serves svc: series leave the database as they found it, even when an input changed and
// was not derived yet; a refresh that changes an input derives what it feeds (values by the definitions of
// src/domain/derived.ts, worked out here); the provisioning job derives what the series it fetched feeds.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { writeManySeries } from "../../db/repos/observations";
import { indicatorId } from "../../db/seed/catalog";
import { createLogger } from "../../src/logger";
import type { SeriesFetcher, SeriesKey } from "../../src/ports";
import { provisionSeries } from "../../src/services/provisioning";
import { refreshSource } from "../../src/services/refresh";
import { makeTestApp, type TestApp } from "../support/app";
import { CsvFetcher, fredRows as fetchedRows } from "../support/fetcher";
import { deriveWritten } from "../support/derive";
import { clearSeries, writeSeries } from "../support/series";
import { sharedDataPath } from "../support/shared-data";
import { fredRows, fredValue, sahmSeries, type FredRow } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases.
setDefaultTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
}, 120_000);
afterAll(() => t?.close());

const get = (path: string) => t.getJson(path);
const values = (body: any) => body.data.map((x: any) => [x.date, x.value]);

/** What a write leaves behind: rows, series versions, the signal-detection outbox (filled by triggers on series). */
async function writeState() {
  const result: any = await t.database.db.execute(sql`
    SELECT (SELECT count(*) FROM observations)::text AS observations, (SELECT count(*) FROM series)::text AS series,
           (SELECT coalesce(sum(version), 0) FROM series)::text AS versions, (SELECT count(*) FROM series_changes)::text AS outbox`);
  // postgres.js answers an array of rows, PGlite { rows }.
  return (Array.isArray(result) ? result : result.rows)[0] as {
    observations: string;
    series: string;
    versions: string;
    outbox: string;
  };
}

describe("reads never write", () => {
  test("every surface that reads svc: series, with an input written but not derived: nothing is written", async () => {
    const db = t.database.db;
    // Writes outside the service's write paths (which derive after they write): CPI revised for February 2025, and a
    // county's ACS inputs held without their svc: series.
    const real = await get(
      "/v1/observations?indicator=svc:real_avg_hourly_earnings&start_date=2025-02-01&end_date=2025-02-01",
    );
    expect(real.status).toBe(200);
    const storedFebruary = real.body.data[0].value;
    expect(storedFebruary).toBe(
      (fredValue(fredRows("AHETPI"), "2025-02-01")! / fredValue(fredRows("CPIAUCSL"), "2025-02-01")!) * 100,
    );
    await writeSeries(db, "fred", "CPIAUCSL", "US", [["2025-02-01", 400]]);
    await writeSeries(db, "census", "B25077_001E", "06037", [["2022-01-01", 700000]]);
    await writeSeries(db, "census", "B19013_001E", "06037", [["2022-01-01", 80000]]);

    const before = await writeState();
    let written = 0;
    const stop = t.database.events.onSeriesWritten(() => written++);
    try {
      const reads: [string, number, Record<string, string>?][] = [
        ["/v1/observations?indicator=svc:sahm_rule&order=asc&limit=1000", 200],
        ["/v1/observations?indicator=svc:real_avg_hourly_earnings&start_date=2025-01-01", 200],
        ["/v1/observations?indicator=svc:real_avg_hourly_earnings&include_revisions=true&start_date=2025-01-01", 200],
        ["/v1/observations?indicator=svc:real_avg_hourly_earnings&frequency=annual", 200, { accept: "text/csv" }],
        ["/v1/observations?indicator=svc:real_avg_hourly_earnings&transform=yoy", 200],
        ["/v1/observations?indicator=svc:unemployment_gap&region=06", 200],
        ["/v1/observations?indicator=svc:unemployment_gap&region=06037", 404],
        ["/v1/observations?indicator=svc:home_affordability_ratio&region=06037", 404],
        ["/v1/observations?indicator=svc:home_affordability_ratio&region=06075", 404],
        ["/v1/observations/latest?indicator=svc:sahm_rule", 200],
        ["/v1/observations/latest?indicator=svc:unemployment_gap&region=06", 200],
        ["/v1/observations/latest?indicators=svc:sahm_rule,svc:real_avg_hourly_earnings,UNRATE", 200],
        [
          "/v1/observations/latest?indicators=svc:unemployment_gap,svc:home_affordability_ratio,population&region=06037",
          207,
        ],
        ["/v1/panel?indicators=UNRATE,svc:sahm_rule,svc:real_avg_hourly_earnings&start_date=2020-01-01", 200],
        ["/v1/insights?indicator=svc:sahm_rule", 200],
        ["/v1/insights?indicator=svc:unemployment_gap&region=06", 200],
        ["/v1/chart?indicator=svc:sahm_rule", 200],
        ["/v1/signals?indicator=svc:sahm_rule", 200],
      ];
      for (const [path, status, headers] of reads)
        expect([path, (await t.request(path, { headers })).status]).toEqual([path, status]);
      // The stored value is served as the write paths left it: February is not recomputed from the CPI written above.
      const again = await get(
        "/v1/observations?indicator=svc:real_avg_hourly_earnings&start_date=2025-02-01&end_date=2025-02-01",
      );
      expect(again.body.data[0].value).toBe(storedFebruary);
      // Inputs held but the svc: series not derived: a 404 saying so (no write paths skipped in the service).
      const notDerived = await get("/v1/observations?indicator=svc:home_affordability_ratio&region=06037");
      expect(notDerived.body.error.details).toEqual({
        indicator: "svc:home_affordability_ratio",
        region: "06037",
        held: false,
        derive_command: "svc derive svc:home_affordability_ratio",
      });
      // An input missing: the 404 names it, as before reads stopped deriving.
      const blocked = await get("/v1/observations?indicator=svc:home_affordability_ratio&region=06075");
      expect(blocked.body.error.details).toMatchObject({
        blocking_input: "home_value",
        input_indicator: "B25077_001E",
        input_region: "06075",
      });
      const batch = await get(
        "/v1/observations/latest?indicators=svc:unemployment_gap,svc:home_affordability_ratio,population&region=06037",
      );
      expect(
        batch.body.errors.map((e: any) => [e.indicator, e.details.blocking_input ?? e.details.derive_command]),
      ).toEqual([
        ["svc:unemployment_gap", "local_rate"],
        ["svc:home_affordability_ratio", "svc derive svc:home_affordability_ratio"],
      ]);
    } finally {
      stop();
    }
    expect(written).toBe(0);
    expect(await writeState()).toEqual(before);
  });
});

/** An upstream whose refresh of `source` publishes `rows` for the series given (written through the one write path). */
function revisingUpstream(source: string, series: SeriesKey, rows: { date: string; value: number }[]): SeriesFetcher {
  return {
    fetchVia: () => null,
    canFetch: () => false,
    fetch: async () => {
      throw new Error("not fetched in this test");
    },
    refresh: async (s) => {
      if (s !== source) return { changed: [] };
      const [r] = await writeManySeries(t.database.db, {
        items: [{ ...series, rows }],
        now: new Date("2026-07-01T00:00:00Z"),
      });
      return { changed: r!.inserted + r!.revised > 0 ? [series] : [] };
    },
  };
}

describe("writers derive", () => {
  test("a refresh revising UNRATE derives every svc: series it feeds, at the national level and at every place", async () => {
    const unrate = (await get("/v1/observations?indicator=UNRATE&order=asc&limit=1000")).body.data.map(
      (x: any): FredRow => ({ date: x.date, value: x.value }),
    );
    const stateRate = await get(
      "/v1/observations?indicator=LASST03&region=06&start_date=2023-03-01&end_date=2023-03-01",
    );
    expect(stateRate.body.data).toHaveLength(1);
    // Los Angeles County's monthly rate (not in the seed, which holds county rates as annual averages), derived as written.
    await writeSeries(t.database.db, "bls", "LAUCN03", "06037", [
      ["2023-02-01", 5.1],
      ["2023-03-01", 5.25],
    ]);
    await deriveWritten(t.store, new Date("2026-06-01T00:00:00Z"), [["bls", "LAUCN03", "06037"]]);
    const county = (start: string, end: string) =>
      get(`/v1/observations?indicator=svc:unemployment_gap&region=06037&order=asc&start_date=${start}&end_date=${end}`);
    expect(values((await county("2023-03-01", "2023-03-01")).body)).toEqual([
      ["2023-03-01", 5.25 - fredValue(unrate, "2023-03-01")!],
    ]);
    const before = await writeState();

    const fetcher = revisingUpstream("fred", { indicatorId: indicatorId("fred", "UNRATE"), regionCode: "US" }, [
      { date: "2023-03-01", value: 9 },
    ]);
    const { changed } = await refreshSource(
      { store: t.store, fetcher, now: () => new Date("2026-07-01T00:00:00Z"), logger: createLogger("silent") },
      "fred",
    );
    expect(changed).toHaveLength(1);
    expect(await writeState()).not.toEqual(before);

    // svc:sahm_rule by its definition over the revised UNRATE: every month, to the last digit.
    const revised = unrate.map((r: FredRow) => (r.date === "2023-03-01" ? { ...r, value: 9 } : r));
    const sahm = await get("/v1/observations?indicator=svc:sahm_rule&order=asc&limit=1000");
    expect(values(sahm.body)).toEqual(sahmSeries(revised).map((x) => [x.date, x.value]));
    const march = await get(
      "/v1/observations?indicator=svc:sahm_rule&include_revisions=true&start_date=2023-03-01&end_date=2023-03-01",
    );
    expect(march.body.data.map((x: any) => x.revision)).toEqual([1, 2]);
    // The unemployment gap, at every place (the national rate is an input of all): local rate minus the revised month.
    const gap = await get(
      "/v1/observations?indicator=svc:unemployment_gap&region=06&start_date=2023-03-01&end_date=2023-03-01",
    );
    expect(values(gap.body)).toEqual([["2023-03-01", stateRate.body.data[0].value - 9]]);
    expect(values((await county("2023-02-01", "2023-03-01")).body)).toEqual([
      ["2023-02-01", 5.1 - fredValue(unrate, "2023-02-01")!],
      ["2023-03-01", 5.25 - 9],
    ]);
  });

  const haveData = sharedDataPath("fred-macro-us", "AHETPI.csv") !== null;
  test.skipIf(!haveData)("the provisioning job derives the svc: series fed by the series it fetched", async () => {
    await clearSeries(t.database.db, "fred", "AHETPI", "US");
    const path = "/v1/observations?indicator=svc:real_avg_hourly_earnings&start_date=2024-06-01&end_date=2024-06-01";
    const blocked = await get(path);
    expect(blocked.status).toBe(404);
    expect(blocked.body.error.details).toMatchObject({
      blocking_input: "earnings",
      input_indicator: "AHETPI",
      input_region: "US",
    });

    const fetcher = new CsvFetcher(t.database.db);
    const deps = {
      store: t.store,
      fetcher,
      now: () => new Date("2026-07-01T00:00:00Z"),
      logger: createLogger("silent"),
      settings: t.deps.config.jobs.provision,
    };
    const key = { indicatorId: indicatorId("fred", "AHETPI"), regionCode: "US" };
    expect(
      await provisionSeries(deps, key, {
        retryCount: 0,
        retryLimit: 3,
        requestRef: "00000000-0000-4000-8000-000000000001",
      }),
    ).toEqual({ kind: "held" });

    const cpi = await get("/v1/observations?indicator=CPIAUCSL&start_date=2024-06-01&end_date=2024-06-01");
    const earnings = fetchedRows("AHETPI").find((r) => r.date === "2024-06-01")!.value!;
    const derived = await get(path);
    expect(derived.status).toBe(200);
    expect(values(derived.body)).toEqual([["2024-06-01", (earnings / cpi.body.data[0].value) * 100]]);
  });
});
