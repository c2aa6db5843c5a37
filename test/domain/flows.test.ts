// Flow parsers and rules (src/domain/flows.ts, acs-flows.ts, irs-soi-flows.ts): the real files of
// ../shared/data/migration-flows where present (figures checked against the files with awk and by hand), and small
// fixtures in the same formats for the edges.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { regionList } from "../../db/seed/regions";
import { parseAcsStateMatrix } from "../../src/domain/acs-flows";
import {
  FlowFileError,
  chooseFlowSlice,
  irsYearPairPeriod,
  keepKnownRegions,
  type FlowRecord,
  type FlowSlice,
} from "../../src/domain/flows";
import { isIrsPseudoArea, parseIrsSoiCountyFlows } from "../../src/domain/irs-soi-flows";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

const states = new Map(
  regionList()
    .filter((r) => r.type === "state")
    .map((r) => [r.name, r.code]),
);
const stateCode = (name: string) => states.get(name) ?? null;
const acsPath = sharedDataPath("migration-flows", "acs_state_to_state_2019.csv");
const combinedPath = sharedDataPath("migration-flows", "irs_06075_sf_county_flows_2004_2015.csv");
const rawPath = sharedDataPath("migration-flows", "irs_06075_sf_countyinflow1415_raw.csv");
if (!acsPath || !combinedPath || !rawPath) console.warn(sharedDataMissingMessage("migration-flows"));

const fileError = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof FlowFileError) return e.message;
    throw e;
  }
  throw new Error("expected a FlowFileError");
};
const edge = (flows: FlowRecord[], origin: string, destination: string, periodStart: string) =>
  Object.fromEntries(
    flows
      .filter((f) => f.origin === origin && f.destination === destination && f.periodStart === periodStart)
      .map((f) => [f.measure, f.value]),
  );

describe("ACS state-to-state matrix (row = destination, column = origin)", () => {
  test.if(!!acsPath)("the real 2019 matrix: 51 x 50 flows summing to 7,398,337 persons, oriented as published", () => {
    const flows = parseAcsStateMatrix(readFileSync(acsPath!, "utf8"), { year: 2019, stateCode });
    expect(flows.length).toBe(51 * 50);
    expect(flows.reduce((s, f) => s + f.value!, 0)).toBe(7_398_337);
    expect(flows.every((f) => f.origin !== f.destination && f.measure === "movers" && f.moe === null)).toBe(true);
    expect(flows[0]).toEqual({
      dataset: "acs-state-to-state-1y",
      measure: "movers",
      origin: "02",
      destination: "01",
      periodStart: "2019-01-01",
      periodEnd: "2019-12-31",
      value: 1105,
      moe: null,
    });
    // Row Alabama, column Georgia: 13,993 moved from Georgia (13) to Alabama (01); row Alaska, column Alabama: 260.
    expect(edge(flows, "13", "01", "2019-01-01")).toEqual({ movers: 13993 });
    expect(edge(flows, "01", "02", "2019-01-01")).toEqual({ movers: 260 });
  });

  const tiny = "\ufeffname,Alabama,Alaska,Arizona\nAlabama,N/A,5,N/A\nAlaska,7,N/A,0\nArizona,11,13,N/A\n";
  test("a fixture: BOM skipped, diagonal dropped, off-diagonal N/A is a suppressed cell", () => {
    const flows = parseAcsStateMatrix(tiny, { year: 2019, stateCode });
    expect(flows.map((f) => [f.origin, f.destination, f.value])).toEqual([
      ["02", "01", 5],
      ["04", "01", null],
      ["01", "02", 7],
      ["04", "02", 0],
      ["01", "04", 11],
      ["02", "04", 13],
    ]);
  });
  test("malformed matrices are refused with the line", () => {
    expect(fileError(() => parseAcsStateMatrix("state,Alabama\nAlabama,N/A\n", { year: 2019, stateCode }))).toContain(
      "first column must be 'name'",
    );
    expect(fileError(() => parseAcsStateMatrix("name,Alabama,Atlantis\n", { year: 2019, stateCode }))).toBe(
      "line 1: unknown state 'Atlantis'",
    );
    expect(fileError(() => parseAcsStateMatrix("name,Alabama,Alaska\nAlabama,3,4\n", { year: 2019, stateCode }))).toBe(
      "line 2: the diagonal cell of 'Alabama' holds '3', expected N/A",
    );
    expect(
      fileError(() => parseAcsStateMatrix("name,Alabama,Alaska\nAlaska,1.5,N/A\n", { year: 2019, stateCode })),
    ).toContain("line 2: column 'Alabama': '1.5' is not a count");
    expect(fileError(() => parseAcsStateMatrix("name,Alabama,Alaska\nAlaska,1\n", { year: 2019, stateCode }))).toBe(
      "line 2: expected 3 fields, found 2",
    );
    expect(
      fileError(() =>
        parseAcsStateMatrix("name,Alabama,Alaska\nAlaska,1,N/A\nAlaska,2,N/A\n", { year: 2019, stateCode }),
      ),
    ).toBe("line 3: state 'Alaska' has two rows");
    expect(fileError(() => parseAcsStateMatrix("", { year: 2019, stateCode }))).toBe("empty file");
  });
});

