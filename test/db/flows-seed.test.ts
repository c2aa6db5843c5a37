// seedFlows: the embedded snapshot files loaded through the one write path, idempotent, pseudo-areas never stored.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { upsertFlows } from "../../db/repos/flows";
import { seedFlows, type FlowSeedResult } from "../../db/seed/flows";
import { makeTestDatabase } from "../support/db";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let database: Database;
let first: FlowSeedResult;
beforeAll(async () => {
  database = await makeTestDatabase();
  // The test database's seed has loaded the flows already (db/seed/index.ts): start from none to see a first load.
  await database.exec("delete from flows");
  first = await seedFlows(database.db, { now: new Date("2026-01-01T00:00:00Z") });
});
afterAll(() => database.close());

const rows = async (q: ReturnType<typeof sql>) => {
  const r = (await database.db.execute(q)) as any;
  return (r.rows ?? r) as any[];
};

describe("seedFlows", () => {
  test("every record of the files whose ends are regions: ACS 2,550 + IRS 4,015 edges x 3, less the old Connecticut counties", () => {
    // 2,550 + 12,045 = 14,595 records. Connecticut's 8 counties are planning regions in the 2024 region vintage, so
    // the IRS edges with 09001 .. 09011 (219 records) are reported, not stored.
    expect(first.records).toBe(14_595);
    expect(first.unknownRegions).toEqual([
      { code: "09001", records: 66 },
      { code: "09003", records: 63 },
      { code: "09005", records: 9 },
      { code: "09007", records: 6 },
      { code: "09009", records: 63 },
      { code: "09011", records: 12 },
    ]);
    expect(first.written).toBe(14_595 - 219);
  });

  test("a second run writes nothing", async () => {
    const again = await seedFlows(database.db);
    expect({ records: again.records, written: again.written }).toEqual({ records: 14_595, written: 0 });
  });

  test("what is stored: the sum of the ACS matrix, a hand-checked IRS edge, no pseudo-area or self edge", async () => {
    const [acs] = await rows(sql`select count(*)::int as n, sum(value)::bigint as total from flows where dataset = 'acs-state-to-state-1y'`);
    expect({ n: Number(acs.n), total: Number(acs.total) }).toEqual({ n: 2550, total: 7_398_337 });
    const sm = await rows(sql`select measure, value, source, period_end::text as end from flows where origin_code = '06081' and destination_code = '06075' and period_start = '2014-01-01' order by measure`);
    expect(sm).toEqual([
      { measure: "agi", value: 324346, source: "irs-soi", end: "2015-12-31" },
      { measure: "exemptions", value: 4922, source: "irs-soi", end: "2015-12-31" },
      { measure: "returns", value: 3220, source: "irs-soi", end: "2015-12-31" },
    ]);
    const [bad] = await rows(sql`select count(*)::int as n from flows where origin_code = destination_code or substr(origin_code, 1, 2) in ('57','58','59','96','97','98') or substr(destination_code, 1, 2) in ('57','58','59','96','97','98')`);
    expect(Number(bad.n)).toBe(0);
  });

  test("a pseudo-area cannot be stored as a place (both ends reference regions)", async () => {
    const record = { dataset: "irs-soi-county", measure: "returns", origin: "97000", destination: "06075", periodStart: "2014-01-01", periodEnd: "2015-12-31", value: 1, moe: null } as const;
    await expect(upsertFlows(database.db, [record], new Date())).rejects.toThrow();
  });
});
