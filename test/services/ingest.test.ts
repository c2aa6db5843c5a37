// ingestSeries over the seeded test database and the fake upstream: first fetch, an identical second fetch that
// changes nothing, a revised value that becomes a new revision, batches across connectors, and upstream failures
// that write nothing.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, asc, eq } from "drizzle-orm";
import type { Database, Db } from "../../db/client";
import { findIndicatorsByCode } from "../../db/repos/catalog";
import { findSeries } from "../../db/repos/observations";
import { listRegions } from "../../db/repos/regions";
import { observations } from "../../db/schema";
import { ingestOne, ingestSeries, type IngestContext, type IngestTarget } from "../../src/services/ingest";
import { UpstreamError } from "../../src/upstream";
import type { ManualClock } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { FakeUpstream, type BlsDatum } from "../support/fake-upstream";
import { clearSeries } from "../support/series";
import { harness } from "../support/upstream";

setDefaultTimeout(120_000);

let database: Database;
let db: Db;
let fake: FakeUpstream;
let regions: Awaited<ReturnType<typeof listRegions>>;

const NOT_HELD = [
  ["fred", "UNRATE", "US"],
  ["fred", "CPIAUCSL", "US"],
  ["bls", "LASST04", "06"],
  ["bls", "LASST03", "06"], // the snapshot's monthly state LAUS holds every state's rate
  ["worldbank", "SP.POP.TOTL", "DE"],
  ["worldbank", "SP.POP.TOTL", "FR"],
] as const;

beforeAll(async () => {
  [database, fake] = await Promise.all([makeTestDatabase(), FakeUpstream.start()]);
  db = database.db;
  regions = await listRegions(db);
  // The seed holds the real snapshot: the series these tests fetch from nothing are removed first.
  for (const [source, code, region] of NOT_HELD) await clearSeries(db, source, code, region);
}, 120_000);
afterAll(async () => {
  await database?.close();
});
afterEach(() => fake.reset());

function ctx(opts: Parameters<typeof harness>[1] = {}): IngestContext & { clock: ManualClock; slept: number[] } {
  const h = harness(fake, opts);
  return { db, upstream: h.registry, clock: h.clock, slept: h.slept };
}

async function target(code: string, region: string, source?: string): Promise<IngestTarget> {
  const found = (await findIndicatorsByCode(db, code, true)).filter((i) => !source || i.sourceSlug === source);
  if (found.length !== 1) throw new Error(`indicator ${code}: ${found.length} rows`);
  const r = regions.find((x) => x.code === region)!;
  return { indicator: found[0], region: r };
}

async function stored(indicatorId: string, region: string) {
  const s = await findSeries(db, indicatorId, region);
  if (!s) return null;
  const rows = await db
    .select({
      date: observations.date,
      revision: observations.revision,
      value: observations.value,
      isLatest: observations.isLatest,
      isPreliminary: observations.isPreliminary,
      sourceUpdatedAt: observations.sourceUpdatedAt,
    })
    .from(observations)
    .where(eq(observations.seriesId, s.id))
    .orderBy(asc(observations.date), asc(observations.revision));
  return { series: s, rows };
}

// Real FRED values (fred-macro-us/UNRATE.csv); October 2025 was published with no value.
const UNRATE = [
  ["2020-01-01", "3.6"],
  ["2020-02-01", "3.5"],
  ["2020-03-01", "4.4"],
  ["2020-04-01", "14.8"],
  ["2020-05-01", "13.2"],
  ["2025-09-01", "4.4"],
  ["2025-10-01", "."],
  ["2025-11-01", "4.6"],
].map(([date, value]) => ({ date, value }));

