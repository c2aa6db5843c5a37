// The World Bank connector against the fake Indicators API: real WDI values, paging, "all" with aggregates that
// are not countries, alpha-3 to alpha-2 (Kosovo's XKX), and the API's error envelope.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { UpstreamError, type SeriesRef } from "../../src/upstream";
import { FakeUpstream, type WbRow } from "../support/fake-upstream";
import { catalogEntry, harness, regionRow, regionsOfType } from "../support/upstream";
import { worldBankCsv } from "../support/upstream-data";

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await FakeUpstream.start();
});
afterEach(() => fake.reset());

// Real WDI GDP, current US$ (worldbank-country/gdp.csv), with the aggregates the API mixes into "all" answers.
const GDP: WbRow[] = [
  { iso2: "US", iso3: "USA", name: "United States", date: "2021", value: 23594031000000.0 },
  { iso2: "US", iso3: "USA", name: "United States", date: "2022", value: 25744108000000.0 },
  { iso2: "US", iso3: "USA", name: "United States", date: "2023", value: 27360935000000.0 },
  { iso2: "US", iso3: "USA", name: "United States", date: "2024", value: null },
  { iso2: "DE", iso3: "DEU", name: "Germany", date: "2022", value: 4082469490797.681 },
  { iso2: "DE", iso3: "DEU", name: "Germany", date: "2023", value: 4456081016705.961 },
  { iso2: "XK", iso3: "XKX", name: "Kosovo", date: "2023", value: 10438351483.167696 },
  { iso2: "1W", iso3: "WLD", name: "World", date: "2023", value: 105435039507024.1 },
  { iso2: "XC", iso3: "EMU", name: "Euro area", date: "2023", value: 15544858680873.797 },
];

const ref = (code: string): SeriesRef => {
  const r = regionRow(code);
  return {
    connector: "worldbank",
    upstreamId: `NY.GDP.MKTP.CD/${code}`,
    indicator: "NY.GDP.MKTP.CD",
    iso2: code,
    iso3: r.aliases.filter((a) => /^[A-Z]{3}$/.test(a)),
  };
};

describe("seriesRef", () => {
  test("countries only, with every alpha-3 alias", () => {
    const { registry } = harness(fake);
    const entry = catalogEntry("worldbank", "NY.GDP.MKTP.CD");
    expect(registry.refFor(entry, regionRow("DE"))).toEqual({
      connector: "worldbank",
      upstreamId: "NY.GDP.MKTP.CD/DE",
      indicator: "NY.GDP.MKTP.CD",
      iso2: "DE",
      iso3: ["DEU"],
    });
    expect(registry.refFor(entry, regionRow("XK"))).toMatchObject({ iso2: "XK", iso3: ["XKK", "XKX"] });
    expect(registry.refFor(entry, regionRow("06"))).toBeNull();
    expect(registry.refFor(entry, regionRow("06037"))).toBeNull();
  });
});

