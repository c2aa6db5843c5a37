// seedFlows: the embedded snapshot files loaded through the one write path, idempotent, pseudo-areas never stored.
// Expected counts are worked out here from the shipped files (db/seed/snapshot/irs-soi-county-flows and
// migration-flows) with plain string handling, never with the service's parsers.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { upsertFlows } from "../../db/repos/flows";
import { seedFlows, type FlowSeedResult } from "../../db/seed/flows";
import { makeTestDatabase, testSeed } from "../support/db";
import { snapshotText } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const ACS_RECORDS = 51 * 50; // the ACS state-to-state matrix: 50 states and DC, each from the 50 others
const PSEUDO_STATES = new Set(["57", "58", "59", "96", "97", "98"]);

/**
 * The county-to-county edges of an IRS SOI file (`origin>destination@YYZZ`), columns found by header name: totals
 * (states 96, 97, 98), "other flows" buckets (57, 58, 59), county 000 and non-migrants (origin = destination) are not
 * edges; a row repeated is one edge. `yearPair` for the national file, whose rows have no year.
 */
function irsEdges(path: string, yearPair?: string): Set<string> {
  const [header, ...lines] = snapshotText(path, "latin1").trim().split(/\r?\n/);
  const names = header!.split(",");
  const at = (name: string) => names.indexOf(name);
  const edges = new Set<string>();
  for (const line of lines) {
    const f = line.split(",");
    const [os, oc, ds, dc] = ["y1_statefips", "y1_countyfips", "y2_statefips", "y2_countyfips"].map((n) =>
      f[at(n)]!.padStart(n.endsWith("statefips") ? 2 : 3, "0"),
    );
    if (PSEUDO_STATES.has(os!) || PSEUDO_STATES.has(ds!) || oc === "000" || dc === "000" || os + oc! === ds + dc!)
      continue;
    edges.add(`${os}${oc}>${ds}${dc}@${yearPair ?? f[at("year")]!.padStart(4, "0")}`);
  }
  return edges;
}

const national = irsEdges("irs-soi-county-flows/countyinflow1415.csv.gz", "1415");
const sanFrancisco = irsEdges("migration-flows/irs_06075_sf_county_flows_2004_2015.csv.gz");
// San Francisco's file stands for its own 2014-15 edges (read after the national one): an edge in both is one edge.
const edges = [...new Set([...national, ...sanFrancisco])].map((e) => {
  const [origin, rest] = e.split(">");
  return { origin: origin!, destination: rest!.slice(0, 5) };
});

let database: Database;
let first: FlowSeedResult;
let regionCodes: Set<string>;
beforeAll(async () => {
  database = await makeTestDatabase();
  // The test database's seed has loaded the flows already (db/seed/index.ts): start from none to see a first load,
  // with the test seed's region filter (flows touching a kept county; test/support/db.ts).
  await database.exec("delete from flows");
  first = await seedFlows(database, { now: new Date("2026-01-01T00:00:00Z"), regionFilter: testSeed.regionFilter });
  regionCodes = new Set((await rows(sql`select code from regions`)).map((r) => r.code as string));
});
afterAll(() => database.close());

const rows = async (q: ReturnType<typeof sql>) => {
  const r = (await database.db.execute(q)) as any;
  return (r.rows ?? r) as any[];
};

