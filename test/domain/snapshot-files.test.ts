// The snapshot parsers on small hand-made files that carry each real quirk.
import { describe, expect, test } from "bun:test";
import {
  blsStateUnemployed,
  ersUnemployment,
  fredCsv,
  mergeVintages,
  ownStrings,
  pepVintage,
  worldBankLong,
} from "../../src/domain/snapshot-files";

describe("fredCsv", () => {
  test("an empty value is a missing observation kept as null", () => {
    expect(fredCsv("date,value\n2025-09-01,4.4\n2025-10-01,\n2025-11-01,4.6\n", "UNRATE").rows).toEqual([
      { date: "2025-09-01", value: 4.4 },
      { date: "2025-10-01", value: null },
      { date: "2025-11-01", value: 4.6 },
    ]);
  });
  test("a value that is not a number is refused, naming the line", () => {
    expect(() => fredCsv("date,value\n2025-09-01,n/a\n", "X")).toThrow("X.csv line 2: not a number");
  });
});

describe("blsStateUnemployed", () => {
  test("a byte-order mark before DATE; one series per state column", () => {
    const s = blsStateUnemployed(
      "\uFEFFDATE,LASST010000000000004,LASST060000000000004\n1976-01-01,100255,889057\n1976-02-01,99542,\n",
    );
    expect(s.map((x) => [x.code, x.region, x.rows])).toEqual([
      [
        "LASST04",
        "01",
        [
          { date: "1976-01-01", value: 100255 },
          { date: "1976-02-01", value: 99542 },
        ],
      ],
      ["LASST04", "06", [{ date: "1976-01-01", value: 889057 }]],
    ]);
  });
});

describe("ersUnemployment", () => {
  const file = [
    '"Unemployment and median household income",,,,,,',
    '"Sources: ...",,,,,,',
    '"For definitions ...",,,,,,',
    '"Data as of February 5, 2020.",,,,,,',
    "FIPS,State,Area_name, Civilian_labor_force_2007 , Employed_2007 , Unemployed_2007 ,Unemployment_rate_2007,Unemployment_rate_2008",
    '00000,US,United States,"152,191,093","145,156,134","7,034,959",4.6,5.8',
    '01000,AL,Alabama," 2,175,612 "," 2,089,127 "," 86,485 ",4.0,5.7',
    '02270,AK,Wade Hampton Census Area,"3,021","2,540",481,15.9,',
  ].join("\n");
  test("title lines, padded headers, thousands separators; states as LAUST, counties as LAUCN; the US row skipped", () => {
    const s = ersUnemployment(file);
    const byKey = new Map(s.map((x) => [`${x.code}/${x.region}`, x.rows]));
    expect([...byKey.keys()].sort()).toEqual([
      "LAUCN03A/02270",
      "LAUCN04A/02270",
      "LAUCN05A/02270",
      "LAUCN06A/02270",
      "LAUST03A/01",
      "LAUST04A/01",
      "LAUST05A/01",
      "LAUST06A/01",
    ]);
    expect(byKey.get("LAUST06A/01")).toEqual([{ date: "2007-01-01", value: 2175612 }]);
    expect(byKey.get("LAUST03A/01")).toEqual([
      { date: "2007-01-01", value: 4 },
      { date: "2008-01-01", value: 5.7 },
    ]);
    // A blank cell is no observation.
    expect(byKey.get("LAUCN03A/02270")).toEqual([{ date: "2007-01-01", value: 15.9 }]);
  });
});

