// The FRED connector against the fake FRED: mapping of real UNRATE/DGS10/ICSA/GDP values, paging, errors and
// throttling on a manual clock.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { UpstreamError } from "../../src/upstream";
import { FakeUpstream } from "../support/fake-upstream";
import { catalogEntry, harness, regionRow } from "../support/upstream";
import { fredCsv } from "../support/upstream-data";
import { sharedDataMissingMessage } from "../support/shared-data";

let fake: FakeUpstream;
// Real FRED values (fred-macro-us/UNRATE.csv): the April 2020 spike and October 2025, published with no value.
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

beforeAll(async () => {
  fake = await FakeUpstream.start();
});
afterEach(() => fake.reset());

const unrate = () => {
  fake.setFredSeries("UNRATE", UNRATE, "2026-01-09 07:46:03-06");
  return { connector: "fred" as const, upstreamId: "UNRATE", seriesId: "UNRATE" };
};

describe("seriesRef", () => {
  test("a national series for the US only, and only with a key", () => {
    const { registry } = harness(fake);
    const entry = catalogEntry("fred", "UNRATE");
    expect(registry.refFor(entry, regionRow("US"))).toEqual({
      connector: "fred",
      upstreamId: "UNRATE",
      seriesId: "UNRATE",
    });
    expect(registry.refFor(entry, regionRow("06"))).toBeNull();
    expect(registry.refFor(entry, regionRow("DE"))).toBeNull();
    expect(harness(fake, { fredKey: false }).registry.refFor(entry, regionRow("US"))).toBeNull();
  });
});

describe("mapping", () => {
  test("string values, '.' missing, dates as published, the update time from series.last_updated", async () => {
    const { registry } = harness(fake);
    const [s] = await registry.connector("fred").fetch([unrate()]);
    expect(s.observations).toEqual([
      { date: "2020-01-01", value: 3.6, isPreliminary: false },
      { date: "2020-02-01", value: 3.5, isPreliminary: false },
      { date: "2020-03-01", value: 4.4, isPreliminary: false },
      { date: "2020-04-01", value: 14.8, isPreliminary: false },
      { date: "2020-05-01", value: 13.2, isPreliminary: false },
      { date: "2025-09-01", value: 4.4, isPreliminary: false },
      { date: "2025-10-01", value: null, isPreliminary: false },
      { date: "2025-11-01", value: 4.6, isPreliminary: false },
    ]);
    expect(s.sourceUpdatedAt).toBe("2026-01-09T13:46:03.000Z");
    expect(s.error).toBeUndefined();
    // Requests carry the key and ask for JSON, ascending.
    const obs = fake.requests.find((r) => r.path === "/fred/series/observations")!;
    expect(obs.query).toMatchObject({
      series_id: "UNRATE",
      api_key: fake.keys.fred,
      file_type: "json",
      sort_order: "asc",
    });
  });

  test("daily, weekly and quarterly series keep FRED's dates (holidays '.', weeks ending Saturday, quarter starts)", async () => {
    const { registry } = harness(fake);
    fake.setFredSeries("DGS10", [
      { date: "1980-01-01", value: "." },
      { date: "1980-01-02", value: "10.5" },
      { date: "1980-01-03", value: "10.6" },
    ]);
    fake.setFredSeries("ICSA", [
      { date: "1980-01-05", value: "394000.0" },
      { date: "1980-01-12", value: "405000.0" },
    ]);
    fake.setFredSeries("GDP", [
      { date: "1980-01-01", value: "2789.842" },
      { date: "1980-04-01", value: "2797.352" },
    ]);
    const out = await registry
      .connector("fred")
      .fetch(["DGS10", "ICSA", "GDP"].map((id) => ({ connector: "fred" as const, upstreamId: id, seriesId: id })));
    expect(out.map((s) => s.observations.map((o) => [o.date, o.value]))).toEqual([
      [
        ["1980-01-01", null],
        ["1980-01-02", 10.5],
        ["1980-01-03", 10.6],
      ],
      [
        ["1980-01-05", 394000],
        ["1980-01-12", 405000],
      ],
      [
        ["1980-01-01", 2789.842],
        ["1980-04-01", 2797.352],
      ],
    ]);
  });

  test("a range is sent as observation_start/end", async () => {
    const { registry } = harness(fake);
    const [s] = await registry.connector("fred").fetch([unrate()], { start: "2020-02-01", end: "2020-04-01" });
    expect(s.observations.map((o) => o.date)).toEqual(["2020-02-01", "2020-03-01", "2020-04-01"]);
    expect(fake.requests.at(-1)!.query).toMatchObject({
      observation_start: "2020-02-01",
      observation_end: "2020-04-01",
    });
  });

  test("pages through limit/offset until count", async () => {
    const { registry } = harness(fake, { pageSize: { fred: 3 } });
    const [s] = await registry.connector("fred").fetch([unrate()]);
    expect(s.observations).toHaveLength(8);
    const offsets = fake.requests
      .filter((r) => r.path === "/fred/series/observations")
      .map((r) => [r.query.offset, r.query.limit]);
    expect(offsets).toEqual([
      ["0", "3"],
      ["3", "3"],
      ["6", "3"],
    ]);
  });

  test.skipIf(!fredCsv("UNRATE"))("the whole real UNRATE file round-trips", async () => {
    const rows = fredCsv("UNRATE")!;
    fake.setFredSeries("UNRATE", rows);
    const { registry } = harness(fake);
    const [s] = await registry
      .connector("fred")
      .fetch([{ connector: "fred", upstreamId: "UNRATE", seriesId: "UNRATE" }]);
    expect(s.observations).toHaveLength(rows.length);
    expect(s.observations.filter((o) => o.value === null).map((o) => o.date)).toEqual(
      rows.filter((r) => r.value === ".").map((r) => r.date),
    );
    expect(s.observations.find((o) => o.date === "2020-04-01")!.value).toBe(14.8);
  });
  if (!fredCsv("UNRATE")) test.skip(sharedDataMissingMessage("fred-macro-us"), () => {});
});

