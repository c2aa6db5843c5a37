// Pure parsing of the vega-datasets sample files: exact decimal scaling, dates, regions and code mappings.
import { describe, expect, test } from "bun:test";
import { COUNTY_CHANGES } from "../../src/domain/region-list";
import {
  GAPMINDER_COUNTRIES,
  co2Concentration,
  countyCodeRenames,
  countyUnemployment,
  federalReceipts,
  gapminder,
  iowaElectricity,
  obesity,
  scaleDecimal,
  unemploymentAcrossIndustries,
  usEmployment,
} from "../../src/domain/vega-samples";

describe("scaleDecimal", () => {
  test("moves the decimal point on the digits, so results are the nearest doubles of the exact values", () => {
    expect(scaleDecimal(".097", 2)).toBe(9.7);
    expect(scaleDecimal("0.151", 2)).toBe(15.1);
    expect(scaleDecimal("0.07", 2)).toBe(7);
    expect(scaleDecimal("0.1", 3)).toBe(100);
    expect(scaleDecimal("5840.4", 0)).toBe(5840.4);
    expect(scaleDecimal("1,394,538,000", -3)).toBe(1394538);
    expect(scaleDecimal("-566,000", -3)).toBe(-566);
    expect(scaleDecimal("12", -3)).toBe(0.012);
    expect(scaleDecimal("-0", 0)).toBe(0);
    expect(Object.is(scaleDecimal("-0.0", 2), 0)).toBe(true);
    // The naive product is not exact: this is why the parser shifts digits instead.
    expect(0.097 * 100).not.toBe(9.7);
  });

  test("rejects what is not a plain decimal", () => {
    for (const bad of ["", ".", "1e3", "abc", "1,23", "12,3456", "--1", "0x10"])
      expect(() => scaleDecimal(bad, 0)).toThrow("not a decimal number");
  });
});

describe("file mappings", () => {
  test("us-employment.csv: one series per supersector, nonfarm is PAYEMS, nonfarm_change skipped", () => {
    const csv =
      "month,nonfarm,private,goods_producing,service_providing,private_service_providing,mining_and_logging,construction,manufacturing,durable_goods,nondurable_goods,trade_transportation_utilties,wholesale_trade,retail_trade,transportation_and_warehousing,utilities,information,financial_activities,professional_and_business_services,education_and_health_services,leisure_and_hospitality,other_services,government,nonfarm_change\n" +
      "2006-01-01,135450,113603,22467,112983,91136,656,7601,14210,8982,5228,26162,5840.4,15351.5,4420,549.8,3052,8307,17299,17946,12945,5425,21847,282\n";
    const series = usEmployment(csv);
    expect(series.length).toBe(22);
    expect(series.find((s) => s.code === "PAYEMS")).toEqual({
      dataset: "us-employment.csv",
      source: "fred",
      code: "PAYEMS",
      region: "US",
      sourceUpdatedAt: "2018-11-11T00:00:00Z",
      rows: [{ date: "2006-01-01", value: 135450 }],
    });
    expect(series.find((s) => s.code === "USWTRADE")!.rows[0].value).toBe(5840.4);
  });

  test("unemployment.tsv: integer FIPS padded, rates in percent, renamed counties moved, preliminary September 2009", () => {
    const renames = countyCodeRenames(COUNTY_CHANGES);
    expect(renames).toEqual(
      new Map([
        ["02270", "02158"],
        ["46113", "46102"],
      ]),
    );
    const s = countyUnemployment("id\trate\n1001\t.097\n2270\t.204\n6037\t0.127\n", renames);
    expect(s.map((x) => [x.region, x.rows])).toEqual([
      ["01001", [{ date: "2009-09-01", value: 9.7, isPreliminary: true }]],
      ["02158", [{ date: "2009-09-01", value: 20.4, isPreliminary: true }]],
      ["06037", [{ date: "2009-09-01", value: 12.7, isPreliminary: true }]],
    ]);
  });

  test("industries, CO2, Iowa, obesity, Gapminder and budget map onto catalog codes", () => {
    const ind = unemploymentAcrossIndustries(
      [{ series: "Construction", year: 2000, month: 1, count: 745, rate: 9.7 }],
      { Construction: { rate: "LNU04032231", level: "LNU03032231" } },
    );
    expect(ind.map((s) => [s.code, s.rows])).toEqual([
      ["LNU03032231", [{ date: "2000-01-01", value: 745 }]],
      ["LNU04032231", [{ date: "2000-01-01", value: 9.7 }]],
    ]);
    expect(() =>
      unemploymentAcrossIndustries([{ series: "Mystery", year: 2000, month: 1, count: 1, rate: 1 }], {}),
    ).toThrow("unknown series");
    expect(
      co2Concentration("Date,CO2,adjusted CO2\n1958-03-01,315.70,314.44\n").map((s) => [s.code, s.region, s.rows]),
    ).toEqual([
      ["MLO.CO2", "15001", [{ date: "1958-03-01", value: 315.7 }]],
      ["MLO.CO2.SA", "15001", [{ date: "1958-03-01", value: 314.44 }]],
    ]);
    expect(
      iowaElectricity("year,source,net_generation\n2001-01-01,Nuclear Energy,3853\n").map((s) => [
        s.code,
        s.region,
        s.rows,
      ]),
    ).toEqual([["ELEC.GEN.NUC-99.A", "19", [{ date: "2001-01-01", value: 3853 }]]]);
    expect(obesity([{ id: 6, rate: 0.151, state: "CA" }])[0]).toMatchObject({
      code: "Q036",
      region: "06",
      rows: [{ date: "1995-01-01", value: 15.1 }],
    });
    expect(
      gapminder([{ year: 1955, country: "Hong Kong, China", pop: 2490400, life_expect: 64.2, fertility: 4.44 }]).map(
        (s) => [s.code, s.region, s.rows[0].value],
      ),
    ).toEqual([
      ["population_total", "HK", 2490400],
      ["life_expectancy_years", "HK", 64.2],
      ["children_per_woman_total_fertility", "HK", 4.44],
    ]);
    expect(Object.keys(GAPMINDER_COUNTRIES).length).toBe(62);
    const receipts = federalReceipts([
      { "Account name": "a", "2014": "1,000,000", "2015": "9", TQ: "5" },
      { "Account name": "b", "2014": "-566,000", "2015": "9", TQ: "5" },
    ]);
    expect(receipts).toEqual([
      {
        dataset: "budget.json",
        source: "fred",
        code: "FYFR",
        region: "US",
        rows: [{ date: "2014-01-01", value: 434 }],
      },
    ]);
  });
});