describe("first fetch, an identical second fetch, a revision", () => {
  test("UNRATE: inserted, then unchanged (nothing written), then one revision", async () => {
    fake.setFredSeries(
      "UNRATE",
      UNRATE.map((o) => ({ ...o })),
      "2026-01-09 07:46:03-06",
    );
    const c = ctx();
    const t = await target("UNRATE", "US", "fred");

    const [first] = await ingestSeries(c, [t]);
    expect(first).toMatchObject({
      indicator: "UNRATE",
      source: "fred",
      region: "US",
      status: "ok",
      observations: 8,
      inserted: 8,
      revised: 0,
      unchanged: 0,
      error: null,
    });
    expect(first.sourceUpdatedAt).toBe("2026-01-09T13:46:03.000Z");
    const afterFirst = (await stored(t.indicator.id, "US"))!;
    expect(afterFirst.series.observationCount).toBe(8);
    expect(afterFirst.rows.find((r) => r.date === "2025-10-01")).toMatchObject({
      value: null,
      revision: 1,
      isLatest: true,
    });
    expect(new Date(afterFirst.rows[0].sourceUpdatedAt!).toISOString()).toBe("2026-01-09T13:46:03.000Z");

    c.clock.advance(86_400_000);
    const [second] = await ingestSeries(c, [t]);
    expect(second).toMatchObject({ status: "ok", inserted: 0, revised: 0, unchanged: 8 });
    const afterSecond = (await stored(t.indicator.id, "US"))!;
    expect(afterSecond.series.version).toBe(afterFirst.series.version);
    expect(afterSecond.series.updatedAt).toEqual(afterFirst.series.updatedAt);
    expect(afterSecond.rows).toHaveLength(8);

    // BLS revises April 2020 and FRED publishes the new value; October stays missing.
    fake.revise("fred", "UNRATE", "2020-04-01", "14.7");
    const [third] = await ingestSeries(c, [t]);
    expect(third).toMatchObject({ status: "ok", inserted: 0, revised: 1, unchanged: 7 });
    const afterThird = (await stored(t.indicator.id, "US"))!;
    expect(afterThird.series.version).toBe(afterFirst.series.version + 1);
    expect(
      afterThird.rows.filter((r) => r.date === "2020-04-01").map((r) => [r.revision, r.value, r.isLatest]),
    ).toEqual([
      [1, 14.8, false],
      [2, 14.7, true],
    ]);
  });

  test("BLS: a preliminary value that is finalised unchanged is a revision of the flag; a new month is inserted", async () => {
    const data: BlsDatum[] = [
      { year: "2020", period: "M03", value: "1052163" },
      { year: "2020", period: "M04", value: "3043334", footnotes: [{ code: "P", text: "Preliminary." }] },
    ];
    fake.setBlsSeries("LASST060000000000004", data);
    const c = ctx();
    const t = await target("LASST04", "06", "bls");
    const range = { start: "2020-01-01" };
    expect((await ingestSeries(c, [t], { range }))[0]).toMatchObject({ status: "ok", inserted: 2 });
    fake.revise("bls", "LASST060000000000004", "2020 M04", "3043334", [{}]);
    fake.setBlsSeries("LASST060000000000004", [
      ...fake.bls.get("LASST060000000000004")!,
      { year: "2020", period: "M05", value: "3018224", footnotes: [{ code: "P", text: "Preliminary." }] },
    ]);
    expect((await ingestSeries(c, [t], { range }))[0]).toMatchObject({
      status: "ok",
      inserted: 1,
      revised: 1,
      unchanged: 1,
    });
    const s = (await stored(t.indicator.id, "06"))!;
    expect(s.rows.filter((r) => r.isLatest).map((r) => [r.date, r.value, r.isPreliminary, r.revision])).toEqual([
      ["2020-03-01", 1052163, false, 1],
      ["2020-04-01", 3043334, false, 2],
      ["2020-05-01", 3018224, true, 1],
    ]);
  });
});

describe("nothing is written when the upstream fails", () => {
  test("a refused series: failed with the provider's error, no series created", async () => {
    const c = ctx();
    const t = await target("CPIAUCSL", "US", "fred");
    const [r] = await ingestSeries(c, [t]);
    expect(r.status).toBe("failed");
    expect(r.error).toBeInstanceOf(UpstreamError);
    expect([r.error!.provider, r.error!.kind, r.error!.retryable]).toEqual(["fred", "not_found", false]);
    expect(await findSeries(db, t.indicator.id, "US")).toBeNull();
    await expect(ingestOne(c, t)).rejects.toBeInstanceOf(UpstreamError);
  });

  test("a failure on a refresh leaves the held series exactly as it was", async () => {
    fake.setFredSeries(
      "UNRATE",
      UNRATE.map((o) => ({ ...o })),
    );
    const c = ctx({ maxAttempts: 2 });
    const t = await target("UNRATE", "US", "fred");
    await ingestSeries(c, [t]);
    const before = (await stored(t.indicator.id, "US"))!;
    fake.revise("fred", "UNRATE", "2020-05-01", "13.0");
    fake.failNext("fred", 503, { times: 2 });
    const [r] = await ingestSeries(c, [t]);
    expect([r.status, r.error?.kind, r.error?.retryable]).toEqual(["failed", "over_capacity", true]);
    expect(await stored(t.indicator.id, "US")).toEqual(before);
  });

  test("one failed batch fails its series only; the other connectors' series are written", async () => {
    fake.setWorldBank("SP.POP.TOTL", "Population, total", [
      { iso2: "DE", iso3: "DEU", name: "Germany", date: "2023", value: 83280000 },
      { iso2: "FR", iso3: "FRA", name: "France", date: "2023", value: 68170228 },
    ]);
    fake.setBlsSeries("LASST060000000000003", [{ year: "2024", period: "M01", value: "5.2" }]);
    const c = ctx({ maxAttempts: 1 });
    fake.blsRefuse(
      "Request could not be serviced, as the daily threshold for total number of requests allocated to the user has been reached.",
    );
    const targets = [
      await target("SP.POP.TOTL", "DE"),
      await target("LASST03", "06", "bls"),
      await target("SP.POP.TOTL", "FR"),
    ];
    const out = await ingestSeries(c, targets, { range: { start: "2020-01-01" } });
    expect(out.map((r) => [r.indicator, r.region, r.status, r.error?.kind ?? null])).toEqual([
      ["SP.POP.TOTL", "DE", "ok", null],
      ["LASST03", "06", "failed", "quota"],
      ["SP.POP.TOTL", "FR", "ok", null],
    ]);
    expect(await findSeries(db, targets[1].indicator.id, "06")).toBeNull();
    expect((await stored(targets[0].indicator.id, "DE"))!.rows.map((r) => r.value)).toEqual([83280000]);
  });
});