describe("IRS SOI county migration rows", () => {
  test("pseudo-areas: totals 96/97/98, other flows 57/58/59, county 000", () => {
    for (const [s, c] of [
      ["96", "000"],
      ["97", "001"],
      ["97", "003"],
      ["98", "000"],
      ["57", "009"],
      ["58", "000"],
      ["59", "007"],
      ["06", "000"],
    ])
      expect(isIrsPseudoArea(s!, c!)).toBe(true);
    expect(isIrsPseudoArea("06", "075")).toBe(false);
  });

  test.if(!!combinedPath)(
    "the real combined San Francisco file: 4,015 edges x 3 measures; totals, other flows and non-migrants are not places",
    () => {
      const parsed = parseIrsSoiCountyFlows(readFileSync(combinedPath!, "utf8"));
      // 4,344 rows = 297 pseudo-area rows + 22 non-migrant rows (11 year pairs, listed in and out) + 4,025 edge rows,
      // of which 10 repeat a row of 1314 (17031, 26125, 34023, 36103, 12095 in; 06053 twice, 42003, 48439, 34027 out).
      expect(parsed.skipped).toEqual({ pseudo: 297, nonMigrants: 22, repeated: 10 });
      expect(parsed.flows.length).toBe(4015 * 3);
      expect(parsed.suppressed).toBe(0);
      const returns = parsed.flows.filter((f) => f.measure === "returns");
      // 614,454 returns over the 4,025 edge rows, less the repeats (715 + 69 + 58 + 54 + 37 + 2 x 89 + 40 + 25 + 20 = 1,196).
      expect(returns.reduce((s, f) => s + f.value!, 0)).toBe(614_454 - 1_196);
      expect(
        parsed.flows.some(
          (f) =>
            /^(5[789]|9[678])/.test(f.origin) || /^(5[789]|9[678])/.test(f.destination) || f.origin === f.destination,
        ),
      ).toBe(false);
      // Hand-checked rows of 1415: San Mateo (06081) -> San Francisco: 3,220 returns, 4,922 exemptions, $324,346k AGI;
      // San Francisco -> Alameda (06001): 4,322, 6,312, $420,200k.
      expect(edge(parsed.flows, "06081", "06075", "2014-01-01")).toEqual({
        returns: 3220,
        exemptions: 4922,
        agi: 324346,
      });
      expect(edge(parsed.flows, "06075", "06001", "2014-01-01")).toEqual({
        returns: 4322,
        exemptions: 6312,
        agi: 420200,
      });
      // AGI can be negative: Monterey (06053) -> San Francisco in 0910 reported -$2,620k.
      expect(edge(parsed.flows, "06053", "06075", "2009-01-01")).toEqual({ returns: 138, exemptions: 161, agi: -2620 });
      expect(parsed.flows.find((f) => f.origin === "06081" && f.periodStart === "2014-01-01")).toMatchObject({
        periodEnd: "2015-12-31",
        dataset: "irs-soi-county",
        moe: null,
      });
      // 0405 is the earliest pair: 2004-01-01 .. 2005-12-31.
      expect([...new Set(parsed.flows.map((f) => f.periodStart))].sort()[0]).toBe("2004-01-01");
    },
  );

  test.if(!!rawPath)(
    "the raw national countyinflow1415 header shape gives the same 1415 inflow edges as the combined file",
    () => {
      const raw = parseIrsSoiCountyFlows(readFileSync(rawPath!, "utf8"), { yearPair: "1415" });
      expect(raw.skipped).toEqual({ pseudo: 14, nonMigrants: 1, repeated: 0 });
      expect(raw.flows.length).toBe(132 * 3);
      expect(raw.flows.filter((f) => f.measure === "returns").reduce((s, f) => s + f.value!, 0)).toBe(24_360);
      expect(edge(raw.flows, "06081", "06075", "2014-01-01")).toEqual({ returns: 3220, exemptions: 4922, agi: 324346 });
      const combined = parseIrsSoiCountyFlows(readFileSync(combinedPath!, "utf8")).flows.filter(
        (f) => f.destination === "06075" && f.periodStart === "2014-01-01",
      );
      const key = (f: FlowRecord) => `${f.origin}>${f.destination}:${f.measure}=${f.value}`;
      expect(raw.flows.map(key).sort()).toEqual(combined.map(key).sort());
    },
  );

  const OUTFLOW =
    "y1_statefips,y1_countyfips,y2_statefips,y2_countyfips,y2_state,y2_countyname,n1,n2,agi\n" +
    "1,1,96,0,AL,Autauga County Total Migration-US and Foreign,1000,2000,30000\n" +
    "1,1,1,1,AL,Autauga County Non-migrants,20000,45000,900000\n" +
    "1,1,1,51,AL,Elmore County,400,900,15000\n" +
    "1,1,1,3,AL,Baldwin County,30,40,-250\n" +
    "1,1,1,5,AL,Barbour County,20,25,-1\n" +
    '1,1,13,121,GA,"Fulton County, GA",-1,-1,-1\n' +
    "1,1,59,3,DS,Other flows - Different State,100,150,4000\n";
  test("a national outflow fixture: unpadded codes padded, quoted names, -1 suppressed (null) unless an AGI of a row with returns, negative AGI, pseudo rows and non-migrants skipped", () => {
    const parsed = parseIrsSoiCountyFlows(OUTFLOW, { yearPair: "2122" });
    expect(parsed.skipped).toEqual({ pseudo: 2, nonMigrants: 1, repeated: 0 });
    expect(parsed.suppressed).toBe(3);
    expect(parsed.flows.map((f) => [f.origin, f.destination, f.measure, f.value])).toEqual([
      ["01001", "01051", "returns", 400],
      ["01001", "01051", "exemptions", 900],
      ["01001", "01051", "agi", 15000],
      ["01001", "01003", "returns", 30],
      ["01001", "01003", "exemptions", 40],
      ["01001", "01003", "agi", -250],
      ["01001", "01005", "returns", 20],
      ["01001", "01005", "exemptions", 25],
      ["01001", "01005", "agi", -1],
      ["01001", "13121", "returns", null],
      ["01001", "13121", "exemptions", null],
      ["01001", "13121", "agi", null],
    ]);
    expect(parsed.flows[0]).toMatchObject({ periodStart: "2021-01-01", periodEnd: "2022-12-31" });
  });
  test("malformed files are refused with the line", () => {
    const head = "y2_statefips,y2_countyfips,y1_statefips,y1_countyfips,n1,n2,agi\n";
    expect(fileError(() => parseIrsSoiCountyFlows(head + "06,075,06,081,1,2,3\n"))).toContain("no year column");
    expect(fileError(() => parseIrsSoiCountyFlows(head, { yearPair: "1416" }))).toBe("'1416' is not a year pair YYZZ");
    expect(fileError(() => parseIrsSoiCountyFlows("y1_statefips,n1\n", { yearPair: "1415" }))).toBe(
      "line 1: missing columns y1_countyfips, y2_statefips, y2_countyfips, n2, agi",
    );
    expect(fileError(() => parseIrsSoiCountyFlows(head + "06,075,06,081,1,x,3\n", { yearPair: "1415" }))).toBe(
      "line 2: n2 'x' is neither a count nor -1 (suppressed)",
    );
    expect(fileError(() => parseIrsSoiCountyFlows(head + "06,075,06,081,1,-2,3\n", { yearPair: "1415" }))).toBe(
      "line 2: n2 '-2' is neither a count nor -1 (suppressed)",
    );
    expect(fileError(() => parseIrsSoiCountyFlows(head + "06,075,06,0811,1,2,3\n", { yearPair: "1415" }))).toContain(
      "line 2: y1_countyfips '0811' is not a 3-digit FIPS code",
    );
    expect(
      fileError(() =>
        parseIrsSoiCountyFlows(head + "06,075,06,081,1,2,3\n06,075,06,081,1,2,4\n", { yearPair: "1415" }),
      ),
    ).toBe("line 3: the flow 06081 -> 06075 of 2014 is listed twice, with different values");
    expect(
      parseIrsSoiCountyFlows(head + "06,075,06,081,1,2,3\n06,075,06,081,1,2,3\n", { yearPair: "1415" }).skipped
        .repeated,
    ).toBe(1);
    expect(
      fileError(() =>
        parseIrsSoiCountyFlows(
          "id,year,y1_statefips,y1_countyfips,y2_statefips,y2_countyfips,n1,n2,agi\nx,1416,06,081,06,075,1,2,3\n",
        ),
      ),
    ).toBe("line 2: year '1416' is not a year pair YYZZ");
  });
});

