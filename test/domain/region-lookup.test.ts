// lookupRegion (every way a region is named) and the golden Census PEP vintage 2024 figures; the region list itself is
// test/domain/regions.test.ts.
import { describe, expect, test } from "bun:test";
import { regionList } from "../../db/seed/regions";
import { buildRegionIndex, lookupRegion } from "../../src/domain/regions";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

const rows = regionList();
const ofType = (t: string) => rows.filter((r) => r.type === t);
const index = buildRegionIndex(rows);

describe("lookupRegion", () => {
  const found = (input: string) => {
    const r = lookupRegion(index, input);
    return r.kind === "found" ? r.code : r.kind;
  };

  test.each([
    // canonical codes, any case
    ["US", "US"],
    ["us", "US"],
    ["DE", "DE"],
    ["de", "10"],
    ["06", "06"],
    ["06037", "06037"],
    ["PR", "PR"],
    ["GE", "GE"],
    // FIPS without the leading zero
    ["6", "06"],
    ["1", "01"],
    ["6037", "06037"],
    ["1001", "01001"],
    ["4", "04"],
    // a canonical code means itself; otherwise USPS abbreviations and US-XX are states
    ["CA", "CA"],
    ["ca", "06"],
    ["US-CA", "06"],
    ["us-ca", "06"],
    ["DC", "11"],
    ["IN", "IN"],
    ["in", "18"],
    ["MD", "MD"],
    ["NY", "36"],
    // alpha-3 and numeric
    ["USA", "US"],
    ["usa", "US"],
    ["CAN", "CA"],
    ["DEU", "DE"],
    ["IND", "IN"],
    ["GEO", "GE"],
    ["XKX", "XK"],
    ["840", "US"],
    ["276", "DE"],
    ["004", "AF"],
    ["124", "CA"],
    // names and slugs, case-insensitive
    ["california", "06"],
    ["California", "06"],
    [" CALIFORNIA ", "06"],
    ["new-york", "36"],
    ["District of Columbia", "11"],
    ["canada", "CA"],
    ["Germany", "DE"],
    ["united-states", "US"],
    ["United States of America", "US"],
    ["U.S.A.", "US"],
    ["UK", "GB"],
    ["Great Britain", "GB"],
    ["russia", "RU"],
    ["Türkiye", "TR"],
    ["turkey", "TR"],
    ["Ivory Coast", "CI"],
    // Georgia: the state by name and slug; the country by code, alpha-3 or its slug
    ["georgia", "13"],
    ["Georgia", "13"],
    ["georgia-country", "GE"],
    // counties
    ["los-angeles-county-ca", "06037"],
    ["Los Angeles County, CA", "06037"],
    ["los angeles county, california", "06037"],
    ["Los Angeles, CA", "06037"],
    ["los angeles county", "06037"],
    ["Doña Ana County, NM", "35013"],
    ["dona ana county nm", "35013"],
    ["district-of-columbia-dc", "11001"],
    ["St. Louis County, MO", "29189"],
    ["st-louis-city-mo", "29510"],
    ["Prince George's County, MD", "24033"],
    ["prince georges county md", "24033"],
    ["Capitol Planning Region, CT", "09110"],
  ])("%p -> %p", (input, code) => expect(found(input)).toBe(code));

  test("a canonical code means itself and reports the state it shadows; kinds pick the state", () => {
    expect(lookupRegion(index, "CA")).toEqual({ kind: "found", code: "CA", via: "code", shadowed: ["06"] });
    expect(lookupRegion(index, "CA", { kinds: ["state", "county"] })).toEqual({
      kind: "found",
      code: "06",
      via: "usps",
      shadowed: [],
    });
    expect(lookupRegion(index, "IN", { kinds: ["country"] })).toMatchObject({ kind: "found", code: "IN" });
    expect(lookupRegion(index, "IN", { kinds: ["state"] })).toMatchObject({ kind: "found", code: "18" });
    expect(lookupRegion(index, "06", { kinds: ["country"] })).toEqual({ kind: "not_found" });
    expect(lookupRegion(index, "georgia")).toEqual({ kind: "found", code: "13", via: "slug", shadowed: ["GE"] });
    expect(lookupRegion(index, "CAN")).toEqual({ kind: "found", code: "CA", via: "code", shadowed: [] });
  });

  test("ambiguous inputs list every candidate", () => {
    expect(lookupRegion(index, "Baltimore, MD")).toEqual({ kind: "ambiguous", candidates: ["24005", "24510"] });
    expect(lookupRegion(index, "st louis, mo")).toEqual({ kind: "ambiguous", candidates: ["29189", "29510"] });
    expect(lookupRegion(index, "congo")).toEqual({ kind: "ambiguous", candidates: ["CD", "CG"] });
    expect(lookupRegion(index, "Cook County")).toEqual({ kind: "ambiguous", candidates: ["13075", "17031", "27031"] });
    const washington = lookupRegion(index, "Washington County");
    expect(washington.kind).toBe("ambiguous");
    expect(washington.kind === "ambiguous" && washington.candidates.length).toBe(30);
  });

  test("unknown inputs", () => {
    for (const input of ["", "   ", "xyz", "00", "US-PR", "CAX", "99999", "los angeles county, ny", "x".repeat(201)]) {
      expect(lookupRegion(index, input)).toEqual({ kind: "not_found" });
    }
  });

  test("retired county codes say what replaced them", () => {
    expect(lookupRegion(index, "09001")).toEqual({
      kind: "not_found",
      retired: {
        code: "09001",
        year: 2022,
        reason: "Connecticut's 8 counties were replaced by its 9 planning regions",
        replacedBy: ["09110", "09120", "09130", "09140", "09150", "09160", "09170", "09180", "09190"],
      },
    });
    expect(lookupRegion(index, "9001")).toMatchObject({ kind: "not_found", retired: { code: "09001" } });
    expect(lookupRegion(index, "51515")).toMatchObject({
      kind: "not_found",
      retired: { year: 2013, replacedBy: ["51019"] },
    });
    expect(lookupRegion(index, "46113")).toMatchObject({
      kind: "not_found",
      retired: { year: 2015, replacedBy: ["46102"] },
    });
    expect(lookupRegion(index, "02261")).toMatchObject({
      kind: "not_found",
      retired: { year: 2019, replacedBy: ["02063", "02066"] },
    });
  });

  test("input length: 200 characters (after trimming) is looked up, 201 is not", () => {
    const at200 = "Los Angeles County," + " ".repeat(179) + "CA";
    expect(at200.length).toBe(200);
    expect(lookupRegion(index, at200)).toMatchObject({ kind: "found", code: "06037" });
    expect(lookupRegion(index, "Los Angeles County," + " ".repeat(180) + "CA")).toEqual({ kind: "not_found" });
    expect(lookupRegion(index, "  " + at200 + "  ")).toMatchObject({ kind: "found", code: "06037" });
  });
});

describe("golden: Census PEP vintage 2024", () => {
  const path = sharedDataPath("census-pep-county", "co-est2024-alldata.csv");
  test.skipIf(!path)(
    path
      ? "every county and state code and name matches co-est2024-alldata.csv"
      : sharedDataMissingMessage("census-pep-county"),
    async () => {
      const text = new TextDecoder("latin1").decode(await Bun.file(path!).arrayBuffer());
      const [header, ...lines] = text.split(/\r?\n/).filter(Boolean);
      const h = header.split(",");
      const [sumlev, state, county, stname, ctyname] = ["SUMLEV", "STATE", "COUNTY", "STNAME", "CTYNAME"].map((c) =>
        h.indexOf(c),
      );
      const counties = new Map<string, string>();
      const states = new Map<string, string>();
      for (const line of lines) {
        const f = line.split(",");
        if (f[sumlev] === "050") counties.set(f[state] + f[county], f[ctyname]);
        if (f[sumlev] === "040") states.set(f[state], f[stname]);
      }
      expect(counties.size).toBe(3144);
      expect(new Map(ofType("county").map((c) => [c.code, c.name]))).toEqual(counties);
      expect(new Map(ofType("state").map((s) => [s.code, s.name]))).toEqual(states);
    },
  );
});
