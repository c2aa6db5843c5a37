// Concepts, derived svc: series and revisions through GET /v1/observations.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { observationsResponseSchema } from "../../src/schemas/observations";
import { makeTestApp, type TestApp } from "../support/app";
import { deriveWritten } from "../support/derive";
import { clearIndicator, clearSeries, writeSeries } from "../support/series";
import { ersValue, fredRows, fredValue, fredVintageRows, sahmSeries, worldBankRows } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
const T1 = new Date("2026-01-10T00:00:00Z");
const T2 = new Date("2026-02-10T00:00:00Z");
// Shipped with the seed (db/seed/snapshot): UNRATE, AHETPI and CPIAUCSL 1980-01 .. 2025-11 (October 2025 empty for
// UNRATE and CPIAUCSL, not for AHETPI), World Bank population by country.
const UNRATE = fredRows("UNRATE");
const AHETPI = fredRows("AHETPI");
const CPI = fredRows("CPIAUCSL");
const TX_EMPLOYED: [string, number][] = Array.from({ length: 12 }, (_, k) => [
  `2018-${String(k + 1).padStart(2, "0")}-01`,
  13_300_000 + 1_000 * k,
]);

beforeAll(async () => {
  t = await makeTestApp();
  const db = t.database.db;
  // The snapshot holds monthly LAUS for every state: removed here so the values below are the only ones.
  for (const code of ["LASST03", "LASST05", "LASST06"]) await clearIndicator(db, "bls", code);
  // Capitol Planning Region (Connecticut) keeps no labour force, so employment_rate lacks an input there.
  await clearSeries(db, "bls", "LAUCN06A", "09110");
  // Texas's annual employed average (to 2024) would be fresher than the monthly 2018 written below, and a concept takes
  // the freshest held series: removed, so employed resolves to the monthly series.
  await clearSeries(db, "bls", "LAUST05A", "48");
  // California: employed and labor force (LAUS, monthly). Texas: employed monthly through 2018 (its labour force is held
  // as the shipped LAUS annual average). Capitol Planning Region: employed only.
  await writeSeries(
    db,
    "bls",
    "LASST05",
    "06",
    [
      ["2025-07-01", 960],
      ["2025-08-01", 900],
      ["2025-09-01", 990, { preliminary: true }],
    ],
    T1,
  );
  await writeSeries(
    db,
    "bls",
    "LASST06",
    "06",
    [
      ["2025-07-01", 1000],
      ["2025-08-01", 1000],
      ["2025-09-01", 1000],
      ["2025-10-01", 1000],
    ],
    T1,
  );
  await writeSeries(db, "bls", "LASST05", "48", TX_EMPLOYED, T1);
  await writeSeries(db, "bls", "LAUCN05", "09110", [["2025-07-01", 500]], T1);
  await writeSeries(
    db,
    "bls",
    "LASST03",
    "06",
    [
      ["2025-07-01", 5.5],
      ["2025-08-01", 6],
    ],
    T1,
  );
  // Los Angeles County: median home value and household income (ACS, annual).
  await writeSeries(
    db,
    "census",
    "B25077_001E",
    "06037",
    [
      ["2021-01-01", 600000],
      ["2022-01-01", 700000],
      ["2023-01-01", 750000],
    ],
    T1,
  );
  await writeSeries(
    db,
    "census",
    "B19013_001E",
    "06037",
    [
      ["2021-01-01", 75000],
      ["2022-01-01", 80000],
    ],
    T1,
  );
  // Reads never derive: the svc: series fed by what was written are derived as the write paths derive them.
  await deriveWritten(t.store, T1, [
    ["bls", "LASST03", "06"],
    ["census", "B25077_001E", "06037"],
    ["census", "B19013_001E", "06037"],
  ]);
}, 120_000);
afterAll(() => t?.close());

const get = (qs: string) => t.getJson(`/v1/observations?${qs}`);

