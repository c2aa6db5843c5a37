// The catalog and sample seeds on the run's backend (PGlite or PostgreSQL 15): curated metadata rules, idempotent
// reseeding, stable ids, and sample observations checked against the raw vega-datasets files.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { CATEGORIES, indicators, observations, regions, series, sources } from "../../db/schema";
import { CATALOG, type SourceCatalog } from "../../db/seed/catalog-data";
import { VALUE_SPECS } from "../../db/seed/catalog-data/value-kinds";
import {
  INDICATOR_NAMESPACE,
  NAMESPACE_URL,
  catalogProblems,
  indicatorId,
  seedCatalog,
  uuidV5,
} from "../../db/seed/catalog";
import { seedSnapshot } from "../../db/seed/snapshot";
import { makeTestDatabase, testBackend } from "../support/db";
import { fredRows } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const vega = (file: string) =>
  readFileSync(resolve(import.meta.dir, "../../node_modules/vega-datasets/data", file), "utf8");
const SEED_NOW = new Date("2026-11-22T00:00:00Z"); // what test/support/db seeds with

let database: Database;
beforeAll(async () => {
  database = await makeTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** Latest observations of one series, oldest first. */
async function observed(source: string, code: string, region: string) {
  return database.db
    .select({
      date: observations.date,
      value: observations.value,
      isPreliminary: observations.isPreliminary,
      revision: observations.revision,
    })
    .from(observations)
    .innerJoin(series, eq(series.id, observations.seriesId))
    .where(
      and(
        eq(series.indicatorId, indicatorId(source, code)),
        eq(series.regionCode, region),
        eq(observations.isLatest, true),
      ),
    )
    .orderBy(asc(observations.date));
}

describe(`curated catalog (${testBackend})`, () => {
  test("the data modules break none of the catalog rules", () => {
    expect(catalogProblems(CATALOG)).toEqual([]);
  });

  test("every entry states what its values are, stored in meta.values; an entry that does not is refused", async () => {
    const codes = new Set(CATALOG.flatMap((c) => c.indicators.map((i) => i.code)));
    expect([...VALUE_SPECS.keys()].filter((c) => !codes.has(c))).toEqual([]);
    expect(
      CATALOG.flatMap((c) => c.indicators)
        .filter((i) => !i.values)
        .map((i) => i.code),
    ).toEqual([]);
    const [growth] = await database.db
      .select({ meta: indicators.meta })
      .from(indicators)
      .where(eq(indicators.id, indicatorId("worldbank", "NY.GDP.MKTP.KD.ZG")));
    expect(growth.meta.values).toEqual({ kind: "change", span_months: 12 });
    const [cpi] = await database.db
      .select({ meta: indicators.meta })
      .from(indicators)
      .where(eq(indicators.id, indicatorId("fred", "CPIAUCSL")));
    expect(cpi.meta.values).toEqual({ kind: "index" });
    const unstated = { ...CATALOG[0], indicators: [{ ...CATALOG[0].indicators[0], values: undefined }] };
    expect(catalogProblems([unstated])).toEqual([
      `fred:${CATALOG[0].indicators[0].code}: does not state what its values are (catalog-data/value-kinds.ts)`,
    ]);
    const wrong = { ...CATALOG[0], indicators: [{ ...CATALOG[0].indicators[0], values: { kind: "rate" as const } }] };
    expect(catalogProblems([wrong])).toEqual([
      `fred:GDP: a rate needs a rate unit (percent, percentage points, ratio, births per woman), not 'billions of dollars, SAAR'`,
    ]);
  });

  test("every spec top-level category has an active indicator", async () => {
    const rows = await database.db
      .select({ category: indicators.category, isActive: indicators.isActive })
      .from(indicators);
    const present = new Set(rows.filter((r) => r.isActive).map((r) => r.category));
    for (const c of CATEGORIES) expect(present.has(c)).toBe(true);
    expect([...present].every((c) => (CATEGORIES as readonly (string | null)[]).includes(c))).toBe(true);
  });

  test("the headline series exist under their providers' codes", async () => {
    const rows = await database.db.select({ code: indicators.code, source: indicators.sourceSlug }).from(indicators);
    const have = new Set(rows.map((r) => `${r.source}:${r.code}`));
    const required = [
      ...[
        "UNRATE",
        "PAYEMS",
        "CPIAUCSL",
        "CPILFESL",
        "PCE",
        "PCEPI",
        "GDP",
        "GDPC1",
        "FEDFUNDS",
        "DGS2",
        "DGS10",
        "T10Y2Y",
        "ICSA",
        "JTSJOL",
        "INDPRO",
        "HOUST",
        "RSXFS",
        "M2SL",
        "DCOILWTICO",
        "USREC",
        "CLF16OV",
        "CE16OV",
        "AHETPI",
      ].map((c) => `fred:${c}`),
      ...["LASST03", "LASST04", "LASST05", "LASST06", "LAUCN03", "LAUCN04", "LAUCN05", "LAUCN06"].map(
        (c) => `bls:${c}`,
      ),
      ...[
        "POPESTIMATE",
        "BIRTHS",
        "DEATHS",
        "NETMIG",
        "DOMESTICMIG",
        "INTERNATIONALMIG",
        "B19013_001E",
        "B25077_001E",
        "MOVEDNET",
      ].map((c) => `census:${c}`),
      ...["SP.POP.TOTL", "NY.GDP.MKTP.CD", "SL.UEM.TOTL.ZS"].map((c) => `worldbank:${c}`),
      ...["svc:sahm_rule", "svc:real_avg_hourly_earnings", "svc:home_affordability_ratio", "svc:unemployment_gap"].map(
        (c) => `svc:${c}`,
      ),
    ];
    expect(required.filter((r) => !have.has(r))).toEqual([]);
  });

  test("every svc: entry is premium, from the svc source, and states its formula and inputs", async () => {
    const rows = await database.db.select().from(indicators).where(eq(indicators.sourceSlug, "svc"));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) {
      expect(r.code.startsWith("svc:")).toBe(true);
      expect(r.accessTier).toBe("premium");
      const derived = (r.meta as { derived: { inputs: string[]; formula: string } }).derived;
      expect(r.description).toContain(derived.formula);
      for (const input of derived.inputs) expect(r.description).toContain(input);
    }
    const free = await database.db.select({ code: indicators.code, tier: indicators.accessTier }).from(indicators);
    expect(free.filter((r) => r.code.startsWith("svc:") !== (r.tier === "premium"))).toEqual([]);
  });

  test("metadata examples: units, frequencies, direction and regions", async () => {
    const get = async (source: string, code: string) =>
      (
        await database.db
          .select()
          .from(indicators)
          .where(eq(indicators.id, indicatorId(source, code)))
      )[0];
    expect(await get("fred", "UNRATE")).toMatchObject({
      unit: "percent",
      frequency: "monthly",
      upIsGood: false,
      regionKinds: ["country"],
      defaultRegionCode: "US",
    });
    expect(await get("fred", "PAYEMS")).toMatchObject({ unit: "thousands of persons", upIsGood: true });
    expect(await get("fred", "CPIAUCSL")).toMatchObject({ unit: "index 1982-1984=100", upIsGood: null });
    expect(await get("fred", "GDP")).toMatchObject({ unit: "billions of dollars, SAAR", frequency: "quarterly" });
    expect(await get("fred", "ICSA")).toMatchObject({ frequency: "weekly" });
    expect(await get("fred", "DGS10")).toMatchObject({ frequency: "daily" });
    expect(await get("bls", "LAUCN03")).toMatchObject({
      regionKinds: ["county"],
      defaultRegionCode: "06037",
      meta: {
        per_region: true,
        measure: "unemployment_rate",
        upstream: { series_id_template: "LAUCN{fips5}0000000003" },
      },
    });
    expect(await get("bls", "LASST06")).toMatchObject({
      regionKinds: ["state"],
      defaultRegionCode: "06",
      meta: { upstream: { series_id_template: "LASST{fips2}0000000000006" } },
    });
    expect(await get("census", "B25077_001E")).toMatchObject({
      regionKinds: ["state", "county"],
      defaultRegionCode: "06",
      category: "housing",
    });
    expect(await get("worldbank", "SP.POP.TOTL")).toMatchObject({
      regionKinds: ["country"],
      defaultRegionCode: "US",
      frequency: "annual",
    });
  });

  test("every default region exists in the regions table", async () => {
    const rows = await database.db
      .select({ code: indicators.code, region: indicators.defaultRegionCode, found: regions.code })
      .from(indicators)
      .leftJoin(regions, eq(regions.code, indicators.defaultRegionCode));
    expect(rows.filter((r) => r.found === null).map((r) => `${r.code} -> ${r.region}`)).toEqual([]);
  });

  test("ids are name-based UUIDs of source:code, the same on every database", async () => {
    // RFC 4122 v5 check value, then this project's namespace and a few pinned ids.
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    );
    expect(INDICATOR_NAMESPACE).toBe(uuidV5("urn:econ-series-svc:indicator", NAMESPACE_URL));
    expect(INDICATOR_NAMESPACE).toBe("d0ea39fe-668b-5bf2-ac53-061d0a8a53c3");
    expect(indicatorId("fred", "UNRATE")).toBe("bd518a9e-6a5c-5131-b1be-464adfb9872a");
    expect(indicatorId("fred", "PAYEMS")).toBe("23e93bbf-1d3e-537e-b512-d96342d21e32");
    expect(indicatorId("svc", "svc:sahm_rule")).toBe("0cdeb1bb-aeea-512f-98aa-accd313b243c");
    const rows = await database.db
      .select({ id: indicators.id, code: indicators.code, source: indicators.sourceSlug })
      .from(indicators);
    expect(rows.length).toBe(CATALOG.reduce((n, c) => n + c.indicators.length, 0));
    for (const r of rows) expect(r.id).toBe(indicatorId(r.source!, r.code));
  });

  test("reseeding writes nothing: no row changes, updated_at untouched", async () => {
    const before = await database.db.select().from(indicators).orderBy(asc(indicators.id));
    const later = new Date("2027-01-01T00:00:00Z");
    expect(await seedCatalog(database.db, { now: later })).toEqual({
      sources: CATALOG.length,
      indicators: before.length,
      inserted: 0,
      updated: 0,
    });
    const after = await database.db.select().from(indicators).orderBy(asc(indicators.id));
    expect(after).toEqual(before);
    expect(after.every((r) => r.updatedAt.getTime() === SEED_NOW.getTime())).toBe(true);
  });

  test("a curated change rewrites exactly that row, keeping its id", async () => {
    const changed: SourceCatalog[] = CATALOG.map((c) =>
      c.source.slug !== "cdc"
        ? c
        : { ...c, indicators: c.indicators.map((i) => ({ ...i, name: `${i.name} (renamed)` })) },
    );
    const later = new Date("2027-02-01T00:00:00Z");
    expect(await seedCatalog(database.db, { now: later }, changed)).toMatchObject({ inserted: 0, updated: 1 });
    const [row] = await database.db
      .select()
      .from(indicators)
      .where(eq(indicators.id, indicatorId("cdc", "Q036")));
    expect(row.name).toBe("Adult Obesity Prevalence (BMI >= 30) (renamed)");
    expect(row.updatedAt.toISOString()).toBe(later.toISOString());
    expect(await seedCatalog(database.db, { now: later })).toMatchObject({ inserted: 0, updated: 1 });
    const sourcesBefore = await database.db.select().from(sources);
    expect(sourcesBefore.length).toBe(CATALOG.length);
  });

  test("short names: stored in meta.short_name; a name too long to shorten by rule needs one, itself short", async () => {
    const [cpi] = await database.db
      .select({ meta: indicators.meta })
      .from(indicators)
      .where(eq(indicators.id, indicatorId("fred", "CPIAUCSL")));
    expect((cpi!.meta as { short_name?: string }).short_name).toBe("Consumer Price Index");
    const [unrate] = await database.db
      .select({ meta: indicators.meta })
      .from(indicators)
      .where(eq(indicators.id, indicatorId("fred", "UNRATE")));
    expect((unrate!.meta as { short_name?: string }).short_name).toBeUndefined();
    const base = CATALOG[0].indicators[0];
    const check = (code: string, name: string) =>
      catalogProblems([{ source: CATALOG[0].source, indicators: [{ ...base, code, name }] }]);
    // 41 characters with nothing to drop, and no short name; 40 is its own short name.
    expect(check("NEW1", "x".repeat(41))).toEqual(["fred:NEW1: name longer than 40 characters and no short name"]);
    expect(check("NEW1", "x".repeat(40))).toEqual([]);
    // A stated short name must be shorter than the name it stands for.
    expect(check("HOUST", "Housing Starts")).toEqual([
      'fred:HOUST: short name "Housing Starts" is longer than 40 characters or than the name',
    ]);
  });

  test("an invalid catalog is refused before anything is written", async () => {
    const bad: SourceCatalog[] = [
      { source: CATALOG[0].source, indicators: [{ ...CATALOG[0].indicators[0], subcategory: "Not Kebab" }] },
    ];
    await expect(seedCatalog(database.db, {}, bad)).rejects.toThrow("not kebab-case");
    expect(
      catalogProblems([
        {
          source: {
            slug: "svc",
            name: "x",
            provider: null,
            category: null,
            docsUrl: null,
            attribution: "x",
            license: "x",
          },
          indicators: [{ ...CATALOG[0].indicators[0], code: "svc:x" }],
        },
      ]),
    ).toEqual(["svc:svc:x: derived series must be premium", "svc:svc:x: meta.derived needs inputs and a formula"]);
  });
});

