// The README says what is so, where a figure or a command can be checked against the seeded data: the number of
// national series held, the CSV example (a held series: it answers offline with CSV, never a 202 to write into the
// file), and the region codes (US-XX is the state; which postal codes are read as countries instead).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, gt, sql } from "drizzle-orm";
import { indicators, series } from "../../db/schema";
import { lookupRegion } from "../../src/domain/regions";
import { regionIndex } from "../../src/services/regions";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

setDefaultTimeout(120_000);

const README = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
  headers = (await testKey(t)).headers;
});
afterAll(() => t.close());

describe("README", () => {
  test("the number of US national series it names is the number the seed holds", async () => {
    const [held] = await t.database.db
      .select({ n: sql<number>`count(distinct ${indicators.code})::int` })
      .from(series)
      .innerJoin(indicators, eq(indicators.id, series.indicatorId))
      .where(and(eq(indicators.sourceSlug, "fred"), eq(series.regionCode, "US"), gt(series.observationCount, 0)));
    const named = /\| (\d+) US national series \(FRED\)/.exec(README);
    expect(named).not.toBeNull();
    expect(Number(named![1])).toBe(held!.n);
  });

  test("the CSV example asks for a held series: CSV comes back at once (no 202, no JSON in the file)", async () => {
    const example =
      /curl -sf -H 'Accept: text\/csv' -H "X-API-Key: \$KEY" 'http:\/\/localhost:3000(\/v1\/observations\?[^']+)'/.exec(
        README,
      );
    expect(example).not.toBeNull();
    const res = await t.request(example![1]!, { headers: { ...headers, accept: "text/csv" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/csv");
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines[0]).toStartWith("date,value,indicator,region");
    // Newest first, back to the start date asked for.
    expect(lines[lines.length - 1]).toStartWith("2025-01-01,");
    expect(lines.length).toBeGreaterThan(1);
  });

  test("the postal codes it lists as read for a country are exactly the states' that a country shares", async () => {
    const index = await regionIndex(t.store);
    const shared: string[] = [];
    for (const r of index.byCode.values()) {
      if (r.type !== "state") continue;
      const usps = r.aliases.find((a) => /^[A-Z]{2}$/.test(a));
      const found = usps ? lookupRegion(index, usps) : null;
      if (found?.kind === "found" && index.byCode.get(found.code)!.type === "country") shared.push(usps!);
    }
    const listed = /California, and so it goes for ([A-Z, ]+?) and ([A-Z]{2})\./.exec(README.replace(/\n/g, " "));
    expect(listed).not.toBeNull();
    const named = [...listed![1]!.split(", "), listed![2]!];
    expect(named).toEqual([...named].sort());
    expect(named.sort()).toEqual(shared.sort());
  });

  test("US-TX, as the examples write it, is Texas in a data route; CA is Canada, with a note naming California", async () => {
    const tx = await t.request("/v1/observations/latest?indicator=unemployment_rate&region=US-TX", { headers });
    expect(tx.status).toBe(200);
    expect(((await tx.json()) as { meta: { resolved_region: { code: string } } }).meta.resolved_region.code).toBe("48");
    const ca = await t.request("/v1/observations/latest?indicator=unemployment_rate&region=CA", { headers });
    expect(ca.status).toBe(200);
    const region = ((await ca.json()) as { meta: { resolved_region: { code: string; type: string; note?: string } } })
      .meta.resolved_region;
    expect(region).toMatchObject({ code: "CA", type: "country" });
    expect(region.note).toContain("California is 06 or US-CA");
  });
});