describe("concepts", () => {
  test("resolve per region kind and disclose the series", async () => {
    const r = await get("indicator=median_home_value&region=06037&order=asc");
    expect(r.status).toBe(200);
    observationsResponseSchema.parse(r.body);
    expect(r.body.meta).toMatchObject({ indicator: "B25077_001E", region: "06037", source: "census", total: 3 });
    expect(r.body.meta.concept).toEqual({
      code: "median_home_value",
      resolved_indicator: "B25077_001E",
      source: "census",
    });
    expect(r.body.data[0]).toMatchObject({ date: "2021-01-01", value: 600000, indicator: "B25077_001E" });
    const p = await get("indicator=population&region=france");
    expect(p.body.meta.concept).toEqual({ code: "population", resolved_indicator: "SP.POP.TOTL", source: "worldbank" });
    const france = worldBankRows("SP.POP.TOTL", "FRA").filter((x) => x.value !== null);
    expect(p.body.data[0]).toMatchObject({ date: `${france.at(-1)!.year}-01-01`, value: france.at(-1)!.value });
    expect(p.body.meta.total).toBe(france.length);
  });
  test("a concept without region is a 400", async () => {
    const r = await get("indicator=population");
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe("region");
  });
  test("a kind the concept is not curated for is a 404 naming the closest level", async () => {
    const r = await get("indicator=median_home_value&region=US");
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe(
      "median_home_value is available for states and counties, not countries; the closest level is states.",
    );
    const g = await get("indicator=gdp&region=06");
    expect(g.body.error.message).toBe("gdp is available for countries, not states; the closest level is countries.");
  });
  test("exact codes win over concepts: GDP is FRED's series, gdp the concept", async () => {
    const code = await get("indicator=GDP&region=US");
    expect(code.body.meta).toMatchObject({ indicator: "GDP", source: "fred" });
    expect(code.body.meta.concept).toBeUndefined();
    const concept = await get("indicator=gdp&region=US");
    expect(concept.body.meta.concept).toEqual({
      code: "gdp",
      resolved_indicator: "NY.GDP.MKTP.CD",
      source: "worldbank",
    });
  });
  test("country unemployment: UNRATE for the US", async () => {
    const r = await get("indicator=unemployment_rate&region=US&limit=1");
    expect(r.body.meta.concept.resolved_indicator).toBe("UNRATE");
  });
  test("derived employment_rate: employed / labor force x 100 per date, with its inputs disclosed", async () => {
    const r = await get("indicator=employment_rate&region=06&order=asc");
    expect(r.status).toBe(200);
    expect(r.body.meta).toMatchObject({ indicator: "employment_rate", region: "06", unit: "percent", total: 3 });
    expect(r.body.meta.concept).toEqual({
      code: "employment_rate",
      resolved_indicator: "employment_rate",
      source: "svc",
      inputs: [
        { role: "employed", concept: "employed", indicator: "LASST05", source: "bls" },
        { role: "labor_force", concept: "labor_force", indicator: "LASST06", source: "bls" },
      ],
    });
    expect(r.body.data.map((x: any) => [x.date, x.value, x.is_preliminary])).toEqual([
      ["2025-07-01", 96, false],
      ["2025-08-01", 90, false],
      ["2025-09-01", 99, true],
    ]);
    const mom = await get("indicator=employment_rate&region=06&transform=mom&order=asc");
    expect(mom.body.data.map((x: any) => x.value)).toEqual([null, ((90 - 96) / 96) * 100, 10]);
  });
  test("a derived concept whose input is missing for the place refuses, naming the input", async () => {
    const r = await get("indicator=employment_rate&region=09110");
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe(
      "employment_rate cannot be computed for Capitol Planning Region, Connecticut (09110): its input labor_force (LAUCN06) has no data for that region.",
    );
    expect(r.body.error.details).toMatchObject({ blocking_input: "labor_force", input_indicator: "LAUCN06" });
  });
  test("inputs held at different frequencies: the monthly one is averaged to the annual one before dividing", async () => {
    // Texas: employed as written (monthly, 2018), labour force the shipped LAUS annual average (2007-2018).
    const labourForce2018 = ersValue("48000", "Civilian_labor_force_2018")!;
    expect(labourForce2018).toBe(ersValue("48000", "Civilian_labor_force_2018", "2023")!);
    const r = await get("indicator=employment_rate&region=TX&order=asc");
    expect(r.status).toBe(200);
    expect(r.body.meta).toMatchObject({ region: "48", frequency: "annual", unit: "percent", total: 1 });
    expect(r.body.meta.concept.inputs.map((i: any) => i.indicator)).toEqual(["LASST05", "LAUST06A"]);
    const employed2018 = TX_EMPLOYED.reduce((a, [, v]) => a + v, 0) / 12;
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["2018-01-01", (employed2018 / labourForce2018) * 100],
    ]);
  });
  test("include_revisions on a computed concept is a 400", async () => {
    expect((await get("indicator=employment_rate&region=06&include_revisions=true")).status).toBe(400);
  });
});

