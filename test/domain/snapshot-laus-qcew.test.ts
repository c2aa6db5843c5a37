// The LAUS and QCEW snapshot parsers on small files cut from the real ones, each with its trap, values as the files
// hold them.
import { describe, expect, test } from "bun:test";
import {
  lausCountyAnnual,
  lausStateRates,
  lausStatesMonthly,
  rateFromLevels,
  round1,
} from "../../src/domain/snapshot-laus";
import { qcewAnnualTotals } from "../../src/domain/snapshot-qcew";

const STST_HEADER =
  "FIPS Code,State and area,Year,Month,Civilian non-institutional population,LF Total,LF Percent of population,LF employment Total,LF employment Percent of population,LF unemployment total ,LF unemployment rate ";

describe("lausStatesMonthly (ststdsadata.csv)", () => {
  test("the levels win over a rate column that contradicts them: Nebraska, August 2025, 0.83 in the file, 3.0 from its levels", () => {
    const text = [
      STST_HEADER,
      "31,Nebraska,2025,07,1566324,1087408,69.4,1055031,67.4,32377,3",
      "31,Nebraska,2025,08,1567522,1089569,69.5,1057417,67.5,32152,0.83",
    ].join("\n");
    const { series, corrected } = lausStatesMonthly(text, "2025-09-19T00:00:00Z");
    const rate = series.find((s) => s.code === "LASST03" && s.region === "31")!;
    expect(rate.rows).toEqual([
      { date: "2025-07-01", value: 3.0 },
      { date: "2025-08-01", value: 3.0 },
    ]);
    expect(corrected).toEqual([{ region: "31", date: "2025-08-01", published: 0.83, fromLevels: 3.0 }]);
    expect(series.find((s) => s.code === "LASST04" && s.region === "31")!.rows[1]).toEqual({
      date: "2025-08-01",
      value: 32152,
    });
    expect(series.find((s) => s.code === "LASST06" && s.region === "31")!.rows[1]).toEqual({
      date: "2025-08-01",
      value: 1089569,
    });
    expect(series.find((s) => s.code === "LASST05" && s.region === "31")!.rows[1]).toEqual({
      date: "2025-08-01",
      value: 1057417,
    });
    expect(rate.sourceUpdatedAt).toBe("2025-09-19T00:00:00Z");
  });

  test('Alabama written once as "1" is state 01; non-states (Los Angeles County, New York city) keep their codes', () => {
    const text = [
      STST_HEADER,
      "1,Alabama,1976,01,2605000,1486509,57.1,1387606,53.3,98903,6.7",
      "01,Alabama,1976,02,2610000,1485944,56.9,1387267,53.2,98677,6.6",
      "037,Los Angeles County,1976,01,5273000,3371503,63.9,3072632,58.3,298871,8.9",
      "51000,New York city,1976,01,5694000,3066821,53.9,2722796,47.8,344025,11.2",
    ].join("\n");
    const { series, corrected } = lausStatesMonthly(text);
    expect(series.filter((s) => s.code === "LASST03").map((s) => [s.region, s.rows])).toEqual([
      [
        "01",
        [
          { date: "1976-01-01", value: 6.7 },
          { date: "1976-02-01", value: 6.6 },
        ],
      ],
      ["037", [{ date: "1976-01-01", value: 8.9 }]],
      ["51000", [{ date: "1976-01-01", value: 11.2 }]],
    ]);
    expect(corrected).toEqual([]);
  });

  test("rates from levels: one decimal, null without a labour force", () => {
    expect(rateFromLevels(32152, 1089569)).toBe(3.0); // 2.9509...
    expect(rateFromLevels(98903, 1486509)).toBe(6.7);
    expect(rateFromLevels(5, 0)).toBeNull();
    expect(rateFromLevels(null, 100)).toBeNull();
    expect(round1(10.199999999999999)).toBe(10.2);
  });

  test("an unreadable level names its line", () => {
    expect(() => lausStatesMonthly([STST_HEADER, "06,California,2025,01,1,x,1,1,1,1,1"].join("\n"))).toThrow(
      "ststdsadata.csv line 2 LF Total",
    );
  });
});

