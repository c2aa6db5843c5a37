// Concepts, derived svc: series and revisions through GET /v1/observations.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { observationsResponseSchema } from "../../src/schemas/observations";
import { makeTestApp, type TestApp } from "../support/app";
import { monthStarts, writeSeries, type Row } from "../support/series";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
const T1 = new Date("2026-01-10T00:00:00Z");
const T2 = new Date("2026-02-10T00:00:00Z");

beforeAll(async () => {
  t = await makeTestApp();
  const db = t.database.db;
  // California: employed and labor force (LAUS, monthly); Texas: employed only.
  await writeSeries(db, "bls", "LASST05", "06", [["2025-07-01", 960], ["2025-08-01", 900], ["2025-09-01", 990, { preliminary: true }]], T1);
  await writeSeries(db, "bls", "LASST06", "06", [["2025-07-01", 1000], ["2025-08-01", 1000], ["2025-09-01", 1000], ["2025-10-01", 1000]], T1);
  await writeSeries(db, "bls", "LASST05", "48", [["2025-07-01", 500]], T1);
  await writeSeries(db, "bls", "LASST03", "06", [["2025-07-01", 5.5], ["2025-08-01", 6]], T1);
  await writeSeries(db, "fred", "UNRATE", "US", monthStarts("2025-01", 8).map((d): Row => [d, 4.25]), T1);
  // Los Angeles County: median home value and household income (ACS, annual).
  await writeSeries(db, "census", "B25077_001E", "06037", [["2021-01-01", 600000], ["2022-01-01", 700000], ["2023-01-01", 750000]], T1);
  await writeSeries(db, "census", "B19013_001E", "06037", [["2021-01-01", 75000], ["2022-01-01", 80000]], T1);
  await writeSeries(db, "worldbank", "SP.POP.TOTL", "FR", [["2022-01-01", 67_971_311], ["2023-01-01", 68_170_228]], T1);
  await writeSeries(db, "worldbank", "NY.GDP.MKTP.CD", "US", [["2023-01-01", 27.72e12]], T1);
  await writeSeries(db, "fred", "GDP", "US", [["2025-04-01", 30_331.1]], T1);
  await writeSeries(db, "fred", "AHETPI", "US", [["2025-01-01", 31.5], ["2025-02-01", 31.6]], T1);
  await writeSeries(db, "fred", "CPIAUCSL", "US", [["2025-01-01", 315], ["2025-02-01", 316]], T1);
}, 120_000);
afterAll(() => t?.close());

const get = (qs: string) => t.getJson(`/v1/observations?${qs}`);

describe("concepts", () => {
  test("resolve per region kind and disclose the series", async () => {
    const r = await get("indicator=median_home_value&region=06037&order=asc");
    expect(r.status).toBe(200);
    observationsResponseSchema.parse(r.body);
    expect(r.body.meta).toMatchObject({ indicator: "B25077_001E", region: "06037", source: "census", total: 3 });
    expect(r.body.meta.concept).toEqual({ code: "median_home_value", resolved_indicator: "B25077_001E", source: "census" });
    expect(r.body.data[0]).toMatchObject({ date: "2021-01-01", value: 600000, indicator: "B25077_001E" });
    const p = await get("indicator=population&region=france");
    expect(p.body.meta.concept).toEqual({ code: "population", resolved_indicator: "SP.POP.TOTL", source: "worldbank" });
    expect(p.body.data[0].value).toBe(68_170_228);
  });
  test("a concept without region is a 400", async () => {
    const r = await get("indicator=population");
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe("region");
  });
  test("a kind the concept is not curated for is a 404 naming the closest level", async () => {
    const r = await get("indicator=median_home_value&region=US");
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe("median_home_value is available for states and counties, not countries; the closest level is states.");
    const g = await get("indicator=gdp&region=06");
    expect(g.body.error.message).toBe("gdp is available for countries, not states; the closest level is countries.");
  });
  test("exact codes win over concepts: GDP is FRED's series, gdp the concept", async () => {
    const code = await get("indicator=GDP&region=US");
    expect(code.body.meta).toMatchObject({ indicator: "GDP", source: "fred" });
    expect(code.body.meta.concept).toBeUndefined();
    const concept = await get("indicator=gdp&region=US");
    expect(concept.body.meta.concept).toEqual({ code: "gdp", resolved_indicator: "NY.GDP.MKTP.CD", source: "worldbank" });
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
    const r = await get("indicator=employment_rate&region=TX");
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe("employment_rate cannot be computed for Texas (48): its input labor_force (LASST06) has no data for that region.");
    expect(r.body.error.details.blocking_input).toBe("labor_force");
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
      ["2025-07-01", 1.25],
      ["2025-08-01", 1.75],
    ]);
    const tx = await get("indicator=svc:unemployment_gap&region=48");
    expect(tx.status).toBe(404);
    expect(tx.body.error.details).toMatchObject({ blocking_input: "local_rate", input_indicator: "LASST03" });
  });
  test("real average hourly earnings in 1982-84 dollars", async () => {
    const r = await get("indicator=svc:real_avg_hourly_earnings&order=asc");
    expect(r.body.data.map((x: any) => x.value)).toEqual([10, (31.6 / 316) * 100]);
  });
  test("sahm rule over a short UNRATE: null until a 3-month average and a prior one exist", async () => {
    // UNRATE is held (8 months): the indicator is computed, all null until 3 months and a prior average exist.
    const r = await get("indicator=svc:sahm_rule&order=asc");
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: any) => x.value)).toEqual([null, null, null, 0, 0, 0, 0, 0]);
  });
  test("recomputed when an input changes, keeping revisions", async () => {
    await writeSeries(t.database.db, "census", "B19013_001E", "06037", [["2022-01-01", 87500], ["2023-01-01", 75000]], T2);
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
    await writeSeries(db, "fred", "CPIAUCSL", "US", [["2025-02-01", 316.5, { sourceUpdatedAt: "2025-04-10T12:30:00Z" }], ["2025-03-01", 317, { preliminary: true }]], T2);
    const latest = await get("indicator=CPIAUCSL&order=asc");
    expect(latest.body.data.map((x: any) => [x.date, x.value, x.revision, x.is_preliminary])).toEqual([
      ["2025-01-01", 315, 1, false],
      ["2025-02-01", 316.5, 2, false],
      ["2025-03-01", 317, 1, true],
    ]);
    const all = await get("indicator=CPIAUCSL&include_revisions=true&order=desc");
    expect(all.body.meta.total).toBe(4);
    expect(all.body.data.map((x: any) => [x.date, x.value, x.revision, x.source_updated_at])).toEqual([
      ["2025-03-01", 317, 1, null],
      ["2025-02-01", 316, 1, null],
      ["2025-02-01", 316.5, 2, "2025-04-10T12:30:00.000Z"],
      ["2025-01-01", 315, 1, null],
    ]);
    const page = await get("indicator=CPIAUCSL&include_revisions=true&order=asc&start_date=2025-02-01&limit=1&offset=1");
    expect(page.body).toMatchObject({ meta: { total: 3 }, data: [{ date: "2025-02-01", revision: 2 }] });
    // The derived series that reads CPI was recomputed too: February's real earnings is now 31.6 / 316.5 * 100.
    const real = await get("indicator=svc:real_avg_hourly_earnings&start_date=2025-02-01");
    expect(real.body.data[0]).toMatchObject({ value: (31.6 / 316.5) * 100, revision: 2 });
  });
});