describe("derived svc: series", () => {
  test("home affordability ratio per county: value / income, same year; null where income is missing", async () => {
    const r = await get("indicator=svc:home_affordability_ratio&region=06037&order=asc");
    expect(r.status).toBe(200);
    expect(r.body.meta).toMatchObject({ indicator: "svc:home_affordability_ratio", source: "svc", unit: "ratio" });
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["2021-01-01", 8],
      ["2022-01-01", 8.75],
      ["2023-01-01", null],
    ]);
  });
  test("unemployment gap: state rate minus the national rate", async () => {
    const r = await get("indicator=svc:unemployment_gap&region=06&order=asc");
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual([
      ["2025-07-01", 5.5 - fredValue(UNRATE, "2025-07-01")!],
      ["2025-08-01", 6 - fredValue(UNRATE, "2025-08-01")!],
    ]);
    const tx = await get("indicator=svc:unemployment_gap&region=48");
    expect(tx.status).toBe(404);
    expect(tx.body.error.details).toMatchObject({ blocking_input: "local_rate", input_indicator: "LASST03" });
  });
  test("real average hourly earnings in 1982-84 dollars", async () => {
    const r = await get("indicator=svc:real_avg_hourly_earnings&order=asc&limit=1000");
    // Same month, earnings / CPI x 100, over AHETPI's months (CPI starts earlier); null where CPI is missing (October
    // 2025), though AHETPI has a value there.
    const cpiAt = new Map(CPI.map((x) => [x.date, x.value]));
    expect(AHETPI.every((x) => cpiAt.has(x.date))).toBe(true);
    const expected = AHETPI.map((e) => [
      e.date,
      e.value === null || cpiAt.get(e.date) === null ? null : (e.value / cpiAt.get(e.date)!) * 100,
    ]);
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual(expected);
    expect(r.body.data.find((x: any) => x.date === "2025-10-01").value).toBeNull();
    expect(r.body.data[0]).toMatchObject({ date: "1980-01-01", value: (6.57 / cpiAt.get("1980-01-01")!) * 100 });
  });
  test("sahm rule over the whole UNRATE: null until a 3-month average and a prior one exist, and around the October 2025 gap", async () => {
    const r = await get("indicator=svc:sahm_rule&order=asc&limit=1000");
    expect(r.status).toBe(200);
    const expected = sahmSeries();
    expect(r.body.data.map((x: any) => [x.date, x.value])).toEqual(expected.map((x) => [x.date, x.value]));
    // 1948-01 and -02 have no 3-month average, 1948-03 no prior one; October to December 2025 lack October's rate.
    expect(expected.slice(0, 4).map((x) => [x.date, x.value === null])).toEqual([
      ["1948-01-01", true],
      ["1948-02-01", true],
      ["1948-03-01", true],
      ["1948-04-01", false],
    ]);
    const around = expected
      .filter((x) => x.date >= "2025-09-01" && x.date <= "2026-01-01")
      .map((x) => [x.date, x.value === null]);
    expect(around).toEqual([
      ["2025-09-01", false],
      ["2025-10-01", true],
      ["2025-11-01", true],
      ["2025-12-01", true],
      ["2026-01-01", false],
    ]);
  });
  test("recomputed when an input changes, keeping revisions", async () => {
    await writeSeries(
      t.database.db,
      "census",
      "B19013_001E",
      "06037",
      [
        ["2022-01-01", 87500],
        ["2023-01-01", 75000],
      ],
      T2,
    );
    await deriveWritten(t.store, T2, [["census", "B19013_001E", "06037"]]);
    t.clock.set(T2);
    const r = await get("indicator=svc:home_affordability_ratio&region=06037&order=asc");
    expect(r.body.data.map((x: any) => [x.date, x.value, x.revision])).toEqual([
      ["2021-01-01", 8, 1],
      ["2022-01-01", 8, 2],
      ["2023-01-01", 10, 2],
    ]);
    const rev = await get("indicator=svc:home_affordability_ratio&region=06037&order=asc&include_revisions=true");
    expect(rev.body.data.map((x: any) => [x.date, x.value, x.revision])).toEqual([
      ["2021-01-01", 8, 1],
      ["2022-01-01", 8.75, 1],
      ["2022-01-01", 8, 2],
      ["2023-01-01", null, 1],
      ["2023-01-01", 10, 2],
    ]);
  });
});

