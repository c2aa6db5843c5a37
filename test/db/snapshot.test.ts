// The seeded snapshot read through the API, checked against the shipped raw files with this test's own arithmetic
// (not the seed's parsers): the latest unemployment rate, CPI inflation around the missing October 2025, a county's
// population, Connecticut's planning regions, a country's GDP, aggregates that are not countries, and coverage.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { indicatorListResponseSchema } from "../../src/schemas/catalog";
import { makeTestApp, type TestApp } from "../support/app";
import { testBackend } from "../support/db";
import { snapshotText } from "../support/snapshot";

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

/** `date,value` rows of a shipped FRED file, split by hand. */
function fredRows(code: string): [string, string][] {
  return snapshotText(`fred-macro-us/${code}.csv.gz`).trim().split("\n").slice(1).map((l) => l.split(",") as [string, string]);
}

/** A quoted CSV line split on commas outside quotes (enough for these files). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === "," && !quoted) (out.push(cur), (cur = ""));
    else cur += ch;
  }
  out.push(cur);
  return out;
}

describe(`the seeded snapshot against its raw files (${testBackend})`, () => {
  test("latest UNRATE is the file's last non-empty value, November 2025", async () => {
    const rows = fredRows("UNRATE");
    const last = [...rows].reverse().find(([, v]) => v !== "")!;
    expect(last).toEqual(["2025-11-01", "4.6"]);
    const body = await get("/v1/observations/latest?indicator=UNRATE");
    expect(body.data).toMatchObject({ period_start: last[0], value: Number(last[1]), unit: "percent" });
    expect(body.meta.resolved_region).toEqual({ code: "US", name: "United States", type: "country" });
    // The concept for the US resolves to the same series.
    const concept = await get("/v1/observations/latest?indicator=unemployment_rate&region=US");
    expect(concept.data.value).toBe(4.6);
    expect(concept.meta.concept).toEqual({ code: "unemployment_rate", resolved_indicator: "UNRATE", source: "fred" });
  });

  test("CPI yoy: November 2025 over November 2024; October 2025 is null (no release), and mom of November has no comparator", async () => {
    const cpi = new Map(fredRows("CPIAUCSL"));
    expect(cpi.get("2025-10-01")).toBe("");
    const yoy = (Number(cpi.get("2025-11-01")) / Number(cpi.get("2024-11-01")) - 1) * 100;
    const body = await get("/v1/observations?indicator=CPIAUCSL&transform=yoy&start_date=2025-09-01&end_date=2025-11-01&order=asc");
    expect(body.data.map((r: any) => r.date)).toEqual(["2025-09-01", "2025-10-01", "2025-11-01"]);
    expect(body.data[1].value).toBeNull();
    expect(body.data[2].value).toBeCloseTo(yoy, 12);
    expect(body.data[0].value).toBeCloseTo((Number(cpi.get("2025-09-01")) / Number(cpi.get("2024-09-01")) - 1) * 100, 12);
    // mom of November has no comparator (October is missing): null, not a two-month change.
    const mom = await get("/v1/observations?indicator=CPIAUCSL&transform=mom&start_date=2025-11-01&end_date=2025-11-01");
    expect(mom.data[0].value).toBeNull();
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
    const col = (lines: string[], row: string, name: string) => Number(fields(lines.find((l) => l.startsWith(row))!)[fields(lines[0]).indexOf(name)]);
    const old = col(v2020, "040,4,9,06,000,", "POPESTIMATE2020");
    const now = col(v2024, "040,4,9,06,000,", "POPESTIMATE2020");
    expect(old).not.toBe(now);
    const body = await get("/v1/observations?indicator=POPESTIMATE&region=06&start_date=2020-01-01&end_date=2020-01-01&include_revisions=true");
    expect(body.data.map((r: any) => [r.revision, r.value])).toEqual([[1, old], [2, now]]);
  });

  test("Connecticut: the 9 planning regions hold 2020-2024 population; the 8 old counties are not regions", async () => {
    const lines = snapshotText("census-pep-county/co-est2024-alldata.csv.gz", "latin1").split(/\r?\n/);
    const header = fields(lines[0]);
    const ct = lines.filter((l) => l.startsWith("050,1,1,09,")).map(fields);
    expect(ct.map((r) => `09${r[4]}`)).toEqual(["09110", "09120", "09130", "09140", "09150", "09160", "09170", "09180", "09190"]);
    for (const r of ct) {
      const body = await get(`/v1/observations?indicator=POPESTIMATE&region=09${r[4]}&order=asc`);
      expect(body.data.map((o: any) => o.date)).toEqual(["2020-01-01", "2021-01-01", "2022-01-01", "2023-01-01", "2024-01-01"]);
      expect(body.data[4].value).toBe(Number(r[header.indexOf("POPESTIMATE2024")]));
    }
    const old = await t.app.request("/v1/observations?indicator=POPESTIMATE&region=09001");
    expect(old.status).toBe(404);
  });

  test("a country's 2023 GDP from the World Bank file, by alpha-3 mapped to our alpha-2 code", async () => {
    const row = snapshotText("worldbank-country/gdp.csv.gz").split("\n").find((l) => l.includes(",DEU,2023,"))!;
    const value = Number(row.split(",").pop());
    const body = await get("/v1/observations/latest?indicator=gdp&region=DE");
    expect(body.data).toMatchObject({ indicator: "NY.GDP.MKTP.CD", region: "DE", period_start: "2023-01-01", value });
    expect(body.meta.resolved_region).toEqual({ code: "DE", name: "Germany", type: "country", note: "DE is Germany; Delaware is 10 or US-DE." });
  });

  test("aggregates (World, income groups, regions) are not countries: no region holds them", async () => {
    const codes = new Set(snapshotText("worldbank-country/gdp.csv.gz").split("\n").slice(1).map((l) => l.split(",").at(-3)));
    for (const aggregate of ["WLD", "HIC", "LMY", "EUU", "OED", "SSF", "ARB"]) expect(codes.has(aggregate)).toBe(true);
    const held = (await get("/v1/indicators/NY.GDP.MKTP.CD")).data.available_regions as string[];
    const countries = new Set(((await get("/v1/regions?type=country")).data as { code: string }[]).map((r) => r.code));
    expect(held.length).toBeGreaterThan(190);
    for (const code of held) expect(countries.has(code)).toBe(true);
    for (const input of ["WLD", "HIC", "EUU"]) expect((await t.app.request(`/v1/observations/latest?indicator=gdp&region=${input}`)).status).toBe(404);
  });

  test("coverage: every active indicator either holds data or says why not, and how to get it", async () => {
    const all = indicatorListResponseSchema.parse(await get("/v1/indicators?limit=100")).data;
    const rest = indicatorListResponseSchema.parse(await get("/v1/indicators?limit=100&offset=100")).data;
    const items = [...all, ...rest];
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
        if (c.other_regions === "not_available") expect(c.note).toContain(`svc import FILE.csv --indicator ${i.code} --region `);
      }
    }
    const held = indicatorListResponseSchema.parse(await get("/v1/indicators?has_data=true&limit=100")).data;
    const empty = indicatorListResponseSchema.parse(await get("/v1/indicators?has_data=false&limit=100")).data;
    expect(held.length + empty.length).toBe(items.length);
    expect(held.every((i) => i.coverage.regions_held > 0)).toBe(true);
    expect(held.map((i) => i.code)).toEqual(expect.arrayContaining(["UNRATE", "CPIAUCSL", "LASST04", "LAUST03A", "POPESTIMATE", "NY.GDP.MKTP.CD"]));
    expect((await t.app.request("/v1/indicators?has_data=yes")).status).toBe(400);
  });
});
