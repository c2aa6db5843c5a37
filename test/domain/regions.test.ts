// The region list (src/domain/regions.ts, db/seed/regions.ts), slugify and regionKey; lookupRegion and the golden
// Census figures are test/domain/region-lookup.test.ts.
import { describe, expect, test } from "bun:test";
import { regionList, regionSources } from "../../db/seed/regions";
import {
  applyCountyChanges,
  buildRegionList,
  parseFipsCountyCsv,
  slugify,
  type RegionRecord,
} from "../../src/domain/region-list";
import { regionKey } from "../../src/domain/regions";

const rows = regionList();
const ofType = (t: string) => rows.filter((r) => r.type === t);
const byCode = new Map(rows.map((r) => [r.code, r]));

describe("region list", () => {
  test("counts: 250 countries, 51 states, 3,144 counties", () => {
    expect(ofType("country").length).toBe(250);
    expect(ofType("state").length).toBe(51);
    expect(ofType("county").length).toBe(3144);
    expect(rows.length).toBe(250 + 51 + 3144);
  });

  test("codes and slugs are unique; slugs are lowercase kebab", () => {
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(rows.length);
    for (const r of rows) expect(r.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test("states: 2-digit FIPS, parent US, USPS and US-XX aliases, no territories", () => {
    expect(byCode.get("06")).toEqual({
      code: "06",
      type: "state",
      name: "California",
      slug: "california",
      parentCode: "US",
      fipsState: "06",
      fipsCounty: null,
      aliases: ["CA", "US-CA"],
    });
    expect(byCode.get("11")).toMatchObject({
      name: "District of Columbia",
      slug: "district-of-columbia",
      aliases: ["DC", "US-DC"],
    });
    for (const code of ["60", "66", "69", "72", "78"]) expect(byCode.has(code)).toBe(false);
    expect(ofType("state").map((s) => s.code)).toEqual([
      "01",
      "02",
      "04",
      "05",
      "06",
      "08",
      "09",
      "10",
      "11",
      "12",
      "13",
      "15",
      "16",
      "17",
      "18",
      "19",
      "20",
      "21",
      "22",
      "23",
      "24",
      "25",
      "26",
      "27",
      "28",
      "29",
      "30",
      "31",
      "32",
      "33",
      "34",
      "35",
      "36",
      "37",
      "38",
      "39",
      "40",
      "41",
      "42",
      "44",
      "45",
      "46",
      "47",
      "48",
      "49",
      "50",
      "51",
      "53",
      "54",
      "55",
      "56",
    ]);
  });

  test("countries: alpha-2, short name, alpha-3 and numeric aliases; territories are countries", () => {
    expect(byCode.get("US")).toEqual({
      code: "US",
      type: "country",
      name: "United States",
      slug: "united-states",
      parentCode: null,
      fipsState: null,
      fipsCounty: null,
      aliases: ["USA", "840", "United States of America", "U.S.A.", "U.S."],
    });
    expect(byCode.get("DE")).toMatchObject({
      type: "country",
      name: "Germany",
      slug: "germany",
      aliases: ["DEU", "276"],
    });
    expect(byCode.get("CA")).toMatchObject({
      type: "country",
      name: "Canada",
      slug: "canada",
      aliases: ["CAN", "124"],
    });
    expect(byCode.get("PR")).toMatchObject({
      type: "country",
      name: "Puerto Rico",
      slug: "puerto-rico",
      parentCode: null,
    });
    expect(byCode.get("CN")).toMatchObject({ name: "China", slug: "china" });
    expect(byCode.get("XK")).toMatchObject({ name: "Kosovo", aliases: ["XKK", "983", "XKX"] });
  });

  test("a country slug colliding with a state slug gets -country: only Georgia", () => {
    expect(rows.filter((r) => r.slug.endsWith("-country")).map((r) => [r.code, r.slug])).toEqual([
      ["GE", "georgia-country"],
    ]);
    expect(byCode.get("13")!.slug).toBe("georgia");
  });

  test("counties: 5-digit FIPS, parent is a state, name + USPS slug", () => {
    expect(byCode.get("06037")).toEqual({
      code: "06037",
      type: "county",
      name: "Los Angeles County",
      slug: "los-angeles-county-ca",
      parentCode: "06",
      fipsState: "06",
      fipsCounty: "037",
      aliases: [],
    });
    for (const c of ofType("county")) {
      expect(c.code).toMatch(/^\d{5}$/);
      expect(byCode.get(c.parentCode!)?.type).toBe("state");
      expect(c.fipsState! + c.fipsCounty!).toBe(c.code);
    }
    expect(ofType("county").filter((c) => c.parentCode === "06").length).toBe(58);
    expect(byCode.get("35013")).toMatchObject({ name: "Doña Ana County", slug: "dona-ana-county-nm" });
    expect(byCode.get("24033")).toMatchObject({ name: "Prince George's County", slug: "prince-georges-county-md" });
  });

  test("vintage 2024 corrections applied", () => {
    const ct = ofType("county")
      .filter((c) => c.parentCode === "09")
      .map((c) => [c.code, c.name]);
    expect(ct).toEqual([
      ["09110", "Capitol Planning Region"],
      ["09120", "Greater Bridgeport Planning Region"],
      ["09130", "Lower Connecticut River Valley Planning Region"],
      ["09140", "Naugatuck Valley Planning Region"],
      ["09150", "Northeastern Connecticut Planning Region"],
      ["09160", "Northwest Hills Planning Region"],
      ["09170", "South Central Connecticut Planning Region"],
      ["09180", "Southeastern Connecticut Planning Region"],
      ["09190", "Western Connecticut Planning Region"],
    ]);
    for (const gone of [
      "09001",
      "09003",
      "09005",
      "09007",
      "09009",
      "09011",
      "09013",
      "09015",
      "51515",
      "02270",
      "46113",
      "02261",
    ]) {
      expect(byCode.has(gone)).toBe(false);
    }
    expect(byCode.get("02158")!.name).toBe("Kusilvak Census Area");
    expect(byCode.get("46102")!.name).toBe("Oglala Lakota County");
    expect(byCode.get("02063")!.name).toBe("Chugach Census Area");
    expect(byCode.get("02066")!.name).toBe("Copper River Census Area");
    expect(byCode.get("02195")!.name).toBe("Petersburg Borough");
    expect(byCode.get("22059")!.name).toBe("LaSalle Parish");
    expect(byCode.get("51019")!.name).toBe("Bedford County");
    expect(rows.some((r) => r.name === "Bedford city")).toBe(false);
  });

  test("source CSV: 3,143 rows for the 50 states and DC before corrections", () => {
    const src = regionSources();
    const states = new Set(ofType("state").map((s) => s.code));
    expect(src.counties.filter((r) => states.has(r.statefp)).length).toBe(3143);
  });

  test("a change whose source row is missing fails loudly (the package moved to a newer vintage)", () => {
    const names = new Map([["51019", "Bedford County"]]);
    expect(() => applyCountyChanges(names)).toThrow(
      'county change "Bedford city, VA merged into Bedford County": 51515 is not in the source list',
    );
  });

  test("buildRegionList on a tiny source: territories left out, Georgia split, changes applied", () => {
    const out = buildRegionList(
      {
        countryCodes: [
          ["GE", "GEO", "268"],
          ["US", "USA", "840"],
        ],
        countryNames: { GE: "Georgia", US: ["United States of America", "United States", "USA"] },
        states: [
          { id: "13", name: "Georgia" },
          { id: "72", name: "Puerto Rico" },
        ],
        counties: parseFipsCountyCsv(
          "state,statefp,countyfp,countyname,classfp\nGA,13,121,Fulton County,H1\nGA,13,123,Gilmer County,H1\nPR,72,001,Adjuntas Municipio,H1\n",
        ),
      },
      [{ kind: "remove", year: 2000, reason: "test", code: "13123", mergedInto: "13121" }],
    ).map((r: RegionRecord) => [r.code, r.type, r.name, r.slug, r.parentCode, r.aliases.join("|")]);
    expect(out).toEqual([
      ["GE", "country", "Georgia", "georgia-country", null, "GEO|268"],
      ["US", "country", "United States", "united-states", null, "USA|840|United States of America"],
      ["13", "state", "Georgia", "georgia", "US", "GA|US-GA"],
      ["13121", "county", "Fulton County", "fulton-county-ga", "13", ""],
    ]);
  });
});

describe("slugify and regionKey", () => {
  test.each([
    ["Los Angeles County", "los-angeles-county"],
    ["Doña Ana County", "dona-ana-county"],
    ["Prince George's County", "prince-georges-county"],
    ["St. Louis city", "st-louis-city"],
    ["Holy See (Vatican City State)", "holy-see-vatican-city-state"],
    ["Côte d’Ivoire", "cote-divoire"],
  ])("slugify(%p) = %p", (input, out) => expect(slugify(input)).toBe(out));

  test("slug and name of a county share one key", () => {
    expect(regionKey("los-angeles-county-ca")).toBe("los angeles county ca");
    expect(regionKey("  Los Angeles County,  CA ")).toBe("los angeles county ca");
    expect(regionKey("DOÑA ANA COUNTY, NM")).toBe("dona ana county nm");
  });
});