describe("revisions", () => {
  test("reads return the latest revision; include_revisions returns every one, by date then revision", async () => {
    const db = t.database.db;
    // As shipped: January and February 2025 in the January-2026 vintage, revised by the June-2026 one (CPI's seasonal
    // factors); February is revised once more here, and a preliminary May 2026 (after the files' end) is new.
    const jan = new Map(fredVintageRows("fred-macro-us", "CPIAUCSL").map((x) => [x.date, x.value]));
    const jun = new Map(fredVintageRows("fred-national-2026-vintage", "CPIAUCSL").map((x) => [x.date, x.value]));
    expect([jan.get("2025-01-01"), jan.get("2025-02-01")]).toEqual([319.086, 319.775]);
    const [janNow, febNow] = [fredValue(CPI, "2025-01-01")!, fredValue(CPI, "2025-02-01")!];
    expect([janNow, febNow]).toEqual([jun.get("2025-01-01")!, jun.get("2025-02-01")!]);
    expect(febNow).not.toBe(319.775);
    await writeSeries(
      db,
      "fred",
      "CPIAUCSL",
      "US",
      [
        ["2025-02-01", 319.9, { sourceUpdatedAt: "2026-07-10T12:30:00Z" }],
        ["2026-05-01", 333.1, { preliminary: true }],
      ],
      T2,
    );
    await deriveWritten(t.store, T2, [["fred", "CPIAUCSL", "US"]]);
    const since = CPI.filter((x) => x.date >= "2025-01-01");
    const latest = await get("indicator=CPIAUCSL&order=asc&start_date=2025-01-01");
    expect(latest.body.meta.total).toBe(since.length + 1);
    const revisionOf = (date: string) => (jan.has(date) && jun.has(date) && jan.get(date) !== jun.get(date) ? 2 : 1);
    expect(latest.body.data.map((x: any) => [x.date, x.value, x.revision, x.is_preliminary])).toEqual([
      ["2025-01-01", janNow, 2, false],
      ["2025-02-01", 319.9, 3, false],
      ...since.filter((x) => x.date >= "2025-03-01").map((x) => [x.date, x.value, revisionOf(x.date), false]),
      ["2026-05-01", 333.1, 1, true],
    ]);
    const early = await get(
      "indicator=CPIAUCSL&include_revisions=true&order=desc&start_date=2025-01-01&end_date=2025-02-28",
    );
    expect(early.body.data.map((x: any) => [x.date, x.value, x.revision, x.source_updated_at])).toEqual([
      ["2025-02-01", 319.775, 1, "2026-01-02T00:00:00.000Z"],
      ["2025-02-01", febNow, 2, "2026-06-05T00:00:00.000Z"],
      ["2025-02-01", 319.9, 3, "2026-07-10T12:30:00.000Z"],
      ["2025-01-01", 319.086, 1, "2026-01-02T00:00:00.000Z"],
      ["2025-01-01", janNow, 2, "2026-06-05T00:00:00.000Z"],
    ]);
    const newest = await get("indicator=CPIAUCSL&include_revisions=true&order=desc&limit=1");
    expect(newest.body.data.map((x: any) => [x.date, x.value, x.revision, x.source_updated_at])).toEqual([
      ["2026-05-01", 333.1, 1, null],
    ]);
    const page = await get(
      "indicator=CPIAUCSL&include_revisions=true&order=asc&start_date=2025-02-01&end_date=2025-02-28&limit=1&offset=2",
    );
    expect(page.body).toMatchObject({ meta: { total: 3 }, data: [{ date: "2025-02-01", revision: 3 }] });
    // The derived series that reads CPI was recomputed too: February's real earnings is now AHETPI / 319.9 * 100.
    const real = await get("indicator=svc:real_avg_hourly_earnings&start_date=2025-02-01&order=asc");
    expect(real.body.data[0]).toMatchObject({
      date: "2025-02-01",
      value: (fredValue(AHETPI, "2025-02-01")! / 319.9) * 100,
    });
  });
});
