// The BLS connector against the fake BLS API: real LAUS values, periods and footnotes, annual averages, batching at
// and past the per-query limits of v2 (key) and v1 (none), and BLS's refusals.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { UpstreamError, type SeriesRef } from "../../src/upstream";
import { FakeUpstream, type BlsDatum } from "../support/fake-upstream";
import { catalogEntry, harness, lausAnnualEntry, regionRow, regionsOfType } from "../support/upstream";
import { blsStateMonthly, ersCountyAnnual } from "../support/upstream-data";

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await FakeUpstream.start();
});
afterEach(() => fake.reset());

// Real values (bls-state-unemployment-monthly): California, unemployed persons, SA. The newest month is marked
// preliminary as BLS does; one month is published as "-" (as BLS did for October 2025).
const CA_UNEMPLOYED: BlsDatum[] = [
  { year: "2019", period: "M11", value: "753741" },
  { year: "2019", period: "M12", value: "754716" },
  { year: "2020", period: "M01", value: "753269" },
  { year: "2020", period: "M02", value: "759328" },
  { year: "2020", period: "M03", value: "-", footnotes: [{ code: "X", text: "Data unavailable." }] },
  { year: "2020", period: "M04", value: "3043334", footnotes: [{ code: "P", text: "Preliminary." }] },
  { year: "2019", period: "M13", value: "760000" },
];
// Real annual averages (ERS copy of LAUS): Los Angeles County, unemployment rate.
const LA_RATE: BlsDatum[] = [
  { year: "2007", period: "M13", value: "5.1" },
  { year: "2008", period: "M13", value: "7.6" },
  { year: "2009", period: "M13", value: "11.6" },
  { year: "2010", period: "M13", value: "12.5" },
  { year: "2010", period: "M12", value: "12.4" },
];

const ref = (seriesId: string, annualAverage = false): SeriesRef => ({
  connector: "bls",
  upstreamId: annualAverage ? `${seriesId}/annual` : seriesId,
  seriesId,
  annualAverage,
});

describe("seriesRef", () => {
  test("LAUS state and county templates; CPS national ids for the US only", () => {
    const { registry } = harness(fake);
    expect(registry.refFor(catalogEntry("bls", "LASST04"), regionRow("06"))).toEqual(ref("LASST060000000000004"));
    expect(registry.refFor(catalogEntry("bls", "LASST04"), regionRow("06037"))).toBeNull();
    expect(registry.refFor(catalogEntry("bls", "LAUCN03"), regionRow("06037"))).toEqual(ref("LAUCN060370000000003"));
    expect(registry.refFor(catalogEntry("bls", "LAUCN03"), regionRow("06"))).toBeNull();
    expect(registry.refFor(catalogEntry("bls", "LNU04032231"), regionRow("US"))).toEqual(ref("LNU04032231"));
    expect(registry.refFor(catalogEntry("bls", "LNU04032231"), regionRow("06"))).toBeNull();
  });

  test("annual-average entries need a key (v1 has no annual averages)", () => {
    const entry = lausAnnualEntry("county", "03");
    expect(harness(fake).registry.refFor(entry, regionRow("06037"))).toEqual(ref("LAUCN060370000000003", true));
    expect(harness(fake, { blsKey: false }).registry.refFor(entry, regionRow("06037"))).toBeNull();
    expect(harness(fake).registry.refFor(lausAnnualEntry("state", "06"), regionRow("48"))).toEqual(
      ref("LAUST480000000000006", true),
    );
  });
});

