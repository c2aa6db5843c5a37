// The Census connector (ACS 5-year) against the fake Census API: 2-D string arrays, suppressed values, one request
// per year for many places and variables, unpublished years, and error bodies.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { UpstreamError, type SeriesRef } from "../../src/upstream";
import { FakeUpstream } from "../support/fake-upstream";
import { catalogEntry, harness, regionRow, regionsOfType } from "../support/upstream";

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await FakeUpstream.start();
});
afterEach(() => {
  fake.reset();
  fake.census.clear();
});

const INCOME = "B19013_001E";
const VALUE = "B25077_001E";
const RENT = "B25064_001E";

// Published ACS 5-year estimates (2017-2021 and 2018-2022): California and Los Angeles County median household
// income, California median home value. The rents, and Loving County's (TX) annotation code, null and zero, are
// constructed to exercise those answers.
function load() {
  fake.setCensus(2022, "acs/acs5", "06", { [INCOME]: "91905", [VALUE]: "659300", [RENT]: "1856" });
  fake.setCensus(2022, "acs/acs5", "06037", { [INCOME]: "83411", [VALUE]: "-666666666", [RENT]: null });
  fake.setCensus(2022, "acs/acs5", "48301", { [INCOME]: "-666666666", [VALUE]: null, [RENT]: "0" });
  fake.setCensus(2021, "acs/acs5", "06", { [INCOME]: "84097", [VALUE]: "573200", [RENT]: "1750" });
  fake.setCensus(2021, "acs/acs5", "06037", { [INCOME]: "76367", [VALUE]: "-999999999", [RENT]: null });
}

const ref = (variable: string, state: string, county: string | null = null): SeriesRef => ({
  connector: "census",
  upstreamId: `acs/acs5/${variable}/${state}${county ?? ""}`,
  dataset: "acs/acs5",
  variable,
  geo: { state, county },
});

describe("seriesRef", () => {
  test("ACS 5-year variables for states and counties", () => {
    const { registry } = harness(fake);
    expect(registry.refFor(catalogEntry("census", INCOME), regionRow("06"))).toEqual(ref(INCOME, "06"));
    expect(registry.refFor(catalogEntry("census", RENT), regionRow("06037"))).toEqual(ref(RENT, "06", "037"));
    expect(registry.refFor(catalogEntry("census", INCOME), regionRow("US"))).toBeNull();
  });
  test("PEP (no API for the vintage the catalog holds) and flows (county pairs) are not served", () => {
    const { registry } = harness(fake);
    for (const code of [
      "POPESTIMATE",
      "NPOPCHG",
      "BIRTHS",
      "DEATHS",
      "NATURALCHG",
      "INTERNATIONALMIG",
      "DOMESTICMIG",
      "NETMIG",
    ]) {
      expect(registry.refFor(catalogEntry("census", code), regionRow("06"))).toBeNull();
      expect(registry.refFor(catalogEntry("census", code), regionRow("06037"))).toBeNull();
    }
    expect(registry.refFor(catalogEntry("census", "MOVEDIN"), regionRow("06037"))).toBeNull();
  });
});

