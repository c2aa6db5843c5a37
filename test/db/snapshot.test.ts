// The seeded snapshot read through the API, checked against the shipped raw files with this test's own arithmetic
// (not the seed's parsers): the latest unemployment rate, CPI inflation around the missing October 2025, a county's
// population, Connecticut's planning regions, a country's GDP, aggregates that are not countries, and coverage.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { isIrsPseudoArea, parseIrsSoiCountyFlows } from "../../src/domain/irs-soi-flows";
import { indicatorListResponseSchema } from "../../src/schemas/catalog";
import { makeTestApp, type TestApp } from "../support/app";
import { testBackend } from "../support/db";
import { fredRows, fredVintageRows, snapshotText } from "../support/snapshot";

setDefaultTimeout(60_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

async function get(path: string): Promise<any> {
  const r = await t.app.request(path);
  expect(r.status).toBe(200);
  return r.json();
}

/** A quoted CSV line split on commas outside quotes (enough for these files). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === "," && !quoted) out.push(cur), (cur = "");
    else cur += ch;
  }
  out.push(cur);
  return out;
}

describe(`the seeded snapshot against its raw files (${testBackend})`, () => {
  test("latest UNRATE is the June-2026 vintage's last value (May 2026); the January-2026 vintage's months it revised are revisions", async () => {
    const jun = fredVintageRows("fred-national-2026-vintage", "UNRATE");
    const last = jun.at(-1)!;
    expect(last).toEqual({ date: "2026-05-01", value: 4.3 });
    const body = await get("/v1/observations/latest?indicator=UNRATE");
    expect(body.data).toMatchObject({ period_start: last.date, value: last.value, unit: "percent" });
    expect(body.meta.resolved_region).toEqual({ code: "US", name: "United States", type: "country" });
    // The concept for the US resolves to the same series.
    const concept = await get("/v1/observations/latest?indicator=unemployment_rate&region=US");
    expect(concept.data.value).toBe(last.value);
    expect(concept.meta.concept).toEqual({ code: "unemployment_rate", resolved_indicator: "UNRATE", source: "fred" });
    // November 2025 was 4.6 in the January vintage; it is held, whatever the June vintage says of it.
    const jan = new Map(fredVintageRows("fred-macro-us", "UNRATE").map((r) => [r.date, r.value]));
    expect(jan.get("2025-11-01")).toBe(4.6);
    const revised = jun.filter((r) => jan.has(r.date) && jan.get(r.date) !== r.value);
    expect(revised.length).toBe(8);
    const month = revised[0];
    const history = await get(
      `/v1/observations?indicator=UNRATE&start_date=${month.date}&end_date=${month.date}&include_revisions=true`,
    );
    expect(history.data.map((r: any) => [r.revision, r.value])).toEqual([
      [1, jan.get(month.date)],
      [2, month.value],
    ]);
  });

  test("CPI for March 2021 was revised: from the January-2026 vintage's value to the June-2026 one's, and when", async () => {
    const jan = new Map(fredVintageRows("fred-macro-us", "CPIAUCSL").map((r) => [r.date, r.value]));
    const jun = new Map(fredVintageRows("fred-national-2026-vintage", "CPIAUCSL").map((r) => [r.date, r.value]));
    expect([jan.get("2021-03-01"), jun.get("2021-03-01")]).toEqual([264.847, 264.961]);
    const body = await get(
      "/v1/observations?indicator=CPIAUCSL&start_date=2021-03-01&end_date=2021-03-01&include_revisions=true",
    );
    expect(body.data.map((r: any) => [r.revision, r.value, r.source_updated_at])).toEqual([
      [1, 264.847, "2026-01-02T00:00:00.000Z"],
      [2, 264.961, "2026-06-05T00:00:00.000Z"],
    ]);
    const latest = await get("/v1/observations?indicator=CPIAUCSL&start_date=2021-03-01&end_date=2021-03-01");
    expect(latest.data).toHaveLength(1);
    expect(latest.data[0]).toMatchObject({ value: 264.961, revision: 2 });
  });

  test("CPI yoy: the newest month over the same month a year before; October 2025 stays null (no release) in both vintages", async () => {
    const cpi = new Map(fredRows("CPIAUCSL").map((r) => [r.date, r.value]));
    expect(cpi.get("2025-10-01")).toBeNull(); // a blank in the January vintage, no row in the June one
    expect(fredVintageRows("fred-national-2026-vintage", "CPIAUCSL").some((r) => r.date === "2025-10-01")).toBe(false);
    const yoy = (cpi.get("2026-04-01")! / cpi.get("2025-04-01")! - 1) * 100;
    const body = await get(
      "/v1/observations?indicator=CPIAUCSL&transform=yoy&start_date=2025-09-01&end_date=2026-04-01&order=asc",
    );
    expect(body.data.map((r: any) => r.date)).toEqual([
      "2025-09-01",
      "2025-10-01",
      "2025-11-01",
      "2025-12-01",
      "2026-01-01",
      "2026-02-01",
      "2026-03-01",
      "2026-04-01",
    ]);
    expect(body.data[1].value).toBeNull();
    expect(body.data[7].value).toBeCloseTo(yoy, 12);
    // mom of November has no comparator (October is missing): null, not a two-month change.
    const mom = await get(
      "/v1/observations?indicator=CPIAUCSL&transform=mom&start_date=2025-11-01&end_date=2025-11-01",
    );
    expect(mom.data[0].value).toBeNull();
  });

  test("every state's monthly rate to June 2026; a state's concept is the monthly LAUS rate; October 2025 is a real null", async () => {
    const rates = snapshotText("bls-laus-state-monthly/stateUnemployment.csv.gz")
      .trim()
      .split("\n")
      .slice(1)
      .map(fields);
    const june = new Map(
      rates.filter((f) => f[3] === "2026" && f[4] === "June").map((f) => [f[0].padStart(2, "0"), Number(f[5])]),
    );
    const states = ((await get("/v1/regions?type=state")).data as { code: string }[]).map((r) => r.code);
    expect(states).toHaveLength(51);
    for (const code of states) {
      const body = await get(`/v1/observations/latest?indicator=LASST03&region=${code}`);
      expect(body.data).toMatchObject({ period_start: "2026-06-01", value: june.get(code) });
    }
    const texas = await get("/v1/observations/latest?indicator=unemployment_rate&region=TX");
    expect(texas.meta.concept).toEqual({ code: "unemployment_rate", resolved_indicator: "LASST03", source: "bls" });
    expect(texas.data).toMatchObject({ period_start: "2026-06-01", value: june.get("48") });
    const october = await get("/v1/observations?indicator=LASST03&region=48&start_date=2025-10-01&end_date=2025-10-01");
    expect(october.data).toHaveLength(1);
    expect(october.data[0].value).toBeNull();
  });

  test("Nebraska, August 2025: the damaged 0.83 is never served; the levels' 3.0 is the earlier vintage, 2.9 the revised one", async () => {
    const line = snapshotText("bls-laus-state-monthly/ststdsadata.csv.gz")
      .split("\n")
      .find((l) => l.startsWith("31,Nebraska,2025,08,"))!;
    const f = line.split(",");
    expect(Number(f[10])).toBe(0.83);
    const fromLevels = Math.round((Number(f[9]) / Number(f[5])) * 1000) / 10;
    expect(fromLevels).toBe(3.0);
    const body = await get(
      "/v1/observations?indicator=LASST03&region=31&start_date=2025-08-01&end_date=2025-08-01&include_revisions=true",
    );
    expect(body.data.map((r: any) => [r.revision, r.value])).toEqual([
      [1, 3.0],
      [2, 2.9],
    ]);
    const unemployed = await get(
      "/v1/observations?indicator=LASST04&region=31&start_date=2025-08-01&end_date=2025-08-01",
    );
    expect(unemployed.data[0].value).toBe(Number(f[9]));
  });

  test("a county's 2024 unemployment rate (BLS laucnty24) and 2025 average pay (QCEW)", async () => {
    const la = snapshotText("laus-county-annual/laucnty24.csv.gz")
      .split("\n")
      .map(fields)
      .find((r) => r[1] === "06" && r[2] === "037")!;
    const rate = await get("/v1/observations/latest?indicator=unemployment_rate&region=06037");
    expect(rate.meta.concept.resolved_indicator).toBe("LAUCN03A");
    expect(rate.data).toMatchObject({ period_start: "2024-01-01", value: Math.round(Number(la[8]) * 10) / 10 });
    const qcew = snapshotText("qcew-county-annual/qcew-2025-annual-total.csv.gz")
      .split("\n")
      .map(fields)
      .find((r) => r[0] === "06037")!;
    const header = fields(snapshotText("qcew-county-annual/qcew-2025-annual-total.csv.gz").split("\n")[0]);
    const pay = await get("/v1/observations/latest?indicator=ENU50010&region=06037");
    expect(pay.data).toMatchObject({
      period_start: "2025-01-01",
      value: Number(qcew[header.indexOf("avg_annual_pay")]),
      unit: "U.S. dollars per job",
    });
    const jobs = await get("/v1/observations/latest?indicator=ENU10010&region=06037");
    expect(jobs.data.value).toBe(Number(qcew[header.indexOf("annual_avg_emplvl")]));
  });

  test("IRS flows for every county: Kent County, Delaware's inflows as the national file has them; -1 is suppressed, not zero", async () => {
    const lines = snapshotText("irs-soi-county-flows/countyinflow1415.csv.gz", "latin1")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));
    const into = lines.filter(
      (f) =>
        f[0] === "10" &&
        f[1] === "001" &&
        !["96", "97", "98", "57", "58", "59"].includes(f[2]) &&
        f[3] !== "000" &&
        `${f[2]}${f[3]}` !== "10001",
    );
    expect(into.length).toBeGreaterThan(20);
    const body = await get("/v1/flows?destination=10001&measure=returns&limit=1000");
    const got = new Map((body.data as any[]).map((r) => [r.origin.code ?? r.origin, r.value]));
    for (const f of into) expect(got.get(`${f[2]}${f[3]}`)).toBe(f[6] === "-1" ? null : Number(f[6]));
    // The file's 9,891 suppressed (-1) rows are all totals or "other flows" buckets, never an edge between two
    // counties: none is served, and no served count is negative (a -1 read as a number would be).
    const suppressed = lines.filter((f) => f[6] === "-1");
    expect(suppressed.length).toBe(9891);
    expect(suppressed.every((f) => isIrsPseudoArea(f[2], f[3]) || f[1] === "000")).toBe(true);
    const parsed = parseIrsSoiCountyFlows(
      lines.length ? snapshotText("irs-soi-county-flows/countyinflow1415.csv.gz", "latin1") : "",
      { yearPair: "1415" },
    );
    expect(parsed.flows.some((r) => r.measure !== "agi" && r.value !== null && r.value < 0)).toBe(false);
  });

  test("a county's 2024 population: Los Angeles County from the Latin-1 vintage 2024 file", async () => {
    const lines = snapshotText("census-pep-county/co-est2024-alldata.csv.gz", "latin1").split(/\r?\n/);
    const header = fields(lines[0]);
    const la = fields(lines.find((l) => l.startsWith("050,4,9,06,037,"))!);
    const pop2024 = Number(la[header.indexOf("POPESTIMATE2024")]);
    const body = await get("/v1/observations/latest?indicator=population&region=06037");
    expect(body.data).toMatchObject({ indicator: "POPESTIMATE", period_start: "2024-01-01", value: pop2024 });
    expect(body.meta.concept.resolved_indicator).toBe("POPESTIMATE");
    // Doña Ana County's name survives the Latin-1 file; the region list spells it the same.
    expect(lines.some((l) => l.includes("Doña Ana County"))).toBe(true);
  });

  test("2020 is revised: vintage 2020's estimate is revision 1, vintage 2024's revision 2 and current", async () => {
    const v2020 = snapshotText("census-pep-county/co-est2020-alldata.csv.gz", "latin1").split(/\r?\n/);
    const v2024 = snapshotText("census-pep-county/co-est2024-alldata.csv.gz", "latin1").split(/\r?\n/);
    const col = (lines: string[], row: string, name: string) =>
      Number(fields(lines.find((l) => l.startsWith(row))!)[fields(lines[0]).indexOf(name)]);
    const old = col(v2020, "040,4,9,06,000,", "POPESTIMATE2020");
    const now = col(v2024, "040,4,9,06,000,", "POPESTIMATE2020");
    expect(old).not.toBe(now);
    const body = await get(
      "/v1/observations?indicator=POPESTIMATE&region=06&start_date=2020-01-01&end_date=2020-01-01&include_revisions=true",
    );
    expect(body.data.map((r: any) => [r.revision, r.value])).toEqual([
      [1, old],
      [2, now],
    ]);
  });

  test("Connecticut: the 9 planning regions hold 2020-2024 population; the 8 old counties are not regions", async () => {
    const lines = snapshotText("census-pep-county/co-est2024-alldata.csv.gz", "latin1").split(/\r?\n/);
    const header = fields(lines[0]);
    const ct = lines.filter((l) => l.startsWith("050,1,1,09,")).map(fields);
    expect(ct.map((r) => `09${r[4]}`)).toEqual([
      "09110",
      "09120",
      "09130",
      "09140",
      "09150",
      "09160",
      "09170",
      "09180",
      "09190",
    ]);
    for (const r of ct) {
      const body = await get(`/v1/observations?indicator=POPESTIMATE&region=09${r[4]}&order=asc`);
      expect(body.data.map((o: any) => o.date)).toEqual([
        "2020-01-01",
        "2021-01-01",
        "2022-01-01",
        "2023-01-01",
        "2024-01-01",
      ]);
      expect(body.data[4].value).toBe(Number(r[header.indexOf("POPESTIMATE2024")]));
    }
    const old = await t.app.request("/v1/observations?indicator=POPESTIMATE&region=09001");
    expect(old.status).toBe(404);
  });

  test("2025 values for the World Bank series (WDI 2025 vintage), by alpha-3 mapped to our alpha-2 code", async () => {
    const value = (code: string, alpha3: string, year: number) => {
      const row = snapshotText(`worldbank-wdi-2025/${code.toLowerCase()}.csv.gz`)
        .split("\n")
        .find((l) => l.includes(`,${alpha3},${year},`));
      return row ? Number(row.split(",").pop()) : undefined;
    };
    const gdp = await get("/v1/observations/latest?indicator=gdp&region=DE");
    expect(gdp.data).toMatchObject({
      indicator: "NY.GDP.MKTP.CD",
      region: "DE",
      period_start: "2025-01-01",
      value: value("NY.GDP.MKTP.CD", "DEU", 2025),
    });
    expect(gdp.meta.resolved_region).toEqual({
      code: "DE",
      name: "Germany",
      type: "country",
      note: "DE is Germany; Delaware is 10 or US-DE.",
    });
    for (const code of ["FP.CPI.TOTL.ZG", "SL.UEM.TOTL.ZS", "NY.GDP.MKTP.KD.ZG", "NY.GDP.PCAP.CD", "SP.POP.TOTL"]) {
      const body = await get(`/v1/observations/latest?indicator=${code}&region=FR`);
      expect(body.data).toMatchObject({ period_start: "2025-01-01", value: value(code, "FRA", 2025) });
    }
    // The datahub file's 2023 GDP is the earlier vintage; where WDI 2025 changed it, the datahub value is revision 1.
    const earlier = Number(
      snapshotText("worldbank-country/gdp.csv.gz")
        .split("\n")
        .find((l) => l.includes(",DEU,2023,"))!
        .split(",")
        .pop(),
    );
    const history = await get(
      "/v1/observations?indicator=NY.GDP.MKTP.CD&region=DE&start_date=2023-01-01&end_date=2023-01-01&include_revisions=true",
    );
    expect(history.data[0].value).toBe(earlier);
    expect(history.data.at(-1).value).toBe(value("NY.GDP.MKTP.CD", "DEU", 2023));
  });

  test("aggregates (World, income groups, regions) are not countries: no region holds them", async () => {
    const codes = new Set(
      snapshotText("worldbank-country/gdp.csv.gz")
        .split("\n")
        .slice(1)
        .map((l) => l.split(",").at(-3)),
    );
    for (const aggregate of ["WLD", "HIC", "LMY", "EUU", "OED", "SSF", "ARB"]) expect(codes.has(aggregate)).toBe(true);
    const held = (await get("/v1/indicators/NY.GDP.MKTP.CD")).data.available_regions as string[];
    const countries = new Set(((await get("/v1/regions?type=country")).data as { code: string }[]).map((r) => r.code));
    expect(held.length).toBeGreaterThan(190);
    for (const code of held) expect(countries.has(code)).toBe(true);
    for (const input of ["WLD", "HIC", "EUU"])
      expect((await t.app.request(`/v1/observations/latest?indicator=gdp&region=${input}`)).status).toBe(404);
  });

  test("coverage: every active indicator either holds data or says why not, and how to get it", async () => {
    const items: ReturnType<typeof indicatorListResponseSchema.parse>["data"] = [];
    for (let offset = 0; ; offset += 100) {
      const page = indicatorListResponseSchema.parse(await get(`/v1/indicators?limit=100&offset=${offset}`)).data;
      items.push(...page);
      if (page.length < 100) break;
    }
    expect(items.length).toBeGreaterThan(140);
    for (const i of items) {
      const c = i.coverage;
      if (c.regions_held > 0) {
        expect(c.start).not.toBeNull();
        expect(c.end).not.toBeNull();
        expect(c.note).toStartWith("Held for ");
      } else {
        expect(["fetch_on_request", "computed_from_inputs", "not_available"]).toContain(c.other_regions);
        expect(c.note).toStartWith("Not held yet");
        if (c.other_regions === "not_available")
          expect(c.note).toContain(`svc import FILE.csv --indicator ${i.code} --region `);
      }
    }
    const heldPage = indicatorListResponseSchema.parse(await get("/v1/indicators?has_data=true&limit=100"));
    const emptyPage = indicatorListResponseSchema.parse(await get("/v1/indicators?has_data=false&limit=100"));
    expect(heldPage.meta.total + emptyPage.meta.total).toBe(items.length);
    const held = items.filter((i) => i.coverage.regions_held > 0);
    expect(heldPage.data.every((i) => i.coverage.regions_held > 0)).toBe(true);
    expect(held.every((i) => i.coverage.regions_held > 0)).toBe(true);
    expect(held.map((i) => i.code)).toEqual(
      expect.arrayContaining([
        "UNRATE",
        "CPIAUCSL",
        "LASST03",
        "LASST04",
        "LASST05",
        "LASST06",
        "LAUST03A",
        "LAUCN03A",
        "ENU10010",
        "ENU50010",
        "POPESTIMATE",
        "NY.GDP.MKTP.CD",
        "FP.CPI.TOTL.ZG",
        "SL.UEM.TOTL.ZS",
        "NY.GDP.MKTP.KD.ZG",
        "NY.GDP.PCAP.CD",
        "PPIACO",
        "T10YIE",
      ]),
    );
    expect((await t.app.request("/v1/indicators?has_data=yes")).status).toBe(400);
  });
});
