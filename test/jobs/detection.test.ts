// Detection follows every write: the database records each changed series in series_changes (triggers on `series`,
// migration 0007) whatever wrote it, and the `detect` job drains that on a worker, without a separate command.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { bulkLoadSeries } from "../../db/bulk-load";
import { countSeriesChanges, pendingSeriesChanges } from "../../db/repos/series-changes";
import { signalIntervals } from "../../db/schema";
import { indicatorId } from "../../db/seed/catalog";
import { createCaches } from "../../src/services/caches";
import { detectChangedSeries } from "../../src/services/signal-detection";
import { makeTestDatabase } from "../support/db";
import { makeJobsTestApp, waitFor, type JobsTestApp } from "../support/jobs";
import { clearSeries, monthStarts, writeSeries, type Row } from "../support/series";

setDefaultTimeout(120_000);

// 25 ordinary months (+0.5, -0.5 points), then a jump of 10 points in October 2026: an open, strong, upward extreme.
const JUMP: Row[] = monthStarts("2024-09", 26).map((d, k) => [d, k === 25 ? 18 : k % 2 === 0 ? 8 : 8.5]);
const CIVPART = { indicatorId: indicatorId("fred", "CIVPART"), regionCode: "US" };
const extremesOf = (database: Database, k: { indicatorId: string; regionCode: string }) =>
  database.db
    .select()
    .from(signalIntervals)
    .where(
      and(
        eq(signalIntervals.indicatorId, k.indicatorId),
        eq(signalIntervals.regionCode, k.regionCode),
        eq(signalIntervals.type, "extreme"),
      ),
    );

describe("the database records every write of a series", () => {
  let database: Database;
  beforeAll(async () => {
    database = await makeTestDatabase();
  });
  afterAll(() => database.close());

  test("the seed's series wait for detection (what `svc seed` leaves for the server's first start)", async () => {
    const res = (await database.db.execute(sql`select count(*)::int as n from series`)) as any;
    const [{ n }] = res.rows ?? res;
    expect(n).toBeGreaterThan(100);
    expect(await countSeriesChanges(database.db)).toBe(n);
  });

  test("a write that changes data records its series once; an identical write records nothing", async () => {
    await database.db.execute(sql`delete from series_changes`);
    await clearSeries(database.db, "fred", "CIVPART", "US");
    await writeSeries(database.db, "fred", "CIVPART", "US", JUMP.slice(0, 25));
    const [first] = await pendingSeriesChanges(database.db, 10);
    expect([await countSeriesChanges(database.db), first.indicatorId, first.regionCode]).toEqual([
      1,
      CIVPART.indicatorId,
      "US",
    ]);
    await writeSeries(database.db, "fred", "CIVPART", "US", JUMP.slice(0, 25));
    expect(await pendingSeriesChanges(database.db, 10)).toEqual([first]);
    await writeSeries(database.db, "fred", "CIVPART", "US", JUMP);
    const [second] = await pendingSeriesChanges(database.db, 10);
    expect(second.seq).toBeGreaterThan(first.seq);
  });

  test("the bulk load (COPY) path records the series it creates", async () => {
    await database.db.execute(sql`delete from series_changes`);
    await clearSeries(database.db, "fred", "U6RATE", "US");
    await bulkLoadSeries(
      database,
      [
        {
          indicatorId: indicatorId("fred", "U6RATE"),
          regionCode: "US",
          rows: JUMP.map(([date, value]) => ({ date, value })),
        },
      ],
      { now: new Date("2026-11-22T00:00:00Z") },
    );
    expect((await pendingSeriesChanges(database.db, 10)).map((c) => c.indicatorId)).toEqual([
      indicatorId("fred", "U6RATE"),
    ]);
  });

  test("detectChangedSeries detects exactly the recorded series and clears them; a write during it stays queued", async () => {
    await database.db.execute(sql`delete from series_changes`);
    await writeSeries(database.db, "fred", "CIVPART", "US", [...JUMP, ["2026-11-01", 8]]);
    const ctx = {
      db: database.db,
      caches: createCaches(database, { revalidateMs: 0 }),
      now: () => new Date("2026-11-22T00:00:00Z"),
    };
    const s = await detectChangedSeries(ctx);
    expect([s.series, await countSeriesChanges(database.db)]).toEqual([1, 0]);
    expect((await extremesOf(database, CIVPART)).map((r) => r.validFrom.toISOString().slice(0, 10))).toContain(
      "2026-10-01",
    );
    expect(await detectChangedSeries(ctx)).toMatchObject({ series: 0 });
  });
});

describe("the detect job runs after writes, on the job engine's workers", () => {
  let t: JobsTestApp;
  let database: Database;
  beforeAll(async () => {
    database = await makeTestDatabase();
    await clearSeries(database.db, "fred", "CIVPART", "US");
    await clearSeries(database.db, "fred", "U6RATE", "US");
    // Written before any job engine runs (as `svc import` on the embedded database, then `svc serve`).
    await database.db.execute(sql`delete from series_changes`);
    await writeSeries(database.db, "fred", "CIVPART", "US", JUMP);
    t = await makeJobsTestApp({ database, detectSeed: true });
  });
  afterAll(() => t?.close());

  test("what was written while no engine ran is detected when it starts", async () => {
    const rows = await waitFor("CIVPART's extreme", async () =>
      (await extremesOf(database, CIVPART)).length > 0 ? extremesOf(database, CIVPART) : undefined,
    );
    expect(rows.map((r) => [r.direction, r.strength, r.validFrom.toISOString().slice(0, 10), r.validTo])).toEqual([
      ["up", "strong", "2026-10-01", null],
    ]);
  });

  test("a write in this process is detected without any command", async () => {
    const U6 = { indicatorId: indicatorId("fred", "U6RATE"), regionCode: "US" };
    await writeSeries(database.db, "fred", "U6RATE", "US", JUMP);
    const rows = await waitFor("U6RATE's extreme", async () =>
      (await extremesOf(database, U6)).length > 0 ? extremesOf(database, U6) : undefined,
    );
    expect(rows.map((r) => r.validFrom.toISOString().slice(0, 10))).toEqual(["2026-10-01"]);
    await waitFor("the outbox drained", async () => (await countSeriesChanges(database.db)) === 0);
  });
});