describe("batches and edges", () => {
  test("51 counties of one LAUS indicator: two BLS queries; a county BLS does not know fails alone", async () => {
    const counties = regions.filter((r) => r.type === "county").slice(0, 51);
    for (const c of counties.slice(0, 50))
      fake.setBlsSeries(`LAUCN${c.code}0000000006`, [
        { year: "2024", period: "M12", value: String(1000 + Number(c.code.slice(2))) },
      ]);
    const c = ctx();
    const targets = await Promise.all(counties.map((r) => target("LAUCN06", r.code, "bls")));
    const progress: number[] = [];
    const out = await ingestSeries(c, targets, {
      range: { start: "2024-01-01" },
      progress: { start: (_l, n) => progress.push(-n), tick: (n = 1) => progress.push(n), done: () => {} },
    });
    expect(fake.requests.map((r) => r.body.seriesid.length)).toEqual([50, 1]);
    expect(out.filter((r) => r.status === "ok")).toHaveLength(50);
    expect(out[50]).toMatchObject({ status: "failed", region: counties[50].code });
    expect(out[50].error!.kind).toBe("not_found");
    expect(progress).toEqual([-51, 50, 1]);
    const first = (await stored(targets[0].indicator.id, counties[0].code))!;
    expect(first.rows.filter((r) => r.isLatest && r.date === "2024-12-01").map((r) => r.value)).toEqual([
      1000 + Number(counties[0].code.slice(2)),
    ]);
  });

  test("unsupported targets fetch nothing; duplicates share one fetch", async () => {
    fake.setFredSeries(
      "UNRATE",
      UNRATE.map((o) => ({ ...o })),
    );
    const c = ctx();
    const pep = await target("POPESTIMATE", "06");
    const un = await target("UNRATE", "US", "fred");
    const out = await ingestSeries(c, [pep, un, un]);
    expect(out.map((r) => r.status)).toEqual(["unsupported", "ok", "ok"]);
    expect(out[0].ref).toBeNull();
    expect(out[2]).toEqual(out[1]);
    expect(fake.count("fred")).toBe(2); // series + observations, once
    expect(fake.count()).toBe(2);
  });

  test("an empty history is a failure; an empty refresh window is fine", async () => {
    fake.setFredSeries("UNRATE", []);
    const c = ctx();
    const t = await target("UNRATE", "US", "fred");
    const [whole] = await ingestSeries(c, [t]);
    expect([whole.status, whole.error?.kind]).toEqual(["failed", "not_found"]);
    fake.setFredSeries(
      "UNRATE",
      UNRATE.map((o) => ({ ...o })),
    );
    const [quiet] = await ingestSeries(c, [t], { range: { start: "2030-01-01" } });
    expect([quiet.status, quiet.inserted, quiet.observations]).toEqual(["ok", 0, 0]);
  });

  test("Census: every county of a state in one request per year", async () => {
    const la = regions.find((r) => r.code === "06037")!;
    const orange = regions.find((r) => r.code === "06059")!;
    fake.setCensus(2022, "acs/acs5", "06037", { B19013_001E: "83411" });
    fake.setCensus(2022, "acs/acs5", "06059", { B19013_001E: null });
    const c = ctx();
    const targets = await Promise.all([la, orange].map((r) => target("B19013_001E", r.code)));
    const out = await ingestSeries(c, targets, { range: { start: "2022-01-01", end: "2022-12-31" } });
    expect(out.map((r) => [r.region, r.status, r.inserted])).toEqual([
      ["06037", "ok", 1],
      ["06059", "ok", 1],
    ]);
    expect(fake.requests.map((r) => [r.query.for, r.query.in])).toEqual([["county:037,059", "state:06"]]);
    const orangeRows = (await stored(targets[1].indicator.id, "06059"))!.rows;
    expect(orangeRows.map((r) => [r.date, r.value])).toEqual([["2022-01-01", null]]);
  });
});
