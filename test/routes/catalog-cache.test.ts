// test-tier: database (other processes' writes: a second pool on PostgreSQL)
// The in-memory catalog (src/services/catalog-index.ts) and the catalog's conditional responses:
// - it answers the rows the SQL it replaced answers (listIndicatorPage), ranked held and current first;
// - this process's writes (an import creating a series, a catalog or region upsert) show at once;
// - other processes' writes (raw SQL here; on PostgreSQL also a second connection pool) show after the revalidation
//   bound and not before it.
// ETags and conditional responses are catalog-etag.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../db/client";
import {
  listIndicatorPage,
  listSourcesWithCounts,
  upsertIndicators,
  type NewIndicatorRow,
} from "../../db/repos/catalog";
import { upsertRegions } from "../../db/repos/regions";
import { indicators } from "../../db/schema";
import {
  indicatorDetailResponseSchema,
  indicatorListResponseSchema,
  sourceListResponseSchema,
} from "../../src/schemas/catalog";
import { regionResponseSchema } from "../../src/schemas/regions";
import { createCaches } from "../../src/services/caches";
import { importObservationsCsv } from "../../src/services/import";
import { makeTestApp, type TestApp } from "../support/app";
import { testBackend } from "../support/db";
import { fredRows } from "../support/snapshot";

setDefaultTimeout(120_000);

async function json(t: TestApp, path: string, init?: RequestInit) {
  const res = await t.request(path, init);
  expect(res.status).toBe(200);
  return { res, body: (await res.json()) as any };
}