describe("mapping", () => {
  test("monthly: M01..M12 dated the 1st, '-' missing, footnote P preliminary, M13 left out, no update time", async () => {
    fake.setBlsSeries("LASST060000000000004", CA_UNEMPLOYED);
    const { registry } = harness(fake);
    const [s] = await registry.connector("bls").fetch([ref("LASST060000000000004")]);
    expect(s.observations).toEqual([
      { date: "2019-11-01", value: 753741, isPreliminary: false },
      { date: "2019-12-01", value: 754716, isPreliminary: false },
      { date: "2020-01-01", value: 753269, isPreliminary: false },
      { date: "2020-02-01", value: 759328, isPreliminary: false },
      { date: "2020-03-01", value: null, isPreliminary: false },
      { date: "2020-04-01", value: 3043334, isPreliminary: true },
    ]);
    expect(s.sourceUpdatedAt).toBeNull();
    // v2 with the key; no annual averages asked for a monthly series.
    const body = fake.requests[0].body;
    expect(fake.requests[0].path).toBe("/bls/v2/timeseries/data/");
    expect(body).toEqual({
      seriesid: ["LASST060000000000004"],
      startyear: "2007",
      endyear: "2026",
      registrationkey: fake.keys.bls,
    });
  });

  test("annual average: annualaverage requested, only M13 kept, dated January 1", async () => {
    fake.setBlsSeries("LAUCN060370000000003", LA_RATE);
    const { registry } = harness(fake);
    const [annual, monthly] = await registry
      .connector("bls")
      .fetch([ref("LAUCN060370000000003", true), ref("LAUCN060370000000003")]);
    expect(annual.observations.map((o) => [o.date, o.value])).toEqual([
      ["2007-01-01", 5.1],
      ["2008-01-01", 7.6],
      ["2009-01-01", 11.6],
      ["2010-01-01", 12.5],
    ]);
    expect(monthly.observations.map((o) => [o.date, o.value])).toEqual([["2010-12-01", 12.4]]);
    // One series id asked once, with annual averages, for both refs.
    expect(fake.requests[0].body).toMatchObject({ seriesid: ["LAUCN060370000000003"], annualaverage: true });
  });

  test("quarterly (Q01..Q04 quarter starts), half-year and annual periods; Q05 left out of a quarterly series", async () => {
    fake.setBlsSeries("CIU1010000000000A", [
      { year: "2023", period: "Q03", value: "4.3" },
      { year: "2023", period: "Q04", value: "4.2" },
      { year: "2024", period: "Q01", value: "4.8" },
      { year: "2023", period: "Q05", value: "4.4" },
    ]);
    fake.setBlsSeries("CUUS0000SA0", [
      { year: "2023", period: "S01", value: "302.0" },
      { year: "2023", period: "S02", value: "306.0" },
    ]);
    fake.setBlsSeries("OEUN000000000000000000004", [{ year: "2023", period: "A01", value: "65470" }]);
    const { registry } = harness(fake);
    const out = await registry
      .connector("bls")
      .fetch([ref("CIU1010000000000A"), ref("CUUS0000SA0"), ref("OEUN000000000000000000004")], { start: "2023-01-01" });
    expect(out.map((s) => s.observations.map((o) => [o.date, o.value]))).toEqual([
      [
        ["2023-07-01", 4.3],
        ["2023-10-01", 4.2],
        ["2024-01-01", 4.8],
      ],
      [
        ["2023-01-01", 302],
        ["2023-07-01", 306],
      ],
      [["2023-01-01", 65470]],
    ]);
  });

  test("without a start, windows go back only until a series' data ends (LAUS counties from 1990)", async () => {
    fake.setBlsSeries("LAUCN060370000000003", LA_RATE);
    fake.setBlsSeries("LASST060000000000004", CA_UNEMPLOYED);
    const { registry } = harness(fake);
    await registry.connector("bls").fetch([ref("LAUCN060370000000003", true)]);
    // 2007-2026 had data; 1990-2006 (the county program's start) came back empty: done.
    expect(fake.requests.map((r) => [r.body.startyear, r.body.endyear])).toEqual([
      ["2007", "2026"],
      ["1990", "2006"],
    ]);
    fake.reset();
    await registry.connector("bls").fetch([ref("LASST060000000000004")]);
    // A state series: data 2019-2020, so the 1987-2006 window is empty and 1976-1986 is never asked.
    expect(fake.requests.map((r) => [r.body.startyear, r.body.endyear])).toEqual([
      ["2007", "2026"],
      ["1987", "2006"],
    ]);
  });

  test("a range limits the windows and the observations", async () => {
    fake.setBlsSeries("LASST060000000000004", CA_UNEMPLOYED);
    const { registry } = harness(fake);
    const [s] = await registry
      .connector("bls")
      .fetch([ref("LASST060000000000004")], { start: "2020-02-01", end: "2020-12-31" });
    expect(s.observations.map((o) => o.date)).toEqual(["2020-02-01", "2020-03-01", "2020-04-01"]);
    expect(fake.requests.map((r) => [r.body.startyear, r.body.endyear])).toEqual([["2020", "2020"]]);
  });

  test.skipIf(!blsStateMonthly())("every state of the real file in one query, 1976-2020", async () => {
    const data = blsStateMonthly()!;
    for (const [id, d] of data) fake.setBlsSeries(id, d);
    const { registry } = harness(fake);
    const refs = [...data.keys()].map((id) => ref(id));
    const out = await registry.connector("bls").fetch(refs);
    expect(refs).toHaveLength(50);
    expect(fake.violations).toEqual([]);
    // 50 series fit one query: three 20-year windows back to 1976, then nothing older.
    expect(fake.requests.map((r) => [r.body.seriesid.length, r.body.startyear, r.body.endyear])).toEqual([
      [50, "2007", "2026"],
      [50, "1987", "2006"],
      [50, "1976", "1986"],
    ]);
    const ca = out.find((s) => s.ref.upstreamId === "LASST060000000000004")!;
    expect(ca.observations).toHaveLength(data.get("LASST060000000000004")!.length);
    expect(ca.observations.find((o) => o.date === "2020-04-01")!.value).toBe(3043334);
    expect(ca.observations[0]).toEqual({ date: "1976-01-01", value: 889057, isPreliminary: false });
  });
});