describe("lausStateRates (stateUnemployment.csv)", () => {
  test('unpadded GeoID, English month names, newest first; "-" is the October 2025 BLS never published', () => {
    const text = [
      "GeoID,Series ID,Place,Year,Month,Unemployment Rate",
      "1,LASST010000000000003,Alabama (S),2026,June,3.2",
      "1,LASST010000000000003,Alabama (S),2025,November,2.9",
      "1,LASST010000000000003,Alabama (S),2025,October,-",
      "72,LASST720000000000003,Puerto Rico (S),2025,October,5.7",
    ].join("\n");
    const series = lausStateRates(text, "2026-07-23T00:00:00Z");
    expect(series.map((s) => [s.code, s.region, s.rows])).toEqual([
      [
        "LASST03",
        "01",
        [
          { date: "2025-10-01", value: null },
          { date: "2025-11-01", value: 2.9 },
          { date: "2026-06-01", value: 3.2 },
        ],
      ],
      ["LASST03", "72", [{ date: "2025-10-01", value: 5.7 }]],
    ]);
  });

  test("a series id that is not the row's state rate is refused", () => {
    expect(() =>
      lausStateRates(
        "GeoID,Series ID,Place,Year,Month,Unemployment Rate\n6,LASST010000000000003,California (S),2026,June,5.5",
      ),
    ).toThrow("is not the rate of 06");
  });
});

describe("lausCountyAnnual (laucnty24.csv)", () => {
  test("title, header, county rows with split FIPS, the blank row and the source/date footer", () => {
    const text = [
      '"Labor Force Data by County, 2024 Annual Averages",,,,,,,,',
      "LAUS Code,State FIPS Code,County FIPS Code,County Name/State Abbreviation,Year,Labor Force,Employed,Unemployed,Unemployment Rate (%)",
      'CN0100100000000,01,001,"Autauga County, AL",2024,28467,27702,765,2.7',
      'CN0603700000000,06,037,"Los Angeles County, CA",2024,5106364,4812384,293980,5.8000000000000007',
      ",,,,,,,,",
      '"SOURCE:  BLS, LAUS",,,,,,,,',
      '"April 8, 2026",,,,,,,,',
    ].join("\n");
    const series = lausCountyAnnual(text, "2026-04-08T00:00:00Z");
    expect(series.filter((s) => s.region === "01001").map((s) => [s.code, s.rows[0].value])).toEqual([
      ["LAUCN06A", 28467],
      ["LAUCN05A", 27702],
      ["LAUCN04A", 765],
      ["LAUCN03A", 2.7],
    ]);
    expect(series.find((s) => s.region === "06037" && s.code === "LAUCN03A")!.rows).toEqual([
      { date: "2024-01-01", value: 5.8 },
    ]);
    expect(series).toHaveLength(8);
  });
});

describe("qcewAnnualTotals", () => {
  const header =
    '"area_fips","own_code","industry_code","agglvl_code","size_code","year","qtr","disclosure_code","area_title","own_title","industry_title","agglvl_title","size_title","annual_avg_estabs_count","annual_avg_emplvl","total_annual_wages","taxable_annual_wages","annual_contributions","annual_avg_wkly_wage","avg_annual_pay"';
  // Real rows of the 2025 file, and one undisclosed county row made by hand: no county total is undisclosed in the
  // shipped 2024 and 2025 files, but BLS writes such cells as 0 with disclosure code N.
  test("state (level 50) and county (level 70) totals; other levels skipped; an undisclosed cell is missing, not 0", () => {
    const text = [
      header,
      '"06000","0","10","50","0","2025","A","","California -- Statewide","Total Covered","10 Total, all industries","State, Total Covered","All establishment sizes",1948862,18216254,1766001927868,137229283059,4795809708,1864,96946',
      '"06037","0","10","70","0","2025","A","","Los Angeles County, California","Total Covered","10 Total, all industries","County, Total Covered","All establishment sizes",600128,4525662,389702975967,34118199350,1146954773,1656,86110',
      '"06037","5","10","71","0","2025","A","","Los Angeles County, California","Private","10 Total, all industries","County, Private","All establishment sizes",590000,3900000,1,1,1,1,80000',
      '"US000","0","10","10","0","2025","A","","U.S. TOTAL","Total Covered","10 Total, all industries","National, Total Covered","All establishment sizes",12000000,157000000,1,1,1,1,76000',
      '"48301","0","10","70","0","2025","A","N","Loving County, Texas","Total Covered","10 Total, all industries","County, Total Covered","All establishment sizes",0,0,0,0,0,0,0',
    ].join("\n");
    const { series, undisclosed } = qcewAnnualTotals(text, "2026-08-18T00:00:00Z");
    expect(series.map((s) => [s.code, s.region, s.rows[0].value])).toEqual([
      ["ENU10010", "06", 18216254],
      ["ENU20010", "06", 1948862],
      ["ENU50010", "06", 96946],
      ["ENU10010", "06037", 4525662],
      ["ENU20010", "06037", 600128],
      ["ENU50010", "06037", 86110],
      ["ENU10010", "48301", null],
      ["ENU20010", "48301", null],
      ["ENU50010", "48301", null],
    ]);
    expect(series[0].rows[0].date).toBe("2025-01-01");
    expect(undisclosed).toBe(1);
  });
});
