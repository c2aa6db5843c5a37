// GET /v1/sources and GET /v1/indicators: every parameter at its bound and one past it, filters, search, inactive
// sources. Responses are parsed with the routes' schemas. GET /v1/indicators/{code} is catalog-indicator.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CATALOG } from "../../db/seed/catalog-data";
import { CATEGORIES } from "../../db/schema/catalog";
import { isCurrent } from "../../src/domain/freshness";
import {
  indicatorDetailResponseSchema,
  indicatorListResponseSchema,
  sourceListResponseSchema,
} from "../../src/schemas/catalog";
import { makeTestApp, type TestApp } from "../support/app";
import { catalogApp } from "../support/catalog";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const vega = (file: string) =>
  readFileSync(resolve(import.meta.dir, "../../node_modules/vega-datasets/data", file), "utf8");

const allIndicators = CATALOG.flatMap((c) => c.indicators.map((i) => ({ ...i, source: c.source.slug })));
const activeIndicators = allIndicators.filter((i) => i.isActive !== false);

const fx = catalogApp();
const { ok, detail, error } = fx;

async function list(query = "") {
  return indicatorListResponseSchema.parse(await ok(`/v1/indicators${query}`));
}

describe("GET /v1/sources", () => {
  test("200 lists every curated source by slug with public CDN caching", async () => {
    const body = sourceListResponseSchema.parse(await ok("/v1/sources"));
    const slugs = body.data.map((s) => s.slug);
    expect(slugs).toEqual(CATALOG.map((c) => c.source.slug).sort());
    for (const required of ["fred", "bls", "census", "worldbank", "eia", "cdc", "scripps", "gapminder", "svc"])
      expect(slugs).toContain(required);
    const fred = body.data.find((s) => s.slug === "fred")!;
    expect(fred).toEqual({
      slug: "fred",
      name: "FRED, Federal Reserve Bank of St. Louis",
      provider: "Federal Reserve Bank of St. Louis",
      category: "macro",
      indicator_count: activeIndicators.filter((i) => i.source === "fred").length,
      docs_url: "https://fred.stlouisfed.org/docs/api/fred/",
      attribution:
        "Source: the producing agency named in each series (BLS, BEA, Federal Reserve Board, Census, EIA, ...) via FRED, Federal Reserve Bank of St. Louis.",
      license: "Public domain (U.S. government work); copyrighted FRED series are not carried",
    });
    const worldbank = body.data.find((s) => s.slug === "worldbank")!;
    expect(worldbank).toMatchObject({
      license: "CC BY 4.0",
      attribution: "Source: World Bank, World Development Indicators (CC BY 4.0).",
    });
  });

  test("indicator_count equals the indicator list's total for that source", async () => {
    const sources = sourceListResponseSchema.parse(await ok("/v1/sources")).data;
    for (const s of sources) {
      const page = await list(`?source=${s.slug}&limit=0`);
      expect(page.meta.total).toBe(s.indicator_count);
    }
  });

  test("include_inactive=true counts inactive indicators (FRED's discontinued OILPRICE); false is the default", async () => {
    const active = sourceListResponseSchema.parse(await ok("/v1/sources?include_inactive=false")).data;
    const all = sourceListResponseSchema.parse(await ok("/v1/sources?include_inactive=true")).data;
    const fredActive = active.find((s) => s.slug === "fred")!.indicator_count;
    expect(all.find((s) => s.slug === "fred")!.indicator_count).toBe(fredActive + 1);
    expect(sourceListResponseSchema.parse(await ok("/v1/sources")).data).toEqual(active);
  });

  test("include_inactive that is not true/false is a 400 envelope", async () => {
    for (const v of ["yes", "1", "TRUE", ""]) {
      const e = await error(`/v1/sources?include_inactive=${v}`, 400, "INVALID_PARAMETER");
      expect(e.details?.parameter).toBe("include_inactive");
    }
  });
});

