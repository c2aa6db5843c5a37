import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { CATALOG_CACHE_CONTROL } from "../../src/http/respond";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { regionListResponseSchema, regionResponseSchema } from "../../src/schemas/regions";
import { makeTestApp, type TestApp } from "../support/app";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
// The first test app of a process seeds a database (several seconds on a busy machine).
beforeAll(async () => {
  t = await makeTestApp();
}, 120_000);
afterAll(async () => {
  await t.close();
});

async function page(query: string) {
  const { res, status, body } = await t.getJson(`/v1/regions${query}`);
  expect(status).toBe(200);
  expect(res.headers.get("cache-control")).toBe(CATALOG_CACHE_CONTROL);
  return regionListResponseSchema.parse(body);
}

const list = async (query: string) => (await page(query)).data;

async function error(path: string, status: number, code: string) {
  const r = await t.getJson(path);
  expect(r.status).toBe(status);
  const body = errorEnvelopeSchema.parse(r.body);
  expect(body.error.code).toBe(code as any);
  return body.error;
}

describe("GET /v1/regions 200", () => {
  test("no filter: every region, ordered by code, each row the Region schema exactly", async () => {
    const data = await list("");
    expect(data.length).toBe(250 + 51 + 3144);
    const codes = data.map((r) => r.code);
    expect(codes).toEqual([...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(codes.slice(0, 3)).toEqual(["01", "01001", "01003"]);
    expect(codes.at(-1)).toBe("ZW");
    for (const row of data.slice(0, 5)) expect(Object.keys(row).sort()).toEqual(["code", "fips_county", "fips_state", "name", "parent_code", "slug", "type"]);
  });

  test("?type=county: 3,144 counties", async () => {
    const data = await list("?type=county");
    expect(data.length).toBe(3144);
    expect(data.every((r) => r.type === "county")).toBe(true);
    expect(data.find((r) => r.code === "06037")).toEqual({
      code: "06037", type: "county", name: "Los Angeles County", slug: "los-angeles-county-ca",
      parent_code: "06", fips_state: "06", fips_county: "037",
    });
  });

  test("?type=state: the 50 states and DC", async () => {
    const data = await list("?type=state");
    expect(data.length).toBe(51);
    expect(data[0]).toEqual({ code: "01", type: "state", name: "Alabama", slug: "alabama", parent_code: "US", fips_state: "01", fips_county: null });
    expect(data.find((r) => r.code === "11")!.name).toBe("District of Columbia");
  });

  test("?type=country: ISO 3166-1 countries", async () => {
    const data = await list("?type=country");
    expect(data.length).toBe(250);
    expect(data.find((r) => r.code === "US")).toEqual({
      code: "US", type: "country", name: "United States", slug: "united-states", parent_code: null, fips_state: null, fips_county: null,
    });
    expect(data.find((r) => r.code === "GE")!.slug).toBe("georgia-country");
  });

  test.each(["06", "CA", "ca", "US-CA", "california", "California", "6"])("?parent=%s: California's 58 counties", async (parent) => {
    const data = await list(`?parent=${encodeURIComponent(parent)}`);
    expect(data.length).toBe(58);
    expect(data[0].code).toBe("06001");
    expect(data[57].code).toBe("06115");
    expect(data.every((r) => r.parent_code === "06")).toBe(true);
  });

  test("?parent=US: the 51 states; with type=county nothing", async () => {
    expect((await list("?parent=US")).length).toBe(51);
    expect((await list("?parent=usa&type=state")).length).toBe(51);
    expect(await list("?parent=US&type=county")).toEqual([]);
  });

  test("?parent=09: Connecticut's 9 planning regions", async () => {
    expect((await list("?parent=connecticut")).map((r) => r.code)).toEqual(["09110", "09120", "09130", "09140", "09150", "09160", "09170", "09180", "09190"]);
  });

  test("?parent with 200 characters is accepted (and, unknown, is a 404)", async () => {
    await error(`/v1/regions?parent=${"x".repeat(200)}`, 404, "RESOURCE_NOT_FOUND");
  });
});

describe("GET /v1/regions: search and paging", () => {
  test("without limit the whole list, with meta counting it", async () => {
    expect((await page("")).meta).toEqual({ total: 3445, limit: null, offset: 0 });
    expect((await page("?type=county&parent=CA")).meta).toEqual({ total: 58, limit: null, offset: 0 });
  });

  test("limit and offset page the list in code order; limit 0 returns only the total; past the end is empty", async () => {
    const all = await list("?type=county&parent=CA");
    const first = await page("?type=county&parent=CA&limit=5");
    expect([first.data, first.meta]).toEqual([all.slice(0, 5), { total: 58, limit: 5, offset: 0 }]);
    expect((await page("?parent=CA&limit=5&offset=55")).data.map((r) => r.code)).toEqual(["06111", "06113", "06115"]);
    expect(await page("?parent=CA&limit=0")).toEqual({ data: [], meta: { total: 58, limit: 0, offset: 0 } });
    expect(await page("?parent=CA&offset=58")).toEqual({ data: [], meta: { total: 58, limit: null, offset: 58 } });
    expect((await page("?parent=CA&offset=50")).data.length).toBe(8);
  });

  test("limit 1000 is the largest page", async () => {
    const p = await page("?type=county&limit=1000&offset=3000");
    expect([p.data.length, p.meta]).toEqual([144, { total: 3144, limit: 1000, offset: 3000 }]);
    expect((await page("?limit=1000")).data.length).toBe(1000);
  });

  test("search: any part of code, name, slug or other names, folding case, accents and punctuation", async () => {
    expect((await list("?search=travis")).map((r) => [r.code, r.name])).toEqual([["48453", "Travis County"]]);
    expect((await list("?search=LOS%20ANGELES")).map((r) => r.code)).toEqual(["06037"]);
    expect((await list("?search=los-angeles-county-ca")).map((r) => r.code)).toEqual(["06037"]);
    expect((await list("?search=US-TX")).map((r) => r.code)).toEqual(["48"]);
    expect((await list("?search=russia&type=country")).map((r) => r.code)).toEqual(["RU"]);
    expect((await list("?search=dona%20ana")).map((r) => r.name)).toEqual(["Doña Ana County"]);
    // With the other filters and paging: the 10 Californian counties whose names hold "san" (San Benito .. Santa Cruz).
    const san = await page("?search=san&parent=CA&limit=3");
    expect([san.meta, san.data.map((r) => r.name)]).toEqual([{ total: 10, limit: 3, offset: 0 }, ["San Benito County", "San Bernardino County", "San Diego County"]]);
    expect(await page("?search=atlantis")).toEqual({ data: [], meta: { total: 0, limit: null, offset: 0 } });
  });
});

describe("GET /v1/regions 400", () => {
  test("limit above 1000, negative or not an integer; offset negative", async () => {
    for (const q of ["limit=1001", "limit=-1", "limit=2.5", "limit=", "offset=-1", "offset=x"]) {
      const e = await error(`/v1/regions?${q}`, 400, "INVALID_PARAMETER");
      expect({ q, parameter: (e.details as any).parameter }).toEqual({ q, parameter: q.split("=")[0] });
    }
  });

  test("search: empty, over 200 characters, or without a letter or digit", async () => {
    for (const q of ["", "%20%20", "-", "x".repeat(201)]) {
      const e = await error(`/v1/regions?search=${q}`, 400, "INVALID_PARAMETER");
      expect((e.details as any).parameter).toBe("search");
    }
    expect((await page(`?search=${"x".repeat(200)}`)).meta.total).toBe(0);
  });


  test("an unknown type lists the valid types", async () => {
    const e = await error("/v1/regions?type=city", 400, "INVALID_PARAMETER");
    expect(e.details).toMatchObject({ parameter: "type", in: "query" });
    for (const t of ["country", "state", "county"]) expect(e.message).toContain(t);
  });

  test("type is case-sensitive and must not be empty", async () => {
    await error("/v1/regions?type=County", 400, "INVALID_PARAMETER");
    await error("/v1/regions?type=", 400, "INVALID_PARAMETER");
  });

  test("an empty parent, or one over 200 characters", async () => {
    expect((await error("/v1/regions?parent=", 400, "INVALID_PARAMETER")).details).toMatchObject({ parameter: "parent" });
    expect((await error(`/v1/regions?parent=${"x".repeat(201)}`, 400, "INVALID_PARAMETER")).details).toMatchObject({ parameter: "parent" });
  });

  test("an ambiguous parent lists the candidates", async () => {
    const e = await error("/v1/regions?parent=congo", 400, "INVALID_PARAMETER");
    expect(e.message).toBe("Ambiguous region 'congo': it names CD (Democratic Republic of the Congo), CG (Republic of the Congo). Pass one of these codes.");
    expect(e.details).toEqual({
      parameter: "parent",
      value: "congo",
      candidates: [
        { code: "CD", type: "country", name: "Democratic Republic of the Congo", slug: "democratic-republic-of-the-congo" },
        { code: "CG", type: "country", name: "Republic of the Congo", slug: "republic-of-the-congo" },
      ],
    });
  });
});

describe("GET /v1/regions 404", () => {
  test("unknown parent", async () => {
    const e = await error("/v1/regions?parent=atlantis", 404, "RESOURCE_NOT_FOUND");
    expect(e).toEqual({ code: "RESOURCE_NOT_FOUND", message: "Unknown region 'atlantis'", details: { parameter: "parent", value: "atlantis" } });
  });
});

describe("GET /v1/regions/{code}", () => {
  test.each([
    ["06", "06"], ["CA", "CA"], ["US-CA", "06"], ["california", "06"], ["CAN", "CA"], ["canada", "CA"], ["USA", "US"], ["DE", "DE"],
    ["DEU", "DE"], ["06037", "06037"], ["6037", "06037"], ["los-angeles-county-ca", "06037"], ["Los Angeles County, CA", "06037"],
    ["georgia", "13"], ["georgia-country", "GE"],
  ])("%p is %p", async (input, code) => {
    const r = await t.getJson(`/v1/regions/${encodeURIComponent(input)}`);
    expect(r.status).toBe(200);
    expect(r.res.headers.get("cache-control")).toBe(CATALOG_CACHE_CONTROL);
    expect(regionResponseSchema.parse(r.body).data.code).toBe(code);
  });

  test("full row", async () => {
    const r = await t.getJson("/v1/regions/US-CA");
    expect(r.body).toEqual({ data: { code: "06", type: "state", name: "California", slug: "california", parent_code: "US", fips_state: "06", fips_county: null } });
  });

  test("unknown: 404", async () => {
    const e = await error("/v1/regions/xyz", 404, "RESOURCE_NOT_FOUND");
    expect(e.details).toEqual({ parameter: "code", value: "xyz" });
  });

  test("retired code: 404 naming what replaced it", async () => {
    const e = await error("/v1/regions/46113", 404, "RESOURCE_NOT_FOUND");
    expect(e.message).toBe("Unknown region '46113': retired in 2015 (Shannon County, SD was renamed Oglala Lakota County with a new code); use 46102.");
    expect(e.details).toEqual({ parameter: "code", value: "46113", retired_year: 2015, replaced_by: ["46102"] });
  });

  test("ambiguous: 400 with candidates", async () => {
    const e = await error(`/v1/regions/${encodeURIComponent("Baltimore, MD")}`, 400, "INVALID_PARAMETER");
    expect(e.message).toBe("Ambiguous region 'Baltimore, MD': it names 24005 (Baltimore County, MD), 24510 (Baltimore city, MD). Pass one of these codes.");
  });

  test("201 characters: 400", async () => {
    await error(`/v1/regions/${"x".repeat(201)}`, 400, "INVALID_PARAMETER");
  });
});

describe("OpenAPI", () => {
  test("Region is a named component and both paths are documented", async () => {
    const doc = t.app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    expect(Object.keys(doc.components?.schemas ?? {})).toContain("Region");
    expect(doc.paths?.["/v1/regions"]?.get?.operationId).toBe("list_regions");
    expect(doc.paths?.["/v1/regions/{code}"]?.get?.operationId).toBe("get_region");
  });
});