describe("same answers as the SQL it replaced", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test("every search term, filter and include_inactive: same rows and total (the order is the domain's, tested there)", async () => {
    const db = t.database.db;
    const all = (await listIndicatorPage(db, { includeInactive: true }, { limit: 1000, offset: 0 })).rows;
    const terms = new Set<string>([
      "%",
      "_",
      "\\",
      "gdp",
      "GDP",
      "rate",
      "Rate",
      "a",
      "e",
      "us",
      "unemployment",
      "svc:",
      "la",
      "LNU04",
      "x".repeat(200),
      "é",
    ]);
    for (const i of all.filter((_, n) => n % 7 === 0)) {
      terms.add(i.code);
      terms.add(i.code.toLowerCase());
      terms.add(i.code.slice(0, 3));
      terms.add(i.name.split(" ")[0]);
      if (i.description && i.description.length > 20) terms.add(i.description.slice(10, 17).trim() || "a");
    }
    const sources = (await listSourcesWithCounts(db, true)).map((s) => s.slug);
    const filters: { source?: string; category?: string; frequency?: string; search?: string }[] = [
      {},
      ...[...terms].filter((s) => s.trim()).map((search) => ({ search: search.trim() })),
      ...sources.map((source) => ({ source })),
      { category: "labor" },
      { category: "prices", frequency: "monthly" },
      { frequency: "daily" },
      { source: "bls", search: "unemployment" },
      { category: "labor", search: "rate" },
    ];
    let compared = 0;
    for (const f of filters) {
      for (const includeInactive of [false, true]) {
        // The SQL orders by code; the list ranks held, current series first (src/domain/catalog-search.ts): the same
        // rows and total, read here page by page.
        const want = await listIndicatorPage(db, { ...f, includeInactive }, { limit: 1000, offset: 0 });
        const ids: string[] = [];
        let total = 0;
        for (let offset = 0; offset === 0 || offset < total; offset += 100) {
          const qs = new URLSearchParams({
            limit: "100",
            offset: String(offset),
            include_inactive: String(includeInactive),
          });
          for (const [k, v] of Object.entries(f)) qs.set(k, v!);
          const got = indicatorListResponseSchema.parse((await json(t, `/v1/indicators?${qs}`)).body);
          total = got.meta.total;
          ids.push(...got.data.map((i) => i.id));
        }
        expect({ f, includeInactive, ids: [...ids].sort(), total }).toEqual({
          f,
          includeInactive,
          ids: want.rows.map((r) => r.id).sort(),
          total: want.total,
        });
        expect(new Set(ids).size).toBe(ids.length);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  test("sources and their counts equal the grouped SQL", async () => {
    for (const includeInactive of [false, true]) {
      const want = await listSourcesWithCounts(t.database.db, includeInactive);
      const got = sourceListResponseSchema.parse(
        (await json(t, `/v1/sources?include_inactive=${includeInactive}`)).body,
      ).data;
      expect(got).toEqual(
        want.map((s) => ({
          slug: s.slug,
          name: s.name,
          provider: s.provider,
          category: s.category,
          indicator_count: s.indicatorCount,
          docs_url: s.docsUrl,
          attribution: s.attribution,
          license: s.license,
        })),
      );
    }
  });
});

describe("this process's writes show at once", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    // No fingerprint check after the first (an hour): only the in-process notices can make changes visible.
    t.deps.caches.catalog.configure({ revalidateMs: 3_600_000, crossProcess: true, now: () => 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  // LAUCN06 (monthly county labour force) is offered for every county and held for none.
  test("an import creating a series: available_regions and date_range move, and so does the ETag", async () => {
    const before = await json(t, "/v1/indicators/LAUCN06");
    expect(before.body.data.available_regions).toEqual([]);
    expect(before.body.data.date_range).toEqual({ start: null, end: null });
    const tag = before.res.headers.get("etag")!;

    await importObservationsCsv(t.store, {
      text: "date,value\n2024-01-01,5.1\n2024-02-01,5.2\n",
      indicator: "LAUCN06",
      region: "06037",
      now: t.clock.now(),
    });
    const after = indicatorDetailResponseSchema.parse((await json(t, "/v1/indicators/LAUCN06")).body);
    expect(after.data.available_regions).toEqual(["06037"]);
    expect(after.data.date_range).toEqual({ start: "2024-01-01", end: "2024-02-01" });
    expect((await t.request("/v1/indicators/LAUCN06", { headers: { "If-None-Match": tag } })).status).toBe(200);

    // A second series, and an existing one growing (the stats update, not the creation path).
    await importObservationsCsv(t.store, {
      text: "date,value\n2023-12-01,4.0\n",
      indicator: "LAUCN06",
      region: "48201",
      now: t.clock.now(),
    });
    await importObservationsCsv(t.store, {
      text: "date,value\n2024-03-01,5.3\n",
      indicator: "LAUCN06",
      region: "06037",
      now: t.clock.now(),
    });
    const grown = indicatorDetailResponseSchema.parse((await json(t, "/v1/indicators/LAUCN06")).body);
    expect(grown.data.available_regions).toEqual(["06037", "48201"]);
    expect(grown.data.date_range).toEqual({ start: "2023-12-01", end: "2024-03-01" });
  });

  test("an import changing nothing keeps the representation (same ETag, 304)", async () => {
    const first = await t.request("/v1/indicators/LAUCN06");
    const tag = first.headers.get("etag")!;
    const r = await importObservationsCsv(t.store, {
      text: "date,value\n2024-03-01,5.3\n",
      indicator: "LAUCN06",
      region: "06037",
      now: t.clock.now(),
    });
    expect(r.unchanged).toBe(1);
    expect((await t.request("/v1/indicators/LAUCN06", { headers: { "If-None-Match": tag } })).status).toBe(304);
  });

  test("a catalog upsert: the list, the search, the detail and the source counts follow", async () => {
    const [row] = await t.database.db.select().from(indicators).where(sql`${indicators.code} = 'UNRATE'`);
    expect((await json(t, "/v1/indicators?search=zebra&limit=0")).body.meta.total).toBe(0);
    const changed: NewIndicatorRow = { ...row, name: "Unemployment Rate (zebra)", updatedAt: t.clock.now() };
    expect(await upsertIndicators(t.database.db, [changed])).toEqual({ inserted: 0, updated: 1 });
    const found = (await json(t, "/v1/indicators?search=zebra")).body;
    expect(found.data.map((i: any) => [i.code, i.name])).toEqual([["UNRATE", "Unemployment Rate (zebra)"]]);
    expect((await json(t, "/v1/indicators/UNRATE")).body.data.name).toBe("Unemployment Rate (zebra)");

    const fredBefore = (await json(t, "/v1/sources")).body.data.find((s: any) => s.slug === "fred").indicator_count;
    await upsertIndicators(t.database.db, [{ ...changed, isActive: false }]);
    expect((await json(t, "/v1/sources")).body.data.find((s: any) => s.slug === "fred").indicator_count).toBe(
      fredBefore - 1,
    );
    expect((await t.request("/v1/indicators/UNRATE")).status).toBe(404);
    await upsertIndicators(t.database.db, [row]);
    expect((await json(t, "/v1/indicators/UNRATE")).body.data.name).toBe(row.name);
  });

  test("a catalog write inside a transaction (the seed's shape) shows once the transaction has committed", async () => {
    const [row] = await t.database.db.select().from(indicators).where(sql`${indicators.code} = 'UNRATE'`);
    expect((await json(t, "/v1/indicators?search=okapi&limit=0")).body.meta.total).toBe(0);
    await t.database.db.transaction(async (tx) => {
      await upsertIndicators(tx as unknown as typeof t.database.db, [{ ...row, name: "Unemployment Rate (okapi)" }]);
    });
    expect((await json(t, "/v1/indicators?search=okapi")).body.data.map((i: any) => i.code)).toEqual(["UNRATE"]);
    await upsertIndicators(t.database.db, [row]);
    expect((await json(t, "/v1/indicators?search=okapi&limit=0")).body.meta.total).toBe(0);
  });

  test("a region upsert: lists, lookups and their tags follow", async () => {
    const tag = (await t.request("/v1/regions?type=state")).headers.get("etag")!;
    const [ca] = (await json(t, "/v1/regions?type=state")).body.data.filter((r: any) => r.code === "06");
    const row = {
      code: "06",
      type: "state",
      name: "Kalifornia",
      slug: "california",
      parentCode: "US",
      fipsState: "06",
      fipsCounty: null,
      aliases: ["CA", "US-CA"],
    };
    expect(await upsertRegions(t.database.db, [row])).toBe(1);
    expect(regionResponseSchema.parse((await json(t, "/v1/regions/US-CA")).body).data.name).toBe("Kalifornia");
    const states = await t.request("/v1/regions?type=state", { headers: { "If-None-Match": tag } });
    expect(states.status).toBe(200);
    expect(((await states.json()) as any).data.find((r: any) => r.code === "06").name).toBe("Kalifornia");
    await upsertRegions(t.database.db, [{ ...row, name: ca.name }]);
    expect((await t.request("/v1/regions?type=state", { headers: { "If-None-Match": tag } })).status).toBe(304);
  });
});

describe("other processes' writes show within the revalidation bound", () => {
  let t: TestApp;
  let clock = 0;
  beforeAll(async () => {
    t = await makeTestApp();
    t.deps.caches.catalog.configure({ revalidateMs: 1000, crossProcess: true, now: () => clock });
  });
  afterAll(async () => {
    await t.close();
  });

  // Raw SQL does not pass the repos' notices: to this process it is another process's write.
  test("a source renamed: not before revalidateMs, at revalidateMs", async () => {
    clock = 0;
    const name = () => json(t, "/v1/sources").then((r) => r.body.data.find((s: any) => s.slug === "cdc").name);
    const original = await name();
    await t.database.exec("UPDATE sources SET name = 'Renamed elsewhere' WHERE slug = 'cdc'");
    clock = 999;
    expect(await name()).toBe(original);
    clock = 1000;
    expect(await name()).toBe("Renamed elsewhere");
    await t.database.exec(`UPDATE sources SET name = '${original.replace(/'/g, "''")}' WHERE slug = 'cdc'`);
    clock = 2000;
    expect(await name()).toBe(original);
  });

  test("a region renamed: the region index and the rendered lists follow", async () => {
    clock = 10_000;
    expect((await json(t, "/v1/regions/06")).body.data.name).toBe("California");
    await t.database.exec("UPDATE regions SET name = 'Kalifornia' WHERE code = '06'");
    clock = 10_500;
    expect((await json(t, "/v1/regions/06")).body.data.name).toBe("California");
    clock = 11_000;
    expect((await json(t, "/v1/regions/06")).body.data.name).toBe("Kalifornia");
    expect((await json(t, "/v1/regions?type=state")).body.data.find((r: any) => r.code === "06").name).toBe(
      "Kalifornia",
    );
    await t.database.exec("UPDATE regions SET name = 'California' WHERE code = '06'");
  });

  test("a series grown elsewhere: date_range follows after the bound", async () => {
    clock = 20_000;
    const range = () => json(t, "/v1/indicators/PAYEMS").then((r) => r.body.data.date_range);
    // As shipped (both vintages): 1939-01 .. 2026-05.
    const payems = fredRows("PAYEMS");
    const shipped = { start: payems[0].date, end: payems.at(-1)!.date };
    expect(shipped).toEqual({ start: "1939-01-01", end: "2026-05-01" });
    expect(await range()).toEqual(shipped);
    await t.database.exec(
      "UPDATE series SET last_date = '2026-06-01', version = version + 1 FROM indicators i WHERE i.id = series.indicator_id AND i.code = 'PAYEMS' AND series.region_code = 'US'",
    );
    clock = 20_999;
    expect(await range()).toEqual(shipped);
    clock = 21_000;
    expect(await range()).toEqual({ start: "1939-01-01", end: "2026-06-01" });
  });

  test.skipIf(testBackend !== "postgres")(
    "PostgreSQL: an import through a second connection pool (another process's view)",
    async () => {
      const rows = await t.database.db.execute(sql`select current_database() as name`);
      const name = ((Array.isArray(rows) ? rows : (rows as any).rows)[0] as { name: string }).name;
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const other = await openDatabase({ url: url.toString(), poolSize: 1 });
      try {
        clock = 30_000;
        expect((await json(t, "/v1/indicators/LAUCN05")).body.data.available_regions).toEqual([]);
        await importObservationsCsv(
          { db: other.db, caches: createCaches(other) },
          { text: "date,value\n2024-01-01,3.3\n", indicator: "LAUCN05", region: "05001", now: t.clock.now() },
        );
        clock = 30_999;
        expect((await json(t, "/v1/indicators/LAUCN05")).body.data.available_regions).toEqual([]);
        clock = 31_000;
        expect((await json(t, "/v1/indicators/LAUCN05")).body.data).toMatchObject({
          available_regions: ["05001"],
          date_range: { start: "2024-01-01", end: "2024-01-01" },
        });
      } finally {
        await other.close();
      }
    },
  );
});