describe("GET /v1/indicators: paging", () => {
  test("defaults: limit 50, offset 0, total counts every active indicator", async () => {
    const page = await list();
    expect(page.meta).toEqual({ total: activeIndicators.length, limit: 50, offset: 0 });
    expect(page.data.length).toBe(50);
  });

  test("limit at its bounds: 0 returns only the total, 100 returns 100", async () => {
    const zero = await list("?limit=0");
    expect(zero.data).toEqual([]);
    expect(zero.meta).toEqual({ total: activeIndicators.length, limit: 0, offset: 0 });
    const hundred = await list("?limit=100");
    expect(hundred.data.length).toBe(Math.min(100, activeIndicators.length));
    expect(hundred.meta.limit).toBe(100);
  });

  test("limit one past its bounds and malformed: 400 naming limit", async () => {
    for (const v of ["101", "-1", "1.5", "abc", "", "1e1", "0x10"]) {
      const e = await error(`/v1/indicators?limit=${v}`, 400, "INVALID_PARAMETER");
      expect(e.details?.parameter).toBe("limit");
    }
  });

  test("offset at its bound 0 and past it; -1 and non-integers are 400", async () => {
    expect((await list("?offset=0")).meta.offset).toBe(0);
    const beyond = await list(`?offset=${activeIndicators.length}`);
    expect(beyond.data).toEqual([]);
    expect(beyond.meta.total).toBe(activeIndicators.length);
    for (const v of ["-1", "2.5", "x", ""]) {
      const e = await error(`/v1/indicators?offset=${v}`, 400, "INVALID_PARAMETER");
      expect(e.details?.parameter).toBe("offset");
    }
  });

  test("pages tile the whole ordered list without gaps or repeats", async () => {
    const first = await list("?limit=100&offset=0");
    const second = await list("?limit=100&offset=100");
    const byPages = [...first.data, ...second.data];
    expect(byPages.length).toBe(activeIndicators.length);
    expect(new Set(byPages.map((i) => i.id)).size).toBe(byPages.length);
    // Held series with current data first, then held but stale ones, then the rest; by code then source within each.
    const classOf = (i: any) =>
      i.coverage.regions_held > 0 ? (isCurrent(i.coverage.end, i.frequency, "2026-11-22") ? 0 : 1) : 2;
    const keys = byPages.map((i) => `${classOf(i)}\u0000${i.code}\u0000${i.source}`);
    expect(keys).toEqual([...keys].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1)));
    expect(classOf(byPages[0])).toBeLessThan(2);
    const mid = await list("?limit=7&offset=45");
    expect(mid.data.map((i) => i.id)).toEqual(byPages.slice(45, 52).map((i) => i.id));
  });
});