describe("mapping", () => {
  test("numbers and nulls, years dated Jan 1, lastupdated as the update time, Kosovo matched by XKX", async () => {
    fake.setWorldBank("NY.GDP.MKTP.CD", "GDP (current US$)", GDP, "2025-07-01");
    const { registry } = harness(fake);
    const [us, de, xk] = await registry.connector("worldbank").fetch([ref("US"), ref("DE"), ref("XK")]);
    expect(us.observations).toEqual([
      { date: "2021-01-01", value: 23594031000000, isPreliminary: false },
      { date: "2022-01-01", value: 25744108000000, isPreliminary: false },
      { date: "2023-01-01", value: 27360935000000, isPreliminary: false },
      { date: "2024-01-01", value: null, isPreliminary: false },
    ]);
    expect(de.observations.map((o) => o.value)).toEqual([4082469490797.681, 4456081016705.961]);
    expect(xk.observations).toEqual([{ date: "2023-01-01", value: 10438351483.167696, isPreliminary: false }]);
    expect(us.sourceUpdatedAt).toBe("2025-07-01T00:00:00.000Z");
    // A few countries are named in one request.
    expect(fake.requests.map((r) => r.path)).toEqual(["/worldbank/country/DE;US;XK/indicator/NY.GDP.MKTP.CD"]);
  });

  test("quarterly and monthly dates (2013Q2, 2012M07) start their period", async () => {
    fake.setWorldBank("DT.DOD.DECT.CD.TO.QT", "External debt stocks (quarterly)", [
      { iso2: "DE", iso3: "DEU", name: "Germany", date: "2013Q2", value: 5.5e12 },
      { iso2: "DE", iso3: "DEU", name: "Germany", date: "2012M07", value: 5.4e12 },
    ]);
    const { registry } = harness(fake);
    const [de] = await registry
      .connector("worldbank")
      .fetch([{ ...ref("DE"), upstreamId: "Q/DE", indicator: "DT.DOD.DECT.CD.TO.QT" } as SeriesRef]);
    expect(de.observations.map((o) => o.date)).toEqual(["2012-07-01", "2013-04-01"]);
  });

  test("pages until the last page", async () => {
    fake.setWorldBank("NY.GDP.MKTP.CD", "GDP (current US$)", GDP);
    const { registry } = harness(fake, { pageSize: { worldbank: 2 } });
    const [us] = await registry.connector("worldbank").fetch([ref("US"), ref("DE")]);
    expect(us.observations).toHaveLength(4);
    expect(fake.requests.map((r) => [r.query.page, r.query.per_page])).toEqual([
      ["1", "2"],
      ["2", "2"],
      ["3", "2"],
    ]);
  });

  test("a range becomes date=YYYY:YYYY", async () => {
    fake.setWorldBank("NY.GDP.MKTP.CD", "GDP (current US$)", GDP);
    const { registry } = harness(fake);
    const [us] = await registry.connector("worldbank").fetch([ref("US")], { start: "2022-01-01", end: "2023-12-31" });
    expect(us.observations.map((o) => o.date)).toEqual(["2022-01-01", "2023-01-01"]);
    expect(fake.requests[0].query.date).toBe("2022:2023");
  });

  test("twenty countries or more: one 'all' request; aggregates (World, Euro area) are not taken as countries", async () => {
    fake.setWorldBank("NY.GDP.MKTP.CD", "GDP (current US$)", GDP);
    const { registry } = harness(fake);
    const countries = regionsOfType("country")
      .slice(0, 19)
      .map((c) => c.code);
    const out = await registry.connector("worldbank").fetch([...countries, "US"].map(ref));
    expect(fake.requests.map((r) => r.path)).toEqual(["/worldbank/country/all/indicator/NY.GDP.MKTP.CD"]);
    const total = out.reduce((n, s) => n + s.observations.length, 0);
    expect(total).toBe(4); // the US rows only: World and Euro area rows matched nobody
  });

  test.skipIf(!worldBankCsv("gdp"))("every country of the real GDP file, paged", async () => {
    const rows = worldBankCsv("gdp")!;
    fake.setWorldBank("NY.GDP.MKTP.CD", "GDP (current US$)", rows);
    const { registry } = harness(fake, { pageSize: { worldbank: 1000 } });
    const countries = regionsOfType("country");
    const out = await registry.connector("worldbank").fetch(countries.map((c) => ref(c.code)));
    expect(fake.requests.length).toBe(Math.ceil(rows.length / 1000));
    const us = out.find((s) => s.ref.upstreamId === "NY.GDP.MKTP.CD/US")!;
    expect(us.observations.find((o) => o.date === "2023-01-01")!.value).toBe(27360935000000);
    // Every row of a country with an ISO code landed in its series; aggregate rows landed nowhere.
    const stored = out.reduce((n, s) => n + s.observations.length, 0);
    const ours = new Set(countries.flatMap((c) => c.aliases.filter((a) => /^[A-Z]{3}$/.test(a))));
    expect(stored).toBe(rows.filter((r) => ours.has(r.iso3)).length);
    expect(rows.some((r) => r.iso3 === "WLD")).toBe(true);
  });
});

describe("errors", () => {
  test("an unknown indicator: the 200 message envelope is a not_found error, not retried", async () => {
    const { registry } = harness(fake);
    const e = (await registry
      .connector("worldbank")
      .fetch([{ ...ref("US"), upstreamId: "NOPE/US", indicator: "NOPE" } as SeriesRef])
      .catch((x) => x)) as UpstreamError;
    expect([e.provider, e.kind, e.status, e.retryable]).toEqual(["worldbank", "not_found", 200, false]);
    expect(e.message).toContain("The provided parameter value is not valid");
    expect(fake.count("worldbank")).toBe(1);
  });

  test("a 502 is retried", async () => {
    fake.setWorldBank("NY.GDP.MKTP.CD", "GDP (current US$)", GDP);
    const { registry, slept } = harness(fake);
    fake.failNext("worldbank", 502);
    const [us] = await registry.connector("worldbank").fetch([ref("US")]);
    expect(us.observations).toHaveLength(4);
    expect(slept).toEqual([1000]);
  });
});