describe("batching at the per-query limits", () => {
  const counties = regionsOfType("county");
  const ids = (n: number) => counties.slice(0, n).map((c) => `LAUCN${c.code}0000000003`);
  const load = (list: string[]) =>
    list.forEach((id) =>
      fake.setBlsSeries(id, [
        { year: "2024", period: "M13", value: "4.1" },
        { year: "2024", period: "M12", value: "4.0" },
      ]),
    );
  const asked = () => fake.requests.map((r) => r.body.seriesid.length);

  test("with a key: 50 series are one query, 51 are two (50 + 1), 20 years each", async () => {
    load(ids(51));
    const { registry } = harness(fake);
    const conn = registry.connector("bls");
    expect(conn.batchSize).toBe(50);
    await conn.fetch(
      ids(50).map((id) => ref(id)),
      { start: "2024-01-01" },
    );
    expect(asked()).toEqual([50]);
    fake.reset();
    const out = await conn.fetch(
      ids(51).map((id) => ref(id)),
      { start: "2024-01-01" },
    );
    expect(asked()).toEqual([50, 1]);
    expect(out.every((s) => s.observations.length === 1)).toBe(true);
    fake.reset();
    await conn.fetch([ref(ids(1)[0])], { start: "1990-01-01", end: "2026-12-31" });
    expect(fake.requests.map((r) => [r.body.startyear, r.body.endyear])).toEqual([
      ["2007", "2026"],
      ["1990", "2006"],
    ]);
    expect(fake.violations).toEqual([]);
  });

  test("without a key (v1): 25 series are one query, 26 are two (25 + 1), 10 years each", async () => {
    load(ids(26));
    const { registry } = harness(fake, { blsKey: false });
    const conn = registry.connector("bls");
    expect(conn.batchSize).toBe(25);
    await conn.fetch(
      ids(25).map((id) => ref(id)),
      { start: "2024-01-01" },
    );
    expect(asked()).toEqual([25]);
    fake.reset();
    await conn.fetch(
      ids(26).map((id) => ref(id)),
      { start: "2024-01-01" },
    );
    expect(asked()).toEqual([25, 1]);
    expect(
      fake.requests.every(
        (r) =>
          r.path === "/bls/v1/timeseries/data/" &&
          r.body.registrationkey === undefined &&
          r.body.annualaverage === undefined,
      ),
    ).toBe(true);
    fake.reset();
    await conn.fetch([ref(ids(1)[0])], { start: "1997-01-01", end: "2026-12-31" });
    expect(fake.requests.map((r) => [r.body.startyear, r.body.endyear])).toEqual([
      ["2017", "2026"],
      ["2007", "2016"],
      ["1997", "2006"],
    ]);
    expect(fake.violations).toEqual([]);
  });

  test.skipIf(!ersCountyAnnual())(
    "every county's real annual averages: 50 per query, each series mapped to its own values",
    async () => {
      const data = ersCountyAnnual()!;
      const rate = [...data].filter(([id]) => id.endsWith("03"));
      for (const [id, d] of rate) fake.setBlsSeries(id, d);
      const { registry } = harness(fake);
      const out = await registry.connector("bls").fetch(
        rate.map(([id]) => ref(id, true)),
        { start: "2007-01-01", end: "2018-12-31" },
      );
      expect(fake.requests).toHaveLength(Math.ceil(rate.length / 50));
      expect(fake.violations).toEqual([]);
      const la = out.find((s) => s.ref.upstreamId === "LAUCN060370000000003/annual")!;
      expect(la.observations.slice(0, 4).map((o) => o.value)).toEqual([5.1, 7.6, 11.6, 12.5]);
      const loving = out.find((s) => s.ref.upstreamId === "LAUCN483010000000003/annual")!;
      expect(loving.observations[0]).toEqual({ date: "2007-01-01", value: 7.3, isPreliminary: false });
      // 63 queries of 50 series through the fake's HTTP server: 1.4-2.7 s in CI, over the 5 s default once under load.
    },
    60_000,
  );
});