describe("errors", () => {
  test("an unknown series: FRED's 400 body becomes a not_found error that is not retried", async () => {
    const { registry } = harness(fake);
    const e = (await registry
      .connector("fred")
      .fetch([{ connector: "fred", upstreamId: "NOPE", seriesId: "NOPE" }])
      .catch((x) => x)) as UpstreamError;
    expect(e).toBeInstanceOf(UpstreamError);
    expect([e.provider, e.kind, e.status, e.retryable]).toEqual(["fred", "not_found", 400, false]);
    expect(e.message).toContain("The series does not exist.");
    expect(fake.count("fred")).toBe(1);
  });

  test("a refused key is an auth error, and the key never appears in the message", async () => {
    const { registry } = harness(fake);
    fake.failNext("fred", 400, { message: "Bad Request.  The value for variable api_key is not registered." });
    const e = (await registry
      .connector("fred")
      .fetch([unrate()])
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.retryable]).toEqual(["auth", false]);
    expect(e.message).not.toContain(fake.keys.fred);
  });

  test("500s are retried with exponential backoff (1 s, 2 s), then FRED's 2/s spacing", async () => {
    const { registry, slept } = harness(fake);
    fake.failNext("fred", 500, { times: 2 });
    const [s] = await registry.connector("fred").fetch([unrate()]);
    expect(s.observations).toHaveLength(8);
    expect(slept).toEqual([1000, 2000, 500]);
    expect(fake.count("fred")).toBe(4);
  });

  test("429 with Retry-After pauses FRED for that long, then succeeds", async () => {
    const { registry, slept } = harness(fake);
    fake.throttleNext("fred", 7);
    await registry.connector("fred").fetch([unrate()]);
    expect(slept).toEqual([7000, 500]);
  });

  test("429 with a Retry-After beyond the longest wait fails at once, retryable, saying when", async () => {
    const { registry } = harness(fake);
    fake.throttleNext("fred", 3600);
    const e = (await registry
      .connector("fred")
      .fetch([unrate()])
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.status, e.retryable, e.retryAfterSeconds]).toEqual(["rate_limited", 429, true, 3600]);
    expect(e.message).toContain("Too Many Requests.  Exceeded Rate Limit");
    expect(fake.count("fred")).toBe(1);
    // Every caller is held: the next request fails without being sent.
    const again = (await registry
      .connector("fred")
      .fetch([unrate()])
      .catch((x) => x)) as UpstreamError;
    expect([again.kind, again.retryable, again.retryAfterSeconds]).toEqual(["rate_limited", true, 3600]);
    expect(fake.count("fred")).toBe(1);
  });

  test("persistent 503s give up after four tries with a retryable error", async () => {
    const { registry, slept } = harness(fake);
    fake.failNext("fred", 503, { times: 4 });
    const e = (await registry
      .connector("fred")
      .fetch([unrate()])
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.status, e.retryable]).toEqual(["over_capacity", 503, true]);
    expect(fake.count("fred")).toBe(4);
    expect(slept).toEqual([1000, 2000, 4000]);
  });

  test("a stalled answer times out and is retried", async () => {
    const { registry, slept } = harness(fake, { timeoutMs: 150 });
    fake.stallNext("fred");
    const [s] = await registry.connector("fred").fetch([unrate()]);
    expect(s.observations).toHaveLength(8);
    expect(slept[0]).toBe(1000);
    expect(fake.count("fred")).toBe(3);
  });

  test("a stall on every try ends in a retryable timeout", async () => {
    const { registry } = harness(fake, { timeoutMs: 100, maxAttempts: 2 });
    fake.stallNext("fred", 2);
    const e = (await registry
      .connector("fred")
      .fetch([unrate()])
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.status, e.retryable]).toEqual(["timeout", null, true]);
    expect(e.message).not.toContain(fake.keys.fred);
  });

  test("an HTML answer is a protocol error", async () => {
    const { registry } = harness(fake);
    // A 200 with an HTML body (a proxy's page) in place of JSON.
    fake.replyNext("fred", 200, "<html>maintenance</html>", { "content-type": "text/html" });
    const e = (await registry
      .connector("fred")
      .fetch([unrate()])
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.retryable]).toEqual(["protocol", false]);
  });
});