describe("pepVintage and mergeVintages", () => {
  const v2020 =
    "SUMLEV,STATE,COUNTY,POPESTIMATE2019,POPESTIMATE2020,NPOPCHG_2010,NPOPCHG_2020\n040,10,000,973764,986809,100,13045\n050,10,001,180786,182000,5,1214\n";
  const v2024 =
    "SUMLEV,STATE,COUNTY,POPESTIMATE2020,POPESTIMATE2021,NPOPCHG2020,NPOPCHG2021\n040,10,000,992114,1004807,1600,12693\n";
  test("states and counties; the first year's partial-period components are skipped; population starts there", () => {
    const s = pepVintage(v2020, 2020, "2021-05-27T00:00:00Z");
    const de = s.filter((x) => x.region === "10");
    expect(de.map((x) => [x.code, x.rows])).toEqual([
      [
        "POPESTIMATE",
        [
          { date: "2019-01-01", value: 973764 },
          { date: "2020-01-01", value: 986809 },
        ],
      ],
      ["NPOPCHG", [{ date: "2020-01-01", value: 13045 }]],
    ]);
    expect(s.find((x) => x.region === "10001" && x.code === "POPESTIMATE")!.rows.at(-1)).toEqual({
      date: "2020-01-01",
      value: 182000,
    });
    const v24 = pepVintage(v2024, 2024, "2025-03-13T00:00:00Z");
    expect(v24.find((x) => x.code === "NPOPCHG")!.rows).toEqual([{ date: "2021-01-01", value: 12693 }]);
  });
  test("an overlapping year keeps both vintages in order, oldest first", () => {
    const merged = mergeVintages([pepVintage(v2020, 2020, "a"), pepVintage(v2024, 2024, "b")]);
    const pop = merged.find((x) => x.region === "10" && x.code === "POPESTIMATE")!;
    expect(pop.rows).toEqual([
      { date: "2019-01-01", value: 973764, sourceUpdatedAt: "a" },
      { date: "2020-01-01", value: 986809, sourceUpdatedAt: "a" },
      { date: "2020-01-01", value: 992114, sourceUpdatedAt: "b" },
      { date: "2021-01-01", value: 1004807, sourceUpdatedAt: "b" },
    ]);
    expect(pop.sourceUpdatedAt).toBe("b");
  });

  test("a later vintage adds a revision only where it changed a value; a date it leaves out keeps the earlier value", () => {
    const series = (rows: [string, number | null][], sourceUpdatedAt: string) => ({
      dataset: sourceUpdatedAt,
      source: "fred",
      code: "CPIAUCSL",
      region: "US",
      sourceUpdatedAt,
      rows: rows.map(([date, value]) => ({ date, value })),
    });
    // The January-2026 vintage writes October 2025 as a blank; the June-2026 vintage leaves the row out.
    const jan = series(
      [
        ["2021-03-01", 264.847],
        ["2021-04-01", 266.625],
        ["2025-10-01", null],
        ["2025-11-01", 324.122],
      ],
      "2026-01-02",
    );
    const jun = series(
      [
        ["2021-03-01", 264.961],
        ["2021-04-01", 266.625],
        ["2025-11-01", 324.122],
        ["2026-04-01", 331.0],
      ],
      "2026-06-05",
    );
    const [merged] = mergeVintages([[jan], [jun]]);
    expect(merged.rows).toEqual([
      { date: "2021-03-01", value: 264.847, sourceUpdatedAt: "2026-01-02" },
      { date: "2021-03-01", value: 264.961, sourceUpdatedAt: "2026-06-05" },
      { date: "2021-04-01", value: 266.625, sourceUpdatedAt: "2026-01-02" },
      { date: "2025-10-01", value: null, sourceUpdatedAt: "2026-01-02" },
      { date: "2025-11-01", value: 324.122, sourceUpdatedAt: "2026-01-02" },
      { date: "2026-04-01", value: 331.0, sourceUpdatedAt: "2026-06-05" },
    ]);
    expect(merged.dataset).toBe("2026-01-02+2026-06-05");
  });
});

describe("worldBankLong", () => {
  test("alpha-3 to our codes; aggregates and unknown codes dropped and reported", () => {
    const text =
      "\uFEFFCountry Name,Country Code,Year,Value\nGermany,DEU,2022,4163596357879.39\nGermany,DEU,2023,4456081016705.96\nWorld,WLD,2023,1.0e14\nHigh income,HIC,2023,6.0e13\n";
    const { series, dropped } = worldBankLong(text, "NY.GDP.MKTP.CD", new Map([["DEU", "DE"]]));
    expect(series).toEqual([
      {
        dataset: "worldbank-country",
        source: "worldbank",
        code: "NY.GDP.MKTP.CD",
        region: "DE",
        rows: [
          { date: "2022-01-01", value: 4163596357879.39 },
          { date: "2023-01-01", value: 4456081016705.96 },
        ],
      },
    ]);
    expect(dropped).toEqual([
      { code: "HIC", name: "High income" },
      { code: "WLD", name: "World" },
    ]);
  });
});

describe("ownStrings", () => {
  test("the same series, values and order; each distinct string once in the pool, shared by later calls", () => {
    const pool = new Map<string, string>();
    const text = "date,value\n2020-01-01,3.5\n2020-02-01,\n";
    const first = fredCsv(text, "UNRATE", { dataset: "fred-macro-us", sourceUpdatedAt: "2026-01-09T00:00:00Z" });
    const expected = structuredClone(first);
    expect(ownStrings([first], pool)).toEqual([expected]);
    // dataset, source, code, region, the vintage's date and two observation dates.
    expect([...pool.keys()].sort()).toEqual(
      ["2020-01-01", "2020-02-01", "2026-01-09T00:00:00Z", "UNRATE", "US", "fred", "fred-macro-us"].sort(),
    );
    const second = fredCsv("date,value\n2020-02-01,4.4\n2020-03-01,4.4\n", "UNRATE", { dataset: "fred-macro-us" });
    ownStrings([second], pool);
    expect(second.rows).toEqual([
      { date: "2020-02-01", value: 4.4 },
      { date: "2020-03-01", value: 4.4 },
    ]);
    expect(pool.size).toBe(8); // only 2020-03-01 is new
    expect(ownStrings([], pool)).toEqual([]);
  });
});