describe("refusals and errors", () => {
  test("'Series does not exist' fails that series only", async () => {
    fake.setBlsSeries("LASST060000000000004", CA_UNEMPLOYED);
    const { registry } = harness(fake);
    const [ok, gone] = await registry
      .connector("bls")
      .fetch([ref("LASST060000000000004"), ref("LAUCN091100000000003")], { start: "2020-01-01" });
    expect(ok.observations).toHaveLength(4);
    expect(ok.error).toBeUndefined();
    expect(gone.observations).toEqual([]);
    expect([gone.error?.kind, gone.error?.retryable]).toEqual(["not_found", false]);
    expect(gone.error?.message).toContain("LAUCN091100000000003");
  });

  test("the daily threshold: a retryable quota error until midnight US Eastern, BLS paused meanwhile", async () => {
    fake.setBlsSeries("LASST060000000000004", CA_UNEMPLOYED);
    // 2026-01-15 12:00 UTC is 07:00 EST: 17 hours to go.
    const { registry } = harness(fake, { at: "2026-01-15T12:00:00Z" });
    fake.blsRefuse(
      "Request could not be serviced, as the daily threshold for total number of requests allocated to the user has been reached.",
    );
    const e = (await registry
      .connector("bls")
      .fetch([ref("LASST060000000000004")])
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.status, e.retryable, e.retryAfterSeconds]).toEqual(["quota", 200, true, 17 * 3600]);
    expect(e.message).toContain("REQUEST_NOT_PROCESSED");
    expect(fake.count("bls")).toBe(1);
    const again = (await registry
      .connector("bls")
      .fetch([ref("LASST060000000000004")])
      .catch((x) => x)) as UpstreamError;
    expect([again.kind, again.retryable, again.retryAfterSeconds]).toEqual(["rate_limited", true, 17 * 3600]);
    expect(fake.count("bls")).toBe(1);
  });

  test("other REQUEST_NOT_PROCESSED answers (capacity) back off and retry", async () => {
    fake.setBlsSeries("LASST060000000000004", CA_UNEMPLOYED);
    const { registry, slept } = harness(fake);
    fake.blsRefuse("Request could not be serviced at this time. Please try again later.", 2);
    const [s] = await registry.connector("bls").fetch([ref("LASST060000000000004")], { start: "2020-01-01" });
    expect(s.observations).toHaveLength(4);
    expect(slept).toEqual([1000, 2000]);
  });

  test("503 is over capacity and retried", async () => {
    fake.setBlsSeries("LASST060000000000004", CA_UNEMPLOYED);
    const { registry, slept } = harness(fake);
    fake.failNext("bls", 503, { retryAfter: 30 });
    await registry.connector("bls").fetch([ref("LASST060000000000004")], { start: "2020-01-01" });
    expect(slept).toEqual([30_000]);
    expect(fake.count("bls")).toBe(2);
  });

  test("an invalid key is an auth error with the key scrubbed from BLS's message", async () => {
    const { registry } = harness(fake);
    fake.blsRefuse(`The key:${fake.keys.bls} provided by the User is invalid.`);
    const e = (await registry
      .connector("bls")
      .fetch([ref("LASST060000000000004")])
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.retryable]).toEqual(["auth", false]);
    expect(e.message).not.toContain(fake.keys.bls);
    expect(e.message).toContain("The key:*** provided by the User is invalid.");
  });

  test("a failure in an older window fails the whole call (nothing half-fetched)", async () => {
    fake.setBlsSeries("LASST060000000000004", CA_UNEMPLOYED);
    const { registry } = harness(fake, { maxAttempts: 1 });
    // The first window succeeds; the second is refused for good.
    fake.replyNext(
      "bls",
      200,
      await (
        await fetch(`${fake.url}/bls/v2/timeseries/data/`, {
          method: "POST",
          body: JSON.stringify({
            seriesid: ["LASST060000000000004"],
            startyear: "2007",
            endyear: "2026",
            registrationkey: fake.keys.bls,
          }),
        })
      ).text(),
    );
    fake.replyNext(
      "bls",
      200,
      JSON.stringify({ status: "REQUEST_FAILED", responseTime: 1, message: ["Invalid parameters"], Results: {} }),
    );
    const e = (await registry
      .connector("bls")
      .fetch([ref("LASST060000000000004")])
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.retryable]).toEqual(["bad_request", false]);
  });
});