describe("GET /v1/indicators: filters and search", () => {
  test("every spec category is populated, and category filters exactly", async () => {
    for (const c of CATEGORIES) {
      const page = await list(`?category=${c}&limit=100`);
      expect(page.meta.total).toBe(activeIndicators.filter((i) => i.category === c).length);
      expect(page.meta.total).toBeGreaterThan(0);
      expect(page.data.every((i) => i.category === c)).toBe(true);
    }
  });

  test("an unknown category is a 400 listing the valid ones", async () => {
    for (const v of ["foo", "Labor", "jobs"]) {
      const e = await error(`/v1/indicators?category=${v}`, 400, "INVALID_PARAMETER");
      expect(e.details?.parameter).toBe("category");
      for (const c of CATEGORIES) expect(e.message).toContain(c);
    }
  });

  test("frequency filters exactly; an unknown frequency is a 400 listing the valid ones", async () => {
    const weekly = await list("?frequency=weekly");
    expect(weekly.data.map((i) => i.code).sort()).toEqual(
      activeIndicators
        .filter((i) => i.frequency === "weekly")
        .map((i) => i.code)
        .sort(),
    );
    expect(weekly.data.map((i) => i.code)).toContain("ICSA");
    const e = await error("/v1/indicators?frequency=hourly", 400, "INVALID_PARAMETER");
    expect(e.message).toContain("daily, weekly, monthly, quarterly, annual");
  });

  test("source filters exactly; an unknown source is a 400 listing the valid ones", async () => {
    const bls = await list("?source=bls&limit=100");
    expect(bls.meta.total).toBe(activeIndicators.filter((i) => i.source === "bls").length);
    expect(bls.data.every((i) => i.source === "bls")).toBe(true);
    const e = await error("/v1/indicators?source=nope", 400, "INVALID_PARAMETER");
    expect(e.details?.parameter).toBe("source");
    expect(e.message).toContain("nope");
    expect(e.details?.valid).toEqual(CATALOG.map((c) => c.source.slug).sort());
  });

  test("filters combine", async () => {
    const page = await list("?source=fred&category=labor&frequency=weekly");
    expect(page.data.map((i) => i.code).sort()).toEqual(["CCSA", "ICSA"]);
  });

  test("search matches name, code and description, ignoring case", async () => {
    const byName = await list("?search=sahm rule");
    expect(byName.data.map((i) => i.code)).toEqual(["svc:sahm_rule"]);
    const byCode = await list("?search=pop.totl");
    expect(byCode.data.map((i) => i.code)).toEqual(["SP.POP.TOTL"]);
    // "Laspeyres" appears only in the description of the World Bank inflation series.
    const byDescription = await list("?search=LASPEYRES");
    expect(byDescription.data.map((i) => i.code)).toEqual(["FP.CPI.TOTL.ZG"]);
  });

  test("search treats LIKE wildcards literally", async () => {
    const contains = (s: string) =>
      activeIndicators.filter((i) => [i.name, i.code, i.description].some((f) => f.toLowerCase().includes(s))).length;
    expect((await list("?search=%25&limit=0")).meta.total).toBe(contains("%"));
    expect(contains("%")).toBeGreaterThan(0);
    expect((await list("?search=_&limit=0")).meta.total).toBe(contains("_"));
    expect((await list("?search=zz%25zz&limit=0")).meta.total).toBe(0);
  });

  test("search ranks an exact code first, then code prefixes", async () => {
    const page = await list("?search=gdp&limit=5");
    expect(page.data[0].code).toBe("GDP");
    expect(page.data[1].code).toBe("GDPC1");
  });

  test("search and source lengths at their bounds (200, 64) and one past", async () => {
    expect((await list(`?search=${"x".repeat(200)}`)).meta.total).toBe(0);
    expect((await error(`/v1/indicators?search=${"x".repeat(201)}`, 400, "INVALID_PARAMETER")).details?.parameter).toBe(
      "search",
    );
    expect((await error(`/v1/indicators?source=${"s".repeat(64)}`, 400, "INVALID_PARAMETER")).message).toContain(
      "unknown source",
    );
    expect((await error(`/v1/indicators?source=${"s".repeat(65)}`, 400, "INVALID_PARAMETER")).details?.parameter).toBe(
      "source",
    );
  });

  test("an empty search is a 400", async () => {
    for (const v of ["", "%20%20"]) {
      const e = await error(`/v1/indicators?search=${v}`, 400, "INVALID_PARAMETER");
      expect(e.details?.parameter).toBe("search");
    }
  });

  test("include_inactive shows the discontinued OILPRICE", async () => {
    const hidden = await list("?search=OILPRICE");
    expect(hidden.data).toEqual([]);
    const shown = await list("?search=OILPRICE&include_inactive=true");
    expect(shown.data.map((i) => [i.code, i.is_active])).toEqual([["OILPRICE", false]]);
    expect((await list("?include_inactive=true&limit=0")).meta.total).toBe(allIndicators.length);
    await error("/v1/indicators?include_inactive=maybe", 400, "INVALID_PARAMETER");
  });

  test("list items carry exactly the spec's Indicator fields", async () => {
    const page = await list("?search=UNRATE");
    const unrate = page.data.find((i) => i.code === "UNRATE")!;
    expect(unrate).toEqual({
      id: "bd518a9e-6a5c-5131-b1be-464adfb9872a",
      code: "UNRATE",
      name: "Unemployment Rate",
      description: expect.stringContaining("civilian labor force"),
      source: "fred",
      category: "labor",
      subcategory: "unemployment",
      access_tier: "free",
      unit: "percent",
      frequency: "monthly",
      is_active: true,
      coverage: {
        regions_held: 1,
        regions_offered: 1,
        start: "1948-01-01",
        end: "2026-05-01",
        last_updated: expect.any(String),
        other_regions: "none",
        fetch_via: null,
        note: "Held for US, 1948-01-01 to 2026-05-01.",
      },
    });
  });
});

describe("inactive sources", () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await makeTestApp();
    await u.database.exec("UPDATE sources SET is_active = false WHERE slug = 'cdc'");
  });
  afterAll(async () => {
    await u.close();
  });

  test("an inactive source and its indicators are hidden unless include_inactive=true", async () => {
    const visible = sourceListResponseSchema.parse((await u.getJson("/v1/sources")).body).data.map((s) => s.slug);
    expect(visible).not.toContain("cdc");
    const all = sourceListResponseSchema
      .parse((await u.getJson("/v1/sources?include_inactive=true")).body)
      .data.map((s) => s.slug);
    expect(all).toContain("cdc");
    const hidden = indicatorListResponseSchema.parse((await u.getJson("/v1/indicators?source=cdc")).body);
    expect(hidden.meta.total).toBe(0);
    const shown = indicatorListResponseSchema.parse(
      (await u.getJson("/v1/indicators?source=cdc&include_inactive=true")).body,
    );
    expect(shown.data.map((i) => i.code)).toEqual(["Q036"]);
    expect((await u.request("/v1/indicators/Q036")).status).toBe(404);
    expect((await u.request("/v1/indicators/Q036?source=cdc")).status).toBe(404);
    const q036 = indicatorDetailResponseSchema.parse(
      (await u.getJson("/v1/indicators/Q036?include_inactive=true")).body,
    );
    expect(q036.data.available_regions.length).toBe(JSON.parse(vega("obesity.json")).length);
  });
});