describe(`sample observations from vega-datasets (${testBackend})`, () => {
  test("dropped samples: the snapshot supersedes PAYEMS 2006-2015, the 2009 county month and CPS industries", async () => {
    // PAYEMS is the shipped FRED files' series (both vintages, 1939-01 .. 2026-05), date for date: no sample row left.
    const payems = await observed("fred", "PAYEMS", "US");
    expect(payems[0].date).toBe("1939-01-01");
    expect(payems.map((o) => [o.date, o.value])).toEqual(fredRows("PAYEMS").map((r) => [r.date, r.value]));
    expect(await observed("bls", "LAUCN03", "06037")).toEqual([]);
    expect(await observed("bls", "LNU04032231", "US")).toEqual([]);
    expect(await observed("gapminder", "population_total", "US")).toEqual([]);
  });

  test("federal receipts are the yearly sums of budget.json, in millions, actual years only", async () => {
    const accounts = JSON.parse(vega("budget.json")) as Record<string, string>[];
    const sum = (year: string) => accounts.reduce((n, a) => n + BigInt(a[year].replace(/,/g, "")), 0n);
    const fyfr = await observed("fred", "FYFR", "US");
    // Thousands to millions divides exactly: FY1962 is 99,675,605 thousand = 99,675.605 million.
    expect(fyfr[0]).toMatchObject({ date: "1962-01-01", value: Number(sum("1962")) / 1000 });
    expect(fyfr[0].value).toBe(99675.605);
    expect(fyfr.find((o) => o.date === "2014-01-01")!.value).toBe(Number(sum("2014")) / 1000);
    expect(fyfr.find((o) => o.date === "2014-01-01")!.value).toBe(3021487);
    expect(fyfr[fyfr.length - 1].date).toBe("2014-01-01");
    expect(fyfr.length).toBe(2014 - 1962 + 1);
  });

  test("state, country and station samples: obesity, Gapminder, Mauna Loa CO2, Iowa generation", async () => {
    const obesity = JSON.parse(vega("obesity.json")) as { id: number; rate: number }[];
    const ca = obesity.find((r) => r.id === 6)!;
    expect(await observed("cdc", "Q036", "06")).toEqual([
      { date: "1995-01-01", value: Math.round(ca.rate * 1000) / 10, isPreliminary: false, revision: 1 },
    ]);
    const gap = (
      JSON.parse(vega("gapminder.json")) as { year: number; country: string; pop: number; life_expect: number }[]
    ).filter((r) => r.country === "United States");
    expect((await observed("gapminder", "life_expectancy_years", "US")).map((o) => o.date)).toEqual(
      gap.map((r) => `${r.year}-01-01`),
    );
    const co2 = vega("co2-concentration.csv")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));
    const mlo = await observed("scripps", "MLO.CO2", "15001");
    expect(mlo.length).toBe(co2.length);
    expect(mlo[mlo.length - 1]).toMatchObject({ date: co2[co2.length - 1][0], value: Number(co2[co2.length - 1][1]) });
    const nuclear = vega("iowa-electricity.csv")
      .trim()
      .split("\n")
      .filter((l) => l.includes("Nuclear"))
      .map((l) => l.split(","));
    expect((await observed("eia", "ELEC.GEN.NUC-99.A", "19")).map((o) => [o.date, o.value])).toEqual(
      nuclear.map((r) => [r[0], Number(r[2])]),
    );
  });

  test("loading the snapshot again finds every value unchanged and writes nothing", async () => {
    const count = async () => (await database.db.select({ n: observations.seriesId }).from(observations)).length;
    const before = await count();
    const californiaOnly = { name: "ca", keep: (code: string) => code === "06" || code.startsWith("06") };
    const r = await seedSnapshot(database, { now: new Date("2027-03-01T00:00:00Z"), regionFilter: californiaOnly });
    expect(r.series).toBeGreaterThan(58 * 12);
    expect(await count()).toBe(before);
    const caPop = await observed("census", "POPESTIMATE", "06");
    expect(caPop.every((o) => o.revision <= 2)).toBe(true);
  });
});
