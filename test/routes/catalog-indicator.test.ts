// GET /v1/indicators/{code}: detail coverage, ambiguity, 404s and envelopes, parsed with the route's schemas (the
// catalog's lists are test/routes/catalog.test.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { catalogApp } from "../support/catalog";
import { fredRows, sahmSeries } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const vega = (file: string) =>
  readFileSync(resolve(import.meta.dir, "../../node_modules/vega-datasets/data", file), "utf8");

const fx = catalogApp();
const { ok, detail, error } = fx;

describe("GET /v1/indicators/{code}", () => {
  test("a national series: PAYEMS with its coverage read from the shipped FRED files (both vintages)", async () => {
    const rows = fredRows("PAYEMS");
    const [first, last] = [rows[0].date, rows.at(-1)!.date];
    const body = await detail("PAYEMS");
    expect(body.meta).toEqual({ ambiguous_with: [] });
    expect(body.data).toEqual({
      id: "23e93bbf-1d3e-537e-b512-d96342d21e32",
      code: "PAYEMS",
      name: "All Employees, Total Nonfarm",
      description: expect.stringContaining("CES0000000001"),
      source: { slug: "fred", name: "FRED, Federal Reserve Bank of St. Louis" },
      category: "labor",
      subcategory: "payrolls",
      access_tier: "free",
      unit: "thousands of persons",
      frequency: "monthly",
      default_region: { code: "US", name: "United States" },
      available_regions: ["US"],
      date_range: { start: first, end: last },
      values: {
        kind: "level",
        span_months: null,
        note: "A level: its growth is its percent change (over 12 months unless asked otherwise), its change the difference.",
      },
      coverage: expect.objectContaining({
        regions_held: 1,
        regions_offered: 1,
        other_regions: "none",
        start: first,
        end: last,
      }),
    });
    expect([first, last]).toEqual(["1939-01-01", "2026-05-01"]);
  });

  test("what the values are: a rate, an index, a change already computed over a year, a 0/1 state", async () => {
    expect((await detail("UNRATE")).data.values).toEqual({
      kind: "rate",
      span_months: null,
      note: "A rate or share: its change is a difference in percentage points, never a percent change.",
    });
    expect((await detail("CPIAUCSL")).data.values.kind).toBe("index");
    expect((await detail("NY.GDP.MKTP.KD.ZG")).data.values).toEqual({
      kind: "change",
      span_months: 12,
      note: "A change already computed over a year: the value is itself the growth or change, never given a percent change or read as a level.",
    });
    expect((await detail("USREC")).data.values.kind).toBe("binary");
  });

  test("a county series: LAUCN03A holds 2000-2024 annual averages; Connecticut's old counties are not regions, its planning regions are", async () => {
    const body = await detail("LAUCN03A");
    expect(body.data.default_region).toEqual({ code: "06037", name: "Los Angeles County" });
    expect(body.data.date_range).toEqual({ start: "2000-01-01", end: "2024-01-01" });
    const regions = body.data.available_regions;
    expect(regions).toContain("06037");
    expect(regions).toContain("10001");
    expect(regions).not.toContain("09001"); // Connecticut's counties are gone: the 2023 and 2024 files have its planning regions
    expect(regions.filter((r) => r.startsWith("09"))).toEqual([
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
    expect(regions).toEqual([...regions].sort());
    // The test database holds the counties of California, Connecticut and Delaware, and Hawaii County (test/support/db.ts).
    expect(regions.length).toBe(58 + 9 + 3 + 1);
    expect(body.data.coverage).toMatchObject({
      regions_held: 71,
      regions_offered: 3144,
      other_regions: "not_available",
      fetch_via: null,
    });
    expect(body.data.coverage.note).toBe(
      "Held for 71 of 3,144 counties, 2000-01-01 to 2024-01-01; the others cannot be fetched by this deployment: an operator loads a region with `svc import FILE.csv --indicator LAUCN03A --region 06037`.",
    );
  });

  test("a derived series: svc:sahm_rule is premium, from the svc source, also by its encoded path", async () => {
    const body = await detail("svc:sahm_rule");
    expect(body.data.code).toBe("svc:sahm_rule");
    expect(body.data.access_tier).toBe("premium");
    expect(body.data.source).toEqual({ slug: "svc", name: "Derived series (this service)" });
    expect(body.data.description).toContain("UNRATE");
    // Derived by the seed from the held UNRATE (as a first start derives it), over every month UNRATE has.
    expect(body.data.available_regions).toEqual(["US"]);
    const sahm = sahmSeries();
    expect(body.data.date_range).toEqual({ start: sahm[0].date, end: sahm.at(-1)!.date });
    expect(await detail("svc%3Asahm_rule")).toEqual(body);
  });

  test("codes with dots: SP.POP.TOTL and a state series ELEC.GEN.NUC-99.A with Iowa's history", async () => {
    const pop = await detail("SP.POP.TOTL");
    expect(pop.data.source?.slug).toBe("worldbank");
    expect(pop.data.default_region).toEqual({ code: "US", name: "United States" });
    const nuc = await detail("ELEC.GEN.NUC-99.A");
    const years = vega("iowa-electricity.csv")
      .trim()
      .split("\n")
      .slice(1)
      .filter((l) => l.includes("Nuclear"))
      .map((l) => l.split(",")[0]);
    expect(nuc.data.available_regions).toEqual(["19"]);
    expect(nuc.data.default_region).toEqual({ code: "19", name: "Iowa" });
    expect(nuc.data.date_range).toEqual({ start: years[0], end: years[years.length - 1] });
  });

  test("ambiguous code: LNU04032231 is published by BLS and republished by FRED", async () => {
    const original = await detail("LNU04032231");
    expect(original.data.source?.slug).toBe("bls");
    expect(original.meta.ambiguous_with).toEqual(["fred"]);
    expect(original.data.available_regions).toEqual([]); // not held, and no upstream configured in tests
    expect(original.data.coverage.other_regions).toBe("not_available");
    const fred = await detail("LNU04032231?source=fred");
    expect(fred.data.source?.slug).toBe("fred");
    expect(fred.data.id).not.toBe(original.data.id);
    expect(fred.meta.ambiguous_with).toEqual(["bls"]);
    const bls = await detail("LNU04032231?source=bls");
    expect(bls).toEqual(original);
  });

  test("codes match ignoring case when no code matches exactly", async () => {
    expect((await detail("payems")).data.code).toBe("PAYEMS");
  });

  test("code length at its bound (200) is looked up, one past is a 400", async () => {
    expect((await error(`/v1/indicators/${"C".repeat(200)}`, 404, "RESOURCE_NOT_FOUND")).details?.code).toBe(
      "C".repeat(200),
    );
    expect((await error(`/v1/indicators/${"C".repeat(201)}`, 400, "INVALID_PARAMETER")).details?.parameter).toBe(
      "code",
    );
    expect(
      (await error(`/v1/indicators/UNRATE?source=${"s".repeat(65)}`, 400, "INVALID_PARAMETER")).details?.parameter,
    ).toBe("source");
  });

  test("404 unknown code names the code", async () => {
    const e = await error("/v1/indicators/NOT_A_SERIES", 404, "RESOURCE_NOT_FOUND");
    expect(e.message).toContain("NOT_A_SERIES");
    expect(e.details?.code).toBe("NOT_A_SERIES");
  });

  test("404 unknown source names the source", async () => {
    const e = await error("/v1/indicators/UNRATE?source=imf", 404, "RESOURCE_NOT_FOUND");
    expect(e.message).toContain("'imf'");
    expect(e.details?.source).toBe("imf");
  });

  test("404 when the source does not publish the code names both and where it is published", async () => {
    const e = await error("/v1/indicators/PAYEMS?source=bls", 404, "RESOURCE_NOT_FOUND");
    expect(e.message).toContain("PAYEMS");
    expect(e.message).toContain("bls");
    expect(e.details?.available_sources).toEqual(["fred"]);
  });

  test("an inactive indicator is a 404 that says so, and is served with include_inactive=true", async () => {
    const e = await error("/v1/indicators/OILPRICE", 404, "RESOURCE_NOT_FOUND");
    expect(e.message).toContain("include_inactive=true");
    const body = await detail("OILPRICE?include_inactive=true");
    expect(body.data.code).toBe("OILPRICE");
    await error("/v1/indicators/OILPRICE?include_inactive=1", 400, "INVALID_PARAMETER");
  });
});