describe("periods, regions and the slice served", () => {
  test("IRS year pairs", () => {
    expect(irsYearPairPeriod("1415")).toEqual({ start: "2014-01-01", end: "2015-12-31" });
    expect(irsYearPairPeriod("9091")).toEqual({ start: "1990-01-01", end: "1991-12-31" });
    expect(irsYearPairPeriod("9900")).toEqual({ start: "1999-01-01", end: "2000-12-31" });
    expect(irsYearPairPeriod("0405")).toEqual({ start: "2004-01-01", end: "2005-12-31" });
    for (const bad of ["1416", "141", "abcd", "1514"]) expect(irsYearPairPeriod(bad)).toBeNull();
  });
  test("keepKnownRegions drops records naming a code that is not a region, and counts them", () => {
    const r = (origin: string, destination: string): FlowRecord => ({
      dataset: "irs-soi-county",
      measure: "returns",
      origin,
      destination,
      periodStart: "2014-01-01",
      periodEnd: "2015-12-31",
      value: 1,
      moe: null,
    });
    const out = keepKnownRegions(
      [r("06075", "06001"), r("02270", "06075"), r("06075", "02270")],
      new Set(["06075", "06001"]),
    );
    expect(out.kept).toEqual([r("06075", "06001")]);
    expect([...out.unknown]).toEqual([["02270", 2]]);
  });

  const slice = (
    measure: FlowSlice["measure"],
    periodStart: string,
    dataset: FlowSlice["dataset"] = "irs-soi-county",
  ): FlowSlice => ({
    measure,
    periodStart,
    periodEnd: `${Number(periodStart.slice(0, 4)) + 1}-12-31`,
    dataset,
  });
  const held = [
    slice("agi", "2013-01-01"),
    slice("returns", "2013-01-01"),
    slice("returns", "2014-01-01"),
    slice("exemptions", "2014-01-01"),
  ];
  test("defaults: the first measure held (movers, returns, exemptions, agi), its latest period", () => {
    expect(chooseFlowSlice(held, {})).toEqual({
      ok: true,
      measure: "returns",
      periodStart: "2014-01-01",
      periodEnd: "2015-12-31",
      datasets: ["irs-soi-county"],
    });
    expect(chooseFlowSlice(held, { measure: "agi" })).toMatchObject({
      ok: true,
      measure: "agi",
      periodStart: "2013-01-01",
    });
    expect(chooseFlowSlice([...held, slice("movers", "2010-01-01", "acs-state-to-state-1y")], {})).toMatchObject({
      measure: "movers",
      periodStart: "2010-01-01",
    });
  });
  test("period: a period_start, or a year", () => {
    expect(chooseFlowSlice(held, { period: "2013-01-01" })).toMatchObject({ ok: true, periodStart: "2013-01-01" });
    expect(chooseFlowSlice(held, { period: "2013" })).toMatchObject({
      ok: true,
      periodStart: "2013-01-01",
      periodEnd: "2014-12-31",
    });
  });
  test("nothing held, a measure or a period not held: said plainly, with what is held", () => {
    expect(chooseFlowSlice([], {})).toMatchObject({ ok: false, reason: "no_flows" });
    expect(chooseFlowSlice(held, { measure: "movers" })).toMatchObject({
      ok: false,
      reason: "no_measure",
      measures: ["returns", "exemptions", "agi"],
    });
    const p = chooseFlowSlice(held, { period: "2012" });
    expect(p).toMatchObject({ ok: false, reason: "no_period", periods: ["2013-01-01", "2014-01-01"] });
    expect(!p.ok && p.message).toBe(
      "No 'returns' flows starting in 2012 are held for these filters (periods held: 2013-01-01, 2014-01-01).",
    );
    expect(chooseFlowSlice(held, { period: "2014-01-02" })).toMatchObject({ ok: false, reason: "no_period" });
  });
});