describe("seedFlows", () => {
  test("the shipped IRS files are what this test assumes", () => {
    // The national inflow file: 36,001 county-to-county edges (its README's count). San Francisco's file: 4,015 edges
    // in and out of San Francisco over 11 year pairs (0405 .. 1415), of which 1415's 219 are all in the national
    // file too: 39,797 distinct edges.
    expect([national.size, sanFrancisco.size, edges.length]).toEqual([36_001, 4_015, 39_797]);
    expect(new Set([...sanFrancisco].map((e) => e.slice(-4))).size).toBe(11);
    const sf1415 = [...sanFrancisco].filter((e) => e.endsWith("@1415"));
    expect([sf1415.length, sf1415.every((e) => national.has(e))]).toEqual([219, true]);
  });

  test("every record of the files: ACS 2,550 + 3 per IRS edge; edges naming a code that is not a region (Connecticut's old counties) reported, not stored", () => {
    expect(first.records).toBe(ACS_RECORDS + 3 * edges.length);
    // Each end that is not a region counts the edge's three records against its code.
    const unknown = new Map<string, number>();
    for (const e of edges)
      for (const c of [e.origin, e.destination]) if (!regionCodes.has(c)) unknown.set(c, (unknown.get(c) ?? 0) + 3);
    expect(first.unknownRegions).toEqual(
      [...unknown].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, records]) => ({ code, records })),
    );
    // Connecticut's 8 counties are planning regions in the 2024 region vintage; the 2014-15 file still names them.
    expect(first.unknownRegions.filter((u) => u.code.startsWith("09")).map((u) => u.code)).toEqual([
      "09001",
      "09003",
      "09005",
      "09007",
      "09009",
      "09011",
      "09013",
      "09015",
    ]);
    // Written: the ACS edges (states are all kept) and the edges between two regions that touch a kept county.
    const kept = edges.filter(
      (e) =>
        regionCodes.has(e.origin) &&
        regionCodes.has(e.destination) &&
        (testSeed.regionFilter.keep(e.origin) || testSeed.regionFilter.keep(e.destination)),
    );
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(edges.length);
    expect(first.written).toBe(ACS_RECORDS + 3 * kept.length);
  });

  test("a second run writes nothing", async () => {
    const again = await seedFlows(database, { regionFilter: testSeed.regionFilter });
    expect({ records: again.records, written: again.written }).toEqual({ records: first.records, written: 0 });
  });

  test("what is stored: the sum of the ACS matrix, hand-checked IRS edges, no pseudo-area or self edge, nothing outside the region filter", async () => {
    const [acs] = await rows(
      sql`select count(*)::int as n, sum(value)::bigint as total from flows where dataset = 'acs-state-to-state-1y'`,
    );
    expect({ n: Number(acs.n), total: Number(acs.total) }).toEqual({ n: 2550, total: 7_398_337 });
    const sm = await rows(
      sql`select measure, value, source, period_end::text as end from flows where origin_code = '06081' and destination_code = '06075' and period_start = '2014-01-01' order by measure`,
    );
    expect(sm).toEqual([
      { measure: "agi", value: 324346, source: "irs-soi", end: "2015-12-31" },
      { measure: "exemptions", value: 4922, source: "irs-soi", end: "2015-12-31" },
      { measure: "returns", value: 3220, source: "irs-soi", end: "2015-12-31" },
    ]);
    // From the national file: New Castle County into Kent County, Delaware ("10,001,10,003,DE,New Castle County,668,1229,28154").
    const kent = await rows(
      sql`select measure, value from flows where origin_code = '10003' and destination_code = '10001' and period_start = '2014-01-01' order by measure`,
    );
    expect(kent).toEqual([
      { measure: "agi", value: 28154 },
      { measure: "exemptions", value: 1229 },
      { measure: "returns", value: 668 },
    ]);
    const [bad] = await rows(
      sql`select count(*)::int as n from flows where origin_code = destination_code or substr(origin_code, 1, 2) in ('57','58','59','96','97','98') or substr(destination_code, 1, 2) in ('57','58','59','96','97','98')`,
    );
    expect(Number(bad.n)).toBe(0);
    const ends = await rows(sql`select origin_code, destination_code from flows`);
    expect(
      ends.filter((r) => !testSeed.regionFilter.keep(r.origin_code) && !testSeed.regionFilter.keep(r.destination_code)),
    ).toEqual([]);
  });

  test("a pseudo-area cannot be stored as a place (both ends reference regions)", async () => {
    const record = {
      dataset: "irs-soi-county",
      measure: "returns",
      origin: "97000",
      destination: "06075",
      periodStart: "2014-01-01",
      periodEnd: "2015-12-31",
      value: 1,
      moe: null,
    } as const;
    await expect(upsertFlows(database.db, [record], new Date())).rejects.toThrow();
  });
});