describe("mapping", () => {
  test("strings to numbers; null and annotation codes are missing, never zero; a real 0 stays; years dated Jan 1", async () => {
    load();
    const { registry } = harness(fake);
    const out = await registry
      .connector("census")
      .fetch(
        [
          ref(INCOME, "06"),
          ref(INCOME, "06", "037"),
          ref(VALUE, "06", "037"),
          ref(RENT, "48", "301"),
          ref(INCOME, "48", "301"),
        ],
        { start: "2021-01-01", end: "2022-12-31" },
      );
    expect(out.map((s) => s.observations.map((o) => [o.date, o.value]))).toEqual([
      [
        ["2021-01-01", 84097],
        ["2022-01-01", 91905],
      ],
      [
        ["2021-01-01", 76367],
        ["2022-01-01", 83411],
      ],
      [
        ["2021-01-01", null],
        ["2022-01-01", null],
      ],
      [["2022-01-01", 0]],
      [["2022-01-01", null]],
    ]);
    expect(out.every((s) => s.sourceUpdatedAt === null && s.observations.every((o) => !o.isPreliminary))).toBe(true);
  });

  test("one request per year serves every variable of a set of places", async () => {
    load();
    const { registry } = harness(fake);
    await registry
      .connector("census")
      .fetch([ref(INCOME, "06"), ref(VALUE, "06"), ref(RENT, "06"), ref(INCOME, "48")], {
        start: "2021-01-01",
        end: "2022-12-31",
      });
    expect(fake.requests.map((r) => [r.path, r.query.get, r.query.for, r.query.in])).toEqual([
      ["/census/2021/acs/acs5", `${INCOME},${RENT},${VALUE}`, "state:06,48", undefined],
      ["/census/2022/acs/acs5", `${INCOME},${RENT},${VALUE}`, "state:06,48", undefined],
    ]);
  });

  test("counties: named within one state, a wildcard past ten, the whole nation past three states", async () => {
    load();
    const { registry } = harness(fake);
    const conn = registry.connector("census");
    const range = { start: "2022-01-01", end: "2022-12-31" };
    await conn.fetch([ref(INCOME, "06", "037"), ref(INCOME, "06", "059")], range);
    expect(fake.requests.map((r) => [r.query.for, r.query.in])).toEqual([["county:037,059", "state:06"]]);
    fake.reset();
    const ca = regionsOfType("county")
      .filter((c) => c.fipsState === "06")
      .slice(0, 11);
    await conn.fetch(
      ca.map((c) => ref(INCOME, "06", c.fipsCounty)),
      range,
    );
    expect(fake.requests.map((r) => [r.query.for, r.query.in])).toEqual([["county:*", "state:06"]]);
    fake.reset();
    const four = ["01", "02", "04", "05"].map((s) => regionsOfType("county").find((c) => c.fipsState === s)!);
    await conn.fetch(
      four.map((c) => ref(INCOME, c.fipsState!, c.fipsCounty)),
      range,
    );
    expect(fake.requests.map((r) => [r.query.for, r.query.in])).toEqual([["county:*", undefined]]);
  });

  test("fifty variables per request, the fifty-first in a second one", async () => {
    const vars = Array.from({ length: 51 }, (_, i) => `B01001_${String(i + 1).padStart(3, "0")}E`);
    fake.setCensus(2022, "acs/acs5", "06", Object.fromEntries(vars.map((v, i) => [v, String(i)])));
    const { registry } = harness(fake);
    const out = await registry.connector("census").fetch(
      vars.map((v) => ref(v, "06")),
      { start: "2022-01-01", end: "2022-12-31" },
    );
    expect(fake.requests.map((r) => r.query.get!.split(",").length)).toEqual([50, 1]);
    expect(out.map((s) => s.observations[0].value)).toEqual(vars.map((_, i) => i));
  });

  test("without a range: every year from 2009 to last year; unpublished years (404) and no rows (204) are skipped", async () => {
    load();
    const { registry } = harness(fake, { at: "2026-01-15T12:00:00Z" });
    const [s, none] = await registry.connector("census").fetch([ref(INCOME, "06", "037"), ref(INCOME, "02", "013")]);
    expect(s.observations.map((o) => o.date)).toEqual(["2021-01-01", "2022-01-01"]);
    expect(none.observations).toEqual([]);
    const years = fake.requests.map((r) => Number(r.path.split("/")[2]));
    expect(new Set(years)).toEqual(new Set(Array.from({ length: 2025 - 2009 + 1 }, (_, i) => 2009 + i)));
  });
});

describe("errors", () => {
  test("an unknown variable: Census's plain-text 400 is a bad request, not retried", async () => {
    load();
    const { registry } = harness(fake);
    const e = (await registry
      .connector("census")
      .fetch([ref("B99999_001E", "06")], { start: "2022-01-01", end: "2022-12-31" })
      .catch((x) => x)) as UpstreamError;
    expect([e.provider, e.kind, e.status, e.retryable]).toEqual(["census", "bad_request", 400, false]);
    expect(e.message).toContain("error: unknown variable 'B99999_001E'");
    expect(fake.count("census")).toBe(1);
  });

  test("a 500 is retried; an HTML page in a 200 (a refused key) is a protocol error", async () => {
    load();
    const { registry, slept } = harness(fake);
    fake.failNext("census", 500);
    const [s] = await registry
      .connector("census")
      .fetch([ref(INCOME, "06")], { start: "2022-01-01", end: "2022-12-31" });
    expect(s.observations).toHaveLength(1);
    expect(slept).toEqual([1000]);
    fake.replyNext(
      "census",
      200,
      "<html><body><p>Invalid Key: A valid <em>key</em> must be included with each data API request.</p></body></html>",
      { "content-type": "text/html" },
    );
    const e = (await registry
      .connector("census")
      .fetch([ref(INCOME, "06")], { start: "2022-01-01", end: "2022-12-31" })
      .catch((x) => x)) as UpstreamError;
    expect([e.kind, e.retryable]).toEqual(["protocol", false]);
    expect(e.message).toContain("Invalid Key");
  });
});
